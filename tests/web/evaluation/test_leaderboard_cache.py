"""The leaderboard fragment is rendered once per state of its data: a second
view costs no rendering, and any change (a new score, a job's status, a new
output, a renamed system) shows at once."""

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard import page as leaderboard_page
from mtdash.evaluation.models import CorpusScore, ScoringJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]


@pytest.fixture
def page(client, owner, test_set):
    client.force_login(owner)
    url = reverse("test_set_detail", args=[test_set.pk])
    return lambda: client.get(url).content.decode()


@pytest.fixture
def builds(monkeypatch):
    """How many times the leaderboard was built (cache misses)."""
    calls = []
    real = leaderboard_page.build_leaderboard

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(leaderboard_page, "build_leaderboard", counting)
    return calls


@pytest.fixture
def job(test_set, owner):
    job = create_system_output(test_set, owner, "sys-a", HYPOTHESES, queue=False)
    run_scoring_job(job.pk)
    return job


def test_a_second_view_of_an_unchanged_leaderboard_is_not_rendered_again(
    page, builds, job
):
    def leaderboard(html: str) -> str:  # the page around it has a fresh CSRF token
        return html[html.index('id="leaderboard"') : html.index('class="exports"')]

    first = page()
    assert leaderboard(page()) == leaderboard(first)
    assert "sys-a" in leaderboard(first)
    assert len(builds) == 1


def test_a_new_score_shows_at_once(page, builds, job):
    page()
    CorpusScore.objects.create(
        output=job.output, metric="chrf", score=12.3456, signature="chrf|x"
    )
    assert "12.35" in page()
    assert len(builds) == 2


def test_a_job_status_change_and_a_new_output_show_at_once(
    page, builds, job, test_set, owner
):
    page()
    ScoringJob.objects.filter(pk=job.pk).update(status=ScoringJob.Status.FAILED)
    assert "status-failed" in page()
    create_system_output(test_set, owner, "sys-b", HYPOTHESES, queue=False)
    assert "sys-b" in page()
    job.output.system.name = "renamed-system"
    job.output.system.save()
    assert "renamed-system" in page()
    assert len(builds) == 4


def test_each_ranking_is_cached_apart(page, client, builds, job, test_set):
    page()
    url = reverse("test_set_detail", args=[test_set.pk])
    client.get(url, {"metric": "bleu"})
    assert len(builds) == 2
