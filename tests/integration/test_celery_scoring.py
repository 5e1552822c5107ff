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


def test_the_worker_computes_the_leaderboards_intervals_after_scoring(
    client, owner, test_set, celery_worker_process
):
    from mtdash.evaluation.models import ComparisonJob, MetricComparison
    from mtdash.evaluation.services.uploads import create_system_output

    jobs = [
        create_system_output(
            test_set, owner, name, hypotheses, metrics=["bleu", "chrf"]
        )
        for name, hypotheses in (
            ("good", HYPOTHESES),
            ("poor", ["cat", "rain", "hello"]),
        )
    ]
    for job in jobs:
        assert wait_for(job.pk).status == ScoringJob.Status.SUCCEEDED
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        unfinished = ComparisonJob.objects.exclude(
            status__in=ComparisonJob.finished_statuses()
        )
        columns = set(
            MetricComparison.objects.filter(test_set=test_set).values_list(
                "column", flat=True
            )
        )
        if not unfinished.exists() and columns == {"bleu", "chrf"}:
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the comparison job did not store both columns")
    assert set(ComparisonJob.objects.values_list("status", flat=True)) == {
        ComparisonJob.Status.SUCCEEDED
    }
    comparison = MetricComparison.objects.get(test_set=test_set, column="bleu")
    assert len(comparison.output_ids) == 2
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(test_set.get_absolute_url()).content.decode()
    assert "interval pending" not in page
    assert 'class="interval"' in page
