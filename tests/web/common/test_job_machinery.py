"""The shared job machinery (mtdash.common): claiming, finishing, failing,
handing back, queueing by task name, and that every job type is built on it."""

import importlib
import threading

import pytest
from django.apps import apps
from django.db import OperationalError, connection

from mtdash.celery import app as celery_app
from mtdash.common.jobs import Job, JobStatus
from mtdash.common.queueing import send_job_tasks
from mtdash.common.running import TRANSIENT_ERRORS, run_claimed
from mtdash.common.task_options import MAX_RETRIES, retry_delays
from mtdash.evaluation.models import ComparisonJob, ReadabilityJob, ScoringJob
from mtdash.evaluation.services.scoring_jobs import queue_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.models import ErrorSpanEvaluation, MetaEvaluation
from mtdash.orange.jobs.lifecycle import create_orange_job, queue_chunks
from mtdash.orange.models import NBestList, OrangeChunk, OrangeJob
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

HYPOTHESES = ["the cat is on a mat", "it is raining now", "hello to everyone"]


@pytest.fixture
def job(test_set, owner) -> ScoringJob:
    return create_system_output(test_set, owner, "sys1", HYPOTHESES, queue=False)


@pytest.fixture
def chunk(nbest, owner) -> OrangeChunk:
    orange_job = create_orange_job(nbest, owner, ["bleu"], queue=False, max_sentences=1)
    return orange_job.chunks.first()


def rows(row: Job):
    return type(row).objects.filter(pk=row.pk)


def fresh(row: Job) -> Job:
    return type(row).objects.get(pk=row.pk)


# -- every job type is built on it ---------------------------------------------------


def job_models() -> list[type[Job]]:
    return [model for model in apps.get_models() if issubclass(model, Job)]


def test_every_job_type_and_the_orange_chunks_are_shared_job_rows():
    assert set(job_models()) == {
        ScoringJob,
        ComparisonJob,
        ReadabilityJob,
        OrangeJob,
        OrangeChunk,
        NBestList,  # the check of an uploaded list
        MetaEvaluation,
        ErrorSpanEvaluation,
    }
    for model in job_models():
        names = {field.name for field in model._meta.get_fields()}
        assert {
            "status",
            "progress",
            "error_message",
            "created_at",
            "started_at",
            "finished_at",
            "attempts",
            "claimed_by",
            "lease_expires_at",
        } <= names, model


@pytest.mark.parametrize(
    "model",
    [
        ScoringJob,
        ReadabilityJob,
        OrangeChunk,
        NBestList,
        MetaEvaluation,
        ErrorSpanEvaluation,
    ],
)
def test_each_queued_row_has_a_task_registered_under_its_name_with_the_job_options(
    model, settings
):
    importlib.import_module(model.task_name.rpartition(".")[0])
    task = celery_app.tasks[model.task_name]
    assert task.acks_late is True
    assert task.autoretry_for == TRANSIENT_ERRORS
    assert task.max_retries == MAX_RETRIES and task.retry_jitter is False
    # A database away for a minute is waited out, not retried 5 times in 10 s.
    assert sum(retry_delays()) >= 90 and retry_delays()[:3] == [2, 4, 8]
    assert task.soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert task.time_limit == settings.CELERY_TASK_TIME_LIMIT


# -- claiming ------------------------------------------------------------------------


def test_claiming_a_queued_job_twice_gives_one_winner(job):
    assert rows(job).claim() == 1
    assert rows(job).claim() == 0
    claimed = fresh(job)
    assert claimed.status == JobStatus.RUNNING
    assert claimed.started_at is not None and claimed.finished_at is None


@pytest.mark.django_db(transaction=True)
def test_workers_claiming_the_same_job_at_once_give_exactly_one_winner(test_set, owner):
    job = create_system_output(test_set, owner, "race", HYPOTHESES, queue=False)
    start = threading.Barrier(6)
    won = []

    def worker():
        try:
            start.wait()
            won.append(ScoringJob.objects.filter(pk=job.pk).claim())
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won) == [0, 0, 0, 0, 0, 1]


def test_a_chunk_claim_records_the_attempt_and_the_worker(chunk):
    assert rows(chunk).claim(claimed_by="host:1") == 1
    claimed = fresh(chunk)
    assert (claimed.status, claimed.attempts, claimed.claimed_by) == (
        "running",
        1,
        "host:1",
    )


# -- finishing, failing, handing back ------------------------------------------------


def test_succeeding_sets_the_models_own_success_status_and_100_percent(job, chunk):
    for row, status in [(job, "succeeded"), (chunk, "done")]:
        rows(row).claim()
        assert rows(row).succeed() == 1
        done = fresh(row)
        assert (done.status, done.progress, done.is_finished) == (status, 100, True)
        assert done.started_at <= done.finished_at


def test_fail_records_the_message_and_the_time(job):
    rows(job).claim()
    assert rows(job).fail("MetricError: no such metric") == 1
    failed = fresh(job)
    assert failed.status == JobStatus.FAILED
    assert failed.error_message == "MetricError: no such metric"
    assert failed.finished_at is not None and failed.is_finished


def test_a_finished_row_is_neither_failed_nor_handed_back_again(job):
    rows(job).claim()
    rows(job).succeed()
    assert rows(job).fail("too late") == 0
    assert rows(job).hand_back() == 0
    assert (fresh(job).status, fresh(job).error_message) == ("succeeded", "")


def test_progress_only_rises_and_stops_at_99_until_the_job_succeeds(job):
    rows(job).claim()
    rows(job).report_progress(40)
    rows(job).report_progress(30)
    assert fresh(job).progress == 40
    rows(job).report_progress(100)
    assert fresh(job).progress == 99


def test_a_transient_fault_hands_the_row_back_for_the_retry_to_claim(job):
    rows(job).claim()

    def database_gone():
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(OperationalError):
        run_claimed(rows(job), database_gone)
    assert fresh(job).status == JobStatus.QUEUED
    assert rows(job).claim() == 1  # the retry's claim


def test_any_other_error_fails_the_row_and_its_parent_with_a_readable_message(chunk):
    rows(chunk).claim()
    parent = OrangeJob.objects.filter(pk=chunk.job_id)
    parent.claim()

    def broken():
        raise ValueError("no candidates")

    assert run_claimed(rows(chunk), broken, where="chunk 1", also_fail=parent) is False
    for row in (fresh(chunk), parent.get()):
        assert row.status == JobStatus.FAILED
        assert row.error_message == "chunk 1: ValueError: no candidates"


def test_work_that_succeeds_leaves_marking_it_done_to_the_runner(job):
    rows(job).claim()
    assert run_claimed(rows(job), lambda: None) is True
    assert fresh(job).status == JobStatus.RUNNING


# -- queueing ------------------------------------------------------------------------


@pytest.fixture
def sent(monkeypatch) -> list:
    """Messages the services send, captured instead of reaching a broker."""
    messages = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: messages.append((name, args))
    )
    return messages


def test_services_queue_rows_by_task_name(sent, job, chunk):
    queue_scoring_job(job.pk)
    queue_chunks([chunk.pk])
    assert sent == [
        ("mtdash.evaluation.tasks.score_output", [job.pk]),
        ("mtdash.orange.tasks.rank_orange_chunk", [chunk.pk]),
    ]


def test_a_job_without_a_task_of_its_own_cannot_be_queued(sent, chunk):
    with pytest.raises(ValueError, match="OrangeJob names no task"):
        send_job_tasks(OrangeJob, [chunk.job_id])
    assert sent == []
