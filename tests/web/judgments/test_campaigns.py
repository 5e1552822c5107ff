"""Judging campaigns in the browser: the pages and their permissions, the
seeded sample (k judges per item), rating, stopping and coming back, and the
hidden quality controls."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from mtdash.evaluation.models import ComparisonJob
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.quality_control import judge_quality
from mtdash.judgments.campaigns.sampling import (
    MIN_REPEAT_GAP,
    degrade,
    span_length,
)
from mtdash.judgments.models import Assignment, Campaign, Criterion, Judgment
from tests.conftest import PASSWORD

N_SEGMENTS = 12
SOURCES = [f"source phrase number {i} du texte" for i in range(N_SEGMENTS)]
REFERENCES = [f"reference sentence {i} of the text" for i in range(N_SEGMENTS)]
SYSTEMS = {
    "sys-a": [f"alpha output {i} reads well here" for i in range(N_SEGMENTS)],
    "sys-b": [f"beta output {i} reads less well" for i in range(N_SEGMENTS)],
}


@pytest.fixture
def carol(django_user_model, team, fast_password_hashing):
    from mtdash.teams.models import Membership

    user = django_user_model.objects.create_user("carol", password=PASSWORD)
    Membership.objects.create(team=team, user=user)
    return user


@pytest.fixture
def judged_set(team, owner, member):
    return build_judged_set(team, owner)


def build_judged_set(team, owner):
    """A test set of 12 segments with outputs of sys-a and sys-b."""
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="campaign toy",
            source_language="fr",
            target_language="en",
            text_type="news",
            description="",
            sources=SOURCES,
            references={"A": REFERENCES},
        ),
    )
    for name, hypotheses in SYSTEMS.items():
        create_system_output(test_set, owner, name, hypotheses, queue=False)
    return test_set


def form_data(test_set, judges, **overrides) -> dict:
    data = {
        "name": "pilot",
        "outputs": [o.pk for o in test_set.outputs.all()],
        "criteria": ["adequacy", "fluency"],
        "segments_per_system": 5,
        "judges": [j.pk for j in judges],
        "judges_per_item": 2,
        "controls_per_judge": 2,
        "seed": 7,
    }
    data.update(overrides)
    return data


def make_campaign(test_set, owner, judges, **overrides) -> Campaign:
    from mtdash.judgments.campaigns.forms import CampaignForm

    form = CampaignForm(form_data(test_set, judges, **overrides), test_set=test_set)
    assert form.is_valid(), form.errors
    return service.create_campaign(test_set, owner, form.settings())


def rate_everything(campaign, user, rating) -> int:
    """Rate the judge's whole queue with ``rating(assignment) -> value``."""
    n = 0
    while (assignment := service.next_assignment(campaign, user)) is not None:
        assert service.record_rating(campaign, user, assignment.pk, rating(assignment))
        n += 1
    return n


