"""The scoring service in-process (the Celery path is tested in tests/integration)."""

import pytest
import sacrebleu
from django.urls import reverse

from mtdash.evaluation.models import CorpusScore, ScoringJob, SegmentScore
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output

HYPOTHESES = ["the cat is on a mat", "it is raining now", "hello to everyone"]


@pytest.fixture
def job(test_set, owner):
    return create_system_output(test_set, owner, "sys1", HYPOTHESES, queue=False)


def test_it_stores_corpus_and_sentence_bleu_equal_to_sacrebleu(job, test_set):
    assert run_scoring_job(job.pk) is True
    job.refresh_from_db()
    references = test_set.reference_streams()
    expected = sacrebleu.corpus_bleu(HYPOTHESES, references).score
    score = CorpusScore.objects.get(output=job.output, metric="bleu")
    assert job.status == ScoringJob.Status.SUCCEEDED
    assert job.progress == 100
    assert job.started_at <= job.finished_at
    assert score.score == pytest.approx(expected, abs=1e-4)
    assert score.signature.startswith("bleu|")
    sentence = [
        sacrebleu.sentence_bleu(
            h, [r[i] for r in references], smooth_method="add-k"
        ).score
        for i, h in enumerate(HYPOTHESES)
    ]
    stored = list(score.segment_scores.values_list("score", flat=True))
    assert stored == pytest.approx(sentence, abs=1e-4)


def test_a_job_that_is_not_queued_is_not_run_again(job):
    assert run_scoring_job(job.pk) is True
    assert run_scoring_job(job.pk) is False
    assert CorpusScore.objects.count() == 1


def test_running_a_job_again_replaces_its_scores(job):
    run_scoring_job(job.pk)
    ScoringJob.objects.filter(pk=job.pk).update(status=ScoringJob.Status.QUEUED)
    run_scoring_job(job.pk)
    assert CorpusScore.objects.count() == 1
    assert SegmentScore.objects.count() == len(HYPOTHESES)


def test_a_failing_metric_marks_the_job_failed_with_its_message(job):
    ScoringJob.objects.filter(pk=job.pk).update(metrics=["no-such-metric"])
    run_scoring_job(job.pk)
    job.refresh_from_db()
    assert job.status == ScoringJob.Status.FAILED
    assert "no-such-metric" in job.error_message
    assert "bleu" in job.error_message  # the message lists the valid names
    assert job.finished_at is not None


def test_the_job_page_shows_each_score_with_the_decimals_of_its_scale(
    job, client, owner
):
    ScoringJob.objects.filter(pk=job.pk).update(metrics=["bleu", "rouge-l"])
    run_scoring_job(job.pk)
    bleu = CorpusScore.objects.get(output=job.output, metric="bleu").score
    rouge = CorpusScore.objects.get(output=job.output, metric="rouge-l").score
    client.force_login(owner)
    page = client.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert f'<td class="num">{bleu:.2f}</td>' in page  # 0-100
    assert f'<td class="num">{rouge:.4f}</td>' in page  # 0-1
