"""An uploaded output is scored by a real Celery worker through a real Redis."""

import time

import pytest
import sacrebleu
from django.urls import reverse

from mtdash.evaluation.models import CorpusScore, ScoringJob
from tests.conftest import PASSWORD
from tests.web.helpers import text_file

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]


def wait_for(job_id: int, timeout: float = 60.0) -> ScoringJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ScoringJob.objects.get(pk=job_id)
        if job.is_finished:
            return job
        time.sleep(0.2)
    raise AssertionError(
        f"job {job_id} did not finish in {timeout} s (status {job.status})"
    )


def test_an_uploaded_output_is_scored_by_the_worker(
    client, owner, test_set, celery_worker_process
):
    client.login(username=owner.username, password=PASSWORD)
    content = "\n".join(HYPOTHESES) + "\n"
    response = client.post(
        reverse("output_new", args=[test_set.pk]),
        {"system_name": "worker-sys", "hypothesis_file": text_file("hyp.en", content)},
    )
    job_id = ScoringJob.objects.get().pk
    assert response["Location"] == reverse("job_detail", args=[job_id])

    job = wait_for(job_id)

    assert job.status == ScoringJob.Status.SUCCEEDED, job.error_message
    assert job.progress == 100
    expected = sacrebleu.corpus_bleu(HYPOTHESES, test_set.reference_streams()).score
    assert CorpusScore.objects.get(output=job.output).score == pytest.approx(
        expected, abs=1e-4
    )
    assert celery_worker_process.poll() is None


def test_the_worker_records_a_failure_on_the_job(
    owner, test_set, celery_worker_process
):
    from mtdash.evaluation.services.uploads import create_system_output

    job = create_system_output(
        test_set, owner, "broken", HYPOTHESES, metrics=["bleu:n=zero"]
    )
    job = wait_for(job.pk)
    assert job.status == ScoringJob.Status.FAILED
    assert job.error_message.startswith(
        "MetricError: bad value 'zero' for parameter 'n' of metric 'bleu'"
    )
    assert job.started_at <= job.finished_at