def test_creating_a_campaign_samples_segments_and_gives_each_item_k_judges(
    client, owner, member, carol, judged_set
):
    client.force_login(owner)
    url = reverse("campaign_new", args=[judged_set.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, form_data(judged_set, [owner, member, carol]))
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == campaign.get_absolute_url()
    items = list(campaign.items.all())
    assert len(items) == 2 * 5  # every system on the same 5 segments
    segments = {item.index for item in items}
    assert len(segments) == 5
    for output in judged_set.outputs.all():
        assert {i.index for i in items if i.output_id == output.pk} == segments
    regular = Assignment.objects.filter(campaign=campaign, kind="regular")
    for item in items:
        for criterion in ("adequacy", "fluency"):
            judges = list(
                regular.filter(item=item, criterion__name=criterion).values_list(
                    "judge__username", flat=True
                )
            )
            assert len(judges) == len(set(judges)) == 2
    loads = [regular.filter(judge=u).count() for u in (owner, member, carol)]
    assert max(loads) - min(loads) <= 2  # one item (two criteria) at most
    assert sum(loads) == 10 * 2 * 2
    # The criteria exist with their ranges.
    adequacy = Criterion.objects.get(test_set=judged_set, name="adequacy")
    assert (adequacy.minimum, adequacy.maximum) == (1.0, 5.0)


def test_the_same_seed_draws_the_same_campaign_and_another_seed_another(
    owner, member, carol, judged_set
):
    judges = [owner, member, carol]

    def drawn(campaign):
        return [
            (
                a.judge.username,
                a.position,
                a.item.output_id,
                a.item.index,
                a.criterion.name,
                a.kind,
                a.degraded_text,
            )
            for a in Assignment.objects.filter(campaign=campaign)
            .select_related("judge", "item", "criterion")
            .order_by("judge__username", "position")
        ]

    first = make_campaign(judged_set, owner, judges, name="one", seed=3)
    again = make_campaign(judged_set, owner, judges, name="two", seed=3)
    other = make_campaign(judged_set, owner, judges, name="three", seed=4)
    assert drawn(first) == drawn(again)
    assert drawn(first) != drawn(other)


def test_fluency_comes_before_adequacy_and_controls_are_placed_as_documented(
    owner, member, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=3)
    for judge in (owner, member):
        queue = list(
            Assignment.objects.filter(campaign=campaign, judge=judge)
            .select_related("criterion", "control_of")
            .order_by("position")
        )
        regular = [a for a in queue if a.kind == "regular"]
        seen = set()
        for a in regular:
            if a.criterion.name == "adequacy":
                assert a.item_id in seen  # its fluency screen came first
            seen.add(a.item_id)
        repeats = [a for a in queue if a.kind == "repeat"]
        degraded = [a for a in queue if a.kind == "degraded"]
        assert len(repeats) == len(degraded) == 3
        for a in repeats:
            assert a.control_of.kind == "regular"
            assert a.control_of.item_id == a.item_id
            between = [
                r for r in regular if a.control_of.position < r.position < a.position
            ]
            assert len(between) >= min(
                MIN_REPEAT_GAP - 1,
                len([r for r in regular if r.position > a.control_of.position]),
            )
        for a in degraded:
            original = SYSTEMS[a.item.output.system.name][a.item.index]
            assert a.degraded_text != original
            assert len(a.degraded_text.split()) == len(original.split())


def test_degrade_replaces_wmts_span_of_words_with_words_of_another_segment():
    assert [span_length(n) for n in (1, 2, 5, 6, 8, 9, 15, 16, 20, 21, 40)] == [
        1,
        2,
        2,
        3,
        3,
        4,
        4,
        5,
        5,
        5,
        10,
    ]
    text = "one two three four five six seven eight nine ten"
    donor = "red green blue yellow black"
    degraded = degrade(text, donor, 9).split()
    changed = [i for i, (a, b) in enumerate(zip(text.split(), degraded)) if a != b]
    assert len(changed) == span_length(10) == 4
    assert changed == list(range(changed[0], changed[0] + 4))  # one span
    assert " ".join(degraded[changed[0] : changed[0] + 4]) in donor
    assert degrade(text, donor, 9) == " ".join(degraded)  # seeded


def test_judging_shows_one_item_stores_a_judgment_and_continues_where_it_stopped(
    client, owner, member, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=0)
    client.force_login(owner)
    url = reverse("campaign_judge", args=[campaign.pk])
    first = service.next_assignment(campaign, owner)
    html = client.get(url).content.decode()
    item = first.item
    assert first.criterion.name == "fluency"
    assert SOURCES[item.index] in html
    assert SYSTEMS[item.output.system.name][item.index] in html
    assert REFERENCES[item.index] not in html  # fluency: no reference
    assert "0 of 20 judged" in html
    assert 'name="csrfmiddlewaretoken"' in html
    response = client.post(url, {"assignment": first.pk, "value": "4"})
    assert response.status_code == 302 and response["Location"] == url
    judgment = Judgment.objects.get()
    assert (judgment.judge, judgment.value, judgment.index) == (
        "alice",
        4.0,
        item.index,
    )
    assert judgment.output_id == item.output_id
    assert judgment.batch.layout == "campaign" and judgment.batch.n_judgments == 1
    assert ComparisonJob.objects.filter(test_set=judged_set).exists()
    # Come back later: the next screen is the adequacy of the same item.
    client.logout()
    client.force_login(owner)
    html = client.get(url).content.decode()
    assert "1 of 20 judged" in html
    second = service.next_assignment(campaign, owner)
    assert second.position == first.position + 1
    assert second.criterion.name == "adequacy"
    assert REFERENCES[item.index] in html  # adequacy: with the reference
    # Submitting the first page again changes nothing.
    client.post(url, {"assignment": first.pk, "value": "1"})
    assert Judgment.objects.get().value == 4.0


def test_a_rating_out_of_range_or_for_someone_else_is_refused(
    client, owner, member, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=0)
    client.force_login(owner)
    url = reverse("campaign_judge", args=[campaign.pk])
    mine = service.next_assignment(campaign, owner)
    response = client.post(url, {"assignment": mine.pk, "value": "6"})
    assert response.status_code == 400
    assert "whole number in 1–5" in response.content.decode()
    response = client.post(url, {"assignment": mine.pk, "value": "2.5"})
    assert response.status_code == 400
    theirs = service.next_assignment(campaign, member)
    response = client.post(url, {"assignment": theirs.pk, "value": "3"})
    assert response.status_code == 400
    assert "not yours" in response.content.decode()
    assert Judgment.objects.count() == 0
    assert not Assignment.objects.filter(value__isnull=False).exists()


def test_da_is_a_slider_from_0_to_100(client, owner, member, judged_set):
    campaign = make_campaign(
        judged_set, owner, [owner, member], criteria=["da"], controls_per_judge=0
    )
    client.force_login(owner)
    html = client.get(reverse("campaign_judge", args=[campaign.pk])).content.decode()
    assert 'type="range" id="judge-slider" name="value" min="0" max="100"' in html
    assert "reference sentence" in html
    assert 'type="radio"' not in html


def test_controls_are_not_judgments_and_only_the_first_rating_of_a_repeat_is(
    owner, member, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=3)
    rated = rate_everything(campaign, owner, lambda a: 5 if a.kind == "regular" else 2)
    mine = Assignment.objects.filter(campaign=campaign, judge=owner)
    assert rated == mine.count()
    regular = mine.filter(kind="regular").count()
    assert Judgment.objects.filter(judge="alice").count() == regular
    assert set(Judgment.objects.values_list("value", flat=True)) == {5.0}
    assert all(a.judgment_id for a in mine.filter(kind="regular"))
    assert not any(a.judgment_id for a in mine.exclude(kind="regular"))


def test_quality_control_flags_a_judge_who_does_not_rate_degraded_items_lower(
    client, owner, member, judged_set
):
    campaign = make_campaign(
        judged_set, owner, [owner, member], controls_per_judge=6, criteria=["da"]
    )
    originals = {}

    def careful(a):  # varied ratings; degraded copies 30 lower, repeats equal
        if a.kind == "regular":
            originals[a.pk] = 60 + (a.item.index * 7) % 40
            return originals[a.pk]
        if a.kind == "repeat":
            return originals[a.control_of_id]
        return max(originals.get(a.control_of_id, 70) - 30, 0)

    rate_everything(campaign, owner, careful)
    rate_everything(campaign, member, lambda a: 80)  # same value for everything
    quality = {q.judge: q for q in judge_quality(campaign)}
    careful_judge, careless = quality["alice"], quality["bob"]
    # Some degraded screens came before their originals were rated: all pairs
    # are counted once both are rated.
    assert careful_judge.degraded.n_pairs == 6 and careful_judge.degraded.tested
    assert careful_judge.degraded.p_value < 0.05 and not careful_judge.unreliable
    assert careless.unreliable
    assert careless.reasons == ["degraded translations not rated lower"]
    client.force_login(owner)
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert '<tr data-judge="bob">' in html
    bob_row = html.split('<tr data-judge="bob">')[1].split("</tr>")[0]
    assert "Unreliable" in bob_row and "not rated lower" in bob_row
    alice_row = html.split('<tr data-judge="alice">')[1].split("</tr>")[0]
    assert "OK" in alice_row
    assert "Agreement between judges" in html
    assert "bob (pilot): degraded translations not rated lower" in html


def test_repeats_rated_far_apart_flag_a_judge(owner, member, judged_set):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=3)

    def inconsistent(a):
        if a.kind == "repeat":
            first = Assignment.objects.get(pk=a.control_of_id).value
            return 1 if first >= 3 else 5
        return 5 if a.kind == "regular" else 1

    rate_everything(campaign, owner, inconsistent)
    quality = {q.judge: q for q in judge_quality(campaign)}["alice"]
    assert quality.repeats.n_pairs == 3
    assert quality.repeats.mean_absolute_difference == pytest.approx(1.0)  # 4/4
    assert quality.reasons == ["repeated items rated too differently"]


