"""Error spans: one marked error, and one annotator's (or metric's) errors of
one translation.

Offsets are **character offsets** ``[start, end)`` into the text of the
span's ``side`` (``"target"``, the translation, or ``"source"``), counted in
Unicode code points as Python indexes a ``str`` (JavaScript's
``String.length`` counts UTF-16 units instead: the two differ on characters
outside the Basic Multilingual Plane, such as emoji). ``text[start:end]`` is
the marked text.

An error can have no position (``start`` and ``end`` both ``None``): an MQM
row that marks nothing, such as a Non-translation tag on the whole segment or
an omission not anchored in the source. It counts in the MQM score and is
left out of span-level comparisons, which need characters.

Severities are lower-cased on reading; :data:`SEVERITIES` are the known
ones. ``critical`` is kept as found (MQM scores it on its own weight); the
span comparisons treat it as ``major``, as WMT25's error-span scoring does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import InputFileError, ScoringError

SEVERITIES = ("minor", "major", "critical", "neutral")
SIDES = ("target", "source")
HUMAN = "human"
METRIC = "metric"


@dataclass(frozen=True)
class Span:
    """One error: where (``side``, ``[start, end)``), how bad, of what kind.

    ``category`` is free text as the file has it (``"Fluency/Punctuation"``);
    ``confidence`` is a metric's probability that the span is an error
    (xCOMET-style output), ``None`` for human spans.
    """

    start: int | None
    end: int | None
    severity: str
    category: str | None = None
    side: str = "target"
    confidence: float | None = None

    def __post_init__(self) -> None:
        problem = span_problem(
            self.start, self.end, self.severity, self.side, self.confidence
        )
        if problem:
            raise ScoringError(problem)

    @property
    def has_position(self) -> bool:
        """Whether the span marks characters (span comparisons need them)."""
        return self.start is not None

    @property
    def length(self) -> int:
        """Marked characters (0 for an error without position)."""
        return 0 if self.start is None or self.end is None else self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, as one element of ``spans`` in the JSON lines file."""
        data: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "severity": self.severity,
        }
        if self.category is not None:
            data["category"] = self.category
        if self.side != "target":
            data["side"] = self.side
        if self.confidence is not None:
            data["confidence"] = self.confidence
        return data


def span_problem(
    start: object,
    end: object,
    severity: object,
    side: object,
    confidence: object = None,
) -> str | None:
    """What is wrong with these span fields, or ``None`` when they are fine.

    >>> span_problem(3, 3, "minor", "target")
    'start 3 is not before end 3 (a span marks at least one character)'
    >>> span_problem(0, 4, "big", "target")
    "unknown severity 'big' (known: minor, major, critical, neutral)"
    """
    if (start is None) != (end is None):
        return "start and end must both be given, or both be null (no position)"
    if start is not None:
        for name, value in (("start", start), ("end", end)):
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{name} must be an integer character offset"
        assert isinstance(start, int) and isinstance(end, int)
        if start < 0:
            return f"start {start} is negative"
        if start >= end:
            return (
                f"start {start} is not before end {end} "
                "(a span marks at least one character)"
            )
    if severity not in SEVERITIES:
        shown = severity if isinstance(severity, str) else type(severity).__name__
        return f"unknown severity {shorten(shown)!r} (known: {', '.join(SEVERITIES)})"
    if side not in SIDES:
        return f"side must be one of {', '.join(SIDES)}, not {shorten(str(side))!r}"
    if confidence is not None:
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
            return "confidence must be a number"
        if not math.isfinite(confidence):
            return "confidence must be a finite number"
    return None


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters: messages never echo long input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class SpanAnnotation:
    """The errors one annotator (or metric) marked in one system's segment.

    ``segment`` is 1-based (the line of the segment in the system's output,
    as WMT's ``seg_id``). ``annotator`` names the person or, for a metric's
    spans, the metric. ``score`` is a score given with the spans (ESA's
    0-100, a metric's own score), ``None`` when there is none (MQM rows:
    the score is computed from the spans). ``spans`` is empty when no error
    was found. ``source_text``/``target_text`` are the texts the file gave
    (MQM rows carry them), ``None`` otherwise; ``line`` is the annotation's
    first line in its file.
    """

    segment: int
    system: str
    annotator: str
    spans: tuple[Span, ...]
    score: float | None = None
    source_text: str | None = None
    target_text: str | None = None
    document: str | None = None
    line: int = 0

    @property
    def key(self) -> tuple[str, int, str]:
        """``(system, segment, annotator)``: one annotation per key in a file."""
        return (self.system, self.segment, self.annotator)

    def to_dict(self, kind: str = HUMAN) -> dict[str, Any]:
        """One line of the JSON lines format (``kind``: human or metric)."""
        data: dict[str, Any] = {
            "segment": self.segment,
            "system": self.system,
            ("metric" if kind == METRIC else "annotator"): self.annotator,
        }
        if self.score is not None:
            data["score"] = self.score
        data["spans"] = [span.to_dict() for span in self.spans]
        return data


@dataclass(frozen=True)
class SpanAnnotations:
    """What a span file holds: annotations in file order, and what it was.

    ``kind`` is ``"human"`` (annotators) or ``"metric"`` (a metric's spans);
    ``format`` ``"mqm-tsv"`` or ``"spans-jsonl"``; ``source`` the file name;
    ``rows`` the data lines read (MQM: one per error or No-error row);
    ``warnings`` what was read but is worth a look (the first few, with
    their lines).
    """

    annotations: tuple[SpanAnnotation, ...]
    kind: str
    format: str
    source: str = ""
    rows: int = 0
    warnings: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.annotations)

    @property
    def systems(self) -> tuple[str, ...]:
        """System names in order of first appearance."""
        return tuple(dict.fromkeys(a.system for a in self.annotations))

    @property
    def annotators(self) -> tuple[str, ...]:
        """Annotator (or metric) names in order of first appearance."""
        return tuple(dict.fromkeys(a.annotator for a in self.annotations))

    @property
    def n_spans(self) -> int:
        """Errors over all annotations (with or without position)."""
        return sum(len(a.spans) for a in self.annotations)

    def of_annotator(self, annotator: str) -> tuple[SpanAnnotation, ...]:
        """The annotations of one annotator (or metric), in file order."""
        return tuple(a for a in self.annotations if a.annotator == annotator)

    def summary(self) -> dict[str, Any]:
        """Counts for a report (JSON-safe)."""
        return {
            "file": self.source,
            "format": self.format,
            "kind": self.kind,
            "annotations": len(self.annotations),
            "spans": self.n_spans,
            "systems": len(self.systems),
            "annotators": list(self.annotators),
            "warnings": list(self.warnings),
        }


def check_offsets(
    annotations: Sequence[SpanAnnotation],
    texts: Any,
    name: str,
) -> None:
    """Check every positioned span lies inside its text.

    ``texts(system, segment, side)`` returns the text of that side (or
    ``None`` when it is unknown, e.g. a system the caller does not hold).
    Raises :class:`~scoring.errors.InputFileError` naming the file, the
    annotation's line and the span.
    """
    for annotation in annotations:
        for number, span in enumerate(annotation.spans, start=1):
            if span.end is None:
                continue
            text = texts(annotation.system, annotation.segment, span.side)
            if text is None or span.end <= len(text):
                continue
            problem = (
                f"span {number} of system {shorten(annotation.system)!r}, segment "
                f"{annotation.segment}: end {span.end} is past the end of the "
                f"{span.side} text ({len(text)} characters)"
            )
            raise InputFileError(
                f"{name}: line {annotation.line}: {problem}",
                name,
                annotation.line,
                problem,
            )
