"""Campaigns and agreement through the API, with tokens made by
``manage.py create_api_token`` as a script would use them."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from mtdash.judgments.models import Assignment, Campaign
from tests.web.api.conftest import client_with, create_token
from tests.web.judgments.test_campaigns import (
    build_judged_set,
    make_campaign,
    rate_everything,
)


@pytest.fixture
def judged_set(team, owner, member):
    return build_judged_set(team, owner)


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    cache.clear()
    yield
    cache.clear()


def token_client(user):
    return client_with(create_token(user.username).strip())


def body(**overrides) -> dict:
    data = {
        "name": "api pilot",
        "systems": ["sys-a", "sys-b"],
        "criteria": ["fluency", "da"],
        "segments_per_system": 4,
        "judges": ["alice", "bob"],
        "judges_per_item": 2,
        "controls_per_judge": 1,
        "seed": 99,
    }
    data.update(overrides)
    return data


def test_a_campaign_is_created_with_json_and_answers_its_settings(
    owner, member, judged_set
):
    api = token_client(owner)
    url = reverse("api_campaigns", args=[judged_set.pk])
    response = api.post(url, body(), format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    campaign = Campaign.objects.get()
    assert created["id"] == campaign.pk
    assert created["systems"] == ["sys-a", "sys-b"]
    assert created["criteria"] == ["da", "fluency"]
    assert (created["segments_per_system"], created["seed"]) == (4, 99)
    assigned = Assignment.objects.filter(campaign=campaign, judge=owner).count()
    # 8 items, both judges on each, two criteria, 1 repeat + 1 degraded
    assert assigned == 8 * 2 + 2
    assert created["progress"] == [
        {"judge": "alice", "judged": 0, "assigned": assigned},
        {"judge": "bob", "judged": 0, "assigned": assigned},
    ]
    assert [q["judge"] for q in created["quality_control"]] == ["alice", "bob"]
    listed = api.get(url).json()
    assert [c["id"] for c in listed] == [campaign.pk]


def test_bad_settings_answer_400_naming_the_fields(owner, member, judged_set):
    api = token_client(owner)
    url = reverse("api_campaigns", args=[judged_set.pk])
    response = api.post(url, body(systems=["sys-z"]), format="json")
    assert response.status_code == 400
    message = response.json()["errors"][0]["message"]
    assert message == "systems: unknown 'sys-z'; choose from sys-a, sys-b"
    response = api.post(url, body(judges_per_item=3, criteria=["mqm"]), format="json")
    messages = [e["message"] for e in response.json()["errors"]]
    assert any(m.startswith("criteria: Select a valid choice") for m in messages)
    assert (
        "judges_per_item: each item needs 3 different judges; 2 are chosen" in messages
    )
    assert Campaign.objects.count() == 0


def test_progress_quality_control_and_agreement_are_read_back(
    owner, member, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=2)
    rate_everything(campaign, owner, lambda a: 4 if a.kind == "regular" else 1)
    api = token_client(member)
    detail = api.get(reverse("api_campaign", args=[campaign.pk]))
    assert detail.status_code == 200
    data = detail.json()
    alice = next(p for p in data["progress"] if p["judge"] == "alice")
    assert alice["judged"] == alice["assigned"] > 0
    qc = {q["judge"]: q for q in data["quality_control"]}
    assert qc["alice"]["degraded"]["n_pairs"] == 2
    assert qc["alice"]["degraded"]["mean_drop"] == pytest.approx(3 / 4)  # of 1-5
    assert qc["bob"]["degraded"]["n_pairs"] == 0
    assert {row["criterion"] for row in data["agreement"]["criteria"]} == {
        "adequacy",
        "fluency",
    }
    agreement = api.get(reverse("api_agreement", args=[judged_set.pk]))
    assert agreement.status_code == 200
    assert agreement.json() == data["agreement"]


def test_other_teams_get_404_and_no_token_gets_401(owner, member, outsider, judged_set):
    from rest_framework.test import APIClient

    campaign = make_campaign(judged_set, owner, [owner, member])
    stranger = token_client(outsider)
    for url in (
        reverse("api_campaigns", args=[judged_set.pk]),
        reverse("api_campaign", args=[campaign.pk]),
        reverse("api_agreement", args=[judged_set.pk]),
    ):
        assert stranger.get(url).status_code == 404
        assert APIClient().get(url).status_code == 401
    response = stranger.post(
        reverse("api_campaigns", args=[judged_set.pk]), body(), format="json"
    )
    assert response.status_code == 404
    assert Campaign.objects.count() == 1


def test_an_esa_campaign_is_created_with_kind_esa_and_no_criteria(
    owner, member, judged_set
):
    api = token_client(owner)
    url = reverse("api_campaigns", args=[judged_set.pk])
    data = body(kind="esa")
    del data["criteria"]
    response = api.post(url, data, format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert (created["kind"], created["criteria"]) == ("esa", ["esa"])
    assert [c["judge"] for c in created["attention_checks"]] == ["alice", "bob"]
    assert created["attention_checks"][0]["checked"] == 0
    listed = api.get(url).json()
    assert [c["kind"] for c in listed] == ["esa"]
    no_criteria = body(name="ratings without criteria")
    del no_criteria["criteria"]
    refused = api.post(url, no_criteria, format="json")
    assert refused.status_code == 400
    assert "choose at least one criterion" in refused.json()["errors"][0]["message"]
