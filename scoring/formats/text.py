"""Decoding a corpus file and the text rules shared by the markup formats.

Every format is UTF-8 text, decoded by :func:`scoring.textfiles.
decode_segments` (so UTF-16, Latin-1, compressed files and documents are
refused with the same messages as plain-text uploads; a byte-order mark is
dropped) and rejoined with ``"\\n"``: CRLF line ends become LF, and line
numbers stay those of the file.

Entities in SGML are read as mteval-v13a.pl reads them: only ``&quot;``,
``&amp;``, ``&lt;`` and ``&gt;`` are replaced, so ``&apos;`` and numeric
references stay as written (mteval scores them as ``& apos ;``). The
replacement is done in one pass (``&amp;lt;`` gives ``&lt;``), which is the
inverse of the writers' escaping; mteval's own sequential replacement turns
``&amp;lt;`` into ``<``, and the ``mteval13a`` tokenizer, which re-escapes
plain text before replacing, gives exactly that, so BLEU of the segments
read here with ``tokenize=mteval13a`` is mteval's BLEU of the file.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from scoring.errors import InputFileError
from scoring.formats.model import CorpusFormatError
from scoring.textfiles import decode_text_file


def decode_text(data: bytes, name: str) -> str:
    """``data`` as text with LF line ends; CorpusFormatError if not UTF-8 text."""
    try:
        lines = decode_text_file(data, name)
    except InputFileError as error:
        raise CorpusFormatError(name, error.line, error.problem) from None
    return "\n".join(lines)


class LineIndex:
    """Maps an offset in a text to its 1-based line number."""

    def __init__(self, text: str) -> None:
        self._starts = [0] + [match.end() for match in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect_right(self._starts, offset)


_MTEVAL_ENTITY = re.compile("&(quot|amp|lt|gt);")
_ENTITY_TEXT = {"quot": '"', "amp": "&", "lt": "<", "gt": ">"}


def unescape_sgml(content: str) -> str:
    """The text of a ``<seg>``: mteval's four entities replaced, in one pass.

    >>> unescape_sgml("&quot;A&quot; &amp; B &apos;s &amp;lt;")
    '"A" & B &apos;s &lt;'
    """
    if "&" not in content:
        return content
    return _MTEVAL_ENTITY.sub(lambda match: _ENTITY_TEXT[match.group(1)], content)


def escape_markup(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` (the inverse of :func:`unescape_sgml`)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_LINE_BREAK_RUN = re.compile(r"[ \t]*\n[ \t]*")


def join_segment_lines(text: str) -> str:
    """A segment written over several lines, as one line.

    Each line break (with the spaces and tabs around it) becomes one space
    and the ends are stripped, as mteval collapses whitespace; a segment on
    one line is kept exactly, spaces included.
    """
    if "\n" not in text:
        return text
    return _LINE_BREAK_RUN.sub(" ", text).strip(" \t")


def document_runs(
    document_ids: tuple[str, ...] | None, n: int
) -> list[tuple[str, int, int]]:
    """(docid, first index, end index) of each run of one document."""
    if document_ids is None:
        return [("doc1", 0, n)] if n else []
    runs: list[tuple[str, int, int]] = []
    for index, docid in enumerate(document_ids):
        if runs and runs[-1][0] == docid:
            runs[-1] = (docid, runs[-1][1], index + 1)
            continue
        if any(run[0] == docid for run in runs):
            raise ValueError(
                f"document {docid!r} comes back at segment {index + 1}; a "
                "document's segments must be consecutive"
            )
        runs.append((docid, index, index + 1))
    return runs


_PROLOG_ENDS = {"<?": "?>", "<!--": "-->", "<!": ">"}
_ELEMENT_NAME = re.compile(r"<([A-Za-z_][\w.:-]*)")


def first_element_name(head: str) -> str | None:
    """The name of the first element of markup ``head``, after any XML
    declaration, comments and ``<!DOCTYPE>``; None when text comes first."""
    position = 0
    while True:
        start = head.find("<", position)
        if start < 0 or head[position:start].strip():
            return None
        opening = next((o for o in _PROLOG_ENDS if head.startswith(o, start)), None)
        if opening is None:
            match = _ELEMENT_NAME.match(head, start)
            return match.group(1) if match else None
        after = start + len(opening)
        bracket, close = head.find("[", after), head.find(">", after)
        if opening == "<!" and 0 <= bracket < close:
            after = head.find("]", bracket)  # a DOCTYPE's internal subset
            if after < 0:
                return None
        end = head.find(_PROLOG_ENDS[opening], after)
        if end < 0:
            return None
        position = end + len(_PROLOG_ENDS[opening])
