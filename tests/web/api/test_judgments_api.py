"""POST /api/v1/test-sets/{id}/judgments/ and .../external-scores/.

Requests are authenticated with DRF's ``force_authenticate`` (the API's token
machinery is tested with the API app); team scoping is the browser's."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from mtdash.evaluation.models import ExternalMetric
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.models import Judgment
from tests.web.judgments.support import SYSTEMS, human_file, wmt_test_set

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
JUDGMENTS = "segment,system,judge,criterion,value\n1,sys-a,j1,adequacy,4\n"
SCORES = "sys-a\t1\t0.5\nsys-a\t2\t0.25\nsys-a\t3\t0.75\n"


@pytest.fixture
def toy(test_set, owner):
    create_system_output(test_set, owner, "sys-a", HYPOTHESES, queue=False)
    return test_set


def api(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def upload(name: str, content: str | bytes) -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="text/plain")


def judgments_url(test_set) -> str:
    return reverse("api_judgments_import", args=[test_set.pk])


def scores_url(test_set) -> str:
    return reverse("api_external_scores_import", args=[test_set.pk])


def test_judgments_answer_201_with_counts_per_criterion_and_system(team, owner):
    systems = SYSTEMS["en-de", "mqm_seg.tsv"]
    test_set = wmt_test_set(team, owner, "en-de", systems)
    data, rows = human_file("en-de", "mqm_seg.tsv", test_set.segments.count())
    response = api(owner).post(
        judgments_url(test_set),
        {"file": upload("mqm_seg.tsv", data)},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    rated = [cells for cells in rows if cells[3] != "None"]
    assert body["judgments"] == len(rated) == Judgment.objects.count()
    assert body["skipped"] == len(rows) - len(rated)
    assert body["layout"] == "wmt-mqm"
    assert body["file"] == "mqm_seg.tsv"
    assert body["counts"]["mqm"] == {
        s: n for s in sorted(systems) if (n := sum(1 for c in rated if c[0] == s))
    }
    assert set(body) == {
        "import_id",
        "file",
        "layout",
        "judgments",
        "skipped",
        "counts",
        "human_rows_skipped",
        "segment_order",
        "left_out_of",
    }


def test_a_bad_judgments_file_answers_400_naming_file_and_line(toy, owner):
    bad = JUDGMENTS + "2,sys-a,j1,adequacy,9\n"
    response = api(owner).post(judgments_url(toy), {"file": upload("j.csv", bad)})
    assert response.status_code == 400
    assert response.json() == {
        "errors": [
            {
                "file": "j.csv",
                "line": 3,
                "message": "value 9 is out of range for adequacy (1–5)",
            }
        ]
    }
    assert Judgment.objects.count() == 0


def test_a_request_without_a_file_answers_400(toy, owner):
    response = api(owner).post(judgments_url(toy), {})
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"].startswith("file: ")


def test_external_scores_answer_201_with_each_systems_mean(toy, owner):
    response = api(owner).post(
        scores_url(toy),
        {
            "metric": "comet-22",
            "description": "Unbabel/wmt22-comet-da",
            "higher_is_better": "true",
            "file": upload("comet.tsv", SCORES),
        },
    )
    assert response.status_code == 201, response.content
    assert response.json() == {
        "metric": "comet-22",
        "description": "Unbabel/wmt22-comet-da",
        "higher_is_better": True,
        "file": "comet.tsv",
        "scores": 3,
        "systems": {"sys-a": 0.5},
    }


def test_external_scores_may_be_lower_is_better(toy, owner):
    response = api(owner).post(
        scores_url(toy),
        {
            "metric": "ter-x",
            "description": "tercom",
            "higher_is_better": "false",
            "file": upload("t.tsv", SCORES),
        },
    )
    assert response.status_code == 201
    assert ExternalMetric.objects.get().higher_is_better is False


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"metric": "bleu", "description": "d"},
            "metric: 'bleu' is the name of mtdash's own metric 'bleu'; name the "
            "external metric differently, e.g. bleu-external",
        ),
        (
            {"metric": "m", "description": "d", "higher_is_better": "maybe"},
            "higher_is_better: higher_is_better must be true or false, not 'maybe'",
        ),
    ],
)
def test_refused_fields_answer_400(toy, owner, fields, message):
    response = api(owner).post(
        scores_url(toy), {**fields, "file": upload("s.tsv", SCORES)}
    )
    assert response.status_code == 400
    assert response.json() == {
        "errors": [{"file": None, "line": None, "message": message}]
    }
    assert ExternalMetric.objects.count() == 0


@pytest.mark.parametrize("url", [judgments_url, scores_url])
def test_another_teams_test_set_is_a_404(toy, outsider, url):
    response = api(outsider).post(
        url(toy),
        {"metric": "m", "description": "d", "file": upload("f.tsv", SCORES)},
    )
    assert response.status_code == 404
    assert Judgment.objects.count() == ExternalMetric.objects.count() == 0


@pytest.mark.parametrize("url", [judgments_url, scores_url])
def test_anonymous_requests_are_refused(toy, url):
    response = api(None).post(url(toy), {"file": upload("f.csv", JUDGMENTS)})
    assert response.status_code in (401, 403)
    assert Judgment.objects.count() == 0


WMT22 = "system\tda_sys_id\tseg_id\traw\tz\tn_judgments\n"


def test_a_dry_run_answers_200_with_the_preview_and_stores_nothing(toy, owner):
    content = WMT22 + "sys-a\tsys-a.1\t2\t80\t0.25\t1\nHUMAN-refB\tH.0\t1\t90\t0.5\t2\n"
    response = api(owner).post(
        judgments_url(toy),
        {"file": upload("da_seg.tsv", content), "dry_run": "true"},
        format="multipart",
    )
    assert response.status_code == 200
    body = response.json()
    assert Judgment.objects.count() == 0
    assert body["dry_run"] is True and body["problem"] is None
    assert body["layout"] == "wmt-da-seg"
    assert body["mapping"]["segment"] == "column seg_id"
    assert body["judgments"] == 2
    assert body["human_rows_skipped"] == {"HUMAN-refB": 1}
    assert body["systems"] == [
        {
            "system": "HUMAN-refB",
            "rows": 1,
            "matched": False,
            "human": True,
            "kept": False,
        },
        {"system": "sys-a", "rows": 1, "matched": True, "human": False, "kept": True},
    ]
    assert body["first_rows"][1] == {
        "line": 2,
        "segment": 2,
        "test_set_line": 2,
        "system": "sys-a",
        "judge": "-",
        "criterion": "da-z",
        "value": 0.25,
        "look": 1,
        "kind": "regular",
    }
    # The same file, imported, skips the reference's rows as the preview said.
    response = api(owner).post(
        judgments_url(toy), {"file": upload("da_seg.tsv", content)}, format="multipart"
    )
    assert response.status_code == 201
    assert response.json()["human_rows_skipped"] == {"HUMAN-refB": 1}
    assert Judgment.objects.count() == 2


def test_a_dry_run_names_the_problem_and_keeping_human_rows_is_refused_here(toy, owner):
    content = WMT22 + "HUMAN-refB\tH.0\t1\t90\t0.5\t2\nsys-a\tsys-a.1\t2\t80\t0.25\t1\n"
    fields = {"file": upload("da_seg.tsv", content), "human_rows": "keep"}
    response = api(owner).post(
        judgments_url(toy), {**fields, "dry_run": "1"}, format="multipart"
    )
    assert response.status_code == 200
    assert response.json()["problem"] == {
        "file": "da_seg.tsv",
        "line": 2,
        "message": "unknown system 'HUMAN-refB': the test set has outputs of sys-a",
    }
    fields["file"] = upload("da_seg.tsv", content)
    response = api(owner).post(judgments_url(toy), fields, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["line"] == 2
    assert Judgment.objects.count() == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"human_rows": "maybe"},
            "human_rows: human_rows must be one of auto, keep, skip",
        ),
        (
            {"dry_run": "perhaps"},
            "dry_run: dry_run must be true or false, not 'perhaps'",
        ),
    ],
)
def test_refused_judgment_options_answer_400(toy, owner, fields, message):
    response = api(owner).post(
        judgments_url(toy),
        {"file": upload("j.csv", JUDGMENTS), **fields},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"].startswith(message)
    assert Judgment.objects.count() == 0
