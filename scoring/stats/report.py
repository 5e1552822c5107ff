"""Plain-text tables of the statistics, for the command line.

Pure functions from result objects to strings (no printing), so the web side
can reuse them for text exports and tests can check them directly.
"""

from __future__ import annotations

import math

import numpy as np

from scoring.stats.blocks import BlockTest
from scoring.stats.meta_evaluation import CorrelationTable
from scoring.stats.significance import (
    CORRECTION_LABELS,
    SIDED,
    SystemComparison,
    smallest_adjusted_p,
)

BEST_MARK = "*"
EQUIVALENT_MARK = "="


def _number(value: float, digits: int = 4) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _table(rows: list[list[str]], right_from: int = 1) -> str:
    """Align columns: the first ``right_from`` columns left, the rest right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.ljust(widths[i]) if i < right_from else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def correlation_report(table: CorrelationTable) -> str:
    """ORANGE Table 1 layout: per criterion, coefficient and interval.

    The header names the interval (two-sided percentile bootstrap, what was
    resampled) and the paired test against the best with its sidedness, in
    the words of :attr:`CorrelationTable.interval` and
    :attr:`CorrelationTable.equivalence_test` that the page and exports use.
    """
    name = table.method if table.method != "kendall" else f"kendall tau-{table.variant}"
    percent = round(table.confidence * 100)
    interval = table.interval
    test = table.equivalence_test
    lines = [
        f"{name} correlation, {table.level} level, human scores: "
        f"{'per-judge z-scores' if table.human == 'z' else 'raw'}",
        f"intervals: {interval['label']}; resampled: {interval['resampled']}",
        f"{BEST_MARK} best metric (every metric tied with the largest coefficient); "
        f"{EQUIVALENT_MARK} not significantly worse than the best",
        f"test against the best: {test['name']} ({test['sides']}, alpha "
        f"{table.alpha:g}): {test['rule']}",
    ]
    if table.negated:
        lines.append(f"negated (lower is better): {', '.join(table.negated)}")
    header = ["metric"]
    sub_header = [""]
    for column in table.columns:
        header += [f"{column.criterion} (n={column.n_points})", "", ""]
        sub_header += [name.split()[0], f"{percent}%L", f"{percent}%U"]
    rows = [header, sub_header]
    for m, metric in enumerate(table.metrics):
        row = [metric]
        for column in table.columns:
            cell = column.cells[m]
            mark = (
                BEST_MARK if cell.best else EQUIVALENT_MARK if cell.equivalent else " "
            )
            estimate = cell.estimate
            row += [
                _number(estimate.coefficient) + mark,
                _number(estimate.low),
                _number(estimate.high),
            ]
        rows.append(row)
    text = "\n".join(lines) + "\n\n" + _table(rows)
    for column in table.columns:
        if column.note:
            text += f"{column.criterion}: {column.note}\n"
        if column.excluded_systems:
            text += (
                f"{column.criterion}: left out (no metric scores): "
                f"{', '.join(column.excluded_systems)}\n"
            )
    return text


def _matrix(title: str, systems: tuple[str, ...], values: np.ndarray) -> str:
    rows = [[title, *systems]]
    for i, system in enumerate(systems):
        rows.append([system, *(_number(values[i, j]) for j in range(len(systems)))])
    return _table(rows)


def _clusters(title: str, clusters: tuple[tuple[str, ...], ...]) -> str:
    return f"{title}: " + " > ".join("{" + ", ".join(c) + "}" for c in clusters) + "\n"


def comparison_report(
    comparison: SystemComparison, blocks: BlockTest | None = None
) -> str:
    """Scores with intervals, p-value matrices, clusters and the block test."""
    percent = round(comparison.confidence * 100)
    text = (
        f"{comparison.signature or comparison.metric}\n"
        f"{comparison.n_segments} segments; "
        f"{comparison.n_samples} bootstrap resamples, "
        f"{comparison.n_trials} randomisation trials, seed {comparison.seed}\n\n"
    )
    rows = [["system", "score", f"{percent}%L", f"{percent}%U"]]
    for i, system in enumerate(comparison.systems):
        rows.append(
            [
                system,
                _number(comparison.scores[i]),
                _number(comparison.low[i]),
                _number(comparison.high[i]),
            ]
        )
    text += _table(rows)
    correction = CORRECTION_LABELS[comparison.correction]
    text += f"\n{percent}% intervals: {SIDED} percentile bootstrap\n"
    text += f"p-values: {SIDED}; clusters use " + (
        f"p adjusted by {correction} over all pairs\n"
        if comparison.correction != "none"
        else "uncorrected p (no correction for multiple comparisons)\n"
    )
    adjusted = comparison.correction != "none"  # else the same matrices again
    tests = [
        ("paired bootstrap p", comparison.bootstrap_p),
        (f"bootstrap p, {correction}", adjusted and comparison.bootstrap_p_adjusted),
        ("approximate randomisation p", comparison.ar_p),
        (f"randomisation p, {correction}", adjusted and comparison.ar_p_adjusted),
    ]
    for title, values in tests:
        if isinstance(values, np.ndarray):
            text += "\n" + _matrix(title, comparison.systems, values)
    alpha = f"alpha {comparison.alpha:g}, {correction}"
    for name, draws, values in (
        ("paired bootstrap", comparison.n_samples, comparison.bootstrap_p),
        ("approximate randomisation", comparison.n_trials, comparison.ar_p),
    ):
        floor = smallest_adjusted_p(
            draws, len(comparison.systems), comparison.correction
        )
        if values is not None and floor >= comparison.alpha:
            text += (
                f"\nwarning: {name} cannot separate any pair: with {draws} draws its "
                f"smallest p-value after {correction} is {floor:.4g} >= alpha\n"
            )
    text += "\n" + _clusters(
        f"clusters (paired bootstrap, {alpha})", comparison.bootstrap_clusters
    )
    if comparison.ar_clusters is not None:
        text += _clusters(
            f"clusters (approximate randomisation, {alpha})", comparison.ar_clusters
        )
    if blocks is not None:
        rows = [["block test", *blocks.systems]]
        rows.append(["mean", *(_number(v) for v in blocks.means)])
        rows.append(["std dev", *(_number(v) for v in blocks.std)])
        rows.append(["t", *(_number(v, 2) for v in blocks.t)])
        rows.append(["p (one-sided)", *(_number(v) for v in blocks.p_values)])
        text += (
            f"\n{blocks.n_blocks} blocks, paired t against the system to the left:\n"
        )
        text += _table(rows)
    return text
