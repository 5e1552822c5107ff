"""The leaderboard page knows when workers will change it: a small status
JSON says whether statistics or scores are pending and which state the
table is in; the page carries the state it rendered, so its script reloads
once they differ."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.comparisons import run_comparison_job
from mtdash.evaluation.models import ComparisonJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

OUTPUTS = {
    "good": ["the cat is on the mat", "it is raining", "hello everyone"],
    "poor": ["cat", "rain", "greetings"],
}


@pytest.fixture
def scored(test_set, owner):
    """Two scored outputs; their statistics wait for a worker."""
    for name, hypotheses in OUTPUTS.items():
        job = create_system_output(test_set, owner, name, hypotheses, queue=False)
        run_scoring_job(job.pk)
    return test_set


def status(client, test_set) -> dict:
    url = reverse("leaderboard_status", args=[test_set.pk])
    response = client.get(url)
    assert response.status_code == 200
    return response.json()


def shown_state(client, test_set) -> tuple[str, str]:
    page = client.get(test_set.get_absolute_url()).content.decode()
    (region,) = re.findall(r'<div id="leaderboard-region"[^>]*>', page)
    state = re.search(r'data-state="([^"]*)"', region)[1]
    pending = re.search(r'data-pending="([^"]*)"', region)[1]
    assert "js/leaderboard_refresh." in page
    return state, pending


def test_pending_statistics_are_announced_and_their_arrival_changes_the_state(
    client, owner, scored
):
    client.login(username=owner.username, password=PASSWORD)
    (waiting,) = ComparisonJob.objects.filter(test_set=scored, status="queued")
    state, pending = shown_state(client, scored)
    before = status(client, scored)
    assert pending == "true" and before == {"state": state, "pending": True}

    run_comparison_job(waiting.pk)

    after = status(client, scored)
    assert after["pending"] is False
    assert after["state"] != state  # the page that showed "pending" reloads
    assert shown_state(client, scored) == (after["state"], "false")


def test_the_state_follows_the_ranking_the_page_asked_for(client, owner, scored):
    client.login(username=owner.username, password=PASSWORD)
    url = reverse("leaderboard_status", args=[scored.pk])
    by_bleu = client.get(url, {"metric": "bleu"}).json()["state"]
    assert client.get(url, {"metric": "bleu"}).json()["state"] == by_bleu
    assert client.get(url, {"metric": "chrf"}).json()["state"] != by_bleu


def test_an_outsider_gets_no_status(client, outsider, scored):
    client.login(username=outsider.username, password=PASSWORD)
    response = client.get(reverse("leaderboard_status", args=[scored.pk]))
    assert response.status_code == 404
