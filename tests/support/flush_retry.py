"""A transactional test's database flush, tried again when PostgreSQL broke
a deadlock by aborting it.

After a transactional test, Django empties every table with one TRUNCATE,
which takes an exclusive lock on each table in turn. A real Celery worker
of the run (or a server thread) may at that moment hold a row lock on one
table and wait for another (a job claim's ``SELECT ... FOR UPDATE``):
PostgreSQL then finds a deadlock and aborts one side, once the flush
(CI's PostgreSQL stage, ``deadlock detected``), leaving the rows for the
next test. The flush runs in its own transaction and rolls back whole, so
trying it again after the worker's transaction ends is safe.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from django.core.management.base import CommandError
from django.db.utils import OperationalError

ATTEMPTS = 5
PAUSE_SECONDS = 0.5


def deadlocked(error: BaseException) -> bool:
    """Whether a flush failed because PostgreSQL aborted it in a deadlock."""
    cause = error.__cause__
    return isinstance(cause, OperationalError) and "deadlock detected" in str(cause)


def retrying_deadlocks(teardown: Callable) -> Callable:
    """``teardown`` (a test case's ``_fixture_teardown``), tried up to
    ``ATTEMPTS`` times while its flush fails in a deadlock."""
    if getattr(teardown, "retries_deadlocks", False):
        return teardown

    @functools.wraps(teardown)
    def fixture_teardown(self):
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return teardown(self)
            except CommandError as error:
                if attempt == ATTEMPTS or not deadlocked(error):
                    raise
                time.sleep(PAUSE_SECONDS * attempt)

    fixture_teardown.retries_deadlocks = True
    return fixture_teardown


def install() -> None:
    """Make every transactional test's flush retry deadlocks."""
    from django.test.testcases import TransactionTestCase

    TransactionTestCase._fixture_teardown = retrying_deadlocks(
        TransactionTestCase._fixture_teardown
    )
