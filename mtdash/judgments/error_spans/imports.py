"""Importing a file of error spans into a test set.

The file is read by :func:`scoring.spans.read_span_file` (an MQM TSV in the
WMT layout, or spans JSON lines), then each annotation, in file order, is
matched to its output and segment and checked (:mod:`.matching`), and must
not be stored already (one annotation per annotator, or metric, and
segment; one judgment per judge, segment and criterion). The first problem
is raised as an ``UploadProblem`` naming the file and line; only a file
without problems is stored, in one transaction.

Human annotations are judgments too, in the same batch (the
:class:`~mtdash.judgments.models.JudgmentImport` the spans hang from):

- an MQM TSV gives criterion ``mqm``: per rater (the judge), minus the
  weighted sum of their errors (:func:`scoring.spans.annotation_penalty`
  with the import's weights), the sign of the WMT files (0 = no error, more
  negative = worse). A new ``mqm`` criterion aggregates them as given (raw
  means over raters, then segments, as WMT does for MQM; no per-rater
  z-scores), so a system's score is :func:`scoring.spans.mqm_scores`'.
- spans JSON lines with scores give criterion ``esa`` (0–100, ESA's score
  as given by each annotator; standardised per annotator like DA).

They then feed the leaderboard's human columns and the metric evaluation
through the comparison job, as any import. A metric's spans (``source`` =
its name) are stored as that metric's, with no judgment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from mtdash.common.bulk_insert import insert_rows
from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.external_scores.imports import ExternalMetricProblem
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.import_checks import (
    Progress,
    check_data_size,
    problem_from,
)
from mtdash.judgments.error_spans.matching import MatchedAnnotation, SpanMatcher, short
from mtdash.judgments.error_spans.options import (
    AUTO,
    CRITERION_OF_FORMAT,
    MQM_TSV,
    ErrorSpanImportResult,
    SpanImportOptions,
    SystemSpans,
    import_summary,
)
from mtdash.judgments.imports.judgments import (
    MQM_SCALE,
    criteria_named,
    stored_judgment_keys,
)
from mtdash.judgments.models import (
    Criterion,
    ErrorSpan,
    ErrorSpanAnnotation,
    Judgment,
    JudgmentImport,
)
from mtdash.judgments.sources import keep_apart
from scoring import InputFileError
from scoring.spans import (
    FORMATS,
    MqmWeights,
    SpanAnnotations,
    annotation_penalty,
    detect_span_format,
    given_scores,
    mqm_scores,
    read_span_file,
)

_BATCH = 2000  # annotations per bulk insert (their spans and judgments with them)
# How each format's new criterion aggregates: MQM as WMT does (raw means,
# never standardised per rater; the judgments import's mqm too), ESA like DA
# (per-annotator z beside the raw).
_SCALE = {"mqm": MQM_SCALE, "esa": Criterion.Scale.RAW}


def import_error_spans(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    data: bytes,
    file_name: str,
    options: SpanImportOptions | None = None,
    *,
    progress: Progress | None = None,
) -> ErrorSpanImportResult:
    """Check and store a span file; raise ``UploadProblem`` (the file) or
    ``ExternalMetricProblem`` (a field) on the first problem, nothing
    stored. ``options`` default: auto-detected format, human spans, the
    default MQM weights."""
    options = options or SpanImportOptions()
    check_data_size(data, file_name)
    read = _read(data, file_name, options)
    weights = options.weights or MqmWeights()
    criterion = _criterion(test_set, read, options)
    scores = _scores(read, weights)
    matched = _check(test_set, read, options, criterion, scores)
    rows = list(zip(matched, scores))
    result = _store(test_set, user, read, options, criterion, weights, rows, progress)
    if criterion is not None:
        request_comparison(test_set.pk)  # the leaderboard's human columns
    return result


def span_import_batches(test_set: TestSet) -> QuerySet[JudgmentImport]:
    """The test set's error-span imports, newest first."""
    return JudgmentImport.objects.filter(
        test_set=test_set, layout__in=FORMATS
    ).select_related("imported_by")


def error_span_imports(test_set: TestSet) -> list[dict]:
    """The test set's error-span imports, newest first, as the API lists them."""
    return [import_summary(batch) for batch in span_import_batches(test_set)]


def _read(data: bytes, file_name: str, options: SpanImportOptions) -> SpanAnnotations:
    chosen = (
        detect_span_format(data, file_name)
        if options.format == AUTO
        else options.format
    )
    if options.weights is not None and chosen != MQM_TSV:
        raise ExternalMetricProblem(
            "weights",
            f"MQM weights score MQM TSV files; {short(file_name)} is read "
            f"as {chosen}, whose scores are given (leave weights empty)",
        )
    kind = "human" if options.is_human else "metric"
    try:
        read = read_span_file(data, file_name, format=chosen, kind=kind)
    except InputFileError as error:
        raise problem_from(error, file_name) from None
    if not read.annotations:
        raise UploadProblem(file_name, None, "no annotations: the file has no rows")
    return read


