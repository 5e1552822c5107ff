"""What a source of error spans gives the sentence pages, and the call of
every registered source (:mod:`mtdash.common.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mtdash.common import registry

HUMAN = "human"
METRIC = "metric"
# From least to most severe: a piece of text covered by several spans takes
# the colour of the worst.
SEVERITY_ORDER = ("neutral", "minor", "major", "critical")


@dataclass(frozen=True)
class ShownSpan:
    """One marked error: code points ``[start, end)`` of the ``side``
    (``target`` or ``source``) text, or no position (both ``None``)."""

    side: str
    start: int | None
    end: int | None
    severity: str
    category: str = ""
    confidence: float | None = None  # a metric's

    @property
    def has_position(self) -> bool:
        return self.start is not None and self.end is not None

    @property
    def rank(self) -> int:
        """How severe (unknown severities rank as minor)."""
        if self.severity in SEVERITY_ORDER:
            return SEVERITY_ORDER.index(self.severity)
        return 1

    @property
    def label(self) -> str:
        """``major · Accuracy/Mistranslation`` (and a metric's confidence)."""
        parts = [self.severity, self.category or "no category"]
        if self.confidence is not None:
            parts.append(f"confidence {self.confidence:.2f}")
        return " · ".join(parts)


@dataclass(frozen=True)
class SentenceAnnotation:
    """The spans one annotator (``kind`` human) or one metric (``kind``
    metric) marked in segment ``index`` (0-based) of output ``output_id``,
    and the score that came with them: ``score_name`` says which (``MQM``,
    ``ESA``, or ``score`` for a metric's own)."""

    output_id: int
    index: int
    annotator: str
    kind: str
    score: float | None
    score_name: str
    spans: tuple[ShownSpan, ...]

    @property
    def is_metric(self) -> bool:
        return self.kind == METRIC


def annotations_of(
    output_ids: Sequence[int], indices: Sequence[int]
) -> list[SentenceAnnotation]:
    """Every registered source's annotations of those outputs' segments,
    humans first, then metrics, each by name."""
    found: list[SentenceAnnotation] = []
    if not output_ids or not indices:
        return found
    for source in registry.sentence_annotation_sources():
        found.extend(source(list(output_ids), list(indices)))
    found.sort(key=lambda a: (a.output_id, a.index, a.is_metric, a.annotator))
    return found
