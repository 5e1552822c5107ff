"""Cells every export writes: LaTeX-escaped text, spreadsheet-safe text,
numbers for spreadsheets and for tables, and chart labels; and the one way
every CSV export is written (:func:`csv_text`). The download itself is
``responses.download_response``.

Everything a user wrote (system names, n-best list names, metric specs,
signatures) goes through one of these before it reaches a file or a chart.
"""

from __future__ import annotations

import csv
import io
import math
import numbers
import re
from collections.abc import Iterable, Sequence

import numpy as np

# What a CSV cell may hold: text (guarded against formulas), a number (kept a
# number), or nothing (an empty cell; NaN is nothing too).
Cell = str | int | float | bool | None

LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # Not special, but OT1-encoded fonts print other glyphs for them.
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


# A spreadsheet cell that starts with one of these is read as a formula
# (=HYPERLINK(...), +cmd|..., -2+3, @SUM(...)); tab and carriage return start
# the same attack in some programs (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV cell that a spreadsheet shows as text, never runs.

    A leading ``= + - @``, tab or carriage return gets an apostrophe in front,
    which spreadsheets treat as "this cell is text" (and hide). Numbers stay
    numbers (:func:`csv_cell`) and never pass through here.

    >>> print(spreadsheet_text('=HYPERLINK("http://x", "click")'))
    '=HYPERLINK("http://x", "click")
    >>> spreadsheet_text("online-B")
    'online-B'
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_cell(value: Cell) -> str | int | float | bool | None:
    """``value`` as :func:`csv_text` writes it: text through
    :func:`spreadsheet_text`, numbers as plain Python numbers (every digit,
    never guarded: ``-0.0257`` stays a number), NaN and ``None`` empty.

    >>> csv_cell("-foo"), csv_cell(-0.0257), csv_cell(float("nan"))
    ("'-foo", -0.0257, None)
    >>> csv_cell(np.bool_(True)), csv_cell(np.int64(3)), csv_cell(np.float32(0.5))
    (True, 3, 0.5)
    """
    if value is None or isinstance(value, str):
        return None if value is None else spreadsheet_text(value)
    if isinstance(value, np.generic):  # NumPy's bool_, int64, float32, ...
        value = value.item()
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)  # NumPy scalars too
        return None if math.isnan(number) else number
    raise TypeError(f"a CSV cell is text, a number or None, not {value!r}")


def csv_text(
    header: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    provenance: Sequence[str] = (),
) -> str:
    """Every CSV export of mtdash, written one way.

    - ``provenance`` (how the numbers were made: settings, seeds, the
      interval's name) comes first, one ``# `` line each, before the header,
      so ``pandas.read_csv(path, comment="#")`` skips it and the data holds
      only data rows; a line keeps no comma, semicolon or double quote
      (:func:`comment_line`), so a spreadsheet shows it as one text cell
      starting with ``#`` and a name in it cannot start a cell of its own;
    - text cells are quoted (a ``#`` or ``,`` in a name is then text, even
      for ``comment="#"``) and guarded against formulas
      (:func:`spreadsheet_text`); numbers are unquoted at full precision,
      so pandas reads number columns as numbers; missing values are empty.

    >>> print(csv_text(["system", "bleu"], [["-sys#1", -1.5]], ["A, B"]), end="")
    # A · B
    "system","bleu"
    "'-sys#1",-1.5
    """
    buffer = io.StringIO()
    for line in provenance:
        buffer.write(f"# {comment_line(line)}\n")
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    writer.writerow([csv_cell(name) for name in header])
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return buffer.getvalue()


def comment_line(text: str) -> str:
    """``text`` on one line for a ``#`` line of a CSV: commas and semicolons
    (the delimiters spreadsheets split at) become `` · `` and double quotes
    single ones, so ``=cmd`` after a comma in a name stays inside the
    comment's one cell.

    >>> comment_line('list "x,=cmd": A, B; seed 1')
    "list 'x · =cmd': A · B · seed 1"
    """
    return re.sub(r"\s*[,;]\s*", " · ", one_line(text)).replace('"', "'")


def chart_text(text: str) -> str:
    """``text`` for a Plotly label (tick, legend, title, hover): shown as typed.

    Plotly.js renders a small HTML subset in labels (``<a href>``, ``<b>``,
    ``<br>``, entities), so ``<``, ``>`` and ``&`` become entities, which it
    prints literally; line breaks and other control characters become spaces.

    >>> chart_text('<a href="https://evil">me</a> & co')
    '&lt;a href="https://evil"&gt;me&lt;/a&gt; &amp; co'
    """
    text = one_line(text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fixed(value: float | None, decimals: int) -> str:
    """``value`` with ``decimals`` digits; ``--`` (an en dash) when missing."""
    return "--" if value is None else f"{value:.{decimals}f}"


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters made spaces."""
    return "".join(" " if not char.isprintable() else char for char in text)


def latex_escape(text: str) -> str:
    """Untrusted text as LaTeX that prints it literally, on one line."""
    escaped = []
    for char, following in zip(text, text[1:] + " "):
        if not char.isprintable():
            escaped.append(" ")
        elif char == "-" and following == "-":
            escaped.append("-{}")  # "--" would print as a dash
        else:
            escaped.append(LATEX_SPECIAL.get(char, char))
    return "".join(escaped)
