"""A queued job says why it waits: how many rows of every kind are queued
before it, and what the workers run now (which kind, on which worker), on
its page and in the status JSON its page polls; an ORANGE job too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from mtdash.common.jobs import Job, JobStatus
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.jobs.lifecycle import create_orange_job
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    check_waiting_uploads,
    nbest_fixture,
)

pytestmark = pytest.mark.django_db

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
WORKER = "gpu-box-7:4242"


def quiet_queue_but_scoring() -> None:
    """Take every queued row other than scoring jobs out of the queue (a
    test set queues its own analyses as it is uploaded), so the counts
    below are the test's own."""
    for model in apps.get_models():
        if issubclass(model, Job) and model is not ScoringJob:
            model.objects.filter(status=JobStatus.QUEUED).update(
                status=JobStatus.FAILED
            )


@pytest.fixture
def jobs(test_set, owner) -> list[ScoringJob]:
    """Three uploads in a row: the first taken by a worker, two queued."""
    made = [
        create_system_output(test_set, owner, f"system {i}", HYPOTHESES, queue=False)
        for i in range(3)
    ]
    quiet_queue_but_scoring()
    now = timezone.now()
    ScoringJob.objects.filter(pk=made[0].pk).update(
        status=ScoringJob.Status.RUNNING,
        claimed_by=WORKER,
        started_at=now - timedelta(seconds=30),
        lease_expires_at=now + timedelta(seconds=60),
        attempts=1,
    )
    return [ScoringJob.objects.get(pk=job.pk) for job in made]


def status(client, job) -> dict:
    return client.get(reverse("job_status", args=[job.pk])).json()


def test_the_status_json_counts_the_rows_before_and_names_the_running_worker(
    client, owner, jobs
):
    client.login(username=owner.username, password=PASSWORD)

    last = status(client, jobs[2])["queue"]

    assert last["ahead"] == 1
    assert last["ahead_by_kind"] == {"scoring job": 1}
    assert last["running_total"] == 1
    (running,) = last["running"]
    assert running["kind"] == "scoring job"
    assert running["worker"] == WORKER
    assert running["stuck"] is False
    assert last["summary"] == (
        "Waiting for a worker: 1 task queued before it (1 scoring job); 1 running."
    )
    assert status(client, jobs[1])["queue"]["ahead"] == 0
    assert "next in the queue" in status(client, jobs[1])["queue"]["summary"]


def test_a_running_or_finished_job_has_no_place_in_the_queue(client, owner, jobs):
    client.login(username=owner.username, password=PASSWORD)
    assert status(client, jobs[0])["queue"] is None
    ScoringJob.objects.filter(pk=jobs[2].pk).fail("broken")
    assert status(client, jobs[2])["queue"] is None


def test_the_job_page_shows_its_place_and_the_running_work(client, owner, jobs):
    client.login(username=owner.username, password=PASSWORD)

    page = client.get(reverse("job_detail", args=[jobs[2].pk])).content.decode()

    assert 'id="job-queue"' in page
    assert "1 task queued before it (1 scoring job); 1 running." in page
    assert f"scoring job on <code>{WORKER}</code>" in page
    running = client.get(reverse("job_detail", args=[jobs[0].pk])).content.decode()
    assert 'id="job-queue" data-job-queue hidden' in running


def test_no_worker_running_is_said_plainly(client, owner, jobs):
    ScoringJob.objects.filter(pk=jobs[0].pk).update(status=ScoringJob.Status.QUEUED)
    client.login(username=owner.username, password=PASSWORD)
    summary = status(client, jobs[2])["queue"]["summary"]
    assert summary == (
        "Waiting for a worker: 2 tasks queued before it (2 scoring jobs); "
        "nothing running (are the workers up?)."
    )


def test_an_orange_job_waits_behind_earlier_jobs_of_every_kind(
    client, owner, jobs, nbest
):
    check_waiting_uploads()  # the n-best list is checked, not waiting
    quiet_queue_but_scoring()
    job = create_orange_job(
        nbest, owner, ["bleu"], OrangeOptions(), queue=False, max_sentences=1
    )
    assert job.chunks.count() == 3
    client.login(username=owner.username, password=PASSWORD)

    place = client.get(reverse("orange_job_status", args=[job.pk])).json()["queue"]

    # The two queued scoring jobs; its own chunks are not ahead of it.
    assert place["ahead_by_kind"] == {"scoring job": 2}
    assert place["running"][0]["worker"] == WORKER
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'id="orange-job-queue"' in page
    assert "2 tasks queued before it (2 scoring jobs)" in page


def test_a_scoring_job_is_not_behind_queued_orange_chunks_they_are_behind_it(
    client, owner, test_set, nbest
):
    """Workers read the scoring queue before the ORANGE queue: chunks queued
    earlier are not ahead of a scoring job, and a scoring job queued later is
    ahead of the chunks."""
    check_waiting_uploads()
    quiet_queue_but_scoring()
    orange = create_orange_job(
        nbest, owner, ["bleu"], OrangeOptions(), queue=False, max_sentences=1
    )
    scoring = create_system_output(test_set, owner, "later", HYPOTHESES, queue=False)
    client.login(username=owner.username, password=PASSWORD)

    place = status(client, scoring)["queue"]
    assert place["ahead"] == 0
    assert "next in the queue" in place["summary"]
    orange_place = client.get(reverse("orange_job_status", args=[orange.pk])).json()
    assert orange_place["queue"]["ahead_by_kind"] == {"scoring job": 1}