@pytest.mark.parametrize("name", ["campaign_list", "campaign_new"])
def test_test_set_campaign_pages_need_a_login_and_hide_other_teams(
    client, outsider, judged_set, name
):
    url = reverse(name, args=[judged_set.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "x"}).status_code in (404, 405)
    assert Campaign.objects.count() == 0


@pytest.mark.parametrize("name", ["campaign_detail", "campaign_judge"])
def test_campaign_pages_need_a_login_and_hide_other_teams(
    client, owner, member, outsider, judged_set, name
):
    campaign = make_campaign(judged_set, owner, [owner, member])
    url = reverse(name, args=[campaign.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    first = service.next_assignment(campaign, owner)
    assert client.post(url, {"assignment": first.pk, "value": 3}).status_code in (
        404,
        405,
    )
    assert Judgment.objects.count() == 0


def test_a_member_who_is_not_a_judge_is_told_so(
    client, owner, member, carol, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member])
    client.force_login(carol)
    response = client.get(reverse("campaign_judge", args=[campaign.pk]))
    assert response.status_code == 403
    assert "Not one of this campaign" in response.content.decode()
    detail = client.get(reverse("campaign_detail", args=[campaign.pk]))
    assert detail.status_code == 200
    assert "campaign-start" not in detail.content.decode()


def test_posting_needs_the_csrf_token(owner, member, judged_set):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=0)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    first = service.next_assignment(campaign, owner)
    judge_url = reverse("campaign_judge", args=[campaign.pk])
    assert (
        strict.post(judge_url, {"assignment": first.pk, "value": 3}).status_code == 403
    )
    new_url = reverse("campaign_new", args=[judged_set.pk])
    data = form_data(judged_set, [owner, member], name="csrf")
    assert strict.post(new_url, data).status_code == 403
    assert Judgment.objects.count() == 0
    assert Campaign.objects.count() == 1


