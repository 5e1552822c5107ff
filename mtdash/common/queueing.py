"""Waking workers: one message per job row, sent by task name.

Services import this, never the tasks modules (which import the services'
runners), so queueing adds no import cycle. The message carries only the
row's id; the row says what to do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from mtdash.celery import app as celery_app
from mtdash.common.jobs import Job

logger = logging.getLogger(__name__)


def send_job_tasks(model: type[Job], ids: Iterable[int]) -> int:
    """Send ``model.task_name`` once per id; return how many were sent.

    Call it after the transaction that created the rows commits, so a worker
    never looks for missing rows. A message that cannot be sent (the broker
    is down) is logged, never raised: the row stays queued and the sweeper
    (:mod:`mtdash.common.sweeper`) sends it again later, so an upload made
    while Redis is away still answers success.
    """
    if not model.task_name:
        raise ValueError(f"{model.__name__} names no task to run its rows")
    # The project's app, not celery.current_app: in a thread of its own (a
    # threaded server, a test's live server) current_app may be a default
    # app that knows no broker.
    sent = 0
    for pk in ids:
        try:
            celery_app.send_task(model.task_name, args=[pk])
        except Exception:  # noqa: BLE001 - the sweeper sends it again later
            logger.warning(
                "could not send %s for %s %s; it stays queued for the sweeper",
                model.task_name,
                model.__name__,
                pk,
                exc_info=True,
            )
        else:
            sent += 1
    return sent
