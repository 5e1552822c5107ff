"""A criterion's sources: imports and campaigns feed it only as the user
chooses, and a campaign's ratings never join imported judgments silently."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.campaigns import judging as campaigns
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Criterion, Judgment
from mtdash.judgments.overview.store import all_aggregates
from mtdash.judgments.reading import stored_judgments
from mtdash.judgments.sources import (
    choose_sources,
    criterion_sources,
    sources_label,
)

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
FILE = (
    "segment,system,judge,criterion,value\n"
    "1,sys-a,j1,adequacy,2\n2,sys-a,j1,adequacy,2\n3,sys-a,j1,adequacy,2\n"
)


@pytest.fixture
def toy(test_set, owner):
    for system in ("sys-a", "sys-b"):
        create_system_output(test_set, owner, system, HYPOTHESES, queue=False)
    return test_set


def campaign(test_set, owner, name="pilot"):
    return campaigns.create_campaign(
        test_set,
        owner,
        campaigns.CampaignSettings(
            name=name,
            outputs=list(test_set.outputs.order_by("pk")),
            criteria=["adequacy"],
            segments_per_system=1,
            judges=[owner],
            judges_per_item=1,
            controls_per_judge=0,
            seed=3,
        ),
    )


def rate_all(found, user, value: float) -> int:
    n = 0
    while (item := campaigns.next_assignment(found, user)) is not None:
        assert campaigns.record_rating(found, user, item.pk, value)
        n += 1
    return n


def adequacy_values(test_set) -> list[float]:
    judgments = stored_judgments(test_set)
    return sorted(judgments.values.tolist())


def test_a_campaign_on_an_imported_criterion_starts_left_out(toy, owner):
    import_judgments(toy, owner, FILE.encode(), "imported.csv")
    pilot = campaign(toy, owner)
    assert rate_all(pilot, owner, 5) == 2  # one segment of each system
    assert Judgment.objects.count() == 5  # stored...

    adequacy = Criterion.objects.get(name="adequacy")
    assert [
        (s.label, s.kind, s.n_judgments, s.in_use) for s in criterion_sources(adequacy)
    ] == [
        ("imported.csv", "import", 3, True),
        ("campaign pilot", "campaign", 2, False),
    ]
    # ...but not read: the aggregates see the imported judgments only.
    assert adequacy_values(toy) == [2.0, 2.0, 2.0]
    (aggregates,) = all_aggregates(toy)
    assert aggregates.n_judgments == 3
    assert sources_label(adequacy) == "imported.csv"

    # The user chooses both: the campaign's ratings join.
    choose_sources(adequacy, {s.batch_id for s in criterion_sources(adequacy)})
    assert adequacy_values(toy) == [2.0, 2.0, 2.0, 5.0, 5.0]
    (aggregates,) = all_aggregates(toy)  # the cached aggregates follow
    assert aggregates.n_judgments == 5
    assert sources_label(adequacy) == "imported.csv; campaign pilot"

    # Or the campaign only.
    pilot_batch = pilot.batch_id
    choose_sources(adequacy, {pilot_batch})
    assert adequacy_values(toy) == [5.0, 5.0]


def test_an_import_on_a_campaigns_criterion_starts_left_out(toy, owner):
    pilot = campaign(toy, owner)
    rate_all(pilot, owner, 4)
    result = import_judgments(toy, owner, FILE.encode(), "later.csv")
    assert result.left_out == ("adequacy",)
    assert adequacy_values(toy) == [4.0, 4.0]
    # Its preview says so before the import (test_wmt_layouts for the rest).
    from mtdash.judgments.imports.judgments import preview_judgments

    other = FILE.replace("j1", "j2")
    (criterion,) = preview_judgments(toy, other.encode(), "again.csv").criteria
    assert (criterion.name, criterion.new, criterion.left_out) == (
        "adequacy",
        False,
        True,
    )


def test_two_imports_of_one_criterion_are_one_source_each_and_both_used(toy, owner):
    import_judgments(toy, owner, FILE.encode(), "a.csv")
    result = import_judgments(toy, owner, FILE.replace("j1", "j2").encode(), "b.csv")
    assert result.left_out == ()
    adequacy = Criterion.objects.get(name="adequacy")
    assert [s.in_use for s in criterion_sources(adequacy)] == [True, True]
    assert len(adequacy_values(toy)) == 6


def test_choosing_an_unknown_source_is_refused(toy, owner):
    import_judgments(toy, owner, FILE.encode(), "a.csv")
    adequacy = Criterion.objects.get(name="adequacy")
    with pytest.raises(ValueError, match="adequacy has no source with id 999"):
        choose_sources(adequacy, {999})


def test_the_judgments_page_lists_the_sources_and_sets_them(
    client, owner, outsider, toy
):
    import_judgments(toy, owner, FILE.encode(), "imported.csv")
    pilot = campaign(toy, owner)
    rate_all(pilot, owner, 5)
    adequacy = Criterion.objects.get(name="adequacy")
    imported = criterion_sources(adequacy)[0].batch_id
    client.force_login(owner)
    html = client.get(reverse("judgments_overview", args=[toy.pk])).content.decode()
    assert (
        f'<input type="checkbox" name="source" value="{imported}" checked> '
        "imported.csv <small>(import, 3 judgments)</small>" in html
    )
    assert (
        f'<input type="checkbox" name="source" value="{pilot.batch_id}"> '
        "campaign pilot <small>(campaign, 2 judgments)</small>" in html
    )
    url = reverse("judgments_sources", args=[toy.pk, adequacy.pk])
    response = client.post(url, {"source": [str(imported), str(pilot.batch_id)]})
    assert response.status_code == 302
    assert response["Location"].endswith("#sources")
    assert [s.in_use for s in criterion_sources(adequacy)] == [True, True]
    # Nothing ticked: nothing read, and the criterion can still be set again.
    client.post(url, {})
    assert adequacy_values(toy) == []
    html = client.get(reverse("judgments_overview", args=[toy.pk])).content.decode()
    assert f'value="{imported}">' in html

    client.force_login(outsider)
    assert client.post(url, {"source": [str(imported)]}).status_code == 404
    assert adequacy_values(toy) == []


# -- the leaderboard and the correlations page name the sources ----------------

WMT22 = (
    "system\tda_sys_id\tseg_id\traw\tz\tn_judgments\n"
    "sys-a\tsys-a.1\t1\t90\t0.75\t2\nsys-a\tsys-a.1\t2\t70\t0.25\t1\n"
    "sys-b\tsys-b.2\t1\t60\t-0.5\t1\nsys-b\tsys-b.2\t3\t95\t0.5\t1\n"
    "HUMAN-refB\tH.0\t1\t99\t0.9\t1\n"
)


def test_the_leaderboard_names_wmt_z_and_its_source(client, owner, toy):
    from mtdash.evaluation.leaderboard.build import build_leaderboard
    from mtdash.evaluation.leaderboard.comparisons import (
        ComparisonSettings,
        compare_test_set,
    )

    import_judgments(toy, owner, WMT22.encode(), "da_seg.tsv")
    import_judgments(toy, owner, FILE.encode(), "imported.csv")
    pilot = campaign(toy, owner)
    rate_all(pilot, owner, 5)
    options = ComparisonSettings(
        seed=7, n_samples=100, n_trials=100, confidence=0.95, alpha=0.05
    )
    compare_test_set(toy, options=options, analyses=False)

    columns = {c.criterion: c for c in build_leaderboard(toy).human_columns}
    assert (columns["da-z"].score_label, columns["da-z"].sources) == (
        "WMT z",
        "da_seg.tsv",
    )
    assert (columns["da"].score_label, columns["adequacy"].score_label) == (
        "raw mean",
        "z",
    )
    assert columns["adequacy"].sources == "imported.csv"  # not the campaign
    values = {o.system.name: columns["da-z"].values[o.pk] for o in toy.outputs.all()}
    # WMT's z as given: sys-a (0.75 + 0.25) / 2, sys-b (-0.5 + 0.5) / 2.
    assert values["sys-a"].z == pytest.approx(0.5, abs=1e-12)
    assert values["sys-b"].z == pytest.approx(0.0, abs=1e-12)

    client.force_login(owner)
    html = client.get(toy.get_absolute_url()).content.decode()
    assert '<small class="scale">human · WMT z ↑</small>' in html
    assert (
        "<strong>adequacy</strong> (z) from imported.csv; <strong>da</strong> "
        "(raw mean) from da_seg.tsv; <strong>da-z</strong> (WMT z) from da_seg.tsv"
        in html
    )
    html = client.get(reverse("test_set_correlations", args=[toy.pk])).content.decode()
    assert (
        '<p class="hint" id="human-sources">Human scores: <strong>adequacy</strong> '
        "(mean z) from imported.csv; <strong>da</strong> (raw mean) from "
        "da_seg.tsv; <strong>da-z</strong> (WMT z) from da_seg.tsv." in html
    )
    # The exports name each criterion's score as the page does.
    csv_header = client.get(toy.get_absolute_url() + "leaderboard.csv").content
    header = csv_header.decode().splitlines()[0]
    for name in ('"human da-z WMT z"', '"human da raw mean"', '"human adequacy z"'):
        assert name in header
    assert '"human da-z mean"' not in header and '"human adequacy mean"' in header
    latex = client.get(toy.get_absolute_url() + "leaderboard.tex").content.decode()
    assert "da-z (WMT z)" in latex and "da (raw mean)" in latex


# -- the API ------------------------------------------------------------------


def token_client(user):
    import io

    from django.core.management import call_command
    from rest_framework.test import APIClient

    out = io.StringIO()
    call_command("create_api_token", user.username, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    return client


def test_the_api_lists_and_sets_a_criterions_sources(owner, outsider, toy):
    import_judgments(toy, owner, FILE.encode(), "imported.csv")
    pilot = campaign(toy, owner)
    rate_all(pilot, owner, 5)
    imported = criterion_sources(Criterion.objects.get(name="adequacy"))[0].batch_id
    url = f"/api/v1/test-sets/{toy.pk}/judgments/sources"
    api = token_client(owner)
    body = api.get(url).json()
    assert body["criteria"] == [
        {
            "criterion": "adequacy",
            "score": "mean z",
            "sources": [
                {
                    "id": imported,
                    "source": "imported.csv",
                    "kind": "import",
                    "layout": "csv",
                    "judgments": 3,
                    "in_use": True,
                },
                {
                    "id": pilot.batch_id,
                    "source": "campaign pilot",
                    "kind": "campaign",
                    "layout": "campaign",
                    "judgments": 2,
                    "in_use": False,
                },
            ],
        }
    ]
    answer = api.post(
        url, {"criterion": "adequacy", "sources": [pilot.batch_id]}, format="json"
    )
    assert answer.status_code == 200
    used = [s["in_use"] for s in answer.json()["criteria"][0]["sources"]]
    assert used == [False, True]
    assert adequacy_values(toy) == [5.0, 5.0]

    for fields, message in (
        ({"criterion": "fluency", "sources": []}, "criterion: no criterion 'fluency'"),
        ({"criterion": "adequacy", "sources": "all"}, "sources: a list of source"),
        ({"criterion": "adequacy", "sources": [999]}, "sources: adequacy has no"),
    ):
        answer = api.post(url, fields, format="json")
        assert answer.status_code == 400
        assert answer.json()["errors"][0]["message"].startswith(message)
    assert adequacy_values(toy) == [5.0, 5.0]
    stranger = token_client(outsider)
    assert stranger.get(url).status_code == 404
    answer = stranger.post(url, {"criterion": "adequacy", "sources": []}, format="json")
    assert answer.status_code == 404
    assert adequacy_values(toy) == [5.0, 5.0]
