"""Team scoping: a user sees and changes only what belongs to their teams."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from mtdash.evaluation.models import ScoringJob, TestSet
from mtdash.teams.models import Team


def teams_of(user) -> QuerySet[Team]:
    return Team.objects.filter(members=user)


def test_sets_of(user) -> QuerySet[TestSet]:
    return TestSet.objects.filter(team__members=user).select_related("team")


def get_test_set(user, pk: int) -> TestSet:
    """The test set if it belongs to one of the user's teams, else 404."""
    return get_object_or_404(test_sets_of(user), pk=pk)


def get_job(user, pk: int) -> ScoringJob:
    jobs = ScoringJob.objects.filter(output__test_set__team__members=user)
    return get_object_or_404(
        jobs.select_related("output__system", "output__test_set"), pk=pk
    )
