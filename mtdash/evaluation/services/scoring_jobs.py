"""Scoring jobs: create and queue them; run one (claim, compute with
``scoring``, save, report).

A job may be delivered twice (late acknowledgement, retries, the sweeper);
claiming it with a conditional UPDATE makes the second delivery a no-op while
the first worker holds its lease, and saving replaces earlier scores of the
same metric instead of adding to them, so a job re-run after its worker died
leaves one score per metric. A worker that lost its lease saves nothing, and
one whose job was deleted (with its output) stops at its next progress report
(about every 1% of a metric; the progress itself is written at most every
half second) rather than scoring on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from mtdash.common.metric_specs import stored_spec
from mtdash.common.queueing import send_job_tasks
from mtdash.common.running import run_claimed
from mtdash.common.server_metrics import server_metric
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import (
    CorpusScore,
    ScoringJob,
    SegmentScore,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.services.statistics_store import pack_statistics
from scoring.analysis.fast_scoring import score_output

logger = logging.getLogger(__name__)

DEFAULT_METRICS = ("bleu",)


def queue_scoring_job(job_id: int) -> None:
    """Send the job to a Celery worker."""
    send_job_tasks(ScoringJob, [job_id])


def create_scoring_job(
    output: SystemOutput, user, metrics: Sequence[str], *, queue: bool = True
) -> ScoringJob:
    """A job for ``output``, sent to Celery once the current transaction commits
    (so a worker never looks for rows that are not there yet)."""
    specs = list(dict.fromkeys(stored_spec(spec) for spec in metrics))
    job = ScoringJob.objects.create(output=output, metrics=specs, created_by=user)
    if queue:
        transaction.on_commit(lambda: queue_scoring_job(job.pk))
    return job


@transaction.atomic
def rescore_test_set(
    test_set: TestSet, user, metrics: Sequence[str]
) -> list[ScoringJob]:
    """One job per output of the test set, for the given metrics."""
    outputs = SystemOutput.objects.filter(test_set=test_set).order_by("pk")
    return [create_scoring_job(output, user, metrics) for output in outputs]


def retry_scoring_job(job: ScoringJob) -> bool:
    """Queue a failed job, or one whose worker's lease expired, again.

    One conditional UPDATE decides: a job that succeeded, is queued, or whose
    worker still holds its lease is left alone (False). The error, progress,
    times and attempts start afresh; the message is sent once the current
    transaction commits. Running it replaces the scores it saved before.
    """
    now = timezone.now()
    retryable = Q(status=ScoringJob.Status.FAILED) | Q(
        pk__in=ScoringJob.objects.filter(pk=job.pk).lease_expired(now)
    )
    requeued = (
        ScoringJob.objects.filter(pk=job.pk)
        .filter(retryable)
        .update(
            status=ScoringJob.Status.QUEUED,
            progress=0,
            error_message="",
            attempts=0,
            claimed_by="",
            lease_expires_at=None,
            started_at=None,
            finished_at=None,
        )
    )
    if requeued:
        transaction.on_commit(lambda: queue_scoring_job(job.pk))
    return bool(requeued)


def run_scoring_job(job_id: int) -> bool:
    """Score a queued job (or one whose worker's lease expired); return False
    if another worker has it, it is finished, or it used up its attempts."""
    jobs = ScoringJob.objects.filter(pk=job_id)
    if not jobs.claim():
        logger.info("job %s is not queued any more; skipping", job_id)
        return False
    job = jobs.select_related("output__test_set").first()
    if job is None:  # its output was deleted right after the claim
        logger.info("job %s was deleted; nothing to score", job_id)
        return False
    if run_claimed(jobs, lambda: _score(job)):
        if jobs.succeed():
            request_comparison(job.output.test_set_id)
    return True


def _score(job: ScoringJob) -> None:
    # Every spec is read first: a job queued with a bad one (bleu:n=100000000,
    # refused by the forms since) fails at once with the registry's message,
    # before the output is loaded or any other metric computed.
    metrics = [server_metric(metric_name) for metric_name in job.metrics]
    output = job.output
    hypotheses = output.hypotheses()
    test_set = output.test_set
    references = output.reference_streams()  # a human translation: the others
    sources, document_ids = test_set.sources_and_document_ids()
    report = _progress_reporter(job.pk, len(job.metrics))
    planned = zip(job.metrics, metrics, strict=True)
    for position, (metric_name, metric) in enumerate(planned):
        if settings.MTDASH_JOB_TEST_DELAY_SECONDS and job.attempts == 1:
            time.sleep(settings.MTDASH_JOB_TEST_DELAY_SECONDS)  # tests: kill me now
        result = score_output(  # metric.score, with the kernels where they apply
            metric,
            hypotheses,
            references,
            sentence=True,
            progress=lambda fraction, position=position: report(position, fraction),
            sources=sources,
            document_ids=document_ids,
        )
        _save_result(job, metric_name, result, metric.statistics_names)
        report(position, 1.0)


# At most one progress write (an UPDATE and a lease renewal: two SQLite
# commits, 35 ms together) per this many seconds; the reports in between only
# read whether the row is still held. A job of ten metrics on 2,000 segments
# wrote 65 times, a third of its wall time.
PROGRESS_WRITE_SECONDS = 0.5


def _progress_reporter(
    job_id: int, n_metrics: int, clock: Callable[[], float] = time.monotonic
) -> Callable[[int, float], None]:
    """Return report(metric_position, fraction), acting on whole percents.

    The first report and then at most one every ``PROGRESS_WRITE_SECONDS``
    write the progress (renewing the lease); every other new percent only
    checks that this worker still holds the job. Either way a job whose
    output was deleted (the row goes with it) raises ``LeaseLost`` there, so
    the metric stops within one percent of its work instead of running on.
    """
    jobs = ScoringJob.objects.filter(pk=job_id)
    last_percent = [-1]
    last_write: list[float | None] = [None]

    def report(position: int, fraction: float) -> None:
        percent = int(100 * (position + min(max(fraction, 0.0), 1.0)) / n_metrics)
        if percent <= last_percent[0]:
            return
        last_percent[0] = percent
        now = clock()
        if last_write[0] is None or now - last_write[0] >= PROGRESS_WRITE_SECONDS:
            last_write[0] = now
            jobs.report_progress_or_stop(percent)
        else:
            jobs.stop_unless_held()

    return report


@transaction.atomic
def _save_result(
    job: ScoringJob, metric_name: str, result, statistics_names: Sequence[str]
) -> None:
    spec = stored_spec(metric_name)  # a job queued before specs were canonical
    ScoringJob.objects.filter(pk=job.pk).hold_lease()  # else another worker has it
    CorpusScore.objects.filter(output=job.output, metric=spec).delete()
    corpus_score = CorpusScore.objects.create(
        output=job.output,
        metric=spec,
        score=result.score,
        signature=result.signature,
        sentence_signature=result.sentence_signature or "",
        statistics=(
            pack_statistics(result.statistics) if result.statistics is not None else b""
        ),
        statistics_names=list(statistics_names),
        details=dict(result.details),
        job=job,
    )
    SegmentScore.objects.bulk_create(
        (
            SegmentScore(corpus_score=corpus_score, index=i, score=value)
            for i, value in enumerate(result.sentence_scores or ())
        ),
        batch_size=1000,
    )
