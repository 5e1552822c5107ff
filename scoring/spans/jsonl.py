"""Error spans as JSON lines: one object per (segment, system, annotator).

::

    {"segment": 3, "system": "online-B", "annotator": "a1", "score": 72,
     "spans": [{"start": 4, "end": 9, "severity": "major",
                "category": "Accuracy/Mistranslation"}]}
    {"segment": 3, "system": "online-B", "metric": "xcomet-xl",
     "spans": [{"start": 4, "end": 12, "severity": "minor", "confidence": 0.61}]}

- ``segment`` (1-based line number of the segment in the system's output),
  ``system``, and ``annotator`` (a person) or ``metric`` (a metric's own
  spans; xCOMET-style output) are required; ``score`` (a number, e.g. ESA's
  0-100) is optional.
- ``spans`` is a list, empty when no error was found. Each span has
  ``start`` and ``end``, character offsets ``[start, end)`` into the text
  (code points, as Python indexes a string; ``start < end``; both ``null``
  for an error without position), ``severity`` (minor, major, critical or
  neutral; any case), and optionally ``category``, ``confidence`` (a number)
  and ``side`` (``target``, the default, or ``source``).
- A file holds either annotators' or metrics' spans (several metrics may
  share a file). Blank lines are ignored; other keys are ignored; one key
  ``(system, segment, annotator)`` appears once.
- Given the texts, every span must end inside its text.

Every refusal is an :class:`~scoring.errors.InputFileError` naming the file,
the line and the problem.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from scoring.errors import InputFileError
from scoring.spans.model import (
    HUMAN,
    METRIC,
    Span,
    SpanAnnotation,
    SpanAnnotations,
    check_offsets,
    shorten,
    span_problem,
)
from scoring.textfiles import decode_segments

FORMAT = "spans-jsonl"
TextLookup = Callable[[str, int, str], "str | None"]


class _LineError(Exception):
    """A problem of one line, turned into an InputFileError with its place."""


def parse_spans_jsonl(
    data: bytes,
    name: str,
    *,
    kind: str | None = None,
    texts: TextLookup | None = None,
) -> SpanAnnotations:
    """Read the bytes of a spans JSON lines file called ``name``.

    ``kind`` (``"human"`` or ``"metric"``) is what the caller expects; by
    default the first line decides. ``texts(system, segment, side)`` gives a
    text to check offsets against (``None`` where unknown).

    >>> line = '{"segment": 1, "system": "A", "metric": "m", "spans": [{"start": 0, "end": 5, "severity": "Major"}]}'
    >>> result = parse_spans_jsonl(line.encode(), "m.jsonl")
    >>> result.kind, result.annotations[0].spans[0].severity
    ('metric', 'major')
    """
    if kind not in (None, HUMAN, METRIC):
        raise ValueError(f"kind must be {HUMAN!r} or {METRIC!r}, not {kind!r}")
    lines = decode_segments(data, name, strip_byte_order_mark=True)
    annotations: list[SpanAnnotation] = []
    seen: dict[tuple[str, int, str], int] = {}
    for index, text in enumerate(lines):
        line_number = index + 1
        if not text.strip():
            continue
        try:
            annotation, line_kind = _annotation(text, line_number)
            if kind is None:
                kind = line_kind
            elif line_kind != kind:
                raise _LineError(_kind_problem(kind, line_kind))
            earlier = seen.setdefault(annotation.key, line_number)
            if earlier != line_number:
                raise _LineError(
                    f"system {shorten(annotation.system)!r}, segment "
                    f"{annotation.segment}, {line_kind} "
                    f"{shorten(annotation.annotator)!r} again (first on line {earlier})"
                )
        except _LineError as error:
            problem = str(error)
            raise InputFileError(
                f"{name}: line {line_number}: {problem}", name, line_number, problem
            ) from None
        annotations.append(annotation)
    if texts is not None:
        check_offsets(annotations, texts, name)
    return SpanAnnotations(
        annotations=tuple(annotations),
        kind=kind or HUMAN,
        format=FORMAT,
        source=name,
        rows=len(annotations),
    )


def write_spans_jsonl(annotations: Iterable[SpanAnnotation], kind: str = HUMAN) -> str:
    """The JSON lines text of ``annotations`` (``kind``: human or metric).

    :func:`parse_spans_jsonl` reads it back to the same annotations (texts,
    documents and lines, which the format does not carry, aside).
    """
    if kind not in (HUMAN, METRIC):
        raise ValueError(f"kind must be {HUMAN!r} or {METRIC!r}, not {kind!r}")
    return "".join(
        json.dumps(annotation.to_dict(kind), ensure_ascii=False) + "\n"
        for annotation in annotations
    )


def _kind_problem(expected: str, found: str) -> str:
    if expected == HUMAN:
        return (
            "a metric's spans in a file of annotators' spans (expected \"annotator\")"
        )
    return 'an annotator\'s spans in a file of metric spans (expected "metric")'


def _annotation(text: str, line_number: int) -> tuple[SpanAnnotation, str]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise _LineError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(record, dict):
        raise _LineError("expected a JSON object per line")
    if ("annotator" in record) == ("metric" in record):
        raise _LineError('give exactly one of "annotator" and "metric"')
    kind = HUMAN if "annotator" in record else METRIC
    who = _name(record, "annotator" if kind == HUMAN else "metric")
    segment = record.get("segment")
    if isinstance(segment, bool) or not isinstance(segment, int) or segment < 1:
        raise _LineError('"segment" must be a positive integer (1-based line number)')
    spans = record.get("spans")
    if not isinstance(spans, list):
        raise _LineError('"spans" must be a list (empty when there is no error)')
    return (
        SpanAnnotation(
            segment=segment,
            system=_name(record, "system"),
            annotator=who,
            spans=tuple(_span(item, number) for number, item in enumerate(spans, 1)),
            score=_score(record.get("score")),
            line=line_number,
        ),
        kind,
    )


def _name(record: dict[str, Any], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _LineError(f'"{key}" must be a non-empty string')
    return value.strip()


def _score(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _LineError('"score" must be a number or null')
    if not math.isfinite(value):
        raise _LineError('"score" must be a finite number')
    return float(value)


def _span(item: object, number: int) -> Span:
    if not isinstance(item, dict):
        raise _LineError(f"span {number}: expected an object")
    for key in ("start", "end", "severity"):
        if key not in item:
            raise _LineError(f'span {number}: "{key}" is missing')
    severity = item["severity"]
    severity = severity.strip().lower() if isinstance(severity, str) else severity
    side = item.get("side", "target")
    side = side.strip().lower() if isinstance(side, str) else side
    confidence = item.get("confidence")
    problem = span_problem(item["start"], item["end"], severity, side, confidence)
    if problem:
        raise _LineError(f"span {number}: {problem}")
    category = item.get("category")
    if category is not None and not isinstance(category, str):
        raise _LineError(f'span {number}: "category" must be a string or null')
    return Span(
        start=item["start"],
        end=item["end"],
        severity=severity,
        category=category.strip() or None if category is not None else None,
        side=side,
        confidence=float(confidence) if confidence is not None else None,
    )
