"""``GET /api/v1/test-sets/{id}/correlations``: the stored table, with a
token or a session, scoped to the user's teams."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from mtdash.evaluation.models import ComparisonJob
from mtdash.judgments.correlations.page import stored_table
from mtdash.judgments.imports.judgments import import_judgments
from tests.web.judgments.test_correlations_support import (
    judged_test_set,
    judgments_csv,
    scored_outputs,
)


def token_client(user) -> APIClient:
    out = io.StringIO()
    call_command("create_api_token", user.username, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    return client


def url(test_set) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/correlations"


@pytest.fixture
def judged(test_set, owner, settings):
    return judged_test_set(test_set, owner, settings)


@pytest.mark.django_db
def test_a_token_reads_the_stored_table_of_each_level_and_method(member, judged):
    client = token_client(member)
    for level in ("system", "sentence"):
        for method in ("pearson", "spearman", "kendall"):
            response = client.get(url(judged), {"level": level, "method": method})
            assert response.status_code == 200
            body = response.json()
            assert body == stored_table(judged, level, method)
            assert (body["level"], body["method"]) == (level, method)
            assert body["negated"] == ["ter"]
            assert sorted(body["metrics"]) == ["bleu", "chrf", "comet", "ter"]
            assert [c["criterion"] for c in body["criteria"]] == ["adequacy", "fluency"]
            unit = "system" if level == "system" else "segment"
            assert body["resampling_unit"] == body["interval"]["unit"] == unit
            assert body["interval"]["sides"] == "two-sided"
            assert body["equivalence_test"]["sides"] == "two-sided"
            assert body["equivalence_test"]["test"] == "bootstrap"
            for column in body["criteria"]:
                # Four systems: metrics often tie (same ranks): all are best.
                best = [cell for cell in column["cells"] if cell["best"]]
                top = max(cell["coefficient"] for cell in column["cells"])
                assert [c["metric"] for c in best] == column["best_metrics"]
                assert best and all(
                    c["coefficient"] == pytest.approx(top, rel=1e-12) for c in best
                )
    # The defaults: system level, Pearson.
    assert client.get(url(judged)).json()["level"] == "system"


@pytest.mark.django_db
def test_a_session_works_too_and_bad_parameters_are_named(client, member, judged):
    client.force_login(member)
    assert client.get(url(judged)).status_code == 200
    response = client.get(url(judged), {"level": "corpus", "method": "tau"})
    assert response.status_code == 400
    messages = [e["message"] for e in response.json()["errors"]]
    assert any(m.startswith("level: 'corpus'") for m in messages)
    assert any(m.startswith("method: 'tau'") for m in messages)


@pytest.mark.django_db
def test_another_team_gets_404_and_no_credentials_401(outsider, judged):
    assert token_client(outsider).get(url(judged)).status_code == 404
    assert APIClient().get(url(judged)).status_code in (401, 403)


@pytest.mark.django_db
def test_without_judgments_404_and_while_computing_202(member, test_set, owner):
    scored_outputs(test_set, owner)
    client = token_client(member)
    response = client.get(url(test_set))
    assert response.status_code == 404
    assert "no human judgments" in response.json()["errors"][0]["message"]
    import_judgments(test_set, owner, judgments_csv(), "judgments.csv")
    assert ComparisonJob.objects.filter(test_set=test_set).exists()  # queued
    response = client.get(url(test_set))
    assert response.status_code == 202
    assert response.json()["status"] == "pending"
