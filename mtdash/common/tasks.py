"""Celery tasks of the shared job machinery: the periodic sweeper."""

from __future__ import annotations

from celery import shared_task

from mtdash.common.sweeper import sweep_jobs as sweep

SWEEP_TASK = "mtdash.common.tasks.sweep_jobs"


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep_jobs() -> dict[str, dict[str, int]]:
    """Re-send stranded job rows and fail those out of attempts (Celery beat
    runs this every ``MTDASH_SWEEP_SECONDS``)."""
    return sweep()
