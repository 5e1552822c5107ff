"""One row per annotator (then per metric) of a sentence's error spans, as
the sentence page and the two-system comparison show them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

from mtdash.evaluation.models import Hypothesis, Segment, SystemOutput
from mtdash.evaluation.span_view.annotations import (
    SEVERITY_ORDER,
    SentenceAnnotation,
    annotations_of,
)
from mtdash.evaluation.span_view.filters import (
    FilterOptions,
    SpanFilters,
    filter_options,
)
from mtdash.evaluation.span_view.highlight import highlight, severity_class

# The legend's severities: the errors mildest first, then neutral marks.
LEGEND = tuple(
    (name, severity_class(name)) for name in (*SEVERITY_ORDER[1:], SEVERITY_ORDER[0])
)


@dataclass(frozen=True)
class UnplacedSpan:
    """An error without position (an MQM Non-translation of the whole
    segment): listed beside its row."""

    label: str
    css_class: str


@dataclass(frozen=True)
class AnnotationRow:
    """One annotator's spans of one sentence: ``target`` and ``source`` are
    the texts as escaped HTML with the shown spans marked (``source`` is
    ``None`` when no shown span is on the source side); ``output`` is the
    compare page's ``A`` or ``B`` (empty on the sentence page)."""

    annotator: str
    is_metric: bool
    score_name: str
    score: float | None
    target: SafeString
    source: SafeString | None
    unplaced: tuple[UnplacedSpan, ...]
    n_shown: int
    n_spans: int
    output: str = ""

    @property
    def score_text(self) -> str:
        return "" if self.score is None else f"{self.score_name} {self.score:g}"


@dataclass(frozen=True)
class SentenceSpans:
    """The rows a page shows, the selects' options and the chosen filters;
    ``n_annotations`` counts the annotations before filtering (0: the
    section is left out)."""

    rows: tuple[AnnotationRow, ...]
    options: FilterOptions
    filters: SpanFilters
    n_annotations: int

    @property
    def legend(self) -> tuple[tuple[str, str], ...]:
        return LEGEND


def annotation_row(
    annotation: SentenceAnnotation,
    target: str,
    source: str,
    filters: SpanFilters,
    output: str = "",
) -> AnnotationRow:
    shown = [s for s in annotation.spans if filters.keeps_span(s)]
    of_side = {
        side: [s for s in shown if s.side == side and s.has_position]
        for side in ("target", "source")
    }
    return AnnotationRow(
        annotator=annotation.annotator,
        is_metric=annotation.is_metric,
        score_name=annotation.score_name,
        score=annotation.score,
        target=highlight(target, of_side["target"]),
        source=highlight(source, of_side["source"]) if of_side["source"] else None,
        unplaced=tuple(
            UnplacedSpan(s.label, severity_class(s.severity))
            for s in shown
            if not s.has_position
        ),
        n_shown=len(shown),
        n_spans=len(annotation.spans),
        output=output,
    )


def sentence_spans(
    output: SystemOutput, index: int, target: str, source: str, filters: SpanFilters
) -> SentenceSpans:
    """The error spans of segment ``index`` (0-based) of ``output``, whose
    hypothesis is ``target`` and source ``source``."""
    annotations = annotations_of([output.pk], [index])
    return SentenceSpans(
        rows=tuple(
            annotation_row(a, target, source, filters)
            for a in annotations
            if filters.keeps(a)
        ),
        options=filter_options(annotations, filters),
        filters=filters,
        n_annotations=len(annotations),
    )


@dataclass(frozen=True)
class PairSpans:
    """The compare page's spans: each shown sentence's rows (by 0-based
    index; A's annotators, then B's) and the selects' options over them."""

    rows: dict[int, tuple[AnnotationRow, ...]]
    options: FilterOptions
    filters: SpanFilters
    n_annotations: int

    @property
    def legend(self) -> tuple[tuple[str, str], ...]:
        return LEGEND


def pair_spans(
    a: SystemOutput, b: SystemOutput, indices: Sequence[int], filters: SpanFilters
) -> PairSpans:
    """The spans of outputs ``a`` and ``b`` in the segments ``indices``; the
    texts are read only when there are spans to show."""
    annotations = annotations_of([a.pk, b.pk], indices)
    rows: dict[int, list[AnnotationRow]] = {}
    if annotations:
        letter = {a.pk: "A", b.pk: "B"}
        wanted = sorted({x.index for x in annotations})
        sources = dict(
            Segment.objects.filter(
                test_set_id=a.test_set_id, index__in=wanted
            ).values_list("index", "source")
        )
        targets = {
            (output_id, index): text
            for output_id, index, text in Hypothesis.objects.filter(
                output_id__in=(a.pk, b.pk), index__in=wanted
            ).values_list("output_id", "index", "text")
        }
        for annotation in sorted(
            annotations,
            key=lambda x: (letter[x.output_id], x.is_metric, x.annotator),
        ):
            if not filters.keeps(annotation):
                continue
            key = (annotation.output_id, annotation.index)
            rows.setdefault(annotation.index, []).append(
                annotation_row(
                    annotation,
                    targets.get(key, ""),
                    sources.get(annotation.index, ""),
                    filters,
                    letter[annotation.output_id],
                )
            )
    return PairSpans(
        rows={index: tuple(found) for index, found in rows.items()},
        options=filter_options(annotations, filters),
        filters=filters,
        n_annotations=len(annotations),
    )
