"""ESA screens (Error Span Annotation, Kocmi et al. 2024): the judge marks
error spans in the translation (and, for what it leaves out, in the source),
each minor or major with an optional category, then scores the translation
0–100.

What the browser sends is checked here, against the texts the judge was
shown (the stored source; the stored hypothesis, or the degraded copy of a
degraded screen): every span's offsets are characters ``[start, end)``
counted in code points, as :mod:`scoring.spans` counts them, and must lie
inside the text of their side. A refusal is a :class:`RatingRefused` naming
the field, the span and the problem; nothing is stored then.

A sampled item's answer is stored three times, like a rating: on its
:class:`Assignment` (score and spans), as an ``esa`` :class:`Judgment` of
the campaign's batch, and as an :class:`ErrorSpanAnnotation` (kind human,
annotator = username) with its :class:`ErrorSpan` rows in the same batch,
whose ``n_annotations`` and ``n_spans`` grow with it (the span-level
meta-evaluation's stale check reads them). Controls keep theirs on the
assignment only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import Segment
from mtdash.judgments.campaigns.judging import (
    RatingRefused,
    check_value,
    shown_text,
    store_judgment,
)
from mtdash.judgments.models import (
    Assignment,
    Campaign,
    ErrorSpan,
    ErrorSpanAnnotation,
    JudgmentImport,
)
from scoring import ScoringError
from scoring.spans import Span

SEVERITIES = ("minor", "major")
# MQM's top-level categories (and the accuracy ones ESA's source spans
# mean), offered as an optional label; the span pages count them as MQM's.
CATEGORIES = (
    "Accuracy/Mistranslation",
    "Accuracy/Omission",
    "Accuracy/Addition",
    "Accuracy/Untranslated",
    "Fluency/Grammar",
    "Fluency/Spelling",
    "Fluency/Punctuation",
    "Terminology",
    "Style",
    "Locale convention",
    "Other",
)
MAX_SPANS = 100
MAX_FIELD_CHARS = 50_000  # the spans field as sent
SIDE_NAMES = {"target": "translation", "source": "source"}


@dataclass(frozen=True)
class EsaAnswer:
    """A checked answer: the score (0–100, whole) and the spans."""

    score: float
    spans: tuple[Span, ...]

    def spans_json(self) -> list[dict]:
        return [
            {
                "side": span.side,
                "start": span.start,
                "end": span.end,
                "severity": span.severity,
                "category": span.category or "",
            }
            for span in self.spans
        ]


def shown_texts(assignment: Assignment) -> dict[str, str]:
    """The texts the judge sees, by side (the spans are offsets into them)."""
    source = (
        Segment.objects.filter(
            test_set_id=assignment.campaign.test_set_id, index=assignment.item.index
        )
        .values_list("source", flat=True)
        .first()
    )
    return {"target": shown_text(assignment), "source": source or ""}


def read_spans(raw: str, texts: dict[str, str]) -> tuple[Span, ...]:
    """The spans of the ``spans`` field (a JSON list), checked against
    ``texts`` (side -> text); :class:`RatingRefused` on the first problem."""
    if len(raw) > MAX_FIELD_CHARS:
        raise RatingRefused(
            f"spans: the field is {len(raw):,} characters long; at most "
            f"{MAX_FIELD_CHARS:,} are taken"
        )
    try:
        records = json.loads(raw or "[]")
    except json.JSONDecodeError as error:
        raise RatingRefused(
            f"spans: not JSON ({error.msg} at character {error.pos + 1})"
        ) from None
    if not isinstance(records, list):
        raise RatingRefused("spans: expected a list of spans")
    if len(records) > MAX_SPANS:
        raise RatingRefused(
            f"spans: {len(records)} spans; at most {MAX_SPANS} are taken per item"
        )
    spans = [_span(record, number, texts) for number, record in enumerate(records, 1)]
    seen: dict[tuple, int] = {}
    for number, span in enumerate(spans, 1):
        key = (span.side, span.start, span.end)
        if key in seen:
            raise RatingRefused(
                f"spans: span {number} marks the same characters as span "
                f"{seen[key]} (remove one)"
            )
        seen[key] = number
    return tuple(spans)


def _span(record: object, number: int, texts: dict[str, str]) -> Span:
    where = f"spans: span {number}"
    if not isinstance(record, dict):
        raise RatingRefused(f"{where}: expected an object")
    side = record.get("side", "target")
    severity = record.get("severity")
    start, end = record.get("start"), record.get("end")
    if start is None or end is None:
        raise RatingRefused(f"{where}: start and end are required")
    try:
        span = Span(start, end, severity, None, side)  # the library's checks
    except ScoringError as error:
        raise RatingRefused(f"{where}: {error}") from None
    if severity not in SEVERITIES:
        raise RatingRefused(
            f"{where}: severity must be minor or major, not {severity!r}"
        )
    length = len(texts[side])
    if end > length:
        raise RatingRefused(
            f"{where}: end {end} is past the end of the {SIDE_NAMES[side]} "
            f"({length} characters)"
        )
    category = record.get("category") or ""
    if category not in ("", *CATEGORIES):
        shown = category[:40] if isinstance(category, str) else type(category).__name__
        raise RatingRefused(
            f"{where}: unknown category {shown!r} (choose one of the list or none)"
        )
    return Span(span.start, span.end, span.severity, category or None, span.side)


def read_answer(
    assignment: Assignment, score: str | None, spans: str | None
) -> EsaAnswer:
    """The checked score and spans of one screen."""
    try:
        value = float(score) if score not in (None, "") else None
    except ValueError:
        value = None
    if value is None:
        raise RatingRefused("score: give the translation a score from 0 to 100")
    check_value(assignment.criterion, value)
    return EsaAnswer(value, read_spans(spans or "[]", shown_texts(assignment)))


def record_esa(
    campaign: Campaign, user, assignment_id: int, score: str | None, spans: str | None
) -> bool:
    """Check and store an ESA answer; False if the screen was answered
    already (a second submit of the same page). Raises
    :class:`RatingRefused`."""
    assignment = (
        Assignment.objects.filter(campaign=campaign, judge=user, pk=assignment_id)
        .select_related("criterion", "item", "campaign")
        .first()
    )
    if assignment is None:
        raise RatingRefused("this item is not yours to judge")
    answer = read_answer(assignment, score, spans)
    with transaction.atomic():
        answered = Assignment.objects.filter(
            pk=assignment.pk, value__isnull=True
        ).update(
            value=answer.score, spans=answer.spans_json(), judged_at=timezone.now()
        )
        if not answered:
            return False
        if assignment.kind == Assignment.Kind.REGULAR:
            store_judgment(campaign, user, assignment, answer.score)
            _store_spans(campaign, user, assignment, answer)
            request_comparison(campaign.test_set_id)
    return True


def _store_spans(campaign, user, assignment: Assignment, answer: EsaAnswer) -> None:
    try:
        with transaction.atomic():
            annotation = ErrorSpanAnnotation.objects.create(
                output_id=assignment.item.output_id,
                index=assignment.item.index,
                annotator=user.username,
                kind=ErrorSpanAnnotation.Kind.HUMAN,
                score=answer.score,
                batch_id=campaign.batch_id,
                line=assignment.position + 1,
            )
    except IntegrityError:
        return  # the judge's spans of this segment came from an import
    ErrorSpan.objects.bulk_create(
        ErrorSpan(
            annotation=annotation,
            side=span.side,
            start=span.start,
            end=span.end,
            severity=span.severity,
            category=span.category or "",
        )
        for span in answer.spans
    )
    # Increments, not recounts: two judges submitting at once both count.
    JudgmentImport.objects.filter(pk=campaign.batch_id).update(
        n_annotations=F("n_annotations") + 1, n_spans=F("n_spans") + len(answer.spans)
    )
