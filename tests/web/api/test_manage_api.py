"""The manage actions through the API: fill-missing (plan and queue), hiding
and deleting an output; another team's objects are 404s.

Until ``mtdash/api/urls.py`` includes ``mtdash.api.manage_urls``, this
module is its own URLconf: the site's URLs plus those paths.
"""

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from mtdash.evaluation.models import ComparisonJob, CorpusScore, SystemOutput
from tests.web.api.conftest import client_with, create_token
from tests.web.evaluation.test_manage_support import (
    add_scored_output,
    finish_comparisons,
)


@pytest.fixture
def api(member):
    return client_with(create_token(member.username).strip())


@pytest.fixture
def outsider_api(outsider):
    return client_with(create_token(outsider.username).strip())


@pytest.fixture
def outputs(test_set, owner):
    good = add_scored_output(test_set, owner, "good", metrics=("bleu", "chrf"))
    fair = add_scored_output(test_set, owner, "fair")
    finish_comparisons()
    return good, fair


def test_the_plan_and_the_queued_jobs(api, test_set, outputs, monkeypatch):
    sent = []
    monkeypatch.setattr(
        "mtdash.evaluation.services.scoring_jobs.queue_scoring_job", sent.append
    )
    url = f"/api/v1/test-sets/{test_set.pk}/fill-missing"
    plan = api.get(url).json()
    assert plan["columns"] == ["bleu", "chrf"]
    assert plan["missing"] == [
        {
            "output_id": outputs[1].pk,
            "system": "fair",
            "hidden": False,
            "metrics": [{"spec": "chrf", "reason": "not scored"}],
        }
    ]

    response = api.post(url)

    assert response.status_code == 202
    (job,) = response.json()["jobs"]
    assert job["metrics"] == ["chrf"] and job["output_id"] == outputs[1].pk
    assert job["status"] == "queued"
    assert api.post(url).json() == {"jobs": []}


def test_hiding_and_deleting_an_output(api, test_set, outputs):
    good, _ = outputs
    response = api.patch(f"/api/v1/outputs/{good.pk}", {"hidden": True}, "json")
    assert response.json() == {
        "id": good.pk,
        "system": "good",
        "test_set_id": test_set.pk,
        "hidden": True,
    }
    assert SystemOutput.objects.get(pk=good.pk).hidden
    assert ComparisonJob.objects.filter(status="queued").count() == 1
    bad = api.patch(f"/api/v1/outputs/{good.pk}", {"hidden": "perhaps"}, "json")
    assert bad.status_code == 400

    response = api.delete(f"/api/v1/outputs/{good.pk}")

    assert response.status_code == 200
    assert response.json()["deleted"] == {
        "output": 1,
        "score": 2,
        "job": 1,
        "judgment": 0,
        "external score": 0,
    }
    assert not CorpusScore.objects.filter(output_id=good.pk).exists()


def test_another_team_gets_404s_and_changes_nothing(outsider_api, test_set, outputs):
    good, _ = outputs
    assert (
        outsider_api.get(f"/api/v1/test-sets/{test_set.pk}/fill-missing").status_code
        == 404
    )
    assert (
        outsider_api.post(f"/api/v1/test-sets/{test_set.pk}/fill-missing").status_code
        == 404
    )
    patched = outsider_api.patch(f"/api/v1/outputs/{good.pk}", {"hidden": True})
    assert patched.status_code == 404
    assert outsider_api.delete(f"/api/v1/outputs/{good.pk}").status_code == 404
    assert SystemOutput.objects.filter(pk=good.pk, hidden=False).exists()


def test_anonymous_calls_are_refused(client, test_set, outputs):
    response = client.post(f"/api/v1/test-sets/{test_set.pk}/fill-missing")
    assert response.status_code in (401, 403)
    assert client.delete(f"/api/v1/outputs/{outputs[0].pk}").status_code in (401, 403)
    assert SystemOutput.objects.count() == 2


def test_the_schema_documents_them_without_warnings():
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(public=True)
    warnings = list(GENERATOR_STATS._warn_cache) + list(GENERATOR_STATS._error_cache)
    validate_schema(schema)
    assert [w for w in warnings if "mtdash/api/views/manage.py" in w] == []
    paths = {path: set(ops) for path, ops in schema["paths"].items()}
    assert {"get", "post"} <= paths["/api/v1/test-sets/{id}/fill-missing"]
    assert {"patch", "delete"} <= paths["/api/v1/outputs/{id}"]
