""" "Fill in missing metrics": one job per output for exactly the leaderboard
columns it lacks or holds without stored statistics."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from mtdash.evaluation.manage.actions import (
    NO_STATISTICS,
    NOT_SCORED,
    fill_in_missing_metrics,
    fill_in_plan,
)
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ExternalCorpusScore,
    ExternalMetric,
    ScoringJob,
)
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD
from tests.web.evaluation.test_manage_support import (
    add_scored_output,
    finish_comparisons,
)


@pytest.fixture
def uneven(test_set, owner):
    """good: bleu, chrf and ter:normalize=true (spelled ``TER:normalize=true``); fair:
    bleu only (added later); poor: bleu and chrf, but its bleu was scored
    before statistics were kept; an external metric on good."""
    specs = ("bleu", "chrf", "TER:normalize=true")
    good = add_scored_output(test_set, owner, "good", metrics=specs)
    fair = add_scored_output(test_set, owner, "fair")
    poor = add_scored_output(test_set, owner, "poor", metrics=("bleu", "chrf"))
    CorpusScore.objects.filter(output=poor, metric="bleu").update(statistics=b"")
    metric = ExternalMetric.objects.create(test_set=test_set, name="comet")
    ExternalCorpusScore.objects.create(
        metric=metric, output=good, score=0.8, n_segments=3
    )
    finish_comparisons()
    return {"good": good, "fair": fair, "poor": poor}


def missing_by_system(plan) -> dict[str, list[tuple[str, str]]]:
    return {
        gap.system: [(metric.spec, metric.reason) for metric in gap.missing]
        for gap in plan.gaps
    }


def test_the_plan_lists_each_outputs_missing_columns(test_set, uneven):
    plan = fill_in_plan(test_set)
    assert plan.columns == ("bleu", "chrf", "ter:normalize=true")  # never comet
    assert missing_by_system(plan) == {
        "fair": [("chrf", NOT_SCORED), ("ter:normalize=true", NOT_SCORED)],
        "poor": [("bleu", NO_STATISTICS), ("ter:normalize=true", NOT_SCORED)],
    }
    assert plan.n_scores == 4


def test_filling_in_queues_exactly_the_missing_specs(test_set, owner, uneven):
    jobs_before = set(ScoringJob.objects.values_list("pk", flat=True))

    jobs = fill_in_missing_metrics(test_set, owner, queue=False)

    new = ScoringJob.objects.exclude(pk__in=jobs_before).order_by("pk")
    assert [job.pk for job in jobs] == [job.pk for job in new]
    assert {job.output.system.name: job.metrics for job in new} == {
        "fair": ["chrf", "ter:normalize=true"],
        "poor": ["bleu", "ter:normalize=true"],
    }
    assert ComparisonJob.objects.filter(
        test_set=test_set, status=ComparisonJob.Status.QUEUED
    ).exists()
    # Queued already: asking again queues nothing.
    assert fill_in_missing_metrics(test_set, owner, queue=False) == []
    assert fill_in_plan(test_set).already_queued == 4
    # Once they ran, nothing is missing and every score has statistics.
    for job in jobs:
        run_scoring_job(job.pk)
    assert fill_in_plan(test_set).gaps == ()
    assert not CorpusScore.objects.filter(statistics=b"").exists()


def test_hidden_outputs_are_filled_in_too(test_set, uneven):
    uneven["fair"].hidden = True
    uneven["fair"].save()
    gaps = {gap.system: gap.hidden for gap in fill_in_plan(test_set).gaps}
    assert gaps == {"fair": True, "poor": False}


def test_nothing_to_do_without_scores(test_set, owner):
    create_system_output(test_set, owner, "pending", ["a", "b", "c"], queue=False)
    plan = fill_in_plan(test_set)
    assert plan.columns == () and plan.gaps == ()


def test_the_page_shows_output_to_metrics_and_the_post_queues_them(
    client, member, test_set, uneven
):
    client.login(username=member.username, password=PASSWORD)
    url = reverse("test_set_fill_missing", args=[test_set.pk])
    page = client.get(url).content.decode()
    assert 'id="fill-missing-plan"' in page
    assert "<code>chrf</code>" in page and "(no stored statistics)" in page
    assert "Queue 2 scoring jobs" in page
    assert "comet" not in page

    response = client.post(url)

    assert response["Location"] == test_set.get_absolute_url()
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert messages == ["Queued 2 scoring jobs."]
    assert ScoringJob.objects.filter(created_by=member).count() == 2


def test_the_page_says_when_nothing_is_missing(client, member, test_set, owner):
    add_scored_output(test_set, owner, "good")
    client.login(username=member.username, password=PASSWORD)
    url = reverse("test_set_fill_missing", args=[test_set.pk])
    page = client.get(url).content.decode()
    assert 'id="nothing-missing"' in page and "Queue" not in page
    response = client.post(url)
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert messages == ["Nothing to fill in: no metric is missing."]
    assert ScoringJob.objects.count() == 1
