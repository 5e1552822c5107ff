"""Leases, attempts, the heartbeat and the sweeper's choices (no Celery, no
broker: messages are captured). The same faults with real worker processes
are in tests/integration/test_job_faults.py."""

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from mtdash.celery import app as celery_app
from mtdash.common import sweeper
from mtdash.common.broker import PendingMessages
from mtdash.common.jobs import Job, JobStatus, LeaseLost, worker_name
from mtdash.common.running import heartbeat, run_claimed
from mtdash.evaluation.models import CorpusScore, ScoringJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.jobs.lifecycle import (
    create_orange_job,
    finish_if_complete,
    run_orange_chunk,
)
from mtdash.orange.models import OrangeChunk, OrangeJob
from tests.conftest import PASSWORD
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

HYPOTHESES = ["the cat is on a mat", "it is raining now", "hello to everyone"]
LONG_AGO = timedelta(hours=1)


@pytest.fixture
def job(test_set, owner) -> ScoringJob:
    return create_system_output(test_set, owner, "sys1", HYPOTHESES, queue=False)


@pytest.fixture
def orange_job(nbest, owner) -> OrangeJob:
    return create_orange_job(nbest, owner, ["bleu"], queue=False, max_sentences=1)


@pytest.fixture
def sent(monkeypatch) -> list:
    """Messages sent, captured instead of reaching a broker; the sweeper
    sees an empty broker."""
    messages = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: messages.append((name, args[0]))
    )
    monkeypatch.setattr(sweeper, "pending_messages", lambda **_: PendingMessages())
    return messages


def rows(row: Job):
    return type(row).objects.filter(pk=row.pk)


def fresh(row: Job) -> Job:
    return type(row).objects.get(pk=row.pk)


def strand(row: Job, *, attempts: int = 1, worker: str = "deadhost:4242") -> None:
    """Make ``row`` look like its worker died: running, lease long expired."""
    rows(row).update(
        status=JobStatus.RUNNING,
        attempts=attempts,
        claimed_by=worker,
        started_at=timezone.now() - LONG_AGO,
        lease_expires_at=timezone.now() - LONG_AGO,
    )


# -- claims are leases ---------------------------------------------------------------


def test_a_claim_leases_the_row_to_this_worker_and_counts_the_attempt(job, settings):
    settings.MTDASH_JOB_LEASE_SECONDS = 60
    before = timezone.now()
    assert rows(job).claim() == 1
    claimed = fresh(job)
    assert (claimed.status, claimed.attempts, claimed.claimed_by) == (
        "running",
        1,
        worker_name(),
    )
    lease = (claimed.lease_expires_at - before).total_seconds()
    assert 59 <= lease <= 61


def test_a_running_row_with_a_live_lease_is_not_claimed_again(job):
    rows(job).claim()
    assert rows(job).claim() == 0
    assert fresh(job).attempts == 1


def test_a_running_row_whose_lease_expired_is_taken_over(job):
    strand(job)
    assert rows(job).claim() == 1
    taken = fresh(job)
    assert (taken.attempts, taken.claimed_by) == (2, worker_name())
    assert taken.lease_expires_at > timezone.now()


def test_a_running_row_claimed_before_leases_existed_can_be_taken_over(job):
    rows(job).update(status=JobStatus.RUNNING, lease_expires_at=None)
    assert rows(job).claim() == 1


def test_a_row_whose_workers_stopped_max_attempts_times_fails_with_a_reason(
    job, settings
):
    settings.MTDASH_JOB_MAX_ATTEMPTS = 3
    strand(job, attempts=3, worker="gpu7:31337")
    assert rows(job).claim() == 0
    failed = fresh(job)
    assert failed.status == JobStatus.FAILED
    assert failed.error_message == (
        "the worker running this job stopped 3 times (last: gpu7:31337); "
        "see the worker logs"
    )
    assert run_scoring_job(job.pk) is False  # a late message does nothing


def test_handing_back_after_a_transient_fault_does_not_count_an_attempt(job):
    rows(job).claim()
    assert rows(job).hand_back() == 1
    handed = fresh(job)
    assert (handed.status, handed.attempts, handed.lease_expires_at) == (
        "queued",
        0,
        None,
    )


