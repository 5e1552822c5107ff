"""The Celery options every job task shares, as one decorator.

Imported by the apps' ``tasks.py`` only; services queue tasks by name
(``mtdash.common.queueing``) and never import this or the tasks.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from mtdash.common.running import TRANSIENT_ERRORS

# Retries of a transient fault wait 2, 4, 8, 16, 32 s, then 60 s each time:
# six minutes in all, so a database away for a minute or two is waited out
# rather than given up on after a few seconds.
RETRY_BACKOFF_FACTOR = 2
RETRY_BACKOFF_MAX = 60
MAX_RETRIES = 10


def retry_delays() -> list[int]:
    """The countdown before each retry (Celery's backoff, without jitter)."""
    return [
        min(RETRY_BACKOFF_MAX, RETRY_BACKOFF_FACTOR * 2**retry)
        for retry in range(MAX_RETRIES)
    ]


def job_task_options() -> dict:
    """Acknowledge after the run (a lost worker's message is delivered again),
    bounded run time, and retries with backoff for transient faults only: any
    other error is recorded on the job by the runner, never retried. A task
    that gives up leaves its row to the sweeper (the lease expires)."""
    return {
        "acks_late": True,
        "soft_time_limit": settings.CELERY_TASK_SOFT_TIME_LIMIT,
        "time_limit": settings.CELERY_TASK_TIME_LIMIT,
        "autoretry_for": TRANSIENT_ERRORS,
        "retry_backoff": RETRY_BACKOFF_FACTOR,
        "retry_backoff_max": RETRY_BACKOFF_MAX,
        "retry_jitter": False,
        "max_retries": MAX_RETRIES,
    }


def job_task(name: str):
    """``@job_task(MyJob.task_name)`` on a function that takes a row id and
    calls its runner. The explicit name is the one services send to."""
    return shared_task(name=name, **job_task_options())
