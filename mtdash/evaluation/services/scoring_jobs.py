"""Running scoring jobs: claim, compute with ``scoring``, save, report.

A job may be delivered twice (late acknowledgement, retries); claiming it
with a conditional UPDATE makes the second delivery a no-op, and saving
replaces earlier scores of the same metric instead of adding to them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from mtdash.evaluation.models import (
    CorpusScore,
    ScoringJob,
    SegmentScore,
    SystemOutput,
    TestSet,
)
from scoring import get_metric

logger = logging.getLogger(__name__)

DEFAULT_METRICS = ("bleu",)
# Faults worth a retry: the database or broker was briefly unreachable.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def queue_scoring_job(job_id: int) -> None:
    """Send the job to a Celery worker."""
    from mtdash.evaluation.tasks import score_output

    score_output.delay(job_id)


def create_scoring_job(
    output: SystemOutput, user, metrics: Sequence[str], *, queue: bool = True
) -> ScoringJob:
    """A job for ``output``, sent to Celery once the current transaction commits
    (so a worker never looks for rows that are not there yet)."""
    job = ScoringJob.objects.create(output=output, metrics=list(metrics), created_by=user)
    if queue:
        transaction.on_commit(lambda: queue_scoring_job(job.pk))
    return job


@transaction.atomic
def rescore_test_set(test_set: TestSet, user, metrics: Sequence[str]) -> list[ScoringJob]:
    """One job per output of the test set, for the given metrics."""
    outputs = SystemOutput.objects.filter(test_set=test_set).order_by("pk")
    return [create_scoring_job(output, user, metrics) for output in outputs]


def run_scoring_job(job_id: int) -> bool:
    """Score a queued job; return False if another worker already has it."""
    claimed = ScoringJob.objects.filter(id=job_id, status=ScoringJob.Status.QUEUED).update(
        status=ScoringJob.Status.RUNNING, started_at=timezone.now(), progress=0
    )
    if not claimed:
        logger.info("job %s is not queued any more; skipping", job_id)
        return False
    job = ScoringJob.objects.select_related("output__test_set").get(id=job_id)
    try:
        _score(job)
    except TRANSIENT_ERRORS:
        # Hand the job back so the retry can claim it again.
        ScoringJob.objects.filter(id=job_id).update(status=ScoringJob.Status.QUEUED)
        raise
    except Exception as error:  # noqa: BLE001 - any failure must reach the job page
        logger.exception("job %s failed", job_id)
        ScoringJob.objects.filter(id=job_id).update(
            status=ScoringJob.Status.FAILED,
            error_message=f"{type(error).__name__}: {error}",
            finished_at=timezone.now(),
        )
        return True
    ScoringJob.objects.filter(id=job_id).update(
        status=ScoringJob.Status.SUCCEEDED, progress=100, finished_at=timezone.now()
    )
    return True


def _score(job: ScoringJob) -> None:
    output = job.output
    hypotheses = output.hypotheses()
    test_set = output.test_set
    references = test_set.reference_streams()
    sources, document_ids = test_set.sources_and_document_ids()
    report = _progress_reporter(job.pk, len(job.metrics))
    for position, metric_name in enumerate(job.metrics):
        metric = get_metric(metric_name)
        result = metric.score(
            hypotheses,
            references,
            sentence=True,
            progress=lambda fraction, position=position: report(position, fraction),
            sources=sources,
            document_ids=document_ids,
        )
        _save_result(job, metric_name, result)
        report(position, 1.0)


def _progress_reporter(job_id: int, n_metrics: int) -> Callable[[int, float], None]:
    """Return report(metric_position, fraction) writing whole percents, rarely."""
    last_written = [-1]

    def report(position: int, fraction: float) -> None:
        percent = int(100 * (position + min(max(fraction, 0.0), 1.0)) / n_metrics)
        percent = min(percent, 99)  # 100 means saved, set when the job succeeds
        if percent > last_written[0]:
            last_written[0] = percent
            ScoringJob.objects.filter(id=job_id).update(progress=percent)

    return report


@transaction.atomic
def _save_result(job: ScoringJob, metric_name: str, result) -> None:
    CorpusScore.objects.filter(output=job.output, metric=metric_name).delete()
    corpus_score = CorpusScore.objects.create(
        output=job.output,
        metric=metric_name,
        score=result.score,
        signature=result.signature,
        sentence_signature=result.sentence_signature or "",
        job=job,
    )
    SegmentScore.objects.bulk_create(
        (
            SegmentScore(corpus_score=corpus_score, index=i, score=value)
            for i, value in enumerate(result.sentence_scores or ())
        ),
        batch_size=1000,
    )

