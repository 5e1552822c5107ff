"""Leaderboard exports: CSV for spreadsheets and pandas (signatures in a
sidecar CSV), an Excel workbook (:mod:`~mtdash.evaluation.leaderboard.xlsx`),
a LaTeX table for papers, and JSON (the API's object).

``FORMATS`` is the list of what may be exported, by the URL's suffix; the
URL accepts nothing else. :func:`leaderboard_export` serves them, the text
formats from stored renderings (:mod:`.stored`) with an ETag.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from mtdash.common.exports import csv_text, fixed, latex_escape, one_line
from mtdash.evaluation.leaderboard.as_json import leaderboard_json
from mtdash.evaluation.leaderboard.build import Leaderboard, build_leaderboard
from mtdash.evaluation.leaderboard.stored import (
    LeaderboardQuery,
    rendering,
    stored_value,
)
from mtdash.evaluation.leaderboard.table import (
    SIGNATURE_HEADER,
    leaderboard_table,
    signature_rows,
)
from mtdash.evaluation.leaderboard.version import leaderboard_version
from mtdash.evaluation.leaderboard.xlsx import leaderboard_xlsx
from mtdash.evaluation.models import TestSet


def leaderboard_csv(leaderboard: Leaderboard) -> str:
    """:func:`leaderboard_table` as CSV (``common.exports.csv_text``): one
    header line, one row per system, no comment lines, so
    ``pandas.read_csv`` and ``csv.DictReader`` read it as is, number
    columns as numbers. The signatures are in the sidecar
    (``leaderboard.signatures.csv``). Text that a spreadsheet would run as a
    formula (``=HYPERLINK(…)``, ``+…``, ``-…``, ``@…``) gets a leading ``'``;
    numbers never do."""
    return csv_text(*leaderboard_table(leaderboard))


def signatures_csv(leaderboard: Leaderboard) -> str:
    """The sidecar of the CSV: :func:`signature_rows` under their header."""
    return csv_text(SIGNATURE_HEADER, signature_rows(leaderboard))


def leaderboard_latex(leaderboard: Leaderboard) -> str:
    """A booktabs ``table`` with a caption: the best score of each metric in
    bold, each score's significance cluster as a superscript, and a rule
    between the clusters of the ranked metric. Decimals by scale: 4 on the
    0–1 scale, 2 on the 0–100 scale and for NIST, as on the page.
    Signatures are comments, so the numbers stay reproducible."""
    columns = leaderboard.columns
    rows = leaderboard.display_rows()
    best = _best_values(leaderboard)
    lines = [r"% Needs \usepackage{booktabs}."]
    for column in columns:
        lines += [
            f"% {one_line(column.name)}: {one_line(sig)}" for sig in column.signatures
        ]
    header = ["Rank", "System"]
    header += [
        latex_escape(column.name)
        + (r" $\uparrow$" if column.higher_is_better else r" $\downarrow$")
        for column in columns
    ]
    header += [
        latex_escape(f"{h.criterion} ({h.score_label})")
        for h in leaderboard.human_columns
    ]
    n_numeric = len(columns) + len(leaderboard.human_columns)
    lines += [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{rl" + "r" * n_numeric + "}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    previous_cluster = None
    for row, cells in rows:
        first = cells[0].significance if cells else None
        if first and previous_cluster is not None and first.cluster != previous_cluster:
            lines.append(r"\midrule")
        previous_cluster = first.cluster if first else previous_cluster
        rank = first.rank_range.replace("–", "--") if first else str(row.rank or "")
        line = [rank, latex_escape(row.system)]
        line += [_latex_cell(cell, best) for cell in cells]
        line += [_latex_human_cell(human) for human in leaderboard.human_cells(row)]
        lines.append(" & ".join(line) + r" \\")
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        _caption(leaderboard),
        r"\end{table}",
        "",
    ]
    return "\n".join(lines)


def _best_values(leaderboard: Leaderboard) -> dict[str, float]:
    best = {}
    for column in leaderboard.columns:
        values = [
            row.scores[column.name]
            for row in leaderboard.rows
            if column.name in row.scores
        ]
        if values:
            best[column.name] = max(values) if column.higher_is_better else min(values)
    return best


def _latex_cell(cell, best: dict[str, float]) -> str:
    text = fixed(cell.value, cell.column.decimals)
    if cell.value is not None and cell.value == best.get(cell.column.name):
        text = rf"\textbf{{{text}}}"
    if cell.significance is not None:
        text += rf"$^{{{cell.significance.cluster}}}$"
    return text


def _latex_human_cell(human) -> str:
    """A criterion's score, with its significance cluster as a superscript
    like the metrics' (human clusters come from paired randomisation)."""
    text = fixed(human.z if human else None, 3)
    if human is not None and human.cluster is not None:
        text += rf"$^{{{human.cluster}}}$"
    return text