def _criterion(
    test_set: TestSet, read: SpanAnnotations, options: SpanImportOptions
) -> Criterion | None:
    """The criterion the file's judgments are of (saved or a new default),
    or None when it gives none (a metric's spans, JSON lines without scores)."""
    if not options.is_human:
        return None
    name = CRITERION_OF_FORMAT[read.format]
    if name == "esa" and all(a.score is None for a in read.annotations):
        return None
    criterion = criteria_named(test_set, {name}, {name: _SCALE[name]})[name]
    if criterion.scale == Criterion.Scale.Z:
        raise UploadProblem(
            read.source,
            None,
            f"criterion {name} of this test set holds z-scores as given in a file; "
            f"this file's {name} scores cannot join them",
        )
    return criterion


def _scores(read: SpanAnnotations, weights: MqmWeights) -> list[float | None]:
    """Each annotation's score: an MQM rater's (minus the weighted errors;
    + 0.0 makes 0 of -0), else the one given (ESA's, a metric's, or None)."""
    if read.format == MQM_TSV:
        return [-annotation_penalty(a, weights) + 0.0 for a in read.annotations]
    return [a.score for a in read.annotations]


def _check(
    test_set: TestSet,
    read: SpanAnnotations,
    options: SpanImportOptions,
    criterion: Criterion | None,
    scores: Sequence[float | None],
) -> list[MatchedAnnotation]:
    """Every annotation matched and checked, in file order (the first problem
    is the first in the file)."""
    name = read.source
    matcher = SpanMatcher(test_set, name)
    kind = "annotator" if options.is_human else "metric"
    stored = _stored_annotations(test_set, options, read)
    judged = stored_judgment_keys(test_set, {criterion.name}) if criterion else {}
    matched = []
    for annotation, score in zip(read.annotations, scores):
        line = annotation.line
        if not options.is_human and annotation.annotator != options.source:
            raise UploadProblem(
                name,
                line,
                f"spans of metric {short(annotation.annotator)!r}, but the import is "
                f"of {options.source!r}'s spans (the field source)",
            )
        found = matcher.match(annotation)
        what = (
            f"system {short(annotation.system)!r}, segment {annotation.segment}, "
            f"{kind} {short(annotation.annotator)!r}"
        )
        earlier = stored.get((found.output_id, found.index, annotation.annotator))
        if earlier is not None:
            raise UploadProblem(
                name, line, f"{what}: its spans were imported before (from {earlier})"
            )
        if criterion is not None and score is not None:
            if not criterion.admits(score):
                raise UploadProblem(
                    name,
                    line,
                    f"{what}: score {score:g} is out of range for {criterion.name} "
                    f"({criterion.range_label})",
                )
            key = (found.output_id, found.index, annotation.annotator, criterion.name)
            if key in judged:
                raise UploadProblem(
                    name,
                    line,
                    f"{what}: a judgment of {criterion.name} by this judge was "
                    f"imported before (from {judged[key]})",
                )
        matched.append(found)
    return matched


def _stored_annotations(
    test_set: TestSet, options: SpanImportOptions, read: SpanAnnotations
) -> dict[tuple[int, int, str], str]:
    """(output id, index, annotator) -> file name of the stored annotations
    of the file's annotators (or metric)."""
    rows = ErrorSpanAnnotation.objects.filter(
        output__test_set=test_set,
        kind="human" if options.is_human else "metric",
        annotator__in=read.annotators,
    ).values_list("output_id", "index", "annotator", "batch__file_name")
    return {(o, i, a): f for o, i, a, f in rows.iterator()}


