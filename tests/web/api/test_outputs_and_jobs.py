"""System outputs, scoring jobs (status, retry) and the leaderboard."""

from __future__ import annotations

import pytest
from django.db import transaction

from mtdash.api.models import IdempotentRequest
from mtdash.evaluation.models import Hypothesis, ScoringJob, SystemOutput
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.web.helpers import text_file

HYPOTHESES = "the cat sat on the mat\nit is raining\nhello all of you\n"


def outputs_url(test_set) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/outputs/"


def upload(api, test_set, *, system="sys-a", metric=None, body=HYPOTHESES, **extra):
    data = {"system": system, "hypotheses": text_file("hyp.en", body)}
    if metric is not None:
        data["metric"] = metric
    return api.post(outputs_url(test_set), data, format="multipart", **extra)


def test_an_output_answers_its_ids_and_queues_its_job_after_commit(
    api, test_set, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(api, test_set, metric=["bleu", "ter"])
    assert response.status_code == 201, response.json()
    job = ScoringJob.objects.get()
    assert response.json() == {"output_id": job.output_id, "job_id": job.pk}
    assert job.metrics == ["bleu", "ter"]
    assert queued == [job.pk]


def test_without_metrics_an_output_gets_bleu_and_chrf(api, test_set):
    upload(api, test_set)
    assert ScoringJob.objects.get().metrics == ["bleu", "chrf"]


def test_without_metrics_an_output_gets_the_leaderboards_metrics(api, test_set, owner):
    job = create_system_output(
        test_set, owner, "first", HYPOTHESES.split("\n")[:3], metrics=["ter"]
    )
    run_scoring_job(job.pk)
    upload(api, test_set, system="second")
    assert ScoringJob.objects.latest("pk").metrics == ["ter"]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("meteor:paraphrase=/etc/passwd", "names a file on the server"),
        ("red:model=/etc/passwd", "names a file on the server"),
        ("nosuchmetric", "nosuchmetric"),
    ],
)
def test_metric_specs_are_checked_like_the_web_form(api, test_set, spec, message):
    response = upload(api, test_set, metric=[spec])
    assert response.status_code == 400
    assert message in response.json()["errors"][0]["message"]
    assert not SystemOutput.objects.exists()


def test_a_spec_with_several_parameters_stays_one_spec(api, test_set):
    response = upload(api, test_set, metric=["bleu:n=2,smooth=none", "chrf"])
    assert response.status_code == 201, response.json()
    assert len(ScoringJob.objects.get().metrics) == 2


def test_a_short_output_is_named_with_its_line_and_nothing_is_stored(api, test_set):
    response = upload(api, test_set, body="one\ntwo\n")
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert (problem["file"], problem["line"]) == ("hyp.en", 3)
    assert problem["message"].startswith("the file ends after 2 lines")
    for model in (SystemOutput, Hypothesis, ScoringJob, IdempotentRequest):
        assert not model.objects.exists()


def test_a_retried_output_upload_returns_the_same_ids(api, test_set):
    first = upload(api, test_set, HTTP_IDEMPOTENCY_KEY="out-1")
    again = upload(api, test_set, HTTP_IDEMPOTENCY_KEY="out-1")
    assert again.status_code == 201 and again.json() == first.json()
    assert SystemOutput.objects.count() == 1 and ScoringJob.objects.count() == 1


def test_another_teams_test_set_is_a_404_everywhere(outsider_api, test_set):
    assert upload(outsider_api, test_set).status_code == 404
    leaderboard = f"/api/v1/test-sets/{test_set.pk}/leaderboard"
    assert outsider_api.get(leaderboard).status_code == 404
    assert not SystemOutput.objects.exists()


def test_a_job_shows_its_status(api, test_set):
    job_id = upload(api, test_set, metric=["bleu"]).json()["job_id"]
    body = api.get(f"/api/v1/jobs/{job_id}").json()
    assert body["id"] == job_id and body["kind"] == "scoring"
    assert (body["status"], body["progress"], body["attempts"]) == ("queued", 0, 0)
    assert body["error_message"] == "" and body["started_at"] is None
    assert body["created_at"] and body["finished_at"] is None
    run_scoring_job(job_id)
    body = api.get(f"/api/v1/jobs/{job_id}").json()
    assert (body["status"], body["progress"], body["attempts"]) == ("succeeded", 100, 1)
    assert body["finished_at"] is not None


