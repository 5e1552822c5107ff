"""The segments with errors of a given category (and severity, annotator,
system): each with the matching spans marked in its texts, a page at a
time, linking to its sentence page."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.utils.safestring import SafeString

from mtdash.evaluation.models import Hypothesis, Segment, SystemOutput, TestSet
from mtdash.evaluation.span_view.annotations import ShownSpan
from mtdash.evaluation.span_view.highlight import highlight, severity_class
from mtdash.judgments.error_spans.breakdown import (
    NO_CATEGORY,
    BreakdownFilters,
    category_filter,
)
from mtdash.judgments.error_spans.options import HUMAN
from mtdash.judgments.error_spans.reading import span_rows
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation

PAGE_SIZE = 50


@dataclass(frozen=True)
class SegmentFilters:
    """Which spans: ``category`` (or a group: ``Accuracy`` keeps
    ``Accuracy/Omission``), ``severity``, whose (``source``: ``human`` or a
    metric; ``annotator``), and of which output (``None``: every one)."""

    category: str = ""
    severity: str = ""
    source: str = HUMAN
    annotator: str = ""
    output: int | None = None
    document: str = ""

    @classmethod
    def from_query(cls, query) -> SegmentFilters:
        def value(name: str) -> str:
            return str(query.get(name, "")).strip()[:200]

        output = value("output")
        return cls(
            category=value("category"),
            severity=value("severity"),
            source=value("source") or HUMAN,
            annotator=value("annotator"),
            output=int(output) if output.isdigit() else None,
            document=value("document"),
        )

    def spans(self, test_set: TestSet) -> QuerySet[ErrorSpan]:
        found = BreakdownFilters(self.source, self.annotator, self.document).spans(
            test_set
        )
        if self.output is not None:
            found = found.filter(annotation__output_id=self.output)
        return self.of_kind(found)

    def annotations(self, test_set: TestSet) -> QuerySet[ErrorSpanAnnotation]:
        """The annotations whose spans :meth:`of_kind` then filters."""
        found = BreakdownFilters(
            self.source, self.annotator, self.document
        ).annotations(test_set)
        if self.output is not None:
            found = found.filter(output_id=self.output)
        return found

    def of_kind(self, found: QuerySet[ErrorSpan]) -> QuerySet[ErrorSpan]:
        """``found``'s spans of the category and severity asked for."""
        if self.category:
            found = found.filter(category_filter(self.category))
        if self.severity:
            found = found.filter(severity=self.severity)
        return found

    def sentence_query(self) -> str:
        """The sentence page's filters that show these spans."""
        items = {
            "category": "" if self.category == NO_CATEGORY else self.category,
            "severity": self.severity,
            "annotator": self.annotator
            or (self.source if self.source != HUMAN else ""),
        }
        return urlencode({k: v for k, v in items.items() if v})

    def query_items(self) -> dict[str, str]:
        items = {
            "category": self.category,
            "severity": self.severity,
            "source": "" if self.source == HUMAN else self.source,
            "annotator": self.annotator,
            "output": "" if self.output is None else str(self.output),
            "document": self.document,
        }
        return {k: v for k, v in items.items() if v}


@dataclass(frozen=True)
class SegmentHit:
    """A segment of one output with its matching spans: the texts as escaped
    HTML with them marked (``source`` ``None`` when none is on that side)."""

    output_id: int
    system: str
    number: int  # 1-based
    document: str
    annotators: tuple[str, ...]
    n_spans: int
    target: SafeString
    source: SafeString | None
    unplaced: tuple[tuple[str, str], ...]  # (label, css class)


def segment_page(
    test_set: TestSet, filters: SegmentFilters, page: str | None
) -> tuple[Page, list[SegmentHit]]:
    """One page of the matching segments, by system name then number."""
    keys = (
        filters.spans(test_set)
        .values_list("annotation__output_id", "annotation__index")
        .order_by("annotation__output__system__name", "annotation__index")
        .distinct()
    )
    shown = Paginator(keys, PAGE_SIZE).get_page(page)
    return shown, _hits(test_set, filters, list(shown))


def _hits(
    test_set: TestSet, filters: SegmentFilters, keys: list[tuple[int, int]]
) -> list[SegmentHit]:
    if not keys:
        return []
    wanted = set(keys)
    output_ids = sorted({o for o, _ in keys})
    indices = sorted({i for _, i in keys})
    # The page's annotations first (through their (output, index) index),
    # then their spans: one join let PostgreSQL, before its statistics
    # caught up with an import, loop over every span of a category for
    # each annotation (25 s at 96,000 spans).
    annotations = {
        pk: (output_id, index, annotator)
        for pk, output_id, index, annotator in filters.annotations(test_set)
        .filter(output_id__in=output_ids, index__in=indices)
        .values_list("pk", "output_id", "index", "annotator")
        if (output_id, index) in wanted
    }
    spans: dict[tuple[int, int], list[tuple[str, ShownSpan]]] = defaultdict(list)
    found = filters.of_kind(
        ErrorSpan.objects.filter(annotation_id__in=list(annotations))
    )
    for row in sorted(
        span_rows(found), key=lambda row: (annotations[row.annotation_id][2], row.pk)
    ):
        output_id, index, annotator = annotations[row.annotation_id]
        spans[(output_id, index)].append((annotator, row.shown()))
    targets = {
        (o, i): text
        for o, i, text in Hypothesis.objects.filter(
            output_id__in=output_ids, index__in=indices
        ).values_list("output_id", "index", "text")
    }
    segments = {
        index: (source, document)
        for index, source, document in Segment.objects.filter(
            test_set=test_set, index__in=indices
        ).values_list("index", "source", "document_id")
    }
    systems = dict(
        SystemOutput.objects.filter(pk__in=output_ids).values_list("pk", "system__name")
    )
    hits = []
    for output_id, index in keys:
        found = [span for _, span in spans[(output_id, index)]]
        source, document = segments.get(index, ("", ""))
        on_source = [s for s in found if s.side == "source" and s.has_position]
        hits.append(
            SegmentHit(
                output_id=output_id,
                system=systems.get(output_id, ""),
                number=index + 1,
                document=document,
                annotators=tuple(
                    dict.fromkeys(a for a, _ in spans[(output_id, index)])
                ),
                n_spans=len(found),
                target=highlight(
                    targets.get((output_id, index), ""),
                    [s for s in found if s.side == "target"],
                ),
                source=highlight(source, on_source) if on_source else None,
                unplaced=tuple(
                    (s.label, severity_class(s.severity))
                    for s in found
                    if not s.has_position
                ),
            )
        )
    return hits