# -- the lease is renewed while the worker works -------------------------------------


def test_each_progress_report_renews_the_lease(job, settings):
    rows(job).claim()
    rows(job).update(lease_expires_at=timezone.now() + timedelta(seconds=1))
    settings.MTDASH_JOB_LEASE_SECONDS = 600
    rows(job).report_progress(10)
    assert fresh(job).lease_expires_at > timezone.now() + timedelta(seconds=500)


def test_a_lease_taken_over_by_another_worker_is_not_renewed(job, settings):
    strand(job, worker="other:1")
    rows(job).update(lease_expires_at=timezone.now() + timedelta(seconds=30))
    settings.MTDASH_JOB_LEASE_SECONDS = 600
    assert rows(job).renew_lease() == 0
    with pytest.raises(LeaseLost):
        rows(job).hold_lease()


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_renews_the_lease_while_work_reports_nothing(
    test_set, owner, settings
):
    """The heartbeat runs in its own thread (own database connection)."""
    job = create_system_output(test_set, owner, "slow", HYPOTHESES, queue=False)
    rows(job).claim()
    rows(job).update(lease_expires_at=timezone.now())
    settings.MTDASH_JOB_LEASE_SECONDS = 600
    renewed = []

    def silent_work():
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if fresh(job).lease_expires_at > timezone.now() + timedelta(seconds=500):
                renewed.append(True)
                return
            time.sleep(0.02)

    with heartbeat(rows(job), interval=0.05):
        silent_work()
    assert renewed


def test_a_worker_that_lost_its_lease_saves_nothing_and_fails_nothing(job, monkeypatch):
    rows(job).claim()

    def taken_over_meanwhile():
        strand(job, attempts=2, worker="other:2")
        rows(job).update(lease_expires_at=timezone.now() + timedelta(minutes=5))
        rows(job).hold_lease()

    assert run_claimed(rows(job), taken_over_meanwhile) is False
    kept = fresh(job)
    assert (kept.status, kept.claimed_by, kept.error_message) == (
        "running",
        "other:2",
        "",
    )


def test_a_scoring_job_run_again_replaces_its_scores(job):
    run_scoring_job(job.pk)
    strand(job)  # as if the worker had died after saving
    assert run_scoring_job(job.pk) is True
    assert fresh(job).status == "succeeded" and fresh(job).attempts == 2
    assert CorpusScore.objects.filter(output=job.output).count() == 1


# -- the sweeper's choices -----------------------------------------------------------


def age(row: Job, *, created: timedelta, started: timedelta | None = None) -> None:
    now = timezone.now()
    rows(row).update(
        created_at=now - created, started_at=None if started is None else now - started
    )


def test_the_sweeper_resends_expired_leases_and_old_queued_rows_only(
    test_set, owner, sent, settings
):
    settings.MTDASH_JOB_QUEUED_GRACE_SECONDS = 120
    make = lambda name: create_system_output(  # noqa: E731
        test_set, owner, name, HYPOTHESES, queue=False
    )
    lost, fresh_queued, dead, alive, done = (make(f"s{i}") for i in range(5))
    age(lost, created=timedelta(minutes=5))
    age(fresh_queued, created=timedelta(seconds=10))
    strand(dead)
    rows(alive).claim()
    rows(done).claim()
    rows(done).succeed()

    report = sweeper.sweep_jobs()

    task = ScoringJob.task_name
    assert sorted(sent) == sorted([(task, lost.pk), (task, dead.pk)])
    assert report == {"ScoringJob": {"failed": 0, "resent": 2, "recovered": 0}}


