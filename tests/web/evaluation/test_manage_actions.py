"""Renaming, hiding and deleting systems, outputs and test sets as a team
member: each action, its message, its confirmation page and its limits."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ScoringJob,
    System,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from mtdash.teams.models import Team
from tests.conftest import PASSWORD
from tests.web.evaluation.test_manage_support import (
    add_scored_output,
    finish_comparisons,
    snapshot,
)


@pytest.fixture
def logged_in(client, member):
    client.login(username=member.username, password=PASSWORD)
    return client


@pytest.fixture
def good(test_set, owner):
    return add_scored_output(test_set, owner, "good", metrics=("bleu", "chrf"))


@pytest.fixture
def fair(test_set, owner):
    return add_scored_output(test_set, owner, "fair")


def other_test_set(team, owner, name="toy fr-en 2"):
    data = TestSetData(
        name=name, source_language="fr", target_language="en", text_type="",
        description="", sources=["il pleut", "bonjour", "merci"],
        references={"A": ["it rains", "hello", "thanks"]},
    )  # fmt: skip
    return create_test_set(team, owner, data)


def message_texts(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def comparisons_of(test_set) -> int:
    return ComparisonJob.objects.filter(test_set=test_set).count()


# --- rename -----------------------------------------------------------------


def test_a_member_renames_a_system_on_every_test_set(
    logged_in, test_set, good, team, owner
):
    elsewhere = other_test_set(team, owner)
    add_scored_output(elsewhere, owner, "good")
    url = reverse("system_rename", args=[good.system_id])
    page = logged_in.get(f"{url}?test_set={test_set.pk}").content.decode()
    assert "2 test sets" in page and 'value="good"' in page

    response = logged_in.post(url, {"name": "  good v2 ", "test_set": test_set.pk})

    assert response.status_code == 302
    assert response["Location"] == test_set.get_absolute_url()
    assert System.objects.get(pk=good.system_id).name == "good v2"
    assert set(
        SystemOutput.objects.values_list("system__name", flat=True).distinct()
    ) == {"good v2"}
    assert message_texts(response) == ["Renamed system “good” to “good v2”."]


def test_a_foreign_or_odd_test_set_to_return_to_is_ignored(
    logged_in, test_set, good, outsider
):
    foreign = other_test_set(Team.objects.get(name="Other lab"), outsider)
    url = reverse("system_rename", args=[good.system_id])
    for back_to in (foreign.pk, "²", "9" * 30, "x"):
        response = logged_in.post(url, {"name": f"good {back_to}", "test_set": back_to})
        assert response["Location"] == test_set.get_absolute_url()


def test_a_taken_system_name_is_a_form_error_and_nothing_changes(
    logged_in, test_set, good, fair
):
    before = snapshot()
    url = reverse("system_rename", args=[good.system_id])
    response = logged_in.post(url, {"name": "fair"})
    assert response.status_code == 200
    assert "Your team already has a system named “fair”" in response.content.decode()
    assert snapshot() == before


def test_another_teams_system_name_is_free(logged_in, good, outsider):
    System.objects.create(team=Team.objects.get(name="Other lab"), name="taken")
    url = reverse("system_rename", args=[good.system_id])
    assert logged_in.post(url, {"name": "taken"}).status_code == 302
    assert System.objects.filter(name="taken").count() == 2


def test_a_blank_name_is_refused(logged_in, good):
    url = reverse("system_rename", args=[good.system_id])
    response = logged_in.post(url, {"name": "   "})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert System.objects.get(pk=good.system_id).name == "good"


def test_a_member_renames_a_test_set_unless_the_name_is_taken(
    logged_in, test_set, team, owner
):
    other_test_set(team, owner, name="newstest")
    url = reverse("test_set_rename", args=[test_set.pk])
    response = logged_in.post(url, {"name": "newstest"})
    assert "Your team already has a test set named “newstest”" in (
        response.content.decode()
    )
    response = logged_in.post(url, {"name": "newstest <b>2021</b>"})
    assert response["Location"] == test_set.get_absolute_url()
    assert TestSet.objects.get(pk=test_set.pk).name == "newstest <b>2021</b>"
    page = logged_in.get(url).content.decode()
    assert "newstest &lt;b&gt;2021&lt;/b&gt;" in page and "<b>2021" not in page


# --- hide and show ----------------------------------------------------------


def test_hiding_an_output_asks_for_a_comparison_and_showing_it_again_too(
    logged_in, test_set, good
):
    url = reverse("output_hide", args=[good.pk])
    assert "Hide “good” from the leaderboard" in logged_in.get(url).content.decode()
    finish_comparisons()
    before = comparisons_of(test_set)

    response = logged_in.post(url, {"hidden": "1"})

    good.refresh_from_db()
    assert good.hidden
    assert response["Location"] == test_set.get_absolute_url()
    assert comparisons_of(test_set) == before + 1
    assert "Show “good” on the leaderboard" in logged_in.get(url).content.decode()
    finish_comparisons()
    response = logged_in.post(url, {"hidden": "0"})
    good.refresh_from_db()
    assert not good.hidden
    assert comparisons_of(test_set) == before + 2


def test_hiding_twice_changes_nothing_the_second_time(logged_in, test_set, good):
    url = reverse("output_hide", args=[good.pk])
    finish_comparisons()
    logged_in.post(url, {"hidden": "1"})
    finish_comparisons()
    before = comparisons_of(test_set)
    response = logged_in.post(url, {"hidden": "1"})
    assert message_texts(response)[-1].endswith("was already hidden.")
    assert comparisons_of(test_set) == before


def test_hide_without_a_clear_wish_is_a_bad_request(logged_in, test_set, good):
    url = reverse("output_hide", args=[good.pk])
    for data in ({}, {"hidden": "yes"}):
        assert logged_in.post(url, data).status_code == 400
    assert not SystemOutput.objects.get(pk=good.pk).hidden


def test_a_member_hides_and_shows_a_test_set(logged_in, test_set):
    url = reverse("test_set_hide", args=[test_set.pk])
    assert "Hide the test set “toy fr-en”" in logged_in.get(url).content.decode()
    response = logged_in.post(url, {"hidden": "1"})
    assert response["Location"] == test_set.get_absolute_url()
    assert TestSet.objects.get(pk=test_set.pk).hidden
    logged_in.post(url, {"hidden": "0"})
    assert not TestSet.objects.get(pk=test_set.pk).hidden


# --- delete -----------------------------------------------------------------


def test_the_output_confirmation_counts_what_goes(logged_in, test_set, good):
    page = logged_in.get(reverse("output_delete", args=[good.pk])).content.decode()
    assert "This deletes <strong>1 output</strong>, <strong>2 scores</strong>, " in (
        page
    )
    assert "<strong>1 job</strong>" in page


def test_deleting_an_output_keeps_the_system_and_the_other_outputs(
    logged_in, test_set, good, fair
):
    finish_comparisons()
    before = comparisons_of(test_set)
    response = logged_in.post(reverse("output_delete", args=[good.pk]))
    assert response["Location"] == test_set.get_absolute_url()
    assert not SystemOutput.objects.filter(pk=good.pk).exists()
    assert not CorpusScore.objects.filter(output_id=good.pk).exists()
    assert not ScoringJob.objects.filter(output_id=good.pk).exists()
    assert System.objects.filter(pk=good.system_id).exists()
    assert SystemOutput.objects.filter(pk=fair.pk).exists()
    assert comparisons_of(test_set) == before + 1
    assert message_texts(response) == [
        "Deleted the output of “good”: 1 output, 2 scores, 1 job."
    ]


def test_deleting_a_system_removes_its_outputs_on_every_test_set(
    logged_in, test_set, good, fair, team, owner
):
    elsewhere = other_test_set(team, owner)
    add_scored_output(elsewhere, owner, "good")
    url = reverse("system_delete", args=[good.system_id])
    page = logged_in.get(f"{url}?test_set={test_set.pk}").content.decode()
    assert "<strong>2 outputs</strong>, <strong>3 scores</strong>" in page
    assert "toy fr-en 2" in page

    finish_comparisons()
    response = logged_in.post(url, {"test_set": test_set.pk})

    assert response["Location"] == test_set.get_absolute_url()
    assert not System.objects.filter(pk=good.system_id).exists()
    assert list(SystemOutput.objects.values_list("system__name", flat=True)) == ["fair"]
    queued = ComparisonJob.objects.filter(status=ComparisonJob.Status.QUEUED)
    assert set(queued.values_list("test_set_id", flat=True)) == {
        test_set.pk,
        elsewhere.pk,
    }


def test_deleting_a_test_set_takes_its_name_typed(logged_in, test_set, good):
    url = reverse("test_set_delete", args=[test_set.pk])
    page = logged_in.get(url).content.decode()
    assert "<strong>3 segments</strong>, <strong>2 references</strong>, " in page
    assert "<strong>1 output</strong>, <strong>2 scores</strong>" in page
    before = snapshot()

    response = logged_in.post(url, {"name": "toy fr-en (no)"})

    assert response.status_code == 200
    assert "not this test set’s name" in response.content.decode()
    assert snapshot() == before
    response = logged_in.post(url, {"name": "toy fr-en"})
    assert response["Location"] == reverse("home")
    assert not TestSet.objects.filter(pk=test_set.pk).exists()
    assert not SystemOutput.objects.exists() and not CorpusScore.objects.exists()
    assert System.objects.filter(name="good").exists()  # systems stay with the team
    assert message_texts(response)[-1].startswith("Deleted test set “toy fr-en”")
