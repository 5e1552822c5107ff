"""Helpers of the manage tests (no tests here): a scored output, the manage
pages, and a snapshot of everything the manage actions could change (to
prove that a GET or a refused POST did not)."""

from __future__ import annotations

from django.urls import reverse

from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ScoringJob,
    System,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output

HYPOTHESES = {
    "good": ["the cat is on the mat", "it is raining", "hello everyone"],
    "fair": ["the cat on mat", "it raining", "hello every one"],
}


def add_scored_output(test_set, user, name, metrics=("bleu",)):
    job = create_system_output(
        test_set, user, name, HYPOTHESES.get(name, ["a", "b", "c"]),
        metrics=metrics, queue=False,
    )  # fmt: skip
    run_scoring_job(job.pk)
    return SystemOutput.objects.get(pk=job.output_id)


def manage_urls(test_set, output) -> list[str]:
    """Every manage page of the test set and the output's system."""
    return [
        reverse("system_rename", args=[output.system_id]),
        reverse("system_delete", args=[output.system_id]),
        reverse("output_hide", args=[output.pk]),
        reverse("output_delete", args=[output.pk]),
        reverse("test_set_rename", args=[test_set.pk]),
        reverse("test_set_hide", args=[test_set.pk]),
        reverse("test_set_delete", args=[test_set.pk]),
        reverse("test_set_fill_missing", args=[test_set.pk]),
    ]


def snapshot() -> dict:
    """The state the actions change: names, hidden flags, rows and jobs."""
    return {
        "test_sets": list(TestSet.objects.order_by("pk").values_list()),
        "systems": list(System.objects.order_by("pk").values_list("pk", "name")),
        "outputs": list(
            SystemOutput.objects.order_by("pk").values_list("pk", "hidden")
        ),
        "scores": CorpusScore.objects.count(),
        "jobs": list(ScoringJob.objects.order_by("pk").values_list("pk", "metrics")),
        "comparisons": ComparisonJob.objects.count(),
    }


def finish_comparisons() -> None:
    """Mark the comparison jobs that scoring asked for as done, so that a
    new request shows as a new row (a queued one covers later changes)."""
    ComparisonJob.objects.update(status=ComparisonJob.Status.SUCCEEDED)
