"""Celery beat's scheduler runs the sweep in its own process (issue 24,
item 2): nothing is sent to the workers' queue for it, and a sweep that
fails is logged without stopping beat."""

from __future__ import annotations

import logging

import pytest
from celery.beat import ScheduleEntry
from django.db import OperationalError

from mtdash.celery import app as celery_app
from mtdash.common import beat_scheduler, sweeper
from mtdash.common.beat_scheduler import SWEEP_TASK, SweepingScheduler


@pytest.fixture
def closed(monkeypatch):
    """The sweep's calls of Django's close_old_connections, recorded rather
    than made: these tests touch no database, and a connection an earlier
    test of this process left open must not be checked here (pytest-django
    blocks database access outside database tests; a parallel run's order
    put such a test first)."""
    import django.db

    calls = []
    monkeypatch.setattr(django.db, "close_old_connections", lambda: calls.append(1))
    return calls


@pytest.fixture
def scheduler(tmp_path, closed):
    return SweepingScheduler(
        app=celery_app, schedule_filename=str(tmp_path / "schedule"), lazy=True
    )


def sweep_entry() -> ScheduleEntry:
    return ScheduleEntry(name="sweep-jobs", task=SWEEP_TASK, app=celery_app)


def test_the_settings_name_this_scheduler_and_the_sweep_entry():
    assert celery_app.conf.beat_scheduler == (
        "mtdash.common.beat_scheduler:SweepingScheduler"
    )
    (entry,) = celery_app.conf.beat_schedule.values()
    assert entry["task"] == SWEEP_TASK


def test_the_sweep_runs_here_and_sends_no_message(
    scheduler, closed, monkeypatch, caplog
):
    swept, sent = [], []
    monkeypatch.setattr(sweeper, "sweep_jobs", lambda: swept.append(1) or {})
    monkeypatch.setattr(celery_app, "send_task", lambda *a, **k: sent.append(a))
    with caplog.at_level(logging.INFO, logger=beat_scheduler.__name__):
        scheduler.apply_entry(sweep_entry(), producer=None)
    assert swept == [1] and sent == []
    assert closed == [1, 1]  # before and after the sweep, as around a request
    assert "sweeper: swept in" in caplog.text


def test_a_failed_sweep_is_logged_and_beat_goes_on(scheduler, monkeypatch, caplog):
    def database_away():
        raise OperationalError("connection refused")

    monkeypatch.setattr(sweeper, "sweep_jobs", database_away)
    with caplog.at_level(logging.ERROR, logger=beat_scheduler.__name__):
        scheduler.apply_entry(sweep_entry(), producer=None)
        scheduler.apply_entry(sweep_entry(), producer=None)
    assert caplog.text.count("sweeper: the sweep failed") == 2
    assert "connection refused" in caplog.text


def test_other_entries_are_sent_as_celery_sends_them(scheduler, monkeypatch):
    sent = []
    monkeypatch.setattr(
        scheduler, "apply_async", lambda entry, **options: sent.append(entry.task)
    )
    other = ScheduleEntry(name="other", task="mtdash.other.task", app=celery_app)
    scheduler.apply_entry(other, producer=None)
    assert sent == ["mtdash.other.task"]
