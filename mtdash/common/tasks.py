"""Celery tasks of the shared job machinery: the sweeper as a task.

Celery beat runs the sweep itself (:mod:`mtdash.common.beat_scheduler`);
this task runs it on a worker only for a beat started with another
scheduler, which sends the schedule entry instead.
"""

from __future__ import annotations

from celery import shared_task

from mtdash.common import worker_resources  # noqa: F401 - its signal handlers
from mtdash.common.beat_scheduler import SWEEP_TASK
from mtdash.common.sweeper import sweep_jobs as sweep


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep_jobs() -> dict[str, dict[str, int]]:
    """Re-send stranded job rows and fail those out of attempts."""
    return sweep()
