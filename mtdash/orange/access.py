"""Team scoping for ORANGE: n-best lists and jobs of the user's teams only."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from mtdash.orange.models import NBestList, OrangeJob


def nbest_lists_of(user) -> QuerySet[NBestList]:
    return NBestList.objects.filter(test_set__team__members=user).select_related(
        "test_set"
    )


def jobs_of(user) -> QuerySet[OrangeJob]:
    return OrangeJob.objects.filter(nbest__test_set__team__members=user).select_related(
        "nbest__test_set"
    )


def get_nbest(user, pk: int) -> NBestList:
    """The n-best list if its test set belongs to one of the user's teams, else 404."""
    return get_object_or_404(nbest_lists_of(user), pk=pk)


def get_job(user, pk: int) -> OrangeJob:
    return get_object_or_404(jobs_of(user), pk=pk)
