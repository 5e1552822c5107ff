"""Span-level meta-evaluation computed by a worker: asking for one, reading
the spans, running it, and who may see which.

A request is a test set and the settings (bootstrap resamples, seed).
Asking again on unchanged spans returns the stored or waiting
:class:`~mtdash.judgments.models.ErrorSpanEvaluation` (its ``inputs``
digest, :func:`spans_digest`); a failed one is not returned, so asking
again after a failure queues a new job.

The worker (:func:`run_span_evaluation`) claims the row, reads the human
and metric spans of the visible outputs (:func:`read_spans`) and runs
``scoring.stats.evaluate_spans`` once per metric, in every variant and both
averagings with the same seed (progress: metrics done), and stores what
``python -m scoring spans --json`` prints for the same spans, with the
digest of what it read. A metric none of whose segments has human spans is
listed with the library's message; a test set without human spans fails
the job with the message.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from django.db import transaction
from django.db.models import Count, QuerySet

from mtdash.common.queueing import send_job_tasks
from mtdash.common.running import run_claimed
from mtdash.evaluation.models import TestSet
from mtdash.judgments.error_spans.agreement_options import (
    CONFIDENCE,
    AgreementSettings,
)
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.meta_evaluation.jobs import RequestProblem, plain
from mtdash.judgments.models import (
    ErrorSpan,
    ErrorSpanAnnotation,
    ErrorSpanEvaluation,
    JudgmentImport,
)
from scoring import ScoringError
from scoring import __version__ as SCORING_VERSION
from scoring.spans import Span, SpanAnnotation
from scoring.stats import SPAN_AVERAGES, SPAN_VARIANTS, evaluate_spans

logger = logging.getLogger(__name__)

# Bump when what a job stores changes shape: stored results stop matching.
RESULT_VERSION = 1
# Plain strings: the kinds as the database gives them back (dict keys).
HUMAN, METRIC = "human", "metric"
# Share of the progress bar for reading the spans; the metrics share the rest.
READ_SHARE = 10
# Rows a query hands over at a time while the spans are read.
_CHUNK = 50_000
_SPAN_COLUMNS = ("start", "end", "severity", "category", "side", "confidence")


def span_evaluations_of(user) -> QuerySet[ErrorSpanEvaluation]:
    """The error-span evaluations of the test sets of the user's teams."""
    return ErrorSpanEvaluation.objects.filter(test_set__team__members=user)


