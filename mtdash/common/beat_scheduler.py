"""Celery beat's scheduler: it runs the sweeper itself, in the beat process.

Why in beat rather than on the workers: the sweeper is there for the times
the workers cannot help themselves, dead or all busy. Sent as a task on the
workers' one queue, its messages waited behind long jobs and expired after
``MTDASH_SWEEP_SECONDS``; a team server whose slots all ran 20-minute jobs
swept nothing for 26 minutes and took 28 minutes to recover a dead worker's
job. A queue of its own would need a consumer of its own: one more process
to start, supervise and health-check in bin/run, docker-compose and the
tests. Beat is already that process, exactly one per server everywhere, and
has nothing else to schedule: a sweep is a few queries and a few messages,
and a slow one only delays the next. The sweep needs no worker slot, so
re-sent work is in the queue before any slot frees.

``CELERY_BEAT_SCHEDULER`` names :class:`SweepingScheduler`; the schedule
entry keeps the task's name, so a beat run with another scheduler still
sends the sweep to a worker (``mtdash.common.tasks.sweep_jobs``).
"""

from __future__ import annotations

import logging
import time

from celery.beat import PersistentScheduler, ScheduleEntry

logger = logging.getLogger(__name__)

# The schedule entry's task (settings.CELERY_BEAT_SCHEDULE): the name of
# mtdash.common.tasks.sweep_jobs, which a worker runs if another scheduler
# sends it.
SWEEP_TASK = "mtdash.common.tasks.sweep_jobs"


class SweepingScheduler(PersistentScheduler):
    """Beat's persistent scheduler, with the sweep run here, not sent."""

    def apply_entry(self, entry: ScheduleEntry, producer=None) -> None:
        if entry.task != SWEEP_TASK:
            super().apply_entry(entry, producer=producer)
            return
        sweep_here()


def sweep_here() -> None:
    """One sweep in this process. A failure (the database away) is logged
    and the next tick sweeps again; connections broken by it are closed
    first, as Django does around each request."""
    from django.db import close_old_connections

    from mtdash.common.sweeper import sweep_jobs

    started = time.monotonic()
    close_old_connections()
    try:
        report = sweep_jobs()
    except Exception:  # noqa: BLE001 - beat must live on to sweep again
        logger.exception("sweeper: the sweep failed; trying again next time")
        return
    finally:
        close_old_connections()
    seconds = time.monotonic() - started
    if report:
        logger.info("sweeper: swept in %.2f s: %s", seconds, report)
    else:
        logger.info("sweeper: swept in %.2f s, nothing stranded", seconds)
