"""Running claimed work: hand it back on a transient fault, record any other.

Used by the runner functions in the apps' services; the tasks that call
those runners retry exactly ``TRANSIENT_ERRORS`` (``mtdash.common.task_options``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections

from mtdash.common.jobs import (
    JobQuerySet,
    JobStatus,
    LeaseLost,
    drop_broken_connections,
)

logger = logging.getLogger(__name__)

# Faults worth a retry: the database or broker was briefly unreachable.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def failure_message(error: BaseException, where: str = "") -> str:
    """``where: ErrorType: message``, the line a person reads on the job page."""
    readable = f"{type(error).__name__}: {error}"
    return f"{where}: {readable}" if where else readable


@contextmanager
def heartbeat(rows: JobQuerySet, interval: float | None = None) -> Iterator[None]:
    """Renew this worker's lease on ``rows`` from a background thread while
    the body runs, so a long step that reports no progress keeps the row.

    The first renewal comes after ``interval`` (a third of the lease), so
    short work never touches the database from the thread. A failed renewal
    (the database is briefly away) is logged and tried again next beat on a
    new connection, so the lease is kept once the database is back.
    """
    interval = interval or settings.MTDASH_JOB_LEASE_SECONDS / 3
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    rows.renew_lease()
                except Exception:  # noqa: BLE001 - keep beating; the lease may lapse
                    logger.warning("could not renew a lease", exc_info=True)
                    drop_broken_connections()
        finally:
            connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=beat, name="mtdash-lease-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def run_claimed(
    rows: JobQuerySet,
    work: Callable[[], object],
    *,
    where: str = "",
    hand_back_to: str = JobStatus.QUEUED,
    also_fail: JobQuerySet | None = None,
) -> bool:
    """Do ``work`` for ``rows``, which this worker has just claimed.

    Returns True if the work succeeded; marking the rows done is the caller's
    part, since what done means differs (a job saved, a chunk ready to merge).
    A heartbeat renews the lease on ``rows`` while ``work`` runs. A transient
    fault hands the rows back to ``hand_back_to`` and is raised again, so the
    task's retry can claim them anew (if the database is still away, the row
    stays running until its lease expires and the sweeper sends it again).
    :class:`LeaseLost` (another worker took over) leaves the rows alone. Any
    other exception is logged and recorded on ``rows`` (and ``also_fail``,
    e.g. the job a chunk belongs to) as a readable message prefixed by
    ``where``; returns False.
    """
    try:
        with heartbeat(rows):
            work()
    except LeaseLost as lost:
        logger.warning("%s; leaving the rows to the worker that has them", lost)
        return False
    except TRANSIENT_ERRORS:
        # On a fresh connection: the database may be back already.
        drop_broken_connections()
        rows.hand_back(hand_back_to)
        raise
    except Exception as error:  # noqa: BLE001 - any failure must reach the job page
        message = failure_message(error, where)
        ids = list(rows.values_list("pk", flat=True))
        logger.exception("%s %s failed: %s", rows.model.__name__, ids, message)
        rows.fail(message)
        if also_fail is not None:
            also_fail.fail(message)
        return False
    return True