def test_the_form_refuses_more_judges_per_item_than_judges(client, owner, judged_set):
    client.force_login(owner)
    url = reverse("campaign_new", args=[judged_set.pk])
    data = form_data(judged_set, [owner], judges_per_item=2, segments_per_system=99)
    html = client.post(url, data).content.decode()
    assert "each item needs 2 different judges; 1 are chosen" in html
    assert "the test set has 12 segments" in html
    assert Campaign.objects.count() == 0


def test_the_list_shows_campaigns_with_each_judges_progress(
    client, owner, member, judged_set
):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=0)
    rate_everything(campaign, member, lambda a: 3)
    client.force_login(owner)
    html = client.get(reverse("campaign_list", args=[judged_set.pk])).content.decode()
    assert campaign.get_absolute_url() in html
    assert "bob 20/20" in html and "alice 0/20" in html
    detail = client.get(campaign.get_absolute_url()).content.decode()
    assert "Start judging (0/20)" in detail


def test_deleting_the_test_set_deletes_its_campaigns(owner, member, judged_set):
    campaign = make_campaign(judged_set, owner, [owner, member], controls_per_judge=1)
    rate_everything(campaign, owner, lambda a: 3)
    judged_set.delete()
    assert not Campaign.objects.exists()
    assert not Assignment.objects.exists() and not Judgment.objects.exists()
