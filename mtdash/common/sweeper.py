"""The periodic sweeper: re-send work that has no live worker and no message.

Celery beat runs :func:`sweep_jobs` every ``MTDASH_SWEEP_SECONDS`` in its own
process (:mod:`mtdash.common.beat_scheduler`), so a sweep never waits for a
free worker slot. For every kind of job row it

- fails rows whose workers stopped ``MTDASH_JOB_MAX_ATTEMPTS`` times, with a
  message naming the last worker;
- sends the task again for rows ``running`` under an expired lease (their
  worker died: kill -9, out of memory, a hard time limit, a task that gave up
  retrying while the database was away), unless a message for the row is
  already waiting in the queue;
- sends the task again for rows ``queued`` for longer than
  ``MTDASH_JOB_QUEUED_GRACE_SECONDS`` with no message waiting in the broker
  and none taken by a worker within the lease (Redis restarted without
  persistence, the send after the commit failed, or the worker that reserved
  the message was killed);
- lets a job type recover what only it understands (an ORANGE job whose
  merge was never claimed or whose merging worker died: ``Job.recover``).

Sending twice is harmless: the claim, a conditional UPDATE, decides who runs a
row; a second message finds nothing to claim and is acknowledged.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.apps import apps
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from mtdash.common.broker import PendingMessages, pending_messages
from mtdash.common.jobs import Job, JobStatus
from mtdash.common.queueing import send_job_tasks

logger = logging.getLogger(__name__)


def job_models() -> list[type[Job]]:
    """Every concrete job model of the installed apps."""
    return [model for model in apps.get_models() if issubclass(model, Job)]


def stranded_ids(
    model: type[Job], now: datetime, pending: PendingMessages | None
) -> list[int]:
    """Ids of ``model``'s rows that need their task sent again."""
    rows = model.sweepable()
    waiting = pending.waiting[model.task_name] if pending else set()
    taken = pending.taken[model.task_name] if pending else set()
    expired = rows.lease_expired(now).values_list("pk", flat=True)
    cutoff = now - timedelta(seconds=settings.MTDASH_JOB_QUEUED_GRACE_SECONDS)
    queued = (
        rows.filter(status=JobStatus.QUEUED, created_at__lt=cutoff)
        .filter(Q(started_at__isnull=True) | Q(started_at__lt=cutoff))
        .values_list("pk", flat=True)
    )
    ids = [pk for pk in expired if pk not in waiting]
    ids += [pk for pk in queued if pk not in waiting and pk not in taken]
    return sorted(set(ids))


def sweep_jobs(now: datetime | None = None) -> dict[str, dict[str, int]]:
    """One sweep over every job model; returns what it did, per model."""
    now = now or timezone.now()
    pending = pending_messages(taken_within=settings.MTDASH_JOB_LEASE_SECONDS)
    report: dict[str, dict[str, int]] = {}
    for model in job_models():
        failed = model.sweepable().give_up_exhausted(now)
        resent = recovered = 0
        if model.task_name:
            ids = stranded_ids(model, now, pending)
            resent = send_job_tasks(model, ids) if ids else 0
            if ids:
                logger.info("sweeper: sent %s again for %s", model.__name__, ids)
        recovered = model.recover(now)
        if failed or resent or recovered:
            report[model.__name__] = {
                "failed": failed,
                "resent": resent,
                "recovered": recovered,
            }
    return report