def span_kinds(visible: dict[int, str]) -> dict[str, int]:
    """{kind: annotations} of the visible outputs (kinds without any absent)."""
    return dict(
        ErrorSpanAnnotation.objects.filter(output_id__in=list(visible))
        .order_by()
        .values("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    )


def span_imports(test_set: TestSet) -> list[tuple[int, str, int, int]]:
    """(id, whose spans, annotations, spans) of the test set's imports that
    hold error spans, by id."""
    return list(
        JudgmentImport.objects.filter(test_set=test_set)
        .exclude(n_annotations=0)
        .order_by("pk")
        .values_list("pk", "span_source", "n_annotations", "n_spans")
    )


def has_metric_spans(test_set: TestSet) -> bool:
    """Whether an import gave the test set a metric's spans (one query on
    the imports; outputs hidden since are not looked at). A batch that names
    no source (not an error-span import) is no metric's."""
    return any(source not in ("", HUMAN) for _, source, _, _ in span_imports(test_set))


def spans_digest(
    test_set: TestSet, visible: dict[int, str], settings: AgreementSettings
) -> str:
    """Digest of everything a result depends on: the visible outputs and
    their systems' names, the imports that hold the spans (spans are stored
    and deleted only with their import, which counts them), the settings
    and the versions. One query on the imports, so a page can afford it
    (aggregating the spans themselves took 145 ms at 20 systems x 2,000
    segments)."""
    parts = (
        sorted(visible.items()),
        span_imports(test_set),
        settings.to_dict(),
        CONFIDENCE,
        SCORING_VERSION,
        RESULT_VERSION,
    )
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


def _settings_of(job: ErrorSpanEvaluation) -> AgreementSettings:
    return AgreementSettings(job.n_samples, job.seed)


def is_stale(job: ErrorSpanEvaluation, visible: dict[int, str]) -> bool:
    """Whether the spans (or the outputs shown) changed since ``job`` ran."""
    return spans_digest(job.test_set, visible, _settings_of(job)) != job.inputs


def latest_job(
    test_set: TestSet, settings: AgreementSettings | None = None
) -> ErrorSpanEvaluation | None:
    """The newest evaluation of the test set (with these settings, on the
    current spans, if ``settings`` is given), whatever its status."""
    jobs = ErrorSpanEvaluation.objects.filter(test_set=test_set)
    if settings is not None:
        visible = visible_outputs(test_set)
        jobs = jobs.filter(inputs=spans_digest(test_set, visible, settings))
    return jobs.first()


def request_span_evaluation(
    test_set: TestSet, settings: AgreementSettings, user=None
) -> tuple[ErrorSpanEvaluation, bool]:
    """(the job, True if it is new): the stored or waiting evaluation of the
    test set with these settings on unchanged spans, else a new one, sent to
    a worker once the transaction commits. :class:`RequestProblem` if the
    test set lacks human or metric spans."""
    visible = visible_outputs(test_set)
    kinds = span_kinds(visible)
    if not kinds.get(METRIC):
        raise RequestProblem(
            "test_set", "no metric has error spans on this test set's outputs"
        )
    if not kinds.get(HUMAN):
        raise RequestProblem(
            "test_set",
            "no human error spans on this test set's outputs (import MQM or ESA "
            "annotations)",
        )
    digest = spans_digest(test_set, visible, settings)
    with transaction.atomic():
        # Two identical requests at once: the second waits here, then finds
        # the first one's job.
        TestSet.objects.select_for_update().filter(pk=test_set.pk).first()
        existing = (
            ErrorSpanEvaluation.objects.filter(test_set=test_set, inputs=digest)
            .exclude(status=ErrorSpanEvaluation.Status.FAILED)
            .first()
        )
        if existing is not None:
            return existing, False
        job = ErrorSpanEvaluation.objects.create(
            test_set=test_set,
            created_by=user if user is not None and user.is_authenticated else None,
            n_samples=settings.n_samples,
            seed=settings.seed,
            inputs=digest,
        )
    transaction.on_commit(lambda: send_job_tasks(ErrorSpanEvaluation, [job.pk]))
    return job, True


@dataclass(frozen=True)
class StoredSpans:
    """The visible outputs' annotations as the library takes them: the
    human ones, each metric's (by name), and what they came from."""

    human: tuple[SpanAnnotation, ...]
    metrics: dict[str, tuple[SpanAnnotation, ...]]
    files: dict[int, tuple[str, str]]  # import id -> (file name, format)
    imports: dict[tuple[str, str], list[int]]  # (kind, annotator) -> import ids


def read_spans(visible: dict[int, str]) -> StoredSpans:
    """Every annotation of the visible outputs with its spans, ordered by
    system, segment and annotator (two queries, and one on the imports).

    The cyclic garbage collector is paused meanwhile: what is read holds no
    cycles, but the hundreds of thousands of objects built set off full
    collections that walk every one of them again, a third of the CPU
    (20 systems x 2,000 segments: 2.4 s CPU with it, 1.45 s without)."""
    was_collecting = gc.isenabled()
    gc.disable()
    try:
        return _read_spans(visible)
    finally:
        if was_collecting:
            gc.enable()


def _read_spans(visible: dict[int, str]) -> StoredSpans:
    annotations = ErrorSpanAnnotation.objects.filter(output_id__in=list(visible))
    spans_of = _spans_by_annotation(annotations)
    human: list[SpanAnnotation] = []
    metrics: dict[str, list[SpanAnnotation]] = defaultdict(list)
    imports: dict[tuple[str, str], set[int]] = defaultdict(set)
    no_spans: tuple[Span, ...] = ()
    for _, index, annotator, pk, output, kind, score, batch in _ordered_annotations(
        annotations, visible
    ):
        annotation = _stored_annotation(
            index + 1, visible[output], annotator, spans_of.get(pk, no_spans), score
        )
        (human if kind == HUMAN else metrics[annotator]).append(annotation)
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


def _spans_by_annotation(
    annotations: QuerySet[ErrorSpanAnnotation],
) -> dict[int, tuple[Span, ...]]:
    """{annotation id: its spans by id} of the annotations' spans.

    The spans are read in (annotation, id) order, which PostgreSQL takes
    from the annotation index with a small sort per annotation (ordering by
    id alone made it sort every span, on disk, with a second worker) and
    SQLite from that index as it is. Equal spans are
    one object: most spans repeat the offsets, severity and category of
    others, and a Span (frozen) checks its fields when built, so each
    distinct one is built and checked once."""
    rows = (
        ErrorSpan.objects.filter(annotation__in=annotations.order_by().values("pk"))
        .order_by("annotation_id", "pk")
        .values_list("annotation_id", *_SPAN_COLUMNS)
    )
    built: dict[tuple, Span] = {}
    grouped: dict[int, list[Span]] = defaultdict(list)
    for row in rows.iterator(chunk_size=_CHUNK):
        values = row[1:]
        span = built.get(values)
        # A confidence of 0.0 and one of -0.0 are equal keys but print
        # differently: such spans are not shared.
        if span is None or values[-1] == 0:
            start, end, severity, category, side, confidence = values
            span = built[values] = Span(
                start, end, severity, category or None, side, confidence
            )
        grouped[row[0]].append(span)
    return {pk: tuple(spans) for pk, spans in grouped.items()}


def _ordered_annotations(
    annotations: QuerySet[ErrorSpanAnnotation], visible: dict[int, str]
) -> list[tuple]:
    """(system's place, index, annotator, id, output, kind, score, import)
    of each annotation, sorted: by system name, segment and annotator as
    plain tuples (no key function per row); the id after them only decides
    between two outputs of one system name, which the database gave in no
    set order before either."""
    place = {name: n for n, name in enumerate(sorted(set(visible.values())))}
    place_of = {output: place[name] for output, name in visible.items()}
    rows = annotations.order_by().values_list(
        "pk", "output_id", "index", "annotator", "kind", "score", "batch"
    )
    ordered = [
        (place_of[output], index, annotator, pk, output, kind, score, batch)
        for pk, output, index, annotator, kind, score, batch in rows.iterator(
            chunk_size=_CHUNK
        )
    ]
    ordered.sort()
    return ordered


# SpanAnnotation's fields after the five an annotation read here sets.
_UNREAD_FIELDS = {field.name: field.default for field in fields(SpanAnnotation)[5:]}


def _stored_annotation(
    segment: int, system: str, annotator: str, spans: tuple[Span, ...], score
) -> SpanAnnotation:
    """``SpanAnnotation(segment, system, annotator, spans, score)``, the
    same object (equal, same fields and repr), built without the frozen
    dataclass's ``__init__``: that sets its nine fields one
    ``object.__setattr__`` at a time, 0.7 s of CPU for 200,000 annotations
    (a third of the reading); filling the instance's dict takes a third of
    that. SpanAnnotation checks nothing when built (no ``__post_init__``);
    tests/web/judgments/test_span_reading.py asserts that it still does
    not and that both ways give the same annotation."""
    annotation = object.__new__(SpanAnnotation)
    vars(annotation).update(
        {
            "segment": segment,
            "system": system,
            "annotator": annotator,
            "spans": spans,
            "score": score,
            **_UNREAD_FIELDS,
        }
    )
    return annotation


def _summary(
    stored: StoredSpans, kind: str, annotations: tuple[SpanAnnotation, ...]
) -> dict[str, Any]:
    """What the command line's ``SpanAnnotations.summary()`` says of a file,
    said of the imports the annotations came from."""
    annotators = tuple(dict.fromkeys(a.annotator for a in annotations))
    ids = sorted({pk for name in annotators for pk in stored.imports[kind, name]})
    return {
        "file": ", ".join(stored.files[pk][0] for pk in ids),
        "format": ", ".join(sorted({stored.files[pk][1] for pk in ids})),
        "kind": kind,
        "annotations": len(annotations),
        "spans": sum(len(a.spans) for a in annotations),
        "systems": len({a.system for a in annotations}),
        "annotators": sorted(annotators),
        "warnings": [],
        "imports": ids,
    }


def run_span_evaluation(job_id: int) -> bool:
    """Compute and store evaluation ``job_id``; False if another worker has
    it or it is finished. Running it twice stores the same result."""
    jobs = ErrorSpanEvaluation.objects.filter(pk=job_id)
    if not jobs.claim():
        logger.info("error-span evaluation %s is not queued any more", job_id)
        return False
    job = jobs.select_related("test_set").get()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["fields"] = evaluate(job, jobs.report_progress_or_stop)
        except ScoringError as error:
            outcome["error"] = str(error)
        jobs.hold_lease()

    if run_claimed(jobs, work):
        if "error" in outcome:
            jobs.fail(outcome["error"])
        else:
            jobs.succeed(**outcome["fields"])
    return True


def evaluate(
    job: ErrorSpanEvaluation, progress: Callable[[int], object] | None = None
) -> dict[str, Any]:
    """The fields a finished job stores: ``result`` (the command line's
    ``--json`` object for every variant and both averagings, plus
    ``metrics_failed`` and the ``seconds`` spent reading and computing) and
    ``inputs``, the digest of what it read."""
    settings = _settings_of(job)
    visible = visible_outputs(job.test_set)
    # Before reading: spans imported meanwhile show the result stale.
    digest = spans_digest(job.test_set, visible, settings)
    started = time.perf_counter()
    stored = read_spans(visible)
    read_seconds = time.perf_counter() - started
    if not stored.human:
        raise ScoringError(
            "the test set has no human error spans on its visible outputs "
            "(import MQM or ESA annotations)"
        )
    if progress is not None:
        progress(READ_SHARE)
    evaluations, failed = [], []
    started = time.perf_counter()
    for done, (metric, predicted) in enumerate(stored.metrics.items(), start=1):
        try:
            evaluations.append(
                evaluate_spans(
                    stored.human,
                    predicted,
                    variants=SPAN_VARIANTS,
                    averages=SPAN_AVERAGES,
                    n_samples=settings.n_samples,
                    seed=settings.seed,
                    confidence=CONFIDENCE,
                )
            )
        except ScoringError as error:
            failed.append({"metric": metric, "error": str(error)})
        if progress is not None:
            share = (100 - READ_SHARE) * done // len(stored.metrics)
            progress(READ_SHARE + share)
    if not evaluations:
        problems = "; ".join(f"{f['metric']}: {f['error']}" for f in failed)
        raise ScoringError(f"no metric could be evaluated ({problems})")
    result = {
        "human": _summary(stored, HUMAN, stored.human),
        "metric_files": [
            _summary(stored, METRIC, annotations)
            for annotations in stored.metrics.values()
        ],
        "variants": list(SPAN_VARIANTS),
        "averages": list(SPAN_AVERAGES),
        "metrics": [evaluation.to_dict() for evaluation in evaluations],
        "metrics_failed": failed,
        "seconds": {
            "read": round(read_seconds, 3),
            "statistics": round(time.perf_counter() - started, 3),
        },
    }
    return {"result": plain(result), "inputs": digest}
