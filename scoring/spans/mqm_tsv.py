"""MQM ratings in the WMT layout (google/wmt-mqm-human-evaluation).

One tab-separated row per error, a header line first::

    system  doc  doc_id  seg_id  rater  source  target  category  severity
    Nemo    talk.1  3  3  rater4  The Sun burns…  Die Sonne <v>verbrennt</v> …  Accuracy/Mistranslation  Major

- Columns are found by name (case-insensitive, any order); ``system``,
  ``seg_id``, ``rater``, ``source``, ``target``, ``category`` and
  ``severity`` are required, ``doc`` is kept as the document, others (such
  as ``doc_id`` or ``comment``) are ignored. A row may lack trailing empty
  columns; a row with more fields than the header has a tab inside a text
  and is refused.
- The files are not CSV-quoted: a field is everything between two tabs, so
  quotes are text. ``seg_id`` is the 1-based segment (line) number.
- The error's span is marked by ``<v>…</v>`` in ``target`` (side target) or
  in ``source`` (side source, e.g. an omission). Offsets are counted in the
  text with the markers removed. A row without markers is an error without
  position (e.g. Non-translation, which tags the whole segment); so is an
  empty ``<v></v>``. A field with more than one ``<v>`` or ``</v>`` is
  refused. When both fields are marked (rare), the target's span is kept and
  the row is listed in ``warnings``.
- A row whose category or severity is ``No-error`` says the rater found no
  error: the annotation exists (it scores 0) with no span from that row.
- Rows of one ``(system, seg_id, rater)`` form one annotation, in order of
  first appearance. Every row of one ``(system, seg_id)`` must carry the same
  source and the same target once the markers are removed.

Every refusal is an :class:`~scoring.errors.InputFileError` naming the file,
the line and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.errors import InputFileError
from scoring.spans.model import (
    HUMAN,
    SEVERITIES,
    Span,
    SpanAnnotation,
    SpanAnnotations,
    shorten,
)
from scoring.textfiles import decode_segments

FORMAT = "mqm-tsv"
REQUIRED = ("system", "seg_id", "rater", "source", "target", "category", "severity")
OPTIONAL = ("doc",)
NO_ERROR = "no-error"
OPEN, CLOSE = "<v>", "</v>"
MAX_WARNINGS = 20


class _RowError(Exception):
    """A problem of one row, turned into an InputFileError with its place."""


@dataclass
class _Building:
    """One annotation while its rows are read."""

    segment: int
    system: str
    rater: str
    source: str
    target: str
    document: str | None
    line: int
    spans: list[Span] = field(default_factory=list)


def parse_mqm_tsv(data: bytes, name: str) -> SpanAnnotations:
    """Read the bytes of an MQM TSV file called ``name`` (for messages).

    >>> rows = (
    ...     "system\\tdoc\\tdoc_id\\tseg_id\\trater\\tsource\\ttarget\\tcategory\\tseverity\\n"
    ...     "A\\td1\\t1\\t1\\tr1\\tHello.\\t<v>Hallo</v>.\\tStyle/Awkward\\tMinor\\n"
    ...     "A\\td1\\t1\\t1\\tr2\\tHello.\\tHallo.\\tNo-error\\tNo-error\\n"
    ... )
    >>> result = parse_mqm_tsv(rows.encode(), "mqm.tsv")
    >>> [(a.annotator, a.spans) for a in result.annotations]
    [('r1', (Span(start=0, end=5, severity='minor', category='Style/Awkward', side='target', confidence=None),)), ('r2', ())]
    """
    lines = decode_segments(data, name, strip_byte_order_mark=True)
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        raise InputFileError(
            f"{name}: no header line (the file is empty)", name, 1, "the file is empty"
        )
    header = [cell.strip().lower() for cell in lines[header_index].split("\t")]
    positions = _positions(header, name, header_index + 1)
    needed = max(positions[column] for column in REQUIRED) + 1

    building: dict[tuple[str, int, str], _Building] = {}
    texts: dict[tuple[str, int], tuple[str, str, int]] = {}
    warnings: list[str] = []
    rows = 0
    for index in range(header_index + 1, len(lines)):
        line_number = index + 1
        if not lines[index].strip():
            continue
        rows += 1
        try:
            _read_row(
                lines[index].split("\t"),
                len(header),
                needed,
                positions,
                line_number,
                building,
                texts,
                warnings,
            )
        except _RowError as error:
            problem = str(error)
            raise InputFileError(
                f"{name}: line {line_number}: {problem}", name, line_number, problem
            ) from None
    annotations = tuple(
        SpanAnnotation(
            segment=item.segment,
            system=item.system,
            annotator=item.rater,
            spans=tuple(item.spans),
            source_text=item.source,
            target_text=item.target,
            document=item.document,
            line=item.line,
        )
        for item in building.values()
    )
    return SpanAnnotations(
        annotations=annotations,
        kind=HUMAN,
        format=FORMAT,
        source=name,
        rows=rows,
        warnings=tuple(warnings),
    )


def _positions(header: list[str], name: str, line_number: int) -> dict[str, int]:
    positions = {}
    for column in REQUIRED + OPTIONAL:
        if header.count(column) > 1:
            problem = f"column {column!r} appears twice in the header"
            raise InputFileError(
                f"{name}: line {line_number}: {problem}", name, line_number, problem
            )
        if column in header:
            positions[column] = header.index(column)
        elif column in REQUIRED:
            shown = ", ".join(cell[:30] for cell in header[:12])
            problem = (
                f"no {column!r} column in the header (an MQM TSV needs "
                f"{', '.join(REQUIRED)}; found: {shown})"
            )
            raise InputFileError(
                f"{name}: line {line_number}: {problem}", name, line_number, problem
            )
    return positions


def _read_row(
    cells: list[str],
    n_columns: int,
    needed: int,
    positions: dict[str, int],
    line_number: int,
    building: dict[tuple[str, int, str], _Building],
    texts: dict[tuple[str, int], tuple[str, str, int]],
    warnings: list[str],
) -> None:
    if len(cells) > n_columns:
        raise _RowError(
            f"{len(cells)} tab-separated fields, the header has {n_columns} "
            "(is there a tab inside a text?)"
        )
    if len(cells) < needed:
        raise _RowError(
            f"{len(cells)} tab-separated fields, the header has {n_columns}"
        )
    system = cells[positions["system"]].strip()
    rater = cells[positions["rater"]].strip()
    if not system or not rater:
        raise _RowError(f"empty {'system' if not system else 'rater'} name")
    segment = _segment(cells[positions["seg_id"]])
    category = cells[positions["category"]].strip()
    severity = cells[positions["severity"]].strip().lower()
    source, source_span = _unmark(cells[positions["source"]], "source")
    target, target_span = _unmark(cells[positions["target"]], "target")

    first = texts.setdefault((system, segment), (source, target, line_number))
    for side, text, first_text in (
        ("source", source, first[0]),
        ("target", target, first[1]),
    ):
        if text != first_text:
            raise _RowError(
                f"the {side} of system {shorten(system)!r}, segment {segment} "
                f"(markers removed) differs from line {first[2]}'s"
            )
    document = _optional(cells, positions, "doc")
    item = building.setdefault(
        (system, segment, rater),
        _Building(segment, system, rater, source, target, document, line_number),
    )
    if severity == NO_ERROR or category.lower() == NO_ERROR:
        return
    if severity not in SEVERITIES:
        raise _RowError(
            f"unknown severity {shorten(severity)!r} (known: "
            f"{', '.join(SEVERITIES)}, or No-error)"
        )
    if target_span is not None and source_span is not None:
        if len(warnings) < MAX_WARNINGS:
            warnings.append(
                f"line {line_number}: both source and target are marked; "
                "the target's span is kept"
            )
    side, span = (
        ("target", target_span) if target_span is not None else ("source", source_span)
    )
    if span is None or span[0] == span[1]:
        start, end = None, None
    else:
        start, end = span
    item.spans.append(
        Span(
            start,
            end,
            severity,
            category or None,
            side if start is not None else "target",
        )
    )


def _unmark(text: str, side: str) -> tuple[str, tuple[int, int] | None]:
    """``text`` without its ``<v>…</v>`` pair, and the pair's offsets in it."""
    opening, closing = text.count(OPEN), text.count(CLOSE)
    if opening == 0 and closing == 0:
        return text, None
    if opening != 1 or closing != 1:
        raise _RowError(
            f"the {side} has {opening} {OPEN} and {closing} {CLOSE}: expected one "
            f"{OPEN}…{CLOSE} pair at most"
        )
    start, close = text.index(OPEN), text.index(CLOSE)
    if close < start:
        raise _RowError(f"the {side} has {CLOSE} before {OPEN}")
    plain = text[:start] + text[start + len(OPEN) : close] + text[close + len(CLOSE) :]
    return plain, (start, close - len(OPEN))


def _optional(cells: list[str], positions: dict[str, int], column: str) -> str | None:
    position = positions.get(column)
    if position is None or position >= len(cells):
        return None
    return cells[position].strip() or None


def _segment(text: str) -> int:
    text = text.strip()
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise _RowError(
            f"seg_id {shorten(text)!r} is not a segment number (a positive integer)"
        )
    return int(text)
