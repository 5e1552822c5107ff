"""Cells every export writes: LaTeX-escaped text, spreadsheet-safe text,
numbers for spreadsheets and for tables, and chart labels. The download itself
is ``responses.download_response``.

Everything a user wrote (system names, n-best list names, metric specs,
signatures) goes through one of these before it reaches a file or a chart.
"""

from __future__ import annotations

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
    which spreadsheets treat as "this cell is text" (and hide). Numbers are
    written with :func:`plain_number` instead and never pass through here.

    >>> print(spreadsheet_text('=HYPERLINK("http://x", "click")'))
    '=HYPERLINK("http://x", "click")
    >>> spreadsheet_text("online-B")
    'online-B'
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


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


def plain_number(value: float | None) -> str:
    """Every digit (``repr``), for spreadsheets; empty when missing."""
    return "" if value is None else repr(value)


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
