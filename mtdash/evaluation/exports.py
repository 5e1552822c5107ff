"""Leaderboard exports: CSV for spreadsheets and pandas, a LaTeX tabular for papers.

``FORMATS`` is the list of what may be exported; the URL accepts nothing else.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from mtdash.common.exports import (
    fixed,
    latex_escape,
    one_line,
    plain_number,
    spreadsheet_text,
)
from mtdash.evaluation.services.leaderboard import Leaderboard


def leaderboard_csv(leaderboard: Leaderboard) -> str:
    """A header, then one row per system: rank, system, one column per metric
    (full precision, empty where not scored), then each score's signature.

    ``pandas.read_csv`` and ``csv.DictReader`` read it as is; metric columns
    are numeric. Text that a spreadsheet would run as a formula (a system
    named ``=HYPERLINK(…)``, ``+…``, ``-…``, ``@…``) gets a leading ``'``. The signatures are per row because outputs scored at
    different times may carry different ones (e.g. another version).
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    names = [column.name for column in leaderboard.columns]
    header = ["rank", "system", *names, *(f"{name} signature" for name in names)]
    writer.writerow([spreadsheet_text(cell) for cell in header])
    for row in leaderboard.rows:
        values = [plain_number(row.scores.get(name)) for name in names]
        signatures = [spreadsheet_text(row.signatures.get(name, "")) for name in names]
        system = spreadsheet_text(row.system)
        writer.writerow([row.rank or "", system, *values, *signatures])
    return buffer.getvalue()


def leaderboard_latex(leaderboard: Leaderboard) -> str:
    """A booktabs tabular; signatures go into comments so the numbers stay
    reproducible. Scores have their column's decimals: 4 on the 0–1 scale,
    2 on the 0–100 scale and for NIST, as on the page."""
    columns = leaderboard.columns
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
    lines += [
        r"\begin{tabular}{rl" + "r" * len(columns) + "}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    for row in leaderboard.rows:
        cells = [str(row.rank or ""), latex_escape(row.system)]
        cells += [
            fixed(value, column.decimals) for value, column in zip(row.cells, columns)
        ]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)


# The formats a leaderboard is exported in, by file extension.
FORMATS: dict[str, Callable[[Leaderboard], str]] = {
    "csv": leaderboard_csv,
    "tex": leaderboard_latex,
}