def _p_below(alpha: float) -> str:
    """``$p < 0.05$``: in math mode, since a bare "<" in text prints as "¡"
    under LaTeX's default OT1 font encoding (no \\usepackage[T1]{fontenc})."""
    return f"$p < {alpha:g}$"


def _caption(leaderboard: Leaderboard) -> str:
    comparison = leaderboard.primary_comparison
    text = (
        f"Systems ranked by {latex_escape(leaderboard.primary_metric or '')}. "
        "Best score of each metric in bold."
    )
    if comparison:
        test = (
            "approximate randomisation"
            if leaderboard.test == "ar"
            else "paired bootstrap resampling"
        )
        # The draws behind the clusters: trials for randomisation (the
        # bootstrap resamples give the intervals, not these clusters).
        draws = (
            f"{comparison.n_trials} trials"
            if leaderboard.test == "ar"
            else f"{comparison.n_samples} bootstrap resamples"
        )
        text += (
            f" Superscripts: significance clusters ({test}, two-sided,"
            f" {comparison.correction_text} {_p_below(comparison.alpha)} over all pairs,"
            f" {draws}, seed {comparison.seed});"
            " rules separate the clusters of the ranked metric, whose systems"
            " share the rank range shown."
        )
    for human in leaderboard.human_columns:
        if human.n_trials and human.has_clusters:
            # "p <" written as the metric's clusters above are.
            text += (
                f" {latex_escape(human.criterion)}: {latex_escape(human.test)},"
                f" two-sided, {human.correction_text} {_p_below(human.alpha)} over"
                f" all pairs, {human.n_trials} trials."
            )
    return rf"\caption{{{text}}}"


def leaderboard_json_text(leaderboard: Leaderboard) -> str:
    return (
        json.dumps(leaderboard_json(leaderboard), ensure_ascii=False, indent=2) + "\n"
    )


# The formats a leaderboard is exported in, by file suffix.
FORMATS: dict[str, Callable[[Leaderboard], str | bytes]] = {
    "signatures.csv": signatures_csv,
    "csv": leaderboard_csv,
    "xlsx": leaderboard_xlsx,
    "tex": leaderboard_latex,
    "json": leaderboard_json_text,
}

# The workbook's provenance sheet names the moment it was exported, so it
# is built for each request; the text formats are stored per version.
STORED_FORMATS = frozenset({"signatures.csv", "csv", "tex", "json"})


@dataclass(frozen=True)
class Export:
    body: str | bytes
    etag: str | None  # None: built for this request (the workbook)


def leaderboard_export(test_set: TestSet, query: LeaderboardQuery, fmt: str) -> Export:
    """The leaderboard in ``fmt`` (a key of ``FORMATS``), ranked, tested and
    corrected as ``query`` asks."""

    def build() -> str | bytes:
        board = build_leaderboard(
            test_set, rank_by=query.metric, test=query.test, correction=query.correction
        )
        return FORMATS[fmt](board)

    if fmt not in STORED_FORMATS:
        return Export(build(), None)
    wanted = rendering(test_set, leaderboard_version(test_set), f"file:{fmt}", query)
    return Export(stored_value(wanted, build), wanted.etag)
