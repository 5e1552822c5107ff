"""The leaderboard part of a test set's page, rendered once per state of its data.

Rendering a leaderboard of 50 systems x 20 metrics costs tens of
milliseconds (a thousand cells through the template engine); the data behind
it changes only when an output is added, a job changes status or scores are
saved (computed here or imported as an external metric). So the rendered
fragment and its chart are cached under a key that digests exactly those
inputs (five small queries): any change gives a new
key, so a cached page is never stale, and old keys simply expire.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max
from django.template.loader import render_to_string

from mtdash.evaluation.figures import leaderboard_figure
from mtdash.evaluation.models import CorpusScore, ScoringJob, SystemOutput, TestSet
from mtdash.evaluation.services.leaderboard import build_leaderboard
from mtdash.judgments.models import ExternalCorpusScore, ExternalMetric
from scoring import __version__ as SCORING_VERSION

CACHE_SECONDS = 600


@dataclass(frozen=True)
class LeaderboardFragment:
    html: str  # rendered by evaluation/_leaderboard.html (autoescaped)
    has_figure: bool


def leaderboard_cache_key(test_set: TestSet, rank_by: str | None) -> str:
    """A key that changes whenever anything the fragment shows changes."""
    outputs = list(
        SystemOutput.objects.filter(test_set=test_set)
        .order_by("pk")
        .values_list("pk", "system__name")
    )
    jobs = list(
        ScoringJob.objects.filter(output__test_set=test_set)
        .order_by("pk")
        .values_list("pk", "status")
    )
    scores = CorpusScore.objects.filter(output__test_set=test_set).aggregate(
        n=Count("pk"), last_pk=Max("pk"), last_computed=Max("computed_at")
    )
    # Imported scores are only ever added (or deleted with their metric or
    # output): their count and last id tell every change.
    external = ExternalCorpusScore.objects.filter(metric__test_set=test_set).aggregate(
        n=Count("pk"), last_pk=Max("pk")
    )
    external["metrics"] = list(  # a description edited in the admin shows too
        ExternalMetric.objects.filter(test_set=test_set)
        .order_by("pk")
        .values_list("pk", "name", "description", "higher_is_better")
    )
    state = repr(
        (
            outputs,
            jobs,
            sorted(scores.items()),
            sorted(external.items()),
            rank_by,
            SCORING_VERSION,
        )
    )
    digest = hashlib.sha256(state.encode("utf-8")).hexdigest()[:32]
    return f"leaderboard:{test_set.pk}:{digest}"


def leaderboard_fragment(test_set: TestSet, rank_by: str | None) -> LeaderboardFragment:
    key = leaderboard_cache_key(test_set, rank_by)
    fragment = cache.get(key)
    if fragment is None:
        leaderboard = build_leaderboard(test_set, rank_by=rank_by)
        figure = leaderboard_figure(leaderboard)
        html = render_to_string(
            "evaluation/_leaderboard.html",
            {
                "test_set": test_set,
                "leaderboard": leaderboard,
                "figure": figure,
                "rank_by": rank_by or "",
            },
        )
        fragment = LeaderboardFragment(html=html, has_figure=bool(figure))
        cache.set(key, fragment, CACHE_SECONDS)
    return fragment
