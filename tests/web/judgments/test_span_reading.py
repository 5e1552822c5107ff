"""The span-level meta-evaluation's reading (``read_spans``) gives exactly
what a plain reading gives: every visible output's annotations ordered by
system, segment and annotator, each with its spans in id order (stored
interleaved with other annotations' spans), hidden outputs left out, and
the imports they came from."""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict

import pytest

from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.error_spans.agreement_jobs import StoredSpans, read_spans
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation, JudgmentImport
from scoring.spans import Span, SpanAnnotation

pytestmark = pytest.mark.django_db

SEGMENTS = 4
# (kind, annotator): two raters, two metrics, and a metric named like a
# rater (its annotations go to the metric, the rater's to the humans).
SOURCES = [
    ("human", "r2"),
    ("human", "r1"),
    ("metric", "xcomet"),
    ("metric", "judge"),
    ("metric", "r1"),
]
# Spans as stored (start, end, severity, category, side, confidence): equal
# starts, no position, the source side, a category, confidences of 0.0 and
# -0.0 (equal, printed differently; SQLite stores -0.0 as 0.0, PostgreSQL
# keeps it) and repeats of the same span.
SPAN_CHOICES = [
    (0, 4, "minor", "", "target", None),
    (0, 9, "major", "Accuracy/Mistranslation", "target", None),
    (0, 4, "major", "", "target", None),
    (None, None, "critical", "Non-translation", "target", None),
    (3, 7, "minor", "Fluency", "source", None),
    (5, 8, "minor", "", "target", 0.0),
    (5, 8, "minor", "", "target", -0.0),
    (5, 8, "minor", "", "target", 0.25),
    (10, 12, "neutral", "", "target", 0.9),
]


def plain_reading(visible: dict[int, str]) -> StoredSpans:
    """The reading before it was made faster: the spans joined to their
    annotations in (annotation, id) order, each built on its own, the
    annotations sorted with a key per row."""
    spans_of: dict[int, list[Span]] = defaultdict(list)
    rows = (
        ErrorSpan.objects.filter(annotation__output_id__in=list(visible))
        .order_by("annotation_id", "pk")
        .values_list(
            "annotation_id", "start", "end", "severity", "category", "side",
            "confidence",
        )
    )  # fmt: skip
    for annotation_id, start, end, severity, category, side, confidence in rows:
        spans_of[annotation_id].append(
            Span(start, end, severity, category or None, side, confidence)
        )
    human: list[SpanAnnotation] = []
    metrics: dict[str, list[SpanAnnotation]] = defaultdict(list)
    imports: dict[tuple[str, str], set[int]] = defaultdict(set)
    annotations = (
        ErrorSpanAnnotation.objects.filter(output_id__in=list(visible))
        .order_by()
        .values_list("pk", "output_id", "index", "annotator", "kind", "score", "batch")
    )
    for pk, output, index, annotator, kind, score, batch in sorted(
        annotations, key=lambda row: (visible[row[1]], row[2], row[3])
    ):
        annotation = SpanAnnotation(
            segment=index + 1,
            system=visible[output],
            annotator=annotator,
            spans=tuple(spans_of.get(pk, ())),
            score=score,
        )
        (human if kind == "human" else metrics[annotator]).append(annotation)
        imports[kind, annotator].add(batch)
    ids = {pk for batches in imports.values() for pk in batches}
    files = {
        pk: (name, layout)
        for pk, name, layout in JudgmentImport.objects.filter(pk__in=ids).values_list(
            "pk", "file_name", "layout"
        )
    }
    return StoredSpans(
        human=tuple(human),
        metrics={name: tuple(metrics[name]) for name in sorted(metrics)},
        files=files,
        imports={key: sorted(batches) for key, batches in imports.items()},
    )


