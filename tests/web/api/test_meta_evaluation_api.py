"""The WMT meta-evaluation through the API: ``test=permutation`` on a test
set's correlations (202 while a worker computes, then the stored cells),
``POST /api/v1/meta-evaluations/`` and ``GET /api/v1/meta-evaluations/{id}``,
their errors and team scoping."""

from __future__ import annotations

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from mtdash.evaluation.models import SystemOutput
from mtdash.judgments.models import MetaEvaluation
from tests.web.api.conftest import client_with, create_token
from tests.web.judgments.meta_evaluation_support import (
    another_test_set,
    judge,
    run,
)

CELL_FIELDS = {"metric", "method", "coefficient", "tie_epsilon", "p_value", "cluster"}
FAST = {"permutations": 200}


@pytest.fixture
def judged(test_set, owner):
    return judge(test_set, owner)


@pytest.fixture
def member_api(member):
    return client_with(create_token(member.username).strip())


def correlations(test_set) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/correlations"


@pytest.mark.django_db
def test_a_permutation_ranking_is_queued_then_read(member_api, judged):
    query = {"test": "permutation", "level": "sentence", "method": "kendall", **FAST}
    response = member_api.get(correlations(judged), query)
    assert response.status_code == 202
    body = response.json()
    job = MetaEvaluation.objects.get()
    assert body["id"] == job.pk and body["status"] == "queued"
    assert body["url"] == f"/api/v1/meta-evaluations/{job.pk}"
    assert job.criterion == "adequacy"  # the first judged criterion by name
    # Asked again while it waits: the same job.
    assert member_api.get(correlations(judged), query).json()["id"] == job.pk
    run(job)
    response = member_api.get(correlations(judged), query)
    assert response.status_code == 200
    body = response.json()
    kendall = next(
        t for t in job.result["test_sets"][0]["tasks"] if t["task"] == "segment:kendall"
    )
    assert body["cells"] == kendall["cells"]
    assert all(set(cell) == CELL_FIELDS for cell in body["cells"])
    assert body["task"] == "segment:kendall" and body["statistic"] == "tau_23"
    assert body["test"] == "permutation" and body["criterion"] == "adequacy"
    assert body["settings"]["permutations"] == 200
    assert body["notes"] == {"variant": "23", "tie_calibration": True}
    assert body["meta_evaluation"]["id"] == job.pk
    # Every other task of the same settings is in the same job.
    for level, method, task in (
        ("system", "pearson", "system:pearson"),
        ("system", "accuracy", "system:accuracy"),
        ("system", "spa", "system:spa"),
        ("sentence", "accuracy", "segment:acc_eq"),
        ("sentence", "pearson", "segment:pearson"),
    ):
        test = {} if method in ("accuracy", "spa") else {"test": "permutation"}
        response = member_api.get(
            correlations(judged), {"level": level, "method": method, **test, **FAST}
        )
        assert response.status_code == 200, (level, method)
        assert response.json()["task"] == task
    assert MetaEvaluation.objects.count() == 1


@pytest.mark.django_db
def test_other_settings_are_another_job(member_api, judged):
    base = {"test": "permutation", **FAST}
    first = member_api.get(correlations(judged), base).json()["id"]
    for extra in (
        {"kendall_variant": "b"},
        {"tie_calibration": "false"},
        {"group_by": "system"},
        {"seed": "3"},
        {"criterion": "fluency"},
    ):
        other = member_api.get(correlations(judged), {**base, **extra}).json()["id"]
        assert other != first, extra
    job = MetaEvaluation.objects.get(pk=other)
    assert job.criterion == "fluency"
    variant = MetaEvaluation.objects.filter(protocol_settings__kendall_variant="b")
    assert variant.get().protocol_settings["tie_calibration"] is True


@pytest.mark.django_db
def test_bad_parameters_are_named(member_api, judged):
    def messages(**query):
        response = member_api.get(correlations(judged), query)
        assert response.status_code == 400, query
        return [e["message"] for e in response.json()["errors"]]

    assert messages(method="spearman", test="permutation")[0].startswith(
        "method: spearman has no permutation ranking at system level"
    )
    assert messages(method="spa", level="sentence")[0].startswith(
        "method: spa has no permutation ranking at sentence level"
    )
    assert messages(method="accuracy", test="bootstrap") == [
        "method: accuracy is ranked by test=permutation only"
    ]
    assert messages(test="anova")[0].startswith("test: 'anova' is not one of")
    assert messages(test="permutation", group_by="doc")[0].startswith("group_by: ")
    assert messages(test="permutation", permutations="0")[0].startswith(
        "permutations: "
    )
    assert messages(test="permutation", kendall_variant="c")[0].startswith(
        "kendall_variant: "
    )
    assert messages(test="permutation", criterion="mqm") == [
        "criterion: 'toy fr-en' has no judgments of 'mqm' "
        "(its criteria: adequacy, fluency)"
    ]
    assert not MetaEvaluation.objects.exists()


