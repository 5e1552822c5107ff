"""Exports of a correlation table: CSV (one row per metric and criterion,
which ``pandas.read_csv`` reads as is) and a LaTeX table like Table 1 of
the ORANGE paper (booktabs, best metric in bold, equivalent ones marked).

Both name the interval (two-sided percentile bootstrap, what was resampled)
and the paired test against the best with its sidedness, in the words the
page and the API use (``CorrelationView.interval`` and ``.test``).
"""

from __future__ import annotations

from collections.abc import Callable

from mtdash.common.exports import csv_text, fixed, latex_escape, one_line
from mtdash.judgments.correlations.page import CorrelationView

CSV_HEADER = [
    "level",
    "method",
    "criterion",
    "metric",
    "negated",
    "coefficient",
    "low",
    "high",
    "n_points",
    "best",
    "equivalent",
    "p_value",
    "n_samples",
    "seed",
    "status",
    "compared_with",
    "test",
    "test_sides",
    "alpha",
    "interval",
    "confidence",
    "resampling_unit",
]
TOO_FEW_POINTS = "too few points"
# What the intervals resampled, for the LaTeX caption.
UNIT_WORDS = {
    "system": "systems",
    "segment": "whole segments, all systems' scores of a segment together",
    "point": "single (system, segment) points",
}


def correlations_csv(table: CorrelationView) -> str:
    """Full precision, empty where a coefficient is undefined; ``negated``
    says which error rates were negated before correlating; ``p_value`` is
    that of the paired test named in ``test`` (``test_sides``: one- or
    two-sided) of this metric against the best metric ``compared_with``
    (empty for the best); ``interval`` names the interval of ``low`` and
    ``high`` and ``resampling_unit`` what it resampled; ``status`` is "too
    few points" for a criterion with fewer than three. Text a spreadsheet
    would run as a formula gets a leading ``'``."""
    interval = f"{table.interval['sides']} {table.interval['kind']}"
    rows = [
        [
            table.level,
            table.method,
            cell.criterion,
            row.metric,
            row.negated,
            cell.coefficient,
            cell.low,
            cell.high,
            cell.n_points,
            cell.best,
            cell.equivalent,
            cell.p_value,
            table.n_samples,
            table.seed,
            TOO_FEW_POINTS if cell.too_few_points else "ok",
            cell.compared_with,
            table.test["name"],
            table.test["sides"],
            table.alpha,
            interval,
            table.confidence,
            table.unit,
        ]
        for row in table.rows
        for cell in row.cells
        if cell is not None
    ]
    return csv_text(CSV_HEADER, rows)


def _latex_cell(cell) -> str:
    if cell is not None and cell.too_few_points:
        return r"\textit{too few points}"
    if cell is None or cell.coefficient is None:
        return "--"
    text = fixed(cell.coefficient, 3)
    if cell.best:
        text = rf"\textbf{{{text}}}"
    elif cell.equivalent:
        text += r"$^{\approx}$"
    return text + rf" {{\scriptsize [{fixed(cell.low, 2)}, {fixed(cell.high, 2)}]}}"


def correlations_latex(table: CorrelationView) -> str:
    lines = [r"% Needs \usepackage{booktabs}."]
    lines += [f"% {one_line(c)}: {table.n_points[c]} points" for c in table.criteria]
    lines += [
        f"% intervals: {one_line(table.interval['label'])}",
        f"% test against the best: {one_line(table.test['label'])}",
    ]
    header = ["Metric", *(latex_escape(c) for c in table.criteria)]
    lines += [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{l" + "r" * len(table.criteria) + "}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    for row in table.rows:
        name = latex_escape(row.metric) + (r" ($-$)" if row.negated else "")
        lines.append(" & ".join([name, *map(_latex_cell, row.cells)]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", _caption(table), r"\end{table}", ""]
    return "\n".join(lines)


def _caption(table: CorrelationView) -> str:
    percent = f"{table.confidence * 100:g}"
    test = table.test
    text = (
        f"{table.level_label} {table.method_label} correlation of each metric with "
        f"the human scores (per-judge z-scores), with two-sided {percent}\\% "
        f"percentile bootstrap intervals ({table.n_samples} resamples of "
        f"{UNIT_WORDS.get(table.unit, table.unit)}; seed {table.seed}). Best metric "
        "of each criterion in bold (tied metrics all in bold); $^{\\approx}$: not "
        f"significantly worse than the best ({latex_escape(test['name'])}, "
        f"{test['sides']}, $\\alpha$ = {table.alpha:g})."
    )
    if table.negated:
        text += r" Error rates marked ($-$) are negated, so higher is better."
    return rf"\caption{{{text}}}"


# The formats a table is exported in, by file suffix.
FORMATS: dict[str, Callable[[CorrelationView], str]] = {
    "csv": correlations_csv,
    "tex": correlations_latex,
}
