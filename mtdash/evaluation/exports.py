"""Leaderboard exports: CSV for spreadsheets, a LaTeX tabular for papers."""

from __future__ import annotations

import csv
import io

from mtdash.evaluation.services.leaderboard import Leaderboard

LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
    "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def leaderboard_csv(leaderboard: Leaderboard) -> str:
    """rank, system, one column per metric, then one row of signatures."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    names = [column.name for column in leaderboard.columns]
    writer.writerow(["rank", "system", *names])
    for row in leaderboard.rows:
        values = [plain_number(row.scores.get(name)) for name in names]
        writer.writerow([row.rank or "", row.system, *values])
    writer.writerow(["", "signature", *(column.signature for column in leaderboard.columns)])
    return buffer.getvalue()


def leaderboard_latex(leaderboard: Leaderboard) -> str:
    """A booktabs table; signatures go into a comment so the numbers stay reproducible."""
    names = [column.name for column in leaderboard.columns]
    lines = [f"% {column.name}: {column.signature}" for column in leaderboard.columns]
    lines += [
        r"\begin{tabular}{rl" + "r" * len(names) + "}",
        r"\toprule",
        " & ".join(["Rank", "System", *(latex_escape(name) for name in names)]) + r" \\",
        r"\midrule",
    ]
    for row in leaderboard.rows:
        cells = [str(row.rank or ""), latex_escape(row.system)]
        cells += [fixed_2(row.scores.get(name)) for name in names]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(lines)


def plain_number(value: float | None) -> str:
    return "" if value is None else repr(value)


def fixed_2(value: float | None) -> str:
    return "--" if value is None else f"{value:.2f}"


def latex_escape(text: str) -> str:
    """Escape the characters LaTeX treats specially."""
    return "".join(LATEX_SPECIAL.get(char, char) for char in text)