def test_the_sweeper_skips_rows_whose_message_is_still_in_the_broker(
    test_set, owner, sent, monkeypatch
):
    waiting = create_system_output(test_set, owner, "w", HYPOTHESES, queue=False)
    reserved = create_system_output(test_set, owner, "r", HYPOTHESES, queue=False)
    dead = create_system_output(test_set, owner, "d", HYPOTHESES, queue=False)
    for row in (waiting, reserved):
        age(row, created=LONG_AGO)
    strand(dead)
    pending = PendingMessages()
    pending.waiting[ScoringJob.task_name] = {waiting.pk}
    # A message a worker took but never finished: the dead worker's own.
    pending.taken[ScoringJob.task_name] = {reserved.pk, dead.pk}
    monkeypatch.setattr(sweeper, "pending_messages", lambda **_: pending)

    sweeper.sweep_jobs()

    assert sent == [(ScoringJob.task_name, dead.pk)]


def test_the_sweeper_fails_rows_out_of_attempts_instead_of_resending(
    job, sent, settings
):
    settings.MTDASH_JOB_MAX_ATTEMPTS = 3
    strand(job, attempts=3)
    assert sweeper.sweep_jobs() == {
        "ScoringJob": {"failed": 1, "resent": 0, "recovered": 0}
    }
    assert sent == []
    assert fresh(job).error_message.startswith("the worker running this job stopped")


def test_a_chunk_out_of_attempts_fails_its_job_naming_the_chunk(
    orange_job, sent, settings
):
    settings.MTDASH_JOB_MAX_ATTEMPTS = 2
    OrangeJob.objects.filter(pk=orange_job.pk).start()
    chunk = orange_job.chunks.get(index=1)
    strand(chunk, attempts=2, worker="w1:99")
    sweeper.sweep_jobs()
    assert fresh(chunk).status == "failed"
    assert fresh(orange_job).status == "failed"
    assert fresh(orange_job).error_message.startswith(
        "chunk 2 of 3 (n-best sentences 2–2): the worker running this chunk "
        "stopped 2 times (last: w1:99)"
    )


def test_chunks_of_a_failed_job_are_left_for_a_retry(orange_job, sent):
    rows(orange_job).update(status=JobStatus.FAILED)
    age(orange_job.chunks.first(), created=LONG_AGO)
    assert sweeper.sweep_jobs() == {} and sent == []


def test_a_merge_whose_worker_died_is_woken_and_claimed_again(orange_job, sent):
    for chunk_id in orange_job.chunks.values_list("pk", flat=True):
        run_orange_chunk(chunk_id)
    assert fresh(orange_job).status == "succeeded"
    # As if the merging worker had died: merging under an expired lease.
    strand(orange_job)
    rows(orange_job).update(status=OrangeJob.Status.MERGING)
    first_chunk = orange_job.chunks.get(index=0)

    assert sweeper.sweep_jobs()["OrangeJob"]["recovered"] == 1
    assert sent == [(OrangeChunk.task_name, first_chunk.pk)]
    assert finish_if_complete(orange_job.pk) is True
    merged = fresh(orange_job)
    assert (merged.status, merged.attempts) == ("succeeded", 2)
    assert merged.scores.count() == 1


def test_a_job_whose_last_chunk_never_claimed_the_merge_is_woken(
    orange_job, sent, settings
):
    settings.MTDASH_JOB_LEASE_SECONDS = 60
    OrangeJob.objects.filter(pk=orange_job.pk).start()
    orange_job.chunks.update(
        status=OrangeChunk.Status.DONE, finished_at=timezone.now() - LONG_AGO
    )
    sweeper.sweep_jobs()
    assert sent == [(OrangeChunk.task_name, orange_job.chunks.get(index=0).pk)]


# -- a broker outage never reaches the request ---------------------------------------


def test_an_upload_while_the_broker_is_down_succeeds_and_stays_queued(
    client, owner, test_set, monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(celery_app, "send_task", broker_down)
    client.login(username=owner.username, password=PASSWORD)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(
            reverse("output_new", args=[test_set.pk]),
            {
                "system_name": "during-outage",
                "hypothesis_file": text_file("hyp.en", "\n".join(HYPOTHESES) + "\n"),
            },
        )
    assert len(callbacks) == 1  # the send was attempted, and failed quietly
    job = ScoringJob.objects.get(output__system__name="during-outage")
    assert response.status_code == 302
    assert response["Location"] == reverse("job_detail", args=[job.pk])
    assert job.status == JobStatus.QUEUED
