"""A new test set's readability is counted by a real Celery worker through a
real Redis: the upload queues the job after its commit, the worker stores
the counts, and the page then shows the library's figures."""

import time

import pytest
from django.urls import reverse

from mtdash.evaluation.models import ReadabilityJob
from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from scoring.readability import text_complexity

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SOURCES = ["Die Katze sitzt auf der Matte. Sie schläft.", "Es regnet seit Tagen."]
REFERENCE = ["The cat sits on the mat. It sleeps.", "It has rained for days."]


def wait_for(test_set, timeout: float = 60.0) -> ReadabilityJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ReadabilityJob.objects.filter(test_set=test_set).first()
        if job is not None and job.is_finished:
            return job
        time.sleep(0.2)
    raise AssertionError(f"the readability job did not finish in {timeout} s")


def test_an_uploaded_test_sets_readability_is_counted_by_the_worker(
    celery_worker_process, client, team, owner
):
    data = TestSetData(
        "worker de-en", "de", "en", "news", "", SOURCES, {"A": REFERENCE}
    )
    test_set = create_test_set(team, owner, data)  # commits: the job is sent

    job = wait_for(test_set)

    assert job.status == ReadabilityJob.Status.SUCCEEDED, job.error_message
    assert job.progress == 100 and job.attempts == 1
    client.force_login(owner)
    response = client.get(reverse("readability_test_set", args=[test_set.pk]))
    readability = response.context["readability"]
    assert readability.source.figures == text_complexity(SOURCES, "de")
    assert readability.references[0].figures == text_complexity(REFERENCE, "en")
    assert readability.source.figures.n_sentences == 3  # two in the first line
    assert ReadabilityJob.objects.filter(test_set=test_set).count() == 1
    assert celery_worker_process.poll() is None
