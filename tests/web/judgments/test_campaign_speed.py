"""A WMT-sized campaign: 10 systems x 100 segments, 3 criteria, 3 of 6 judges
per item (9,000 regular screens): created, judged, summarised in seconds.

Times are printed (run with -s), with generous bounds only."""

from __future__ import annotations

import time
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from mtdash.common.bulk_insert import insert_rows
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.campaigns.judging import CampaignSettings
from mtdash.judgments.models import Assignment, Judgment
from mtdash.teams.models import Membership

N_SEGMENTS = 300


@pytest.fixture
def large(team, owner):
    """The judges, the test set and its ten outputs (set-up, not timed: a
    timed test's set-up runs beside other tests, its call alone)."""
    judges = [owner] + [
        get_user_model().objects.create_user(f"judge{i}", password="x")
        for i in range(5)
    ]
    for judge in judges[1:]:
        Membership.objects.create(team=team, user=judge)
    sources = [f"source {i} with a few words here" for i in range(N_SEGMENTS)]
    test_set = create_test_set(
        team,
        owner,
        TestSetData("large", "fr", "en", "news", "", sources, {"A": sources}),
    )
    for s in range(10):
        hypotheses = [f"{s} says {t}" for t in sources]
        create_system_output(test_set, owner, f"sys{s}", hypotheses, queue=False)
    return judges, test_set


@pytest.mark.wall_clock
def test_a_large_campaign_is_created_judged_and_summarised_in_seconds(
    client, owner, large
):
    judges, test_set = large
    outputs = list(test_set.outputs.select_related("system"))
    settings = CampaignSettings(
        name="large",
        outputs=outputs,
        criteria=["fluency", "adequacy", "da"],
        segments_per_system=100,
        judges=judges,
        judges_per_item=3,
        controls_per_judge=10,
        seed=1,
    )
    started = time.perf_counter()
    campaign = service.create_campaign(test_set, owner, settings)
    created = time.perf_counter() - started
    assert Assignment.objects.filter(campaign=campaign, kind="regular").count() == (
        10 * 100 * 3 * 3
    )

    # Everyone rates everything (directly, not through pages): one UPDATE
    # per value given, not one per assignment.
    by_value = defaultdict(list)
    for assignment in Assignment.objects.filter(campaign=campaign).select_related(
        "criterion", "item"
    ):
        low = assignment.criterion.minimum
        value = low + (assignment.item.index + assignment.judge_id) % 3
        by_value[value].append(assignment.pk)
    for value, pks in by_value.items():
        Assignment.objects.filter(pk__in=pks).update(value=value)
    insert_rows(
        Judgment,
        ("output", "index", "judge", "criterion", "value", "batch", "line"),
        (
            (
                a.item.output_id,
                a.item.index,
                a.judge.username,
                a.criterion_id,
                a.value,
                campaign.batch_id,
                a.position + 1,
            )
            for a in Assignment.objects.filter(
                campaign=campaign, kind="regular"
            ).select_related("item", "judge")
        ),
    )
    started = time.perf_counter()
    summary = agreement_summary(test_set)
    summarised = time.perf_counter() - started
    assert {row["criterion"] for row in summary["criteria"]} == {
        "adequacy",
        "da",
        "fluency",
    }
    started = time.perf_counter()
    agreement_summary(test_set)
    stored = time.perf_counter() - started

    client.force_login(owner)
    client.get(reverse("campaign_list", args=[test_set.pk]))  # warm up the URLs
    Assignment.objects.filter(campaign=campaign, judge=owner).order_by(
        "-position"
    ).filter(position__gte=5).update(value=None)
    started = time.perf_counter()
    page = client.get(reverse("campaign_judge", args=[campaign.pk]))
    judge_page = time.perf_counter() - started
    assert page.status_code == 200
    started = time.perf_counter()
    detail = client.get(campaign.get_absolute_url())
    detail_page = time.perf_counter() - started
    assert detail.status_code == 200
    print(
        f"\ncampaign of 9,000 regular screens created in {created:.2f} s; "
        f"agreement computed in {summarised:.2f} s, read back in {stored * 1000:.0f} ms; "
        f"judge page {judge_page * 1000:.0f} ms, campaign page {detail_page * 1000:.0f} ms"
    )
    assert created < 60 and summarised < 60 and stored < 1 and judge_page < 2
