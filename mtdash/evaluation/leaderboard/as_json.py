"""The leaderboard as JSON: what ``GET /api/v1/test-sets/{id}/leaderboard``
answers and the page's JSON export.

Scores are on each metric's own scale (as the CLI prints them); ``ci_low`` /
``ci_high`` are the stored two-sided 95 % percentile bootstrap interval,
``cluster`` the significance cluster (1 = best) and ``rank_range`` the ranks
the cluster shares, all null until the comparison job has computed them.
Clusters respect the two-sided p-values adjusted by ``correction`` (``holm``
by default, ``bonferroni`` or ``none``; ``?correction=`` of the API) over all
pairs of a column: no two systems of a cluster differ significantly.
``significance`` says, per metric, how (test and its sides, correction, seed,
resamples, trials, alpha); with ``p_values`` it also holds the raw matrices
keyed ``[a][b]`` by system name, in the shape ``python -m scoring compare
--json`` prints them, and the adjusted ones (``bootstrap_p_adjusted``,
``ar_p_adjusted``). ``human_significance`` says the same of the human
columns, whose clusters come from a two-sided paired approximate
randomisation over the segments judged for both systems.
"""

from __future__ import annotations

from mtdash.common.numbers import finite
from mtdash.evaluation.leaderboard.build import Leaderboard
from mtdash.evaluation.leaderboard.significance import SIDED, stored_p_values
from mtdash.evaluation.models import MetricComparison

INTERVAL = f"{SIDED} percentile bootstrap"


def leaderboard_json(board: Leaderboard, p_values: bool = False) -> dict:
    metrics = [
        {
            "spec": column.name,
            "signature": column.signature,
            "higher_is_better": column.higher_is_better,
            # NIST's is unbounded, an external metric's unknown: null.
            "scale": None if column.external else finite(column.scale),
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
                "score": finite(cell.value),
                "ci_low": finite(significance.low) if significance else None,
                "ci_high": finite(significance.high) if significance else None,
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
                "z": finite(value.z),
                "mean": finite(value.mean),
                "ci_low": finite(value.low),
                "ci_high": finite(value.high),
                "judged_segments": value.judged_segments,
                "judgments": value.judgments,
                "rank_range": (
                    None
                    if value.first_rank is None
                    else [value.first_rank, value.last_rank]
                ),
                "cluster": value.cluster,
            }
            for column, value in zip(board.human_columns, board.human_cells(row))
            if value is not None
        }
        systems.append(
            {
                "system": row.system,
                "output_id": row.output_id,
                # The reference's label when the system is a human translation.
                "human_translation_of": row.human_translation_of or None,
                "scores": scores,
                "human": human,
            }
        )
    return {
        "metrics": metrics,
        "systems": systems,
        "correction": board.correction,
        "significance": _significance(board, p_values),
        "human_significance": {
            column.criterion: {
                "interval": INTERVAL,
                "confidence": column.confidence,
                "n_samples": column.n_samples,
                "seed": column.seed,
                "test": "paired approximate randomisation" if column.n_trials else None,
                "test_description": column.test if column.n_trials else None,
                "sided": SIDED,
                "n_trials": column.n_trials,
                "correction": column.correction,
                "alpha": column.alpha,
                "score": column.score_label,
                "sources": column.sources,
            }
            for column in board.human_columns
        },
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
            "test_name": comparison.test_label,
            "sided": SIDED,
            "interval": INTERVAL,
            "correction": comparison.correction,
            # Below alpha, or no pair can be separated (too few draws).
            "smallest_adjusted_p": comparison.smallest_p,
            "seed": comparison.seed,
            "n_samples": comparison.n_samples,
            "n_trials": comparison.n_trials,
            "confidence": comparison.confidence,
            "alpha": comparison.alpha,
        }
        if p_values:
            stored, output_ids = matrices[comparison.comparison_id]
            entry.update(
                _named_matrices(stored, output_ids, names, comparison.correction)
            )
        data[column] = entry
    return data


def _named_matrices(
    matrices: dict, output_ids: list[int], names: dict[int, str], correction: str
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
        "bootstrap_p_adjusted": named(
            stored_p_values(matrices, "bootstrap_p", correction)
        ),
        "ar_p_adjusted": named(stored_p_values(matrices, "ar_p", correction)),
    }