def test_another_teams_job_is_a_404(api, outsider_api, test_set):
    job_id = upload(api, test_set).json()["job_id"]
    assert outsider_api.get(f"/api/v1/jobs/{job_id}").status_code == 404
    assert outsider_api.post(f"/api/v1/jobs/{job_id}/retry").status_code == 404
    assert api.get(f"/api/v1/jobs/{job_id}?kind=orange").status_code == 404
    assert api.get(f"/api/v1/jobs/{job_id}?kind=other").status_code == 400


def test_a_failed_job_is_retried_and_a_queued_one_is_a_409(
    api, test_set, queued, django_capture_on_commit_callbacks
):
    job_id = upload(api, test_set).json()["job_id"]
    response = api.post(f"/api/v1/jobs/{job_id}/retry")
    assert response.status_code == 409
    assert "Only a failed job" in response.json()["errors"][0]["message"]
    rows = ScoringJob.objects.filter(pk=job_id)
    rows.claim()
    rows.fail("the worker ran out of memory")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/v1/jobs/{job_id}/retry")
    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    assert response.json()["error_message"] == ""
    assert queued == [job_id]


def test_the_leaderboard_gives_scores_on_the_metrics_scale(api, test_set):
    for system in ("sys-a", "sys-b"):
        body = HYPOTHESES if system == "sys-a" else "a\nb\nc\n"
        job_id = upload(
            api, test_set, system=system, body=body, metric=["bleu", "chrf", "ter"]
        )
        run_scoring_job(job_id.json()["job_id"])
    board = api.get(f"/api/v1/test-sets/{test_set.pk}/leaderboard").json()
    specs = [m["spec"] for m in board["metrics"]]
    assert specs[0] == "bleu" and set(specs) == {"bleu", "chrf", "ter"}
    bleu = board["metrics"][0]
    assert bleu["higher_is_better"] is True and bleu["scale"] == 100.0
    assert bleu["signature"].startswith("bleu")
    assert [s["system"] for s in board["systems"]] == ["sys-a", "sys-b"]
    best = board["systems"][0]
    output = SystemOutput.objects.get(pk=best["output_id"])
    stored = output.corpus_scores.get(metric="bleu").score
    assert best["scores"]["bleu"] == {
        "score": stored,
        "ci_low": None,
        "ci_high": None,
        "rank": None,
        "rank_range": None,
        "cluster": None,
    }
    assert 1 < stored <= 100  # the 0-100 scale the CLI prints
    assert board["significance"] == {}


def test_an_empty_leaderboard(api, test_set):
    board = api.get(f"/api/v1/test-sets/{test_set.pk}/leaderboard").json()
    assert board == {
        "metrics": [],
        "systems": [],
        "correction": "holm",
        "significance": {},
        "human_significance": {},
    }


def test_the_upload_is_atomic_with_its_idempotency_row(api, test_set, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr("mtdash.evaluation.services.uploads.create_scoring_job", broken)
    with pytest.raises(RuntimeError), transaction.atomic():
        upload(api, test_set, HTTP_IDEMPOTENCY_KEY="k")
    assert not SystemOutput.objects.exists()
    assert not IdempotentRequest.objects.exists()


def test_an_imported_metric_is_an_external_column_and_never_a_default(
    api, test_set, owner
):
    from mtdash.evaluation.models import ExternalCorpusScore, ExternalMetric

    job = create_system_output(
        test_set, owner, "first", HYPOTHESES.split("\n")[:3], metrics=["ter"]
    )
    run_scoring_job(job.pk)
    metric = ExternalMetric.objects.create(
        test_set=test_set, name="comet-22", description="COMET-22 (wmt22-comet-da)"
    )
    ExternalCorpusScore.objects.create(
        metric=metric, output=job.output, score=0.81, n_segments=3, file_name="c"
    )
    board = api.get(f"/api/v1/test-sets/{test_set.pk}/leaderboard").json()
    columns = {m["spec"]: m for m in board["metrics"]}
    assert columns["comet-22"]["external"] is True
    assert columns["comet-22"]["scale"] is None
    assert columns["ter"]["external"] is False and columns["ter"]["scale"] == 100.0
    assert board["systems"][0]["scores"]["comet-22"]["score"] == 0.81
    upload(api, test_set, system="second")
    assert ScoringJob.objects.latest("pk").metrics == ["ter"]
