"""The retried flush: a deadlock aborts a flush, which is tried again; any
other failure is raised at once, and so is a deadlock that persists."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.db.utils import OperationalError
from django.test.testcases import TransactionTestCase

from tests.support import flush_retry


def failing_flush(causes: list[BaseException]):
    """A teardown that fails with each cause in turn, then succeeds; it
    records its calls."""
    calls = []

    def teardown(self):
        calls.append(self)
        if len(calls) <= len(causes):
            raise CommandError("Database test couldn't be flushed.") from causes[
                len(calls) - 1
            ]
        return "flushed"

    return teardown, calls


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    monkeypatch.setattr(flush_retry, "PAUSE_SECONDS", 0)


def test_a_deadlocked_flush_is_tried_again():
    teardown, calls = failing_flush([OperationalError("deadlock detected")] * 2)
    assert flush_retry.retrying_deadlocks(teardown)("case") == "flushed"
    assert calls == ["case"] * 3


def test_another_failure_is_raised_at_once():
    teardown, calls = failing_flush([OperationalError("relation does not exist")])
    with pytest.raises(CommandError):
        flush_retry.retrying_deadlocks(teardown)("case")
    assert len(calls) == 1


def test_a_deadlock_that_persists_is_raised_after_the_last_attempt():
    causes = [OperationalError("deadlock detected")] * flush_retry.ATTEMPTS
    teardown, calls = failing_flush(causes)
    with pytest.raises(CommandError):
        flush_retry.retrying_deadlocks(teardown)("case")
    assert len(calls) == flush_retry.ATTEMPTS


def test_the_run_installs_it_once():
    teardown = TransactionTestCase._fixture_teardown
    assert teardown.retries_deadlocks
    assert flush_retry.retrying_deadlocks(teardown) is teardown
