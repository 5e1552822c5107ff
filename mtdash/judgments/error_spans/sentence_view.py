"""The stored error spans of a few sentences, for the sentence page and the
two-system comparison (registered in ``JudgmentsConfig.ready`` as a source
of :func:`mtdash.common.registry.sentence_annotation_sources`).

Two queries whatever the number of annotators: the annotations, then their
spans, both through the ``(output, index)`` index of the annotations."""

from __future__ import annotations

from collections import defaultdict

from mtdash.evaluation.span_view.annotations import (
    HUMAN,
    SentenceAnnotation,
    ShownSpan,
)
from mtdash.judgments.error_spans.options import MQM_TSV
from mtdash.judgments.error_spans.reading import span_rows
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation


def score_name(kind: str, layout: str) -> str:
    """What an annotation's score is: MQM (computed from an MQM file's
    errors), ESA (given with spans JSON lines) or a metric's own score."""
    if kind != HUMAN:
        return "score"
    return "MQM" if layout == MQM_TSV else "ESA"


def sentence_annotations(
    output_ids: list[int], indices: list[int]
) -> list[SentenceAnnotation]:
    """Every annotation (human or metric) of those outputs' segments."""
    annotations = list(
        ErrorSpanAnnotation.objects.filter(
            output_id__in=output_ids, index__in=indices
        ).values_list(
            "pk", "output_id", "index", "annotator", "kind", "score", "batch__layout"
        )
    )
    if not annotations:
        return []
    spans: dict[int, list[ShownSpan]] = defaultdict(list)
    for row in span_rows(
        ErrorSpan.objects.filter(
            annotation__output_id__in=output_ids, annotation__index__in=indices
        ).order_by("annotation_id", "pk")
    ):
        spans[row.annotation_id].append(row.shown())
    return [
        SentenceAnnotation(
            output_id=output_id,
            index=index,
            annotator=annotator,
            kind=kind,
            score=score,
            score_name=score_name(kind, layout),
            spans=tuple(spans[pk]),
        )
        for pk, output_id, index, annotator, kind, score, layout in annotations
    ]
