"""A scoring job writes its progress at most every half second and checks in
between that it still holds its row, so a deleted output stops it at once.

Each progress write is an UPDATE plus a lease renewal (two commits, about
35 ms on SQLite); a job of ten metrics once spent a third of its wall time
in them. A read decides whether to stop.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from mtdash.common.jobs import LeaseLost
from mtdash.evaluation.manage.actions import delete_output
from mtdash.evaluation.models import ScoringJob, SystemOutput
from mtdash.evaluation.services import scoring_jobs
from mtdash.evaluation.services.uploads import create_system_output

HYPOTHESES = ["the cat sat on the mat", "it is raining", "hello all of you"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def job(test_set, owner):
    job = create_system_output(test_set, owner, "sys1", HYPOTHESES, queue=False)
    assert ScoringJob.objects.filter(pk=job.pk).claim() == 1
    return job


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]


def test_a_hundred_quick_reports_write_once(job):
    clock = Clock()
    report = scoring_jobs._progress_reporter(job.pk, 1, clock=clock)
    with CaptureQueriesContext(connection) as queries:
        for step in range(1, 100):
            report(0, step / 100)
            clock.now += 0.004  # 0.4 s in all
    assert len(_writes(queries.captured_queries)) <= 2  # progress, lease: once
    assert ScoringJob.objects.get(pk=job.pk).progress == 1


def test_the_progress_is_written_again_after_half_a_second(job):
    clock = Clock()
    report = scoring_jobs._progress_reporter(job.pk, 2, clock=clock)
    report(0, 0.1)  # 5 %
    clock.now += 0.2
    report(0, 0.5)  # 25 %: too soon, only checked
    assert ScoringJob.objects.get(pk=job.pk).progress == 5
    clock.now += scoring_jobs.PROGRESS_WRITE_SECONDS
    report(0, 0.8)  # 40 %
    assert ScoringJob.objects.get(pk=job.pk).progress == 40
    with CaptureQueriesContext(connection) as queries:
        report(0, 0.6)  # lower than written: nothing at all
    assert queries.captured_queries == []


def test_a_report_between_writes_stops_a_job_whose_output_was_deleted(job):
    clock = Clock()
    report = scoring_jobs._progress_reporter(job.pk, 1, clock=clock)
    report(0, 0.1)  # written just now
    delete_output(SystemOutput.objects.get(pk=job.output_id))
    clock.now += 0.01
    with pytest.raises(LeaseLost, match="stopping the work"):
        report(0, 0.2)  # not written, but checked


def test_a_report_between_writes_stops_a_job_another_worker_took(job):
    clock = Clock()
    report = scoring_jobs._progress_reporter(job.pk, 1, clock=clock)
    report(0, 0.1)
    ScoringJob.objects.filter(pk=job.pk).update(claimed_by="elsewhere:1")
    with pytest.raises(LeaseLost):
        report(0, 0.2)
