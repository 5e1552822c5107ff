"""TSV: one column per stream, one row per segment, a header naming them.

The convention::

    docid	source	ref:A	ref:B	system:Online-W	system:UEdin
    doc-1	Quelle	Source	A source	Source	The source

* the first line is the header; each name is one of ``source`` (or
  ``src``), ``ref:<label>`` (or ``reference:<label>``; a bare ``ref`` is
  labelled ``ref``), ``system:<name>`` (or ``sys:<name>``,
  ``hyp:<name>``; a bare ``system``/``hyp`` is named so), and ``docid``
  (or ``doc_id``, ``document``). Keywords in any case; labels as written.
  Every column must be named, and no name given twice;
* fields are separated by TAB, with no quoting: a segment cannot contain a
  TAB or a line break (what the format cannot hold); every row has exactly
  as many fields as the header;
* rows are segments in order; line ``n + 1`` is segment ``n``.

When the format is detected rather than given, a file is TSV only if its
first line has at least two fields and all of them are column names as
above (plain text with a TAB in a segment stays plain text).
"""

from __future__ import annotations

from scoring.formats.model import (
    DOCIDS,
    REFERENCE,
    SOURCE,
    SYSTEM,
    CorpusFormatError,
    ParsedCorpus,
    ReadFile,
    Segment,
    Stream,
)

_SOURCE_NAMES = {"source", "src"}
_DOCID_NAMES = {"docid", "doc_id", "document"}
_REFERENCE_WORDS = {"ref", "reference"}
_SYSTEM_WORDS = {"system", "sys", "hyp"}
_COLUMN_HELP = "use source, ref:<label>, system:<name> or docid"


def column_role(name: str) -> tuple[str, str | None] | None:
    """(role, label) of a header name, or None when it names no stream."""
    lowered = name.strip().lower()
    if lowered in _SOURCE_NAMES:
        return SOURCE, None
    if lowered in _DOCID_NAMES:
        return DOCIDS, None
    word, colon, label = name.strip().partition(":")
    word = word.lower()
    for words, role in ((_REFERENCE_WORDS, REFERENCE), (_SYSTEM_WORDS, SYSTEM)):
        if word in words:
            if colon and not label:
                return None
            return role, label if colon else word
    return None


def looks_like_tsv(first_line: str) -> bool:
    """A header of at least two fields, every one a column name."""
    fields = first_line.split("\t")
    return len(fields) >= 2 and all(column_role(field) for field in fields)


def read_tsv(text: str, file: str) -> ReadFile:
    """The streams of a TSV file (already decoded, LF line ends)."""
    lines = text.split("\n")
    header = lines[0].split("\t")
    streams: list[Stream] = []
    seen: dict[tuple[str, str | None], int] = {}
    for column, name in enumerate(header, start=1):
        role = column_role(name)
        if role is None:
            raise CorpusFormatError(
                file,
                1,
                f"column {column}: {name!r} is not a column name; {_COLUMN_HELP}",
            )
        first = seen.setdefault(role, column)
        if first != column:
            raise CorpusFormatError(
                file,
                1,
                f"column {column}: {name!r} names the same stream as column {first}",
            )
        streams.append(Stream(role[0], role[1], file))
    if len(lines) < 2:
        raise CorpusFormatError(file, None, "no segments: the file has only a header")
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise CorpusFormatError(
                file,
                number,
                f"{len(fields)} fields, but the header names {len(header)} columns "
                "(fields are separated by TAB; a segment cannot contain one)",
            )
        for stream, value in zip(streams, fields, strict=True):
            stream.segments.append(Segment(value, number))
    return ReadFile("tsv", file, streams)


def write_tsv(corpus: ParsedCorpus) -> bytes:
    """``corpus`` as TSV (a ``docid`` column first when it has document ids).

    Raises ValueError for a segment holding a TAB or a line break.
    """
    columns = dict(corpus.streams())
    if corpus.document_ids is not None:
        columns = {"docid": corpus.document_ids, **columns}
    out = ["\t".join(columns)]
    for index in range(corpus.n_segments):
        row = []
        for name, segments in columns.items():
            text = segments[index]
            if any(character in text for character in "\t\n\r"):
                raise ValueError(
                    f"{name}, segment {index + 1}: a TAB or line break cannot "
                    "be written in TSV"
                )
            row.append(text)
        out.append("\t".join(row))
    return "".join(f"{line}\n" for line in out).encode("utf-8")
