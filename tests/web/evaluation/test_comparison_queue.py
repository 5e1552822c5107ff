"""One comparison job running per test set and at most one waiting behind
it (mtdash.evaluation.leaderboard.comparison_queue), row by row; the same
with real workers and racing connections is
``tests/integration/test_comparison_jobs_one_at_a_time.py``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from mtdash.common.jobs import worker_name
from mtdash.common.running import run_claimed
from mtdash.common.sweeper import stranded_ids
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import ComparisonJob
from mtdash.evaluation.services.uploads import TestSetData, create_test_set


@pytest.fixture
def other_test_set(team, owner):
    data = TestSetData(
        name="toy de-en",
        source_language="de",
        target_language="en",
        text_type="news",
        description="",
        sources=["es regnet"],
        references={"A": ["it is raining"]},
    )
    return create_test_set(team, owner, data)


def running_job(test_set) -> ComparisonJob:
    job = ComparisonJob.objects.create(test_set=test_set)
    assert ComparisonJob.objects.filter(pk=job.pk).claim() == 1
    return job


def test_a_request_while_a_job_waits_adds_nothing(test_set):
    ComparisonJob.objects.filter(test_set=test_set).delete()
    first = request_comparison(test_set.pk)
    assert first is not None and first.status == "queued"
    assert request_comparison(test_set.pk) is None
    assert list(ComparisonJob.objects.filter(test_set=test_set)) == [first]


def test_a_request_for_a_deleted_test_set_queues_nothing(test_set):
    pk = test_set.pk
    test_set.delete()
    assert request_comparison(pk) is None
    assert not ComparisonJob.objects.filter(test_set_id=pk).exists()


def test_a_waiting_job_does_not_start_while_another_of_its_test_set_runs(
    test_set, other_test_set
):
    ComparisonJob.objects.all().delete()
    first = running_job(test_set)
    waiting = request_comparison(test_set.pk)
    elsewhere = request_comparison(other_test_set.pk)

    assert ComparisonJob.objects.filter(pk=waiting.pk).claim() == 0
    assert ComparisonJob.objects.get(pk=waiting.pk).status == "queued"
    # Another test set's job is not held back.
    assert ComparisonJob.objects.filter(pk=elsewhere.pk).claim() == 1
    # Once the first has finished, the waiting one starts.
    assert ComparisonJob.objects.filter(pk=first.pk).succeed() == 1
    assert ComparisonJob.objects.filter(pk=waiting.pk).claim() == 1


def test_a_dead_workers_job_is_taken_over_by_itself_not_by_the_waiting_one(
    test_set,
):
    ComparisonJob.objects.all().delete()
    first = running_job(test_set)
    waiting = request_comparison(test_set.pk)
    ComparisonJob.objects.filter(pk=first.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert ComparisonJob.objects.filter(pk=waiting.pk).claim() == 0
    assert ComparisonJob.objects.filter(pk=first.pk).claim() == 1
    assert ComparisonJob.objects.get(pk=first.pk).attempts == 2


def test_the_database_refuses_a_second_waiting_or_running_job(test_set):
    ComparisonJob.objects.all().delete()
    ComparisonJob.objects.create(test_set=test_set)
    with pytest.raises(IntegrityError), transaction.atomic():
        ComparisonJob.objects.create(test_set=test_set)
    ComparisonJob.objects.create(test_set=test_set, status="running")
    with pytest.raises(IntegrityError), transaction.atomic():
        ComparisonJob.objects.create(test_set=test_set, status="running")
    for finished in ("succeeded", "failed", "failed"):
        ComparisonJob.objects.create(test_set=test_set, status=finished)


def test_the_sweeper_leaves_a_job_waiting_behind_a_running_one_alone(
    test_set, settings
):
    settings.MTDASH_JOB_QUEUED_GRACE_SECONDS = 0
    ComparisonJob.objects.all().delete()
    first = running_job(test_set)
    waiting = request_comparison(test_set.pk)
    later = timezone.now() + timedelta(seconds=1)

    assert stranded_ids(ComparisonJob, later, None) == []
    ComparisonJob.objects.filter(pk=first.pk).succeed()
    assert stranded_ids(ComparisonJob, later, None) == [waiting.pk]


def transient_fault() -> None:
    from django.db import OperationalError

    raise OperationalError("the database went away")


def test_a_job_handed_back_while_another_waits_is_superseded_by_it(test_set):
    ComparisonJob.objects.all().delete()
    first = running_job(test_set)
    waiting = request_comparison(test_set.pk)
    rows = ComparisonJob.objects.filter(pk=first.pk)

    with pytest.raises(Exception, match="the database went away"):
        run_claimed(rows, transient_fault)

    first.refresh_from_db()
    assert first.status == "failed"
    assert first.error_message == (
        "stopped by a database fault; comparison job "
        f"{waiting.pk}, waiting behind it, covers its changes"
    )
    assert ComparisonJob.objects.get(pk=waiting.pk).status == "queued"
    assert ComparisonJob.objects.filter(pk=waiting.pk).claim() == 1


def test_a_job_handed_back_with_none_waiting_is_queued_again(test_set):
    ComparisonJob.objects.all().delete()
    first = running_job(test_set)
    rows = ComparisonJob.objects.filter(pk=first.pk)
    assert rows.get().claimed_by == worker_name()

    with pytest.raises(Exception, match="the database went away"):
        run_claimed(rows, transient_fault)

    first.refresh_from_db()
    assert (first.status, first.attempts) == ("queued", 0)
