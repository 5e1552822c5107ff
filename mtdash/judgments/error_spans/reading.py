"""Reading stored error spans: the columns that make a span, read the same
way by the sentence page, the segments of a category and the span-level
meta-evaluation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from django.db.models import QuerySet

from mtdash.evaluation.span_view.annotations import ShownSpan
from mtdash.judgments.models import ErrorSpan


class SpanRow(NamedTuple):
    """One stored span with the annotation it belongs to."""

    annotation_id: int
    pk: int
    side: str
    start: int | None
    end: int | None
    severity: str
    category: str
    confidence: float | None

    def shown(self) -> ShownSpan:
        return ShownSpan(
            self.side,
            self.start,
            self.end,
            self.severity,
            self.category,
            self.confidence,
        )


def span_rows(spans: QuerySet[ErrorSpan]) -> Iterator[SpanRow]:
    """Each span of ``spans``, in the queryset's order, read 10,000 rows at a
    time: a whole test set's spans (the meta-evaluation's) never stand in
    memory as query rows all at once."""
    rows = spans.values_list(*SpanRow._fields)
    for row in rows.iterator(chunk_size=10_000):
        yield SpanRow._make(row)
