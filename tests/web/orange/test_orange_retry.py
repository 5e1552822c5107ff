"""Running a failed or stuck ORANGE job again from its page.

A job is stuck when a chunk's worker stopped renewing its lease (the job
would otherwise sit at "running 66%" until the sweeper comes), when the
merging worker stopped, or when every chunk is done and nobody ever merged.
Messages are captured instead of reaching a broker; the race test runs two
real requests in two threads, each with its own database connection.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from mtdash.celery import app as celery_app
from mtdash.orange import views
from mtdash.orange.jobs import lifecycle as orange_jobs
from mtdash.orange.jobs.lifecycle import (
    NotRetryable,
    create_orange_job,
    finish_if_complete,
    retry_orange_job,
    run_orange_chunk,
)
from mtdash.orange.models import OrangeChunk, OrangeJob
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    demo_world_fixture,
    nbest_fixture,
)

TASK = OrangeChunk.task_name
LONG_AGO = timedelta(hours=1)
REFUSED = "Only a failed job, or one whose workers stopped, can run again."


@pytest.fixture
def job(nbest, owner) -> OrangeJob:
    """Three chunks of one sentence each, not sent anywhere."""
    return create_orange_job(nbest, owner, ["bleu"], queue=False, max_sentences=1)


@pytest.fixture
def sent(monkeypatch) -> list:
    """Messages sent, captured instead of reaching a broker."""
    messages: list = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: messages.append((name, args[0]))
    )
    return messages


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def chunk(job: OrangeJob, index: int) -> OrangeChunk:
    return OrangeChunk.objects.get(job=job, index=index)


def fresh(job: OrangeJob) -> OrangeJob:
    return OrangeJob.objects.get(pk=job.pk)


def claim(job: OrangeJob, index: int, *, lease_left: timedelta) -> OrangeChunk:
    """Chunk ``index`` claimed by a worker whose lease ends ``lease_left`` from
    now (negative: a worker that died)."""
    OrangeJob.objects.filter(pk=job.pk).start()
    rows = OrangeChunk.objects.filter(job=job, index=index)
    assert rows.claim() == 1
    rows.update(
        claimed_by="deadhost:4242", lease_expires_at=timezone.now() + lease_left
    )
    return rows.get()


def make_stuck(job: OrangeJob) -> None:
    """Chunk 1 done, chunk 2 held by a dead worker, chunk 3 still queued."""
    assert run_orange_chunk(chunk(job, 0).pk) is True
    claim(job, 1, lease_left=-LONG_AGO)


def make_failed(job: OrangeJob) -> None:
    """Chunk 1 done, chunk 2 failed (which failed the job), chunk 3 queued."""
    assert run_orange_chunk(chunk(job, 0).pk) is True
    claim(job, 1, lease_left=LONG_AGO)
    OrangeChunk.objects.filter(job=job, index=1).fail("MetricError: boom")
    OrangeJob.objects.filter(pk=job.pk).fail("chunk 2 of 3: MetricError: boom")


def snapshot(job: OrangeJob) -> tuple:
    return (
        OrangeJob.objects.filter(pk=job.pk).values().get(),
        list(OrangeChunk.objects.filter(job=job).order_by("index").values()),
    )


def page_of(client, job: OrangeJob) -> str:
    return client.get(reverse("orange_job_detail", args=[job.pk])).content.decode()


def retry(client, job, django_capture_on_commit_callbacks):
    """POST the retry button; the page it redirects to (with its message)."""
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("orange_job_retry", args=[job.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("orange_job_detail", args=[job.pk])
    return client.get(response["Location"]).content.decode()


def run_sent(sent: list) -> None:
    for name, pk in sent:
        assert name == TASK
        run_orange_chunk(pk)


# -- a stuck job ----------------------------------------------------------------------


def test_a_stuck_job_is_shown_as_stuck_with_the_dead_worker_and_a_button(
    logged_in, job
):
    make_stuck(job)
    page = page_of(logged_in, job)
    assert 'data-stuck="true"' in page
    assert 'id="orange-job-stuck"' in page
    assert "The worker running 1 chunk stopped renewing its lease" in page
    assert 'id="orange-chunks-done">1 / 3<' in page
    assert 'id="orange-chunks-running">1 <span class="stuck-count">(1 stopped)' in page
    assert 'id="orange-chunks-queued">0<' not in page  # chunk 3 is queued
    assert 'id="orange-chunks-queued">1<' in page
    assert 'id="orange-chunks-failed">0<' in page
    assert 'id="orange-chunk-attempts">2<' in page
    assert "<code>deadhost:4242</code>" in page
    assert '<tr class="stuck" data-chunk="1">' in page
    assert 'id="orange-retry"' in page and "Run the unfinished chunks again" in page


def test_retrying_a_stuck_job_requeues_the_stuck_and_queued_chunks_once_each(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    make_stuck(job)
    done_before = OrangeChunk.objects.filter(job=job, index=0).values().get()

    page = retry(logged_in, job, django_capture_on_commit_callbacks)

    assert "Queued 2 chunks again." in page
    assert sent == [(TASK, chunk(job, 1).pk), (TASK, chunk(job, 2).pk)]
    assert OrangeChunk.objects.filter(job=job, index=0).values().get() == done_before
    stuck = chunk(job, 1)
    assert (stuck.status, stuck.attempts, stuck.claimed_by) == ("queued", 0, "")
    assert stuck.lease_expires_at is None
    assert fresh(job).status == OrangeJob.Status.RUNNING
    assert 'id="orange-retry"' not in page and 'id="orange-job-stuck"' not in page

    run_sent(sent)
    assert fresh(job).status == OrangeJob.Status.SUCCEEDED


def test_a_second_retry_of_the_same_job_is_refused_and_sends_nothing(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    make_stuck(job)
    retry(logged_in, job, django_capture_on_commit_callbacks)
    before, first_sent = snapshot(job), list(sent)

    page = retry(logged_in, job, django_capture_on_commit_callbacks)

    assert REFUSED in page
    assert snapshot(job) == before
    assert sent == first_sent


# -- a failed job ---------------------------------------------------------------------


def test_retrying_a_failed_job_requeues_its_failed_and_queued_chunks(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    make_failed(job)
    page = page_of(logged_in, job)
    assert "MetricError: boom" in page
    assert 'id="orange-retry"' in page
    assert 'data-stuck="false"' in page  # failed, not stuck: no stuck warning
    assert 'id="orange-job-stuck"' not in page
    assert 'id="orange-chunks-failed">1<' in page

    page = retry(logged_in, job, django_capture_on_commit_callbacks)

    assert "Queued 2 chunks again." in page
    assert sent == [(TASK, chunk(job, 1).pk), (TASK, chunk(job, 2).pk)]
    retried = fresh(job)
    assert (retried.status, retried.error_message, retried.finished_at) == (
        OrangeJob.Status.RUNNING,
        "",
        None,
    )
    run_sent(sent)
    assert fresh(job).status == OrangeJob.Status.SUCCEEDED
    assert fresh(job).scores.count() == 1


def test_a_failed_job_keeps_chunks_that_a_live_worker_still_holds(
    job, sent, django_capture_on_commit_callbacks
):
    make_failed(job)
    live = claim_while_failed(job, 2)
    held = OrangeChunk.objects.filter(pk=live.pk).values().get()
    with django_capture_on_commit_callbacks(execute=True):
        assert retry_orange_job(fresh(job)) == [chunk(job, 1).pk]
    assert sent == [(TASK, chunk(job, 1).pk)]
    assert OrangeChunk.objects.filter(pk=live.pk).values().get() == held


def claim_while_failed(job: OrangeJob, index: int) -> OrangeChunk:
    """A chunk a worker took before its job failed, still under a live lease."""
    rows = OrangeChunk.objects.filter(job=job, index=index)
    rows.update(
        status=OrangeChunk.Status.RUNNING,
        attempts=1,
        claimed_by="livehost:7",
        lease_expires_at=timezone.now() + LONG_AGO,
    )
    return rows.get()


def test_a_job_whose_merge_failed_queues_the_merge_again(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    for pk in job.chunks.values_list("pk", flat=True):
        run_orange_chunk(pk)
    OrangeJob.objects.filter(pk=job.pk).update(
        status=OrangeJob.Status.FAILED, error_message="merging the chunks: boom"
    )
    page = retry(logged_in, job, django_capture_on_commit_callbacks)
    assert "Every chunk is done: queued the merge again." in page
    assert sent == [(TASK, chunk(job, 0).pk)]
    assert retry_refused(job)
    run_sent(sent)
    assert fresh(job).status == OrangeJob.Status.SUCCEEDED


# -- a stuck merge --------------------------------------------------------------------


def retry_refused(job: OrangeJob) -> bool:
    try:
        retry_orange_job(fresh(job))
    except NotRetryable:
        return True
    return False


def test_a_merge_whose_worker_died_can_be_run_again_once(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    for pk in job.chunks.values_list("pk", flat=True):
        run_orange_chunk(pk)
    OrangeJob.objects.filter(pk=job.pk).update(
        status=OrangeJob.Status.MERGING,
        attempts=1,
        claimed_by="deadhost:1",
        lease_expires_at=timezone.now() - LONG_AGO,
    )
    page = page_of(logged_in, job)
    assert "The worker merging the chunks stopped renewing its lease" in page
    assert 'id="orange-merge-worker"><code>deadhost:1</code>' in page
    assert 'id="orange-retry"' in page

    page = retry(logged_in, job, django_capture_on_commit_callbacks)

    assert "queued the merge again" in page
    assert sent == [(TASK, chunk(job, 0).pk)]
    assert fresh(job).status == OrangeJob.Status.RUNNING
    assert not fresh(job).can_run_again  # asked for: not offered again for a lease
    assert retry_refused(job)
    assert finish_if_complete(job.pk) is True
    assert (fresh(job).status, fresh(job).attempts) == ("succeeded", 1)


def test_a_job_whose_chunks_finished_long_ago_but_never_merged_is_stuck(
    logged_in, job, sent, django_capture_on_commit_callbacks, settings
):
    settings.MTDASH_JOB_LEASE_SECONDS = 60
    OrangeJob.objects.filter(pk=job.pk).start()
    job.chunks.update(status="done", finished_at=timezone.now() - LONG_AGO)
    page = page_of(logged_in, job)
    assert "Every chunk has been done since" in page and "nobody merged them" in page
    assert logged_in.get(reverse("orange_job_status", args=[job.pk])).json()["stuck"]

    retry(logged_in, job, django_capture_on_commit_callbacks)
    assert sent == [(TASK, chunk(job, 0).pk)]
    assert retry_refused(job)


def test_chunks_done_a_moment_ago_are_not_a_stuck_merge_yet(job):
    OrangeJob.objects.filter(pk=job.pk).start()
    job.chunks.update(status="done", finished_at=timezone.now())
    assert not fresh(job).is_stuck and not fresh(job).can_run_again


# -- jobs that are not to be run again ----------------------------------------------


@pytest.mark.parametrize("state", ["queued", "running under a live lease", "succeeded"])
def test_a_job_that_neither_failed_nor_stopped_is_refused_and_left_alone(
    logged_in, job, sent, django_capture_on_commit_callbacks, state
):
    if state == "running under a live lease":
        run_orange_chunk(chunk(job, 0).pk)
        claim(job, 1, lease_left=LONG_AGO)
    elif state == "succeeded":
        for pk in job.chunks.values_list("pk", flat=True):
            run_orange_chunk(pk)
    before = snapshot(job)
    assert 'id="orange-retry"' not in page_of(logged_in, job)

    page = retry(logged_in, job, django_capture_on_commit_callbacks)

    assert REFUSED in page
    assert snapshot(job) == before
    assert sent == []
    assert 'id="orange-retry"' not in page


def test_a_running_job_names_the_workers_of_its_running_chunks(logged_in, job):
    run_orange_chunk(chunk(job, 0).pk)
    live = claim(job, 1, lease_left=LONG_AGO)
    page = page_of(logged_in, job)
    assert 'data-stuck="false"' in page and 'id="orange-job-stuck"' not in page
    assert '<tr class="" data-chunk="1">' in page
    assert f"{live.lease_expires_at:%H:%M:%S}</td>" in page
    assert 'id="orange-chunks-done">1 / 3<' in page


def test_the_page_of_a_succeeded_job_shows_its_times_without_the_running_counts(
    logged_in, job
):
    for pk in job.chunks.values_list("pk", flat=True):
        run_orange_chunk(pk)
    done = fresh(job)
    page = page_of(logged_in, done)
    assert 'id="orange-chunks-done">3 / 3<' in page
    assert 'id="orange-chunk-attempts">3<' in page
    assert 'id="orange-merge-attempts">1<' in page
    assert f'id="orange-job-created">{done.created_at:%Y-%m-%d %H:%M:%S}<' in page
    assert f'id="orange-job-finished">{done.finished_at:%Y-%m-%d %H:%M:%S}<' in page
    assert 'id="orange-job-elapsed">' in page and " s<" in page
    for absent in ("orange-chunks-running", "orange-running-chunks", "orange-retry"):
        assert f'id="{absent}"' not in page


# -- what the poller compares ---------------------------------------------------------


@pytest.mark.parametrize("stuck", [True, False])
def test_the_status_json_agrees_with_the_page_so_the_poller_reloads_only_on_change(
    logged_in, job, stuck
):
    run_orange_chunk(chunk(job, 0).pk)
    claim(job, 1, lease_left=-LONG_AGO if stuck else LONG_AGO)
    page = page_of(logged_in, job)
    data = logged_in.get(reverse("orange_job_status", args=[job.pk])).json()
    assert data["stuck"] is stuck
    assert f'data-stuck="{str(stuck).lower()}"' in page
    assert f'data-attempts="{data["attempts"]}"' in page
    assert f'data-status="{data["status"]}"' in page


def test_a_jobs_chunk_counts_and_stuck_state_take_one_query(
    job, django_assert_num_queries
):
    make_stuck(job)
    loaded = fresh(job)
    with django_assert_num_queries(1):
        assert loaded.is_stuck and loaded.can_run_again
        counts = loaded.chunk_counts
    assert (counts.done, counts.running, counts.queued, counts.failed) == (1, 1, 1, 0)
    assert (counts.stuck, counts.attempts) == (1, 2)


# -- two clicks at the same moment ----------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("state", ["stuck", "failed"])
def test_two_retries_at_the_same_moment_queue_each_chunk_once(
    owner, job, sent, monkeypatch, state
):
    (make_stuck if state == "stuck" else make_failed)(job)
    # Both requests meet before deciding. On PostgreSQL a stuck job's meeting
    # point is inside the transaction, just before the chunks' UPDATE, so
    # the second UPDATE must wait for the first's row locks and re-check.
    # SQLite runs one writing transaction at a time: they meet before it.
    inside = connection.vendor == "postgresql" and state == "stuck"
    module, name = (
        (orange_jobs, "_ask_for_merge") if inside else (views, "retry_orange_job")
    )
    barrier = threading.Barrier(2, timeout=30)
    original = getattr(module, name)

    def meeting(*args, **kwargs):
        barrier.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, meeting)
    pages: list[str] = []
    errors: list[BaseException] = []

    def click() -> None:
        try:
            client = Client()
            client.force_login(owner)
            response = client.post(reverse("orange_job_retry", args=[job.pk]))
            pages.append(client.get(response["Location"]).content.decode())
        except BaseException as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors, errors
    assert sorted("Queued 2 chunks again." in page for page in pages) == [False, True]
    assert sum(REFUSED in page for page in pages) == 1
    assert sorted(pk for _, pk in sent) == [chunk(job, 1).pk, chunk(job, 2).pk]
    assert chunk(job, 0).status == OrangeChunk.Status.DONE


def test_the_reported_case_every_other_chunk_done_one_held_by_a_dead_worker(
    demo_world, owner, logged_in, sent, django_capture_on_commit_callbacks
):
    """As reported: the other chunks finish on a new worker, the job stays
    "running 93%" with one chunk whose worker was killed."""
    _, nbest = demo_world
    job = create_orange_job(nbest, owner, ["bleu"], queue=False, max_sentences=1)
    killed = claim(job, 7, lease_left=-LONG_AGO)
    for pk in job.chunks.exclude(pk=killed.pk).values_list("pk", flat=True):
        assert run_orange_chunk(pk) is True
    stuck = fresh(job)
    assert (stuck.status, stuck.progress, stuck.is_stuck) == ("running", 93, True)
    page = page_of(logged_in, job)
    assert 'id="orange-chunks-done">15 / 16<' in page
    assert 'id="orange-retry"' in page

    page = retry(logged_in, job, django_capture_on_commit_callbacks)

    assert "Queued 1 chunk again." in page
    assert sent == [(TASK, killed.pk)]
    run_sent(sent)
    assert fresh(job).status == OrangeJob.Status.SUCCEEDED
