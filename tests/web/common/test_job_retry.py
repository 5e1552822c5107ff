"""Running a failed or stuck scoring job again from its page."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from mtdash.celery import app as celery_app
from mtdash.evaluation.models import CorpusScore, ScoringJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

HYPOTHESES = ["the cat is on a mat", "it is raining now", "hello to everyone"]
TASK = ScoringJob.task_name


@pytest.fixture
def job(test_set, owner):
    return create_system_output(test_set, owner, "sys1", HYPOTHESES, queue=False)


@pytest.fixture
def sent(monkeypatch) -> list:
    """Messages sent, captured instead of reaching a broker."""
    messages = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: messages.append((name, args[0]))
    )
    return messages


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def rows(job):
    return ScoringJob.objects.filter(pk=job.pk)


def fail(job, message="metric exploded"):
    """The job as a worker leaves it when it fails after its first attempt."""
    assert rows(job).claim() == 1
    assert rows(job).fail(message) == 1
    job.refresh_from_db()
    return job


def retry(client, job, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(reverse("job_retry", args=[job.pk]))


def test_a_failed_job_run_again_is_queued_afresh_and_then_succeeds(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    fail(job)
    response = retry(logged_in, job, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"] == reverse("job_detail", args=[job.pk])
    job.refresh_from_db()
    assert (job.status, job.error_message, job.attempts, job.progress) == (
        ScoringJob.Status.QUEUED,
        "",
        0,
        0,
    )
    assert (job.started_at, job.finished_at, job.lease_expires_at) == (None,) * 3
    assert sent == [(TASK, job.pk)]

    assert run_scoring_job(job.pk) is True
    job.refresh_from_db()
    assert job.status == ScoringJob.Status.SUCCEEDED
    assert job.attempts == 1
    assert CorpusScore.objects.filter(output=job.output).count() == 1


def test_running_a_job_again_replaces_its_scores_instead_of_adding(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    assert run_scoring_job(job.pk) is True
    rows(job).update(status=ScoringJob.Status.FAILED, error_message="later failure")
    retry(logged_in, job, django_capture_on_commit_callbacks)
    assert run_scoring_job(job.pk) is True
    assert CorpusScore.objects.filter(output=job.output, metric="bleu").count() == 1


def test_a_running_job_whose_lease_expired_can_be_run_again(
    logged_in, job, sent, django_capture_on_commit_callbacks
):
    rows(job).claim()
    rows(job).update(lease_expires_at=timezone.now() - timedelta(minutes=5))
    page = logged_in.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert 'id="job-retry"' in page and 'id="job-stuck"' in page

    retry(logged_in, job, django_capture_on_commit_callbacks)
    job.refresh_from_db()
    assert (job.status, job.attempts, job.claimed_by) == ("queued", 0, "")
    assert sent == [(TASK, job.pk)]


@pytest.mark.parametrize(
    "state", ["succeeded", "queued", "running under a fresh lease"]
)
def test_a_job_that_did_not_fail_or_stop_is_refused(
    logged_in, job, sent, django_capture_on_commit_callbacks, state
):
    if state == "succeeded":
        run_scoring_job(job.pk)
    elif state != "queued":
        rows(job).claim()
    before = rows(job).values().get()
    response = retry(logged_in, job, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert rows(job).values().get() == before
    assert sent == []
    page = logged_in.get(response["Location"]).content.decode()
    assert "can run again" in page
    assert 'id="job-retry"' not in page


def test_an_outsider_gets_404_and_the_job_stays_failed(
    client, outsider, job, sent, django_capture_on_commit_callbacks
):
    fail(job)
    client.login(username=outsider.username, password=PASSWORD)
    assert retry(client, job, django_capture_on_commit_callbacks).status_code == 404
    assert rows(job).get().status == ScoringJob.Status.FAILED
    assert sent == []


def test_get_is_not_allowed_and_anonymous_users_are_sent_to_log_in(
    client, owner, job, sent
):
    fail(job)
    url = reverse("job_retry", args=[job.pk])
    anonymous = client.post(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    client.login(username=owner.username, password=PASSWORD)
    assert client.get(url).status_code == 405
    assert rows(job).get().status == ScoringJob.Status.FAILED


def test_a_post_without_the_csrf_token_is_refused(owner, job, sent):
    fail(job)
    client = Client(enforce_csrf_checks=True)
    client.login(username=owner.username, password=PASSWORD)
    assert client.post(reverse("job_retry", args=[job.pk])).status_code == 403
    assert rows(job).get().status == ScoringJob.Status.FAILED


def test_the_page_of_a_failed_job_shows_attempts_times_and_a_run_again_button(
    logged_in, job
):
    fail(job, "metric exploded")
    page = logged_in.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert 'id="job-attempts">1<' in page
    assert f'id="job-created">{job.created_at:%Y-%m-%d %H:%M:%S}<' in page
    assert f'id="job-started">{job.started_at:%Y-%m-%d %H:%M:%S}<' in page
    assert f'id="job-finished">{job.finished_at:%Y-%m-%d %H:%M:%S}<' in page
    assert 'id="job-elapsed">' in page and " s<" in page
    assert "metric exploded" in page
    assert 'id="job-retry"' in page and "Run again" in page
    assert 'id="job-worker"' not in page


def test_the_page_of_a_running_job_names_its_worker_and_lease(logged_in, job):
    rows(job).claim()
    job.refresh_from_db()
    page = logged_in.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert f"<code>{job.claimed_by}</code>" in page
    assert f'id="job-lease">{job.lease_expires_at:%H:%M:%S}<' in page
    assert 'id="job-retry"' not in page


def test_the_status_json_keeps_its_fields_and_adds_attempts_and_times(logged_in, job):
    fail(job, "boom")
    data = logged_in.get(reverse("job_status", args=[job.pk])).json()
    assert data["status"] == "failed"
    # The label the page shows; the poller writes it, never the raw value.
    assert data["status_label"] == "Failed"
    assert data["error_message"] == "boom"
    assert data["finished"] is True
    assert "progress" in data
    assert data["attempts"] == 1
    assert data["started_at"] and data["finished_at"]
    assert data["lease_expires_at"] is None
    assert data["stuck"] is False
