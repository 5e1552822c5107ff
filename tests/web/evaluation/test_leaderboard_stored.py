"""Stored leaderboard renderings with ETags (issue 24 item 7): a client that
holds the current version gets 304, any change to the data (a score, even
one rewritten by ``QuerySet.update``; an output, a hidden flag, a deletion)
gives a new version at once, and neither a rendering nor an ETag's
confirmation crosses a team (or, for the page, a user)."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.urls import reverse

from mtdash.evaluation.leaderboard.stored import forget_renderings
from mtdash.evaluation.models import CorpusScore, SystemOutput
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output

pytestmark = pytest.mark.django_db

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def no_stored_renderings():
    """Each test starts with none (an earlier test's ids may come again)."""
    forget_renderings()


@pytest.fixture
def scored(test_set, owner):
    job = create_system_output(test_set, owner, "sys-a", HYPOTHESES, queue=False)
    run_scoring_job(job.pk)
    return job.output


def page_url(test_set) -> str:
    return reverse("test_set_detail", args=[test_set.pk])


def api_url(test_set) -> str:
    return reverse("api_leaderboard", args=[test_set.pk])


@pytest.mark.parametrize("kind", ["page", "api"])
def test_the_current_version_is_confirmed_with_304(
    client, owner, test_set, scored, kind
):
    client.force_login(owner)
    url, headers = (
        (page_url(test_set), {}) if kind == "page" else (api_url(test_set), JSON)
    )
    first = client.get(url, **headers)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert first["Cache-Control"] == "private, no-cache"
    again = client.get(url, HTTP_IF_NONE_MATCH=etag, **headers)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    # Weak and listed forms of the same tag match too (RFC 9110).
    listed = f'"other", W/{etag}'
    assert client.get(url, HTTP_IF_NONE_MATCH=listed, **headers).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"', **headers).status_code == 200


@pytest.mark.parametrize("kind", ["page", "api"])
def test_a_score_rewritten_in_place_is_a_new_version(
    client, owner, test_set, scored, kind
):
    """``QuerySet.update`` leaves ``computed_at`` as it was: the old digest
    (count, last id, last time) missed such a change."""
    client.force_login(owner)
    url, headers = (
        (page_url(test_set), {}) if kind == "page" else (api_url(test_set), JSON)
    )
    etag = client.get(url, **headers)["ETag"]
    CorpusScore.objects.filter(output=scored, metric="bleu").update(score=12.3456)
    after = client.get(url, HTTP_IF_NONE_MATCH=etag, **headers)
    assert after.status_code == 200
    assert after["ETag"] != etag
    if kind == "page":
        assert "12.35" in after.content.decode()
    else:
        scores = after.json()["systems"][0]["scores"]
        assert scores["bleu"]["score"] == pytest.approx(12.3456)


def test_new_outputs_hidden_outputs_and_deletions_show_at_once(
    client, owner, test_set, scored
):
    client.force_login(owner)

    def leaderboard_rows() -> str:
        html = client.get(page_url(test_set)).content.decode()
        return html[html.index('id="leaderboard"') : html.index("</table>")]

    def api_systems() -> list[str]:
        body = client.get(api_url(test_set), **JSON).json()
        return [row["system"] for row in body["systems"]]

    assert "sys-a" in leaderboard_rows() and api_systems() == ["sys-a"]
    second = create_system_output(test_set, owner, "sys-b", HYPOTHESES, queue=False)
    run_scoring_job(second.pk)
    assert "sys-b" in leaderboard_rows()
    assert sorted(api_systems()) == ["sys-a", "sys-b"]
    SystemOutput.objects.filter(pk=second.output_id).update(hidden=True)
    assert "sys-b" not in leaderboard_rows() and api_systems() == ["sys-a"]
    SystemOutput.objects.filter(pk=second.output_id).update(hidden=False)
    assert "sys-b" in leaderboard_rows()
    CorpusScore.objects.filter(output=scored, metric="bleu").delete()
    body = client.get(api_url(test_set), **JSON).json()
    bleu = {row["system"]: row["scores"].get("bleu") for row in body["systems"]}
    assert bleu["sys-a"] is None and bleu["sys-b"] is not None
    SystemOutput.objects.filter(pk=scored.pk).delete()
    assert "sys-a" not in leaderboard_rows() and api_systems() == ["sys-b"]


@pytest.mark.parametrize("kind", ["page", "api"])
def test_another_team_gets_neither_the_rendering_nor_a_confirmation(
    client, owner, outsider, test_set, scored, kind
):
    url, headers = (
        (page_url(test_set), {}) if kind == "page" else (api_url(test_set), JSON)
    )
    client.force_login(owner)
    etag = client.get(url, **headers)["ETag"]
    client.force_login(outsider)
    answer = client.get(url, HTTP_IF_NONE_MATCH=etag, **headers)
    assert answer.status_code == 404
    assert "ETag" not in answer
    assert b"sys-a" not in answer.content


def test_team_members_share_the_stored_content_but_not_the_page(
    client, owner, member, test_set, scored
):
    """The page's top bar names its reader and carries their CSRF token:
    another member's ETag is not confirmed and the stored part names no one."""
    client.force_login(owner)
    owners = client.get(page_url(test_set))
    assert f'<span class="who">{owner.username}</span>' in owners.content.decode()
    client.force_login(member)
    members = client.get(page_url(test_set), HTTP_IF_NONE_MATCH=owners["ETag"])
    assert members.status_code == 200
    text = members.content.decode()
    assert f'<span class="who">{member.username}</span>' in text
    assert owner.username not in text
    # The API's JSON names no one: the same version, the same tag.
    client.force_login(owner)
    tag = client.get(api_url(test_set), **JSON)["ETag"]
    client.force_login(member)
    assert (
        client.get(api_url(test_set), HTTP_IF_NONE_MATCH=tag, **JSON).status_code == 304
    )


def test_a_page_with_a_message_is_never_confirmed(rf, owner, test_set, scored):
    """A one-off message ("Queued the job again") is shown, not hidden behind
    a 304 of the page without it."""
    from mtdash.evaluation.leaderboard.views import test_set_detail

    def request(**headers):
        made = rf.get(page_url(test_set), **headers)
        made.user = owner
        made.session = {}
        made._messages = FallbackStorage(made)
        return made

    plain = test_set_detail(request(), test_set.pk)
    with_message = request(HTTP_IF_NONE_MATCH=plain["ETag"])
    messages.success(with_message, "Queued the job again.")
    answer = test_set_detail(with_message, test_set.pk)
    assert answer.status_code == 200
    assert "Queued the job again." in answer.content.decode()
    assert "ETag" not in answer


def test_a_cold_bench_request_builds_the_page_again(
    client, owner, test_set, scored, monkeypatch
):
    """``bench_pages``' cold mode empties the stored renderings too (they
    live in the process, not in Django's cache)."""
    from mtdash.bench.pages import forget_everything
    from mtdash.evaluation.leaderboard import page as leaderboard_page

    builds = []
    real = leaderboard_page.build_leaderboard
    monkeypatch.setattr(
        leaderboard_page,
        "build_leaderboard",
        lambda *args, **kwargs: builds.append(1) or real(*args, **kwargs),
    )
    client.force_login(owner)
    client.get(page_url(test_set))
    client.get(page_url(test_set))
    assert len(builds) == 1
    forget_everything()
    client.get(page_url(test_set))
    assert len(builds) == 2


def test_a_leaderboard_whose_scored_outputs_are_all_hidden_still_answers(
    client, owner, test_set, scored
):
    """Hiding the only scored output (or deleting the visible ones) used to
    fail the page and the API (a column without a visible score had no
    signature to head it)."""
    create_system_output(test_set, owner, "unscored", HYPOTHESES, queue=False)
    SystemOutput.objects.filter(pk=scored.pk).update(hidden=True)
    client.force_login(owner)
    page = client.get(page_url(test_set))
    assert page.status_code == 200
    body = client.get(api_url(test_set), **JSON).json()
    assert body["metrics"] == []
    assert [row["system"] for row in body["systems"]] == ["unscored"]


@pytest.mark.parametrize(
    "url_name, args",
    [("test_set_export", ["csv"]), ("api_leaderboard_file", ["csv"])],
    ids=["page export", "API file"],
)
def test_a_csv_export_is_stored_and_confirmed_until_a_score_changes(
    client, owner, test_set, scored, url_name, args
):
    client.force_login(owner)
    url = reverse(url_name, args=[test_set.pk, *args])
    first = client.get(url, {"metric": "bleu"})
    assert first.status_code == 200 and "sys-a" in first.content.decode()
    etag = first["ETag"]
    again = client.get(url, {"metric": "bleu"}, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    # Another ranking is another rendering.
    assert client.get(url, {"metric": "chrf"})["ETag"] != etag
    CorpusScore.objects.filter(output=scored, metric="bleu").update(score=12.3456)
    changed = client.get(url, {"metric": "bleu"}, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert "12.3456" in changed.content.decode()


def test_the_workbook_is_built_for_each_request(client, owner, test_set, scored):
    """Its provenance sheet names the moment it was exported."""
    client.force_login(owner)
    answer = client.get(reverse("test_set_export", args=[test_set.pk, "xlsx"]))
    assert answer.status_code == 200
    assert "ETag" not in answer