@pytest.mark.django_db
def test_a_failed_ranking_answers_409(member_api, judged):
    SystemOutput.objects.filter(
        test_set=judged, system__name__in=["good", "fair"]
    ).update(hidden=True)
    query = {"method": "spa", **FAST}
    job_id = member_api.get(correlations(judged), query).json()["id"]
    run(MetaEvaluation.objects.get(pk=job_id))
    response = member_api.get(correlations(judged), query)
    assert response.status_code == 409
    assert "at least 3 needed" in response.json()["errors"][0]["message"]


@pytest.mark.django_db
def test_the_bootstrap_tables_are_as_before(member_api, test_set):
    # No judgments: the bootstrap table says so, as it always did.
    response = member_api.get(correlations(test_set))
    assert response.status_code == 404
    assert (
        member_api.get(correlations(test_set), {"test": "permutation"}).status_code
        == 404
    )


@pytest.mark.django_db
def test_post_queues_a_pooled_meta_evaluation_and_get_follows_it(
    api, owner, team, judged
):
    second = another_test_set(team, owner)
    body = {
        "test_sets": [second.pk, judged.pk],
        "weights": [1, 3],
        "criterion": "fluency",
        "kendall_variant": "acc23",
        **FAST,
    }
    response = api.post("/api/v1/meta-evaluations/", body, format="json")
    assert response.status_code == 202
    queued = response.json()
    assert set(queued) == {"id", "status", "progress", "url"}
    assert queued["status"] == "queued" and queued["progress"] == 0
    url = queued["url"]
    assert url == reverse("api_meta_evaluation", args=[queued["id"]])
    status = api.get(url).json()
    assert status["status"] == "queued" and status["result"] is None
    assert status["test_sets"] == [
        {"id": second.pk, "name": "toy de-en", "weight": 1.0},
        {"id": judged.pk, "name": "toy fr-en", "weight": 3.0},
    ]
    assert status["settings"]["kendall_variant"] == "acc23"
    assert status["criterion"] == "fluency"
    # The same request again: the same job.
    assert api.post("/api/v1/meta-evaluations/", body, format="json").json() == queued
    run(MetaEvaluation.objects.get(pk=queued["id"]))
    done = api.get(url)
    assert done.status_code == 200
    result = done.json()
    assert result["status"] == "succeeded" and result["progress"] == 100
    job = MetaEvaluation.objects.get(pk=queued["id"])
    assert result["result"] == job.result
    assert [b["test_set"] for b in result["result"]["test_sets"]] == [
        "toy de-en",
        "toy fr-en",
    ]
    cells = result["result"]["overall"]["cells"]
    assert {c["metric"] for c in cells} == {"bleu", "chrf", "ter", "comet"}
    assert [c["cluster"] for c in cells] == sorted(c["cluster"] for c in cells)
    again = api.post("/api/v1/meta-evaluations/", body, format="json")
    assert again.status_code == 202 and again.json()["status"] == "succeeded"


@pytest.mark.django_db
def test_post_errors_name_the_field(api, outsider_api, judged):
    def messages(client, body):
        response = client.post("/api/v1/meta-evaluations/", body, format="json")
        assert response.status_code == 400, body
        return [e["message"] for e in response.json()["errors"]]

    good = {"test_sets": [judged.pk], "criterion": "adequacy"}
    assert messages(api, {"test_sets": [judged.pk]}) == [
        "criterion: This field is required."
    ]
    assert messages(api, {**good, "test_sets": []})[0].startswith("test_sets: ")
    assert messages(api, {**good, "weights": [1, 2]})[0].startswith("weights: ")
    assert messages(api, {**good, "permutations": 0})[0].startswith("permutations: ")
    assert messages(api, {**good, "group_by": "doc"})[0].startswith("group_by: ")
    assert messages(api, {**good, "criterion": "mqm"})[0].startswith("criterion: ")
    assert messages(api, [1, 2]) == ["send a JSON object"]
    # Another team's test set does not exist for them.
    assert messages(outsider_api, good) == [
        f"test_sets: no test set {judged.pk} in your teams"
    ]
    assert not MetaEvaluation.objects.exists()


@pytest.mark.django_db
def test_another_teams_meta_evaluation_is_a_404(api, outsider_api, judged):
    job_id = api.post(
        "/api/v1/meta-evaluations/",
        {"test_sets": [judged.pk], "criterion": "adequacy"},
        format="json",
    ).json()["id"]
    assert outsider_api.get(f"/api/v1/meta-evaluations/{job_id}").status_code == 404
    assert (
        outsider_api.get(correlations(judged), {"test": "permutation"}).status_code
        == 404
    )
    assert api.get(f"/api/v1/meta-evaluations/{job_id}").status_code == 200


def test_the_schema_documents_the_new_parameters_and_endpoints():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    post = paths["/api/v1/meta-evaluations/"]["post"]
    assert "202" in post["responses"]
    assert "get" in paths["/api/v1/meta-evaluations/{id}"]
    parameters = {
        p["name"]: p
        for p in paths["/api/v1/test-sets/{id}/correlations"]["get"]["parameters"]
    }
    assert {
        "test",
        "permutations",
        "seed",
        "group_by",
        "tie_calibration",
        "kendall_variant",
        "criterion",
    } <= set(parameters)
    assert {"accuracy", "spa"} <= set(parameters["method"]["schema"]["enum"])
