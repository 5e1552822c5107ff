"""Who may call the API, and team scoping exactly as in the browser: another
team's object is a 404, never a 403 (its existence is not revealed)."""

from __future__ import annotations

from django.db.models import Model, QuerySet
from django.http import Http404
from rest_framework.permissions import IsAuthenticated

from mtdash.api.errors import ApiError, error
from mtdash.evaluation.access import teams_of
from mtdash.teams.models import Team


class IsTeamMember(IsAuthenticated):
    """Authenticated (token or session); objects are then scoped by querying
    through the user's teams (``mtdash.evaluation.access`` and friends)."""


def scoped_or_404(queryset: QuerySet, pk) -> Model:
    """``queryset`` (already limited to the user's teams) at ``pk``, else 404."""
    try:
        return queryset.get(pk=pk)
    except (queryset.model.DoesNotExist, ValueError, TypeError):
        raise Http404(f"no {queryset.model._meta.verbose_name} {pk}") from None


def team_named(user, name: str | None) -> Team:
    """The user's team called ``name``; with no name, the user's only team.

    A team the user is not in is refused like one that does not exist.
    """
    teams = teams_of(user)
    if name:
        team = teams.filter(name=name).first()
        if team is None:
            raise ApiError([error(f"team: you are not in a team named {name!r}")])
        return team
    found = list(teams[:2])
    if len(found) == 1:
        return found[0]
    if not found:
        raise ApiError([error("team: you are not in any team")])
    raise ApiError([error("team: you are in several teams; say which")])
