"""The judgments and external-scores endpoints at their real /api/v1/ paths,
with a token made by ``manage.py create_api_token`` (tests/judgments covers
their validation in depth)."""

from __future__ import annotations

import statistics

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from mtdash.evaluation.models import ExternalSegmentScore
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.models import Judgment

pytestmark = pytest.mark.django_db

HYPOTHESES = {
    "alpha": ["the cat is on the mat", "it rains", "hello all"],
    "beta": ["a cat mat", "rain", "hi"],
}


@pytest.fixture
def outputs(test_set, owner):
    for name, lines in HYPOTHESES.items():
        create_system_output(test_set, owner, name, lines, queue=False)
    return test_set


def upload(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def test_judgments_with_a_token(api, outputs):
    rows = ["segment,system,judge,criterion,value"]
    rows += [f"{i},alpha,j1,adequacy,{5 - i}" for i in (1, 2, 3)]
    rows += ["1,beta,j1,adequacy,2", "2,beta,j2,fluency,3"]
    answer = api.post(
        f"/api/v1/test-sets/{outputs.pk}/judgments/",
        {"file": upload("judgments.csv", "\n".join(rows) + "\n")},
        format="multipart",
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["judgments"] == 5
    assert body["counts"] == {
        "adequacy": {"alpha": 3, "beta": 1},
        "fluency": {"beta": 1},
    }
    assert Judgment.objects.count() == 5


def test_a_bad_judgment_is_an_errors_json_and_stores_nothing(api, outputs):
    text = "segment,system,judge,criterion,value\n1,alpha,j1,adequacy,9\n"
    answer = api.post(
        f"/api/v1/test-sets/{outputs.pk}/judgments/",
        {"file": upload("bad.csv", text)},
        format="multipart",
    )
    assert answer.status_code == 400
    [error] = answer.json()["errors"]
    assert (error["file"], error["line"]) == ("bad.csv", 2)
    assert "out of range" in error["message"]
    assert Judgment.objects.count() == 0


def test_external_scores_with_a_token_reach_the_leaderboard(api, outputs):
    scores = {"alpha": [0.9, 0.7, 0.8], "beta": [0.2, 0.4, 0.3]}
    text = "".join(
        f"{system}\t{i}\t{value}\n"
        for system, values in scores.items()
        for i, value in enumerate(values, start=1)
    )
    answer = api.post(
        f"/api/v1/test-sets/{outputs.pk}/external-scores/",
        {
            "metric": "comet-22",
            "description": "Unbabel/wmt22-comet-da",
            "higher_is_better": "true",
            "file": upload("comet.tsv", text),
        },
        format="multipart",
    )
    assert answer.status_code == 201, answer.content
    assert ExternalSegmentScore.objects.count() == 6

    board = api.get(f"/api/v1/test-sets/{outputs.pk}/leaderboard").json()
    [column] = [m for m in board["metrics"] if m["spec"] == "comet-22"]
    assert column["signature"] == "Unbabel/wmt22-comet-da"
    assert column["external"] is True
    means = {
        row["system"]: row["scores"]["comet-22"]["score"] for row in board["systems"]
    }
    for system, values in scores.items():
        assert means[system] == pytest.approx(statistics.fmean(values), rel=1e-12)


def test_another_teams_token_gets_404(outsider_api, outputs):
    answer = outsider_api.post(
        f"/api/v1/test-sets/{outputs.pk}/judgments/",
        {"file": upload("j.csv", "segment,system,value\n1,alpha,3\n")},
        format="multipart",
    )
    assert answer.status_code == 404
