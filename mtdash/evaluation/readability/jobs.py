"""Readability counted by a worker: queueing, running and the page's state.

One :class:`~mtdash.evaluation.models.ReadabilityJob` per request for
counts: queued when a test set is uploaded and when a page finds no counts
for the test set's current inputs (a new library version, say), unless one
is already waiting. The worker claims it, counts every text
(:func:`~mtdash.evaluation.readability.page.measure_test_set`) and
stores the counts, replacing any earlier ones, so a job run twice stores the
same thing once. Pages read :func:`readability_state`: the counts, or the
job to follow while it runs, or the failure to show.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction

from mtdash.common.queueing import send_job_tasks
from mtdash.common.running import run_claimed
from mtdash.evaluation.models import ReadabilityJob, TestSet
from mtdash.evaluation.readability.page import (
    TestSetReadability,
    measure_test_set,
    readability_inputs,
    stored_readability,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReadabilityState:
    """What a page can show: ``ready`` (``readability`` is set), ``pending``
    (``job`` is queued or running) or ``failed`` (``job`` says why; a person
    may queue it again)."""

    state: str
    readability: TestSetReadability | None = None
    job: ReadabilityJob | None = None


def readability_state(test_set: TestSet, *, queue: bool = True) -> ReadabilityState:
    """The stored readability of ``test_set`` if it was counted from the
    current inputs; else the job counting it (queued now, with ``queue``,
    unless one is waiting), or the job that failed on these very inputs."""
    inputs = readability_inputs(test_set)
    stored = stored_readability(test_set, inputs)
    if stored is not None:
        return ReadabilityState("ready", stored)
    latest = ReadabilityJob.objects.filter(test_set=test_set).first()
    if latest is not None and not latest.is_finished:
        return ReadabilityState("pending", job=latest)
    failed = latest is not None and latest.status == ReadabilityJob.Status.FAILED
    if failed and latest.inputs == inputs:
        return ReadabilityState("failed", job=latest)
    if not queue:
        return ReadabilityState("pending", job=latest)
    return ReadabilityState("pending", job=request_readability(test_set, inputs))


def request_readability(test_set: TestSet, inputs: str = "") -> ReadabilityJob:
    """The test set's waiting readability job, or a new one, sent to a worker
    once the transaction commits."""
    waiting = ReadabilityJob.objects.filter(test_set=test_set).unfinished().first()
    if waiting is not None:
        return waiting
    job = ReadabilityJob.objects.create(
        test_set=test_set, inputs=inputs or readability_inputs(test_set)
    )
    transaction.on_commit(lambda: send_job_tasks(ReadabilityJob, [job.pk]))
    return job


def retry_readability(test_set: TestSet) -> ReadabilityJob | None:
    """Queue the counting again after a failure; None if the latest job did
    not fail (it is waiting, running or done)."""
    latest = ReadabilityJob.objects.filter(test_set=test_set).first()
    if latest is None or not latest.can_run_again:
        return None
    if latest.status != ReadabilityJob.Status.FAILED:
        return latest  # stuck: the sweeper sends it again; nothing to add
    return request_readability(test_set)


def run_readability_job(job_id: int) -> bool:
    """Count and store the readability of the job's test set; False if
    another worker has the job or it is finished."""
    jobs = ReadabilityJob.objects.filter(pk=job_id)
    if not jobs.claim():
        logger.info("readability job %s is not queued any more; skipping", job_id)
        return False
    job = jobs.select_related("test_set").get()
    if run_claimed(jobs, lambda: measure_test_set(job.test_set, jobs)):
        jobs.succeed()
    return True
