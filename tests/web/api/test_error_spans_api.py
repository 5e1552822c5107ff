"""``/api/v1/test-sets/{id}/error-spans/`` with API tokens: POST imports a
span file (201 with the counts, 400 naming file and line or the field), GET
lists the imports; another team's test set is a 404 and stores nothing."""

from __future__ import annotations

import pytest

from mtdash.judgments.models import ErrorSpanAnnotation, Judgment, JudgmentImport
from tests.web.helpers import text_file
from tests.web.judgments.error_span_support import annotated_fixture  # noqa: F401
from tests.web.judgments.span_world import (
    ESA_LINES,
    METRIC,
    METRIC_LINES,
    MQM_ROWS,
    MQM_SYSTEMS,
    N_ESA_SPANS,
    N_MQM_SPANS,
    jsonl,
    mqm_tsv,
)

pytestmark = pytest.mark.django_db


def url(test_set) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/error-spans/"


def post(client, test_set, name, data: bytes, **fields):
    return client.post(
        url(test_set), {"file": text_file(name, data), **fields}, format="multipart"
    )


def test_an_mqm_file_is_imported_with_its_counts(api, annotated):
    response = post(api, annotated, "mqm.tsv", mqm_tsv())

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["import_id"] == JudgmentImport.objects.get().pk
    assert (body["file"], body["format"], body["source"]) == (
        "mqm.tsv",
        "mqm-tsv",
        "human",
    )
    assert (body["annotations"], body["spans"], body["judgments"]) == (
        18,
        N_MQM_SPANS,
        18,
    )
    assert body["criterion"] == "mqm" and body["weights"]["major"] == 5.0
    scores = {name: entry["score"] for name, entry in body["systems"].items()}
    assert scores == pytest.approx(MQM_SYSTEMS, abs=1e-12)
    assert body["systems"]["gamma"] == {
        "annotations": 6,
        "spans": 5,
        "score": pytest.approx(-23 / 3),
    }


def test_weights_esa_and_a_metrics_spans_through_the_fields(api, annotated):
    response = post(
        api, annotated, "m.txt", mqm_tsv(), format="mqm-tsv", weights="major=1"
    )
    assert response.status_code == 201 and response.json()["weights"]["major"] == 1.0
    gamma = Judgment.objects.filter(output__system__name="gamma", index=0)
    assert sorted(gamma.values_list("value", flat=True)) == [-10.0, -2.0]

    response = post(api, annotated, "esa.jsonl", jsonl(ESA_LINES))
    assert response.status_code == 201
    assert (response.json()["criterion"], response.json()["spans"]) == (
        "esa",
        N_ESA_SPANS,
    )

    response = post(api, annotated, "x.jsonl", jsonl(METRIC_LINES), source=METRIC)
    assert response.status_code == 201
    assert (response.json()["source"], response.json()["judgments"]) == (METRIC, 0)
    assert ErrorSpanAnnotation.objects.filter(kind="metric").count() == 3


def test_the_list_names_each_import(api, annotated):
    post(api, annotated, "mqm.tsv", mqm_tsv())
    post(api, annotated, "x.jsonl", jsonl(METRIC_LINES), source=METRIC)

    response = api.get(url(annotated))

    assert response.status_code == 200
    listed = response.json()
    assert [(i["file"], i["source"], i["annotations"]) for i in listed] == [
        ("x.jsonl", METRIC, 3),
        ("mqm.tsv", "human", 18),
    ]
    assert set(listed[0]) >= {"id", "format", "spans", "judgments", "created"}


def test_a_file_with_a_problem_is_400_naming_file_and_line(api, annotated):
    rows = [*MQM_ROWS, ("delta", 1, "r1", "No-error", "No-error", "x", "y")]
    response = post(api, annotated, "mqm.tsv", mqm_tsv(rows))

    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["file"], error["line"]) == ("mqm.tsv", 22)
    assert error["message"].startswith("unknown system 'delta'")
    assert not JudgmentImport.objects.exists() and not Judgment.objects.exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"format": "xml"}, "format: format must be one of auto, mqm-tsv, spans-jsonl"),
        ({"source": "a b"}, "source: source is human or a metric's name: 'a b'"),
        ({"weights": "tiny:1"}, "weights: MQM weight 'tiny': a rule starts with"),
        ({"weights": "major=2"}, "weights: MQM weights score MQM TSV files; esa.jsonl"),
    ],
)
def test_a_refused_field_is_400_naming_it(api, annotated, fields, message):
    response = post(api, annotated, "esa.jsonl", jsonl(ESA_LINES), **fields)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["file"] is None and error["message"].startswith(message)
    assert not ErrorSpanAnnotation.objects.exists()


def test_a_request_without_a_file_is_400(api, annotated):
    response = api.post(url(annotated), {"source": "human"}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"].startswith("file: send the file")


def test_another_teams_test_set_is_404_and_nothing_is_stored(outsider_api, annotated):
    assert outsider_api.get(url(annotated)).status_code == 404
    response = post(outsider_api, annotated, "mqm.tsv", mqm_tsv())
    assert response.status_code == 404
    assert not JudgmentImport.objects.exists()


def test_a_request_without_a_token_is_401(client, annotated):
    assert client.get(url(annotated)).status_code == 401
