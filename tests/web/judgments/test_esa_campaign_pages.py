"""ESA campaigns, the pages: choosing ESA in the campaign form, the judging
page (texts escaped, read by the script from json_script, the document's
neighbours), posting an answer, the campaign page's attention checks and
agreement, and who may see and post."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from mtdash.evaluation.models import Hypothesis
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.models import Assignment, Campaign, Judgment
from tests.web.judgments.esa_support import (
    SOURCES,
    SYSTEMS,
    answer_everything,
    build_esa_set,
    make_esa_campaign,
    spans_field,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def esa_set(team, owner, member):
    return build_esa_set(team, owner)


def test_an_esa_campaign_judges_one_criterion_esa_and_its_batch_holds_human_spans(
    client, owner, member, esa_set
):
    client.force_login(owner)
    url = reverse("campaign_new", args=[esa_set.pk])
    page = client.get(url).content.decode()
    assert 'value="esa"' in page and "Campaign type" in page
    data = {
        "name": "esa form",
        "kind": "esa",
        "outputs": [o.pk for o in esa_set.outputs.all()],
        "segments_per_system": 2,
        "judges": [owner.pk, member.pk],
        "judges_per_item": 2,
        "controls_per_judge": 1,
        "seed": 3,
    }
    response = client.post(url, data)  # no criteria: ESA's is esa
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert campaign.kind == "esa" and campaign.is_esa
    assert [c.name for c in campaign.criteria.all()] == ["esa"]
    esa = campaign.criteria.get()
    assert (esa.minimum, esa.maximum, esa.higher_is_better) == (0.0, 100.0, True)
    assert campaign.batch.span_source == "human"
    kinds = sorted(
        Assignment.objects.filter(campaign=campaign, judge=owner).values_list(
            "kind", flat=True
        )
    )
    assert kinds == ["degraded"] + ["regular"] * 4 + ["repeat"]


def test_a_ratings_campaign_still_needs_a_criterion(client, owner, esa_set):
    client.force_login(owner)
    response = client.post(
        reverse("campaign_new", args=[esa_set.pk]),
        {
            "name": "no criteria",
            "kind": "rating",
            "outputs": [o.pk for o in esa_set.outputs.all()],
            "segments_per_system": 2,
            "judges": [owner.pk],
            "judges_per_item": 1,
            "controls_per_judge": 0,
            "seed": 3,
        },
    )
    assert response.status_code == 200
    assert "choose at least one criterion to rate" in response.content.decode()
    assert Campaign.objects.count() == 0


def test_the_campaign_page_reports_attention_and_agreement(
    client, owner, member, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner, member])
    answer_everything(campaign, owner, lambda s: (80, spans_field((0, 3, "major"))))
    answer_everything(campaign, member, lambda s: (70, spans_field((1, 5, "major"))))
    client.force_login(member)
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert 'id="esa-attention-table"' in html and 'id="esa-span-agreement"' in html
    assert 'data-pair="alice|bob"' in html
    assert "Krippendorff&#x27;s α (interval)" in html
    # The test set's agreement table has the esa criterion too.
    criteria = [row["criterion"] for row in agreement_summary(esa_set)["criteria"]]
    assert "esa" in criteria


def test_the_judging_page_shows_the_texts_escaped_with_document_context(
    client, owner, member, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = Assignment.objects.get(
        campaign=campaign,
        kind="regular",
        item__output__system__name="Lingo-1",
        item__index=4,
    )
    Assignment.objects.filter(
        campaign=campaign, judge=owner, position__lt=screen.position
    ).update(value=50)
    client.force_login(owner)
    html = client.get(reverse("campaign_judge", args=[campaign.pk])).content.decode()
    assert 'id="esa-target"' in html and 'id="esa-source"' in html
    assert "<script>document.title" not in html
    assert (
        "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt; &amp; adults"
        in html
    )
    assert '"target": "Admission is free for children \\u003Cscript\\u003E' in html
    # Segment 5 of document "museum": its neighbours 4 and 6 of the same document.
    assert 'id="esa-previous"' in html and 'id="esa-next"' in html
    assert SOURCES[3] in html and SYSTEMS["Lingo-1"][5] in html
    assert "js/campaign_esa." in html
    assert "onclick" not in html and "<script>" not in html.replace(
        '<script src="', ""
    ).replace('<script id="esa-texts" type="application/json">', "")


def test_context_stops_at_the_document_and_is_absent_without_ids(
    client, team, owner, esa_set
):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = Assignment.objects.get(
        campaign=campaign,
        kind="regular",
        item__output__system__name="Verba",
        item__index=3,
    )
    Assignment.objects.filter(
        campaign=campaign, judge=owner, position__lt=screen.position
    ).update(value=50)
    client.force_login(owner)
    html = client.get(reverse("campaign_judge", args=[campaign.pk])).content.decode()
    assert 'id="esa-previous"' not in html  # segment 3 ends document "bridge"
    assert 'id="esa-next"' in html and SYSTEMS["Verba"][4] in html


def test_posting_an_answer_through_the_page(client, owner, member, esa_set):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = service.next_assignment(campaign, owner)
    url = reverse("campaign_judge", args=[campaign.pk])
    client.force_login(owner)
    bad = client.post(
        url,
        {
            "assignment": screen.pk,
            "score": "40",
            "spans": spans_field((0, 10_000, "minor")),
        },
    )
    assert bad.status_code == 400
    assert "end 10000 is past the end of the translation" in bad.content.decode()
    good = client.post(
        url,
        {"assignment": screen.pk, "score": "40", "spans": spans_field((0, 2, "minor"))},
    )
    assert good.status_code == 302
    screen.refresh_from_db()
    assert screen.value == 40 and len(screen.spans) == 1
    assert client.post(url, {"assignment": "x", "score": "1"}).status_code == 400


def test_esa_pages_keep_to_the_team_and_the_judges(
    client, owner, member, outsider, esa_set, django_user_model
):
    campaign = make_esa_campaign(esa_set, owner, [owner], judges_per_item=1)
    screen = service.next_assignment(campaign, owner)
    url = reverse("campaign_judge", args=[campaign.pk])
    post = {"assignment": screen.pk, "score": "40", "spans": "[]"}
    assert client.get(url).status_code == 302  # to the login
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.post(url, post).status_code == 404
    assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404
    client.force_login(member)  # in the team, not a judge
    assert client.post(url, post).status_code == 403
    assert not Judgment.objects.exists()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post(url, post).status_code == 403
    assert Assignment.objects.filter(value__isnull=False).count() == 0
    assert Hypothesis.objects.exists()
