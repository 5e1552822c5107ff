"""A sentence with its error spans as HTML.

The text is cut at every span's start and end; each piece is escaped on
its own (``format_html``), and a piece inside one or more spans becomes a
focusable ``<mark>`` coloured by the worst of their severities, whose
``title`` (hover) and ``aria-label`` (focus, screen readers) name each
span's severity and category. Nothing is marked safe by hand: the pieces
are joined by ``format_html_join``, so the text of a sentence, a category
or an annotator can never become markup.

    >>> from mtdash.evaluation.span_view.annotations import ShownSpan
    >>> str(highlight("a <b> & c", [ShownSpan("target", 2, 5, "major", "X")]))
    'a <mark class="error-span severity-major" tabindex="0" title="major · X" aria-label="“&lt;b&gt;”: major · X">&lt;b&gt;</mark> &amp; c'
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString

from mtdash.evaluation.span_view.annotations import SEVERITY_ORDER, ShownSpan

SEVERITY_CLASSES = {name: f"severity-{name}" for name in SEVERITY_ORDER}
_MARK = (
    '<mark class="error-span {}" tabindex="0" title="{}" aria-label="“{}”: {}">'
    "{}</mark>"
)


def severity_class(severity: str) -> str:
    return SEVERITY_CLASSES.get(severity, "severity-other")


def highlight(text: str, spans: Sequence[ShownSpan]) -> SafeString:
    """``text`` escaped, with the positioned ``spans`` (all of one side)
    marked; spans reaching past the text are cut at its end."""
    size = len(text)
    placed = [
        (s.start, min(s.end, size), s)
        for s in spans
        if s.start is not None and s.end is not None and s.start < size
    ]
    if not placed:
        return escape(text)
    cuts = sorted(
        {0, size, *(start for start, _, _ in placed)} | {e for _, e, _ in placed}
    )
    pieces = []
    for low, high in zip(cuts, cuts[1:]):
        piece = text[low:high]
        covering = [s for start, end, s in placed if start <= low and high <= end]
        if not covering:
            pieces.append(escape(piece))
            continue
        worst = max(covering, key=lambda s: s.rank)
        classes = severity_class(worst.severity) + (
            " overlap" if len(covering) > 1 else ""
        )
        label = "; ".join(s.label for s in covering)
        pieces.append(format_html(_MARK, classes, label, piece, label, piece))
    return format_html_join("", "{}", ((piece,) for piece in pieces))
