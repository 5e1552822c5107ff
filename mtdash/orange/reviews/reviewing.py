"""Reviewing a seeded sample of the candidates a metric ranked above the references.

A sample draws, without replacement, ``size`` of the metric's (sentence,
candidate) pairs above the references with ``numpy.random.default_rng(seed)``;
the draw order is the review order. Each reviewer sees the items they have
not marked yet, one at a time, and may change a mark.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from django.db import transaction

from mtdash.evaluation.models import ReferenceSegment, Segment
from mtdash.evaluation.systems.analyses import tokenizer_name
from mtdash.orange.jobs.artifacts import load_nbest_index, read_nbest_entries
from mtdash.orange.jobs.metrics import job_metric
from mtdash.orange.models import (
    OrangeJob,
    OrangeReview,
    OrangeReviewItem,
    OrangeReviewMark,
    OrangeScore,
)
from scoring import Metric, get_tokenizer
from scoring.analysis.highlight import highlight_sentence

MAX_SAMPLE = 2000


class ReviewError(ValueError):
    """A sample that cannot be drawn as asked; the message is for people."""


@transaction.atomic
def create_review(
    job: OrangeJob, metric: str, size: int, seed: int, user
) -> OrangeReview:
    """Draw the sample (all candidates above if fewer than ``size``)."""
    if job.status != OrangeJob.Status.SUCCEEDED:
        raise ReviewError("the job has no results yet")
    if not 1 <= size <= MAX_SAMPLE:
        raise ReviewError(f"the sample size must lie between 1 and {MAX_SAMPLE}")
    score = OrangeScore.objects.filter(job=job, metric=metric).first()
    if score is None:
        raise ReviewError(f"the job has no metric {metric}")
    pairs = [
        (int(sentence), float(oracle), int(index), float(value))
        for sentence, oracle, candidates in score.above_reference
        for index, value in candidates
    ]
    if not pairs:
        raise ReviewError(f"{metric} ranks no candidate above the references")
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(pairs), size=min(size, len(pairs)), replace=False)
    review = OrangeReview.objects.create(
        job=job,
        metric=metric,
        size=len(chosen),
        seed=seed,
        population=len(pairs),
        created_by=user,
    )
    OrangeReviewItem.objects.bulk_create(
        OrangeReviewItem(
            review=review,
            position=position,
            sentence_id=pairs[k][0],
            oracle_score=pairs[k][1],
            candidate_index=pairs[k][2],
            candidate_score=pairs[k][3],
        )
        for position, k in enumerate(chosen.tolist())
    )
    return review


@dataclass(frozen=True)
class ReviewProgress:
    marked: int
    total: int

    @property
    def percent(self) -> int:
        return 100 * self.marked // self.total if self.total else 100

    @property
    def finished(self) -> bool:
        return self.marked >= self.total


def progress_of(review: OrangeReview, user) -> ReviewProgress:
    marked = OrangeReviewMark.objects.filter(item__review=review, reviewer=user)
    return ReviewProgress(marked.count(), review.items.count())


def next_item(review: OrangeReview, user) -> OrangeReviewItem | None:
    """The first item (in review order) this reviewer has not marked."""
    return review.items.exclude(marks__reviewer=user).order_by("position").first()


def mark_item(item: OrangeReviewItem, user, verdict: str) -> OrangeReviewMark:
    if verdict not in OrangeReviewMark.Verdict.values:
        raise ReviewError(f"unknown verdict {verdict!r}")
    mark, _ = OrangeReviewMark.objects.update_or_create(
        item=item, reviewer=user, defaults={"verdict": verdict}
    )
    return mark


@dataclass(frozen=True)
class MarkedText:
    label: str
    text: str
    pairs: tuple[tuple[str, str], ...]  # (token, css class) for highlighting
    score: float | None = None  # a reference's score against the others


@dataclass(frozen=True)
class ReviewItemView:
    """What a reviewer sees for one item."""

    item: OrangeReviewItem
    source: str
    candidate: MarkedText
    references: tuple[MarkedText, ...]
    features: str
    copies: int  # identical candidates of the list ranked above (this one included)
    n_candidates: int
    tokenizer: str
    current_verdict: str | None


def item_view(item: OrangeReviewItem, user) -> ReviewItemView:
    """Source, candidate and references with matched n-grams highlighted, and
    each reference's jackknife score (against the other references; the
    oracle score is their mean)."""
    review = item.review
    job = review.job
    test_set = job.nbest.test_set
    source = (
        Segment.objects.filter(test_set=test_set, index=item.sentence_id)
        .values_list("source", flat=True)
        .first()
    ) or ""
    references = list(
        ReferenceSegment.objects.filter(
            reference_set__test_set=test_set,
            reference_set__label__in=job.reference_labels,
            index=item.sentence_id,
        )
        .order_by("reference_set__label")
        .values_list("reference_set__label", "text")
    )
    index = load_nbest_index(job.nbest.artifact)
    position = index.position_of(item.sentence_id)
    entries = read_nbest_entries(job.nbest.artifact, position, position + 1, index)[0]
    entry = entries[item.candidate_index]
    # Identical texts get identical scores, so every copy is above too.
    copies = sum(1 for e in entries if e.hypothesis == entry.hypothesis)
    name = tokenizer_name(test_set)
    tokenize = get_tokenizer(name)
    marked = highlight_sentence(
        tokenize(entry.hypothesis), [tokenize(text) for _, text in references]
    )
    reference_scores = _reference_scores(
        job_metric(job, review.metric, sentence_id=item.sentence_id),
        [t for _, t in references],
    )
    mark = item.marks.filter(reviewer=user).values_list("verdict", flat=True).first()
    return ReviewItemView(
        item=item,
        source=source,
        candidate=MarkedText(
            "candidate", entry.hypothesis, tuple(marked.hypothesis.css_pairs())
        ),
        references=tuple(
            MarkedText(label, text, tuple(highlight.css_pairs()), score)
            for (label, text), highlight, score in zip(
                references, marked.references, reference_scores
            )
        ),
        features=entry.features,
        copies=max(1, copies),
        n_candidates=len(entries),
        tokenizer=name,
        current_verdict=mark,
    )


def _reference_scores(metric: Metric, references: list[str]) -> list[float | None]:
    """Each reference scored against the others (the jackknife of the oracle),
    by ``metric`` as the job's chunks scored it (NIST with the test set's
    weights)."""
    if len(references) < 2:
        return [None] * len(references)
    scores: list[float | None] = []
    for k, reference in enumerate(references):
        others = [r for j, r in enumerate(references) if j != k]
        statistics = metric.segment_statistics([reference], [[r] for r in others])
        value = metric.sentence_scores_from_statistics(statistics)[0]
        scores.append(float(value))
    return scores
