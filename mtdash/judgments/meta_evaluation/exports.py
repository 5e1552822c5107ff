"""Exports of a meta-evaluation: CSV (one row per table, task and metric,
which ``pandas.read_csv`` reads as is) and LaTeX (booktabs: a table per test
set with the tasks as columns, and the overall table when test sets were
pooled; each value with its rank cluster, the top cluster in bold).

Both carry the settings and the permutation test in the words the pages use.
"""

from __future__ import annotations

from collections.abc import Callable

from mtdash.common.exports import csv_text, fixed, latex_escape, one_line
from mtdash.judgments.meta_evaluation.page import (
    JobTables,
    OverallTable,
    ProtocolTable,
)

CSV_HEADER = [
    "table",
    "test_set_id",
    "criterion",
    "task",
    "statistic",
    "metric",
    "negated",
    "coefficient",
    "tie_epsilon",
    "p_value",
    "cluster",
    "weight",
    "permutations",
    "seed",
    "alpha",
    "group_by",
    "tie_calibration",
    "kendall_variant",
]
OVERALL = "overall"
# Column headers in LaTeX, by task (Kendall by variant).
LATEX_HEADERS = {
    "system:pearson": r"Sys.\ $r$",
    "system:accuracy": r"Sys.\ acc",
    "system:spa": r"Sys.\ SPA",
    "segment:acc_eq": r"Seg.\ acc$_{eq}$",
    "segment:pearson": r"Seg.\ $r$",
}
KENDALL_HEADERS = {
    "Kendall τ_23": r"Seg.\ $\tau_{23}$",
    "Kendall acc_23": r"Seg.\ acc$_{23}$",
    "Kendall τ_b": r"Seg.\ $\tau_b$",
}


def meta_evaluation_csv(tables: JobTables) -> str:
    """Every cell at full precision: ``table`` is the test set's name (or
    "overall" for the pooled ranking, whose ``coefficient`` is the weighted
    mean of the rescaled statistics, 0-1), ``cluster`` the rank cluster (1 =
    top), ``p_value`` that of "the best metric is better than this one"
    (empty for the best), ``tie_epsilon`` the calibrated tie threshold.
    Text a spreadsheet would run as a formula gets a leading ``'``."""
    settings = tables.job.protocol_settings
    common = [
        settings["permutations"],
        settings["seed"],
        settings["alpha"],
        settings["group_by"],
        settings["tie_calibration"],
        settings["kendall_variant"],
    ]
    rows = []
    if tables.overall is not None:
        rows += [
            [
                OVERALL,
                None,
                tables.job.criterion,
                OVERALL,
                "rescaled weighted mean",
                row.metric,
                None,
                row.value,
                None,
                row.p_value,
                row.cluster,
                None,
                *common,
            ]
            for row in tables.overall.rows
        ]
    for table in tables.tables:
        for row in table.rows:
            for column, cell in zip(table.columns, row.cells):
                if cell is None:
                    continue
                rows.append(
                    [
                        table.name,
                        table.test_set_id,
                        table.criterion,
                        column.task,
                        column.label,
                        row.metric,
                        row.negated,
                        cell.value,
                        cell.epsilon,
                        cell.p_value,
                        cell.cluster,
                        table.weight,
                        *common,
                    ]
                )
    return csv_text(CSV_HEADER, rows)


def _value(value: float | None, cluster: int) -> str:
    if value is None:
        return "--"
    text = fixed(value, 3)
    if cluster == 1:
        text = rf"\textbf{{{text}}}"
    return f"{text} ({cluster})"


def _latex_header(column) -> str:
    known = LATEX_HEADERS.get(column.task) or KENDALL_HEADERS.get(column.label)
    return known or latex_escape(f"{column.level} {column.label}")


def _table_latex(table: ProtocolTable) -> list[str]:
    header = ["Metric"] + [_latex_header(column) for column in table.columns]
    lines = [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{l" + "r" * len(table.columns) + "}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    for row in table.rows:
        name = latex_escape(row.metric) + (r" ($-$)" if row.negated else "")
        cells = [
            "--" if cell is None else _value(cell.value, cell.cluster)
            for cell in row.cells
        ]
        lines.append(" & ".join([name, *cells]) + r" \\")
    caption = (
        f"WMT meta-evaluation of the metrics of {latex_escape(table.name)} "
        f"against {latex_escape(table.criterion)} "
        f"({len(table.systems)} systems): each statistic with its rank cluster "
        "in parentheses (1 = top; a permutation test between metrics, PERM-BOTH, "
        f"one-sided, $\\alpha$ = {table.settings['alpha']:g}); the top cluster in "
        "bold."
    )
    if table.negated:
        caption += r" Error rates marked ($-$) are negated, so higher is better."
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}"]
    lines += [r"\end{table}", ""]
    return lines


def _overall_latex(overall: OverallTable, criterion: str) -> list[str]:
    lines = [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{lrr}",
        r"\toprule",
        r"Metric & Overall & $p$ \\",
        r"\midrule",
    ]
    for row in overall.rows:
        p_value = "--" if row.p_value is None else fixed(row.p_value, 3)
        value = _value(row.value, row.cluster)
        lines.append(f"{latex_escape(row.metric)} & {value} & {p_value}" + r" \\")
    weights = ", ".join(
        f"{latex_escape(name)} {share:.3g}" for name, share in overall.weights
    )
    caption = (
        f"Overall ranking of the metrics against {latex_escape(criterion)}: the "
        "weighted mean of each task's statistic rescaled to [0, 1], with its rank "
        "cluster in parentheses (the tasks' permutation draws pooled); the top "
        f"cluster in bold; $p$ against the best. Test set weights: {weights}."
    )
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}"]
    lines += [r"\end{table}", ""]
    return lines


def meta_evaluation_latex(tables: JobTables) -> str:
    lines = [r"% Needs \usepackage{booktabs}."]
    lines.append(f"% settings: {one_line(tables.settings_text)}")
    if tables.overall is not None:
        lines.append(f"% overall test: {one_line(tables.overall.description)}")
        lines += _overall_latex(tables.overall, tables.job.criterion)
    for table in tables.tables:
        for column in table.columns:
            lines.append(f"% {column.task}: {one_line(column.description)}")
        lines += _table_latex(table)
    return "\n".join(lines)


# The formats a meta-evaluation is exported in, by file suffix.
FORMATS: dict[str, Callable[[JobTables], str]] = {
    "csv": meta_evaluation_csv,
    "tex": meta_evaluation_latex,
}
