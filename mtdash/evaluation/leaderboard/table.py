"""The leaderboard as one table of cells, shared by ``leaderboard.csv``
(:mod:`mtdash.evaluation.leaderboard.exports`) and ``leaderboard.xlsx``
(:mod:`mtdash.evaluation.leaderboard.xlsx`), so both have the same columns:
numbers as numbers, ``None`` where missing, text as the user wrote it (each
format guards it its own way)."""

from __future__ import annotations

from mtdash.common.exports import Cell
from mtdash.evaluation.leaderboard.build import Leaderboard
from mtdash.evaluation.leaderboard.significance import SIDED, HumanColumn, HumanValue


def leaderboard_table(leaderboard: Leaderboard) -> tuple[list[str], list[list[Cell]]]:
    """The header and rows of ``leaderboard.csv`` and ``leaderboard.xlsx``:
    ``rank`` (position by the ranked metric), ``rank_range`` (its
    significance cluster's ranks), ``system``, then per metric its score,
    ``<metric> low``/``high`` (95 % bootstrap interval) and ``<metric>
    cluster``; per human criterion its score under the column's label
    (``z``: the mean of per-judge z-scores; ``WMT z`` or ``raw mean``: the
    file's values as given), its interval and cluster, and for ``z`` the raw
    mean too. Numbers are numbers at full precision, ``None`` where
    missing."""
    names = [column.name for column in leaderboard.columns]
    header = ["rank", "rank_range", "system"]
    for name in names:
        header += [name, f"{name} low", f"{name} high", f"{name} cluster"]
    for human in leaderboard.human_columns:
        name = f"human {human.criterion}"
        header += [f"{name} {human.score_label}", f"{name} low", f"{name} high"]
        header += [f"{name} cluster"]
        if human.score_label == "z":
            header += [f"{name} mean"]
    rows = []
    for row, cells in leaderboard.display_rows():
        first = cells[0].significance if cells else None
        values: list[Cell] = [
            row.rank or None,
            first.rank_range if first else None,
            row.system,
        ]
        for cell in cells:
            significance = cell.significance
            values += [
                cell.value,
                significance.low if significance else None,
                significance.high if significance else None,
                significance.cluster if significance else None,
            ]
        for column, human in zip(
            leaderboard.human_columns, leaderboard.human_cells(row)
        ):
            values += _human_cells(column, human)
        rows.append(values)
    return header, rows


def _human_cells(column: HumanColumn, human: HumanValue | None) -> list[Cell]:
    """The cells of one criterion's columns (see :func:`leaderboard_table`)."""
    if human is None:
        return [None] * (5 if column.score_label == "z" else 4)
    cells: list[Cell] = [human.z, human.low, human.high, human.cluster]
    return cells + [human.mean] if column.score_label == "z" else cells


SIGNATURE_HEADER = [
    "metric",
    "signature",
    "higher_is_better",
    "external",
    "test",
    "seed",
    "bootstrap_samples",
    "ar_trials",
    "confidence",
    "alpha",
    "sided",  # of the tests behind the clusters (and of the intervals)
    "correction",  # of the all-pairs p-values the clusters respect
]


def signature_rows(leaderboard: Leaderboard) -> list[list[Cell]]:
    """One row per column and signature, with how its intervals and
    clusters were computed (``SIGNATURE_HEADER``); then one row per human
    column (``human <criterion>``, as the CSV's columns are named), whose
    clusters come from paired approximate randomisation over the segments
    judged for both systems."""
    rows = []
    for column in leaderboard.columns:
        comparison = leaderboard.comparisons.get(column.name)
        settings = (
            [
                comparison.test,
                comparison.seed,
                comparison.n_samples,
                comparison.n_trials,
                comparison.confidence,
                comparison.alpha,
                comparison.sided,
                comparison.correction,
            ]
            if comparison
            else [None] * 8
        )
        for signature in column.signatures:
            rows.append(
                [
                    column.name,
                    signature,
                    column.higher_is_better,
                    column.external,
                    *settings,
                ]
            )
    for human in leaderboard.human_columns:
        rows.append(
            [
                f"human {human.criterion}",
                human.signature,
                True,
                False,
                "ar" if human.n_trials else None,
                human.seed,
                human.n_samples,
                human.n_trials or None,
                human.confidence,
                human.alpha,
                SIDED,
                human.correction if human.n_trials else None,
            ]
        )
    return rows