@pytest.fixture
def mixed(team, owner):
    """Four systems (one hidden, created out of name order), five sources,
    annotations stored in shuffled order with 0 to 4 spans each, the spans
    shuffled across annotations, and a second test set's spans."""
    rng = random.Random(5)
    sources = [f"source sentence {n}" for n in range(SEGMENTS)]
    data = TestSetData("reading", "en", "de", "news", "", sources, {"A": sources})
    test_set = create_test_set(team, owner, data)
    other = create_test_set(team, owner, dataclasses.replace(data, name="other"))
    hypotheses = ["a translation of the sentence"] * SEGMENTS
    outputs = [
        create_system_output(test_set, owner, name, hypotheses, queue=False).output
        for name in ("gamma", "alpha", "hidden", "beta")
    ]
    outputs.append(
        create_system_output(other, owner, "alpha", hypotheses, queue=False).output
    )
    outputs[2].hidden = True
    outputs[2].save()
    rows = []
    for kind, annotator in SOURCES:
        batch = JudgmentImport.objects.create(
            test_set=test_set,
            file_name=f"{annotator}-{kind}.jsonl",
            layout="spans-jsonl",
            imported_by=owner,
            span_source="human" if kind == "human" else annotator,
        )
        for output in outputs:
            for index in range(SEGMENTS):
                if rng.random() < 0.8:  # some segments left unannotated
                    score = rng.choice([None, 12.5, -3.0])
                    rows.append((output, index, annotator, kind, score, batch))
    rng.shuffle(rows)
    annotations = ErrorSpanAnnotation.objects.bulk_create(
        ErrorSpanAnnotation(
            output=output, index=index, annotator=annotator, kind=kind,
            score=score, batch=batch, line=index + 1,
        )
        for output, index, annotator, kind, score, batch in rows
    )  # fmt: skip
    spans = [
        (annotation, rng.choice(SPAN_CHOICES))
        for annotation in annotations
        for _ in range(rng.choice([0, 0, 1, 2, 3, 4]))
    ]
    rng.shuffle(spans)
    ErrorSpan.objects.bulk_create(
        ErrorSpan(
            annotation=annotation, start=start, end=end, severity=severity,
            category=category, side=side, confidence=confidence,
        )
        for annotation, (start, end, severity, category, side, confidence) in spans
    )  # fmt: skip
    return test_set


def test_read_spans_gives_what_the_plain_reading_gives(mixed):
    visible = visible_outputs(mixed)
    assert sorted(visible.values()) == ["alpha", "beta", "gamma"]
    expected = plain_reading(visible)
    found = read_spans(visible)
    assert found == expected
    # Equal is not enough where -0.0 == 0.0: the same printed form, field by
    # field, in the same order.
    assert repr(found) == repr(expected)
    assert [a.key for a in found.human] == sorted(a.key for a in found.human)
    assert {a.annotator for a in found.human} == {"r1", "r2"}
    assert list(found.metrics) == ["judge", "r1", "xcomet"]
    spans = [s for a in found.human for s in a.spans]
    assert len(spans) > 20 and any(not a.spans for a in found.human)
    assert {
        s.confidence for m in found.metrics.values() for a in m for s in a.spans
    } >= {
        0.25,
        0.9,
    }


def test_an_annotation_read_is_one_built_by_its_constructor():
    """read_spans fills a SpanAnnotation's fields without its ``__init__``
    (faster): that stays right only while the class checks nothing when
    built and keeps its fields in a dict."""
    from mtdash.judgments.error_spans.agreement_jobs import _stored_annotation

    assert not hasattr(SpanAnnotation, "__post_init__")
    spans = (Span(0, 4, "minor"), Span(None, None, "critical", "Non-translation"))
    built = _stored_annotation(3, "alpha", "r1", spans, -2.5)
    plain = SpanAnnotation(3, "alpha", "r1", spans, -2.5)
    assert built == plain
    assert vars(built) == vars(plain)
    assert list(vars(built)) == list(vars(plain))
    assert repr(built) == repr(plain) and hash(built) == hash(plain)