def _store(
    test_set: TestSet,
    user: AbstractBaseUser | None,
    read: SpanAnnotations,
    options: SpanImportOptions,
    criterion: Criterion | None,
    weights: MqmWeights,
    rows: list[tuple[MatchedAnnotation, float | None]],
    progress: Progress | None,
) -> ErrorSpanImportResult:
    judged = Counter(
        item.annotation.system
        for item, score in rows
        if criterion is not None and score is not None
    )
    counts = {criterion.name: dict(sorted(judged.items()))} if criterion else {}
    is_mqm = read.format == MQM_TSV
    kind = "human" if options.is_human else "metric"
    left_out = False
    try:
        with transaction.atomic():
            existing = criterion is not None and criterion.pk is not None
            if criterion is not None and not existing:
                criterion.save()
            batch = JudgmentImport.objects.create(
                test_set=test_set,
                file_name=read.source[:255],
                layout=read.format,
                imported_by=user,
                n_judgments=judged.total(),
                counts=counts,
                span_source=options.source,
                n_annotations=len(rows),
                n_spans=read.n_spans,
                mqm_weights=weights.to_dict() if is_mqm else None,
            )
            if existing:
                left_out = keep_apart(criterion, batch)
            newest = 0
            for start in range(0, len(rows), _BATCH):
                chunk = rows[start : start + _BATCH]
                newest = _store_chunk(batch, kind, criterion, chunk, newest)
                if progress:
                    progress(min(start + _BATCH, len(rows)), len(rows))
    except IntegrityError:
        # Another import stored some of the same annotations or judgments
        # between our checks and our writes.
        raise UploadProblem(
            read.source,
            None,
            "another import stored spans or judgments of this test set at the same "
            "time; nothing of this file was kept, import it again to see what clashes",
        ) from None
    return ErrorSpanImportResult(
        import_id=batch.pk,
        file_name=read.source,
        format=read.format,
        source=options.source,
        n_annotations=len(rows),
        n_spans=read.n_spans,
        n_judgments=judged.total(),
        criterion=criterion.name if criterion is not None else None,
        systems=_systems(read, criterion, weights),
        weights=weights.to_dict() if is_mqm else None,
        left_out=left_out,
        warnings=read.warnings,
    )


def _store_chunk(
    batch: JudgmentImport,
    kind: str,
    criterion: Criterion | None,
    rows: list[tuple[MatchedAnnotation, float | None]],
    newest: int,
) -> int:
    """The annotations as plain rows, their ids read back in one query,
    then their spans and their judgments; returns the newest annotation id
    (``newest``: the last chunk's)."""
    # Not bulk_create: a model instance per annotation and the ORM's
    # preparation of each field were most of a large import's time.
    insert_rows(
        ErrorSpanAnnotation,
        ("output", "index", "annotator", "kind", "score", "batch", "line"),
        (
            (
                item.output_id,
                item.index,
                item.annotation.annotator,
                kind,
                score,
                batch.pk,
                item.annotation.line,
            )
            for item, score in rows
        ),
    )
    # This chunk's rows: the import's own (its batch, made in this
    # transaction), newer than its last chunk's; (output, index, annotator)
    # is unique within one kind.
    ids = {
        (output, index, annotator): pk
        for pk, output, index, annotator in ErrorSpanAnnotation.objects.filter(
            batch=batch, pk__gt=newest
        ).values_list("pk", "output_id", "index", "annotator")
    }
    stored = [
        ids[item.output_id, item.index, item.annotation.annotator] for item, _ in rows
    ]
    # Spans and judgments as plain rows (no ids read back): through
    # bulk_create they were most of a large import's time.
    insert_rows(
        ErrorSpan,
        ("annotation", "side", "start", "end", "severity", "category", "confidence"),
        (
            (
                annotation_id,
                span.side,
                span.start,
                span.end,
                span.severity,
                span.category or "",
                span.confidence,
            )
            for annotation_id, (item, _) in zip(stored, rows, strict=True)
            for span in item.annotation.spans
        ),
    )
    if criterion is not None:
        _store_judgments(batch, criterion, rows)
    return max(stored, default=newest)


def _store_judgments(
    batch: JudgmentImport,
    criterion: Criterion,
    rows: list[tuple[MatchedAnnotation, float | None]],
) -> None:
    insert_rows(
        Judgment,
        ("output", "index", "judge", "criterion", "value", "batch", "line"),
        (
            (
                item.output_id,
                item.index,
                item.annotation.annotator,
                criterion.pk,
                float(score),
                batch.pk,
                item.annotation.line,
            )
            for item, score in rows
            if score is not None
        ),
    )


def _systems(
    read: SpanAnnotations, criterion: Criterion | None, weights: MqmWeights
) -> dict[str, SystemSpans]:
    """Per system: annotations, spans and the library's system score (MQM
    with the import's weights, or the mean of the given scores)."""
    annotations = Counter(a.system for a in read.annotations)
    spans: Counter = Counter()
    for annotation in read.annotations:
        spans[annotation.system] += len(annotation.spans)
    scores: dict[str, float] = {}
    if criterion is not None:
        scores = (
            mqm_scores(read.annotations, weights)
            if read.format == MQM_TSV
            else given_scores(read.annotations)
        ).system_scores()
    return {
        system: SystemSpans(annotations[system], spans[system], scores.get(system))
        for system in read.systems
    }
