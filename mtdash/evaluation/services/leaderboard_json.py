"""The leaderboard as JSON: what ``GET /api/v1/test-sets/{id}/leaderboard``
answers and the page's JSON export.

Scores are on each metric's own scale (as the CLI prints them); ``ci_low`` /
``ci_high`` are the stored 95 % bootstrap interval, ``cluster`` the
significance cluster (1 = best) and ``rank_range`` the ranks the cluster
shares, all null until the comparison job has computed them. ``significance``
says, per metric, how (test, seed, resamples, trials, alpha); with
``p_values`` it also holds the matrices keyed ``[a][b]`` by system name, in
the shape ``python -m scoring compare --json`` prints them.
"""

from __future__ import annotations

import math

from mtdash.evaluation.models import MetricComparison
from mtdash.evaluation.services.leaderboard import Leaderboard


def leaderboard_json(board: Leaderboard, p_values: bool = False) -> dict:
    metrics = [
        {
            "spec": column.name,
            "signature": column.signature,
            "higher_is_better": column.higher_is_better,
            # NIST's is unbounded, an external metric's unknown: null.
            "scale": None if column.external else _finite(column.scale),
            "external": column.external,
        }
        for column in board.columns
    ]
    systems = []
    for row, cells in board.display_rows():
        scores = {}
        for cell in cells:
            if cell.value is None:
                continue
            significance = cell.significance
            scores[cell.column.name] = {
                "score": _finite(cell.value),
                "ci_low": _finite(significance.low) if significance else None,
                "ci_high": _finite(significance.high) if significance else None,
                "rank": significance.first_rank if significance else None,
                "rank_range": (
                    [significance.first_rank, significance.last_rank]
                    if significance
                    else None
                ),
                "cluster": significance.cluster if significance else None,
            }
        human = {
            column.criterion: {
                "z": _finite(value.z),
                "mean": _finite(value.mean),
                "ci_low": _finite(value.low),
                "ci_high": _finite(value.high),
                "judged_segments": value.judged_segments,
                "judgments": value.judgments,
            }
            for column, value in zip(board.human_columns, board.human_cells(row))
            if value is not None
        }
        systems.append(
            {
                "system": row.system,
                "output_id": row.output_id,
                "scores": scores,
                "human": human,
            }
        )
    return {
        "metrics": metrics,
        "systems": systems,
        "significance": _significance(board, p_values),
    }


def _significance(board: Leaderboard, p_values: bool) -> dict:
    data = {}
    names = {row.output_id: row.system for row in board.rows}
    matrices = {}
    if p_values:
        # One query for every column: the matrices and the output order of their rows.
        matrices = {
            pk: (stored, output_ids)
            for pk, stored, output_ids in MetricComparison.objects.filter(
                pk__in=[c.comparison_id for c in board.comparisons.values()]
            ).values_list("pk", "matrices", "output_ids")
        }
    for column, comparison in board.comparisons.items():
        entry = {
            "test": comparison.test,
            "seed": comparison.seed,
            "n_samples": comparison.n_samples,
            "n_trials": comparison.n_trials,
            "confidence": comparison.confidence,
            "alpha": comparison.alpha,
        }
        if p_values:
            entry.update(_named_matrices(*matrices[comparison.comparison_id], names))
        data[column] = entry
    return data


def _named_matrices(
    matrices: dict, output_ids: list[int], names: dict[int, str]
) -> dict:
    order = [names.get(output_id) for output_id in output_ids]

    def named(values):
        if values is None:
            return None
        return {
            a: {b: values[i][j] for j, b in enumerate(order) if b and j != i}
            for i, a in enumerate(order)
            if a
        }

    return {
        "bootstrap_p": named(matrices.get("bootstrap_p")),
        "bootstrap_wins": named(matrices.get("bootstrap_wins")),
        "ar_p": named(matrices.get("ar_p")),
    }


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None
