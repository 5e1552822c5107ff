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
from urllib.parse import urlencode

from django.core.cache import cache
from django.db.models import Count, Max
from django.template.loader import render_to_string

from mtdash.evaluation.leaderboard.build import Leaderboard, build_leaderboard
from mtdash.evaluation.leaderboard.figures import (
    leaderboard_figure,
    precision_figure,
    rank_figure,
)
from mtdash.evaluation.leaderboard.significance import DEFAULT_TEST, chosen_test
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ExternalCorpusScore,
    ExternalMetric,
    MetricComparison,
    ScoringJob,
    SystemOutput,
    TestSet,
)
from scoring import __version__ as SCORING_VERSION
from scoring.stats import DEFAULT_CORRECTION

CACHE_SECONDS = 600
# The corrections for multiple comparisons a reader can switch between.
CORRECTION_CHOICES = (("holm", "Holm"), ("bonferroni", "Bonferroni"), ("none", "none"))


@dataclass(frozen=True)
class LeaderboardFragment:
    html: str  # rendered by evaluation/_leaderboard.html (autoescaped)
    has_figure: bool


def leaderboard_cache_key(
    test_set: TestSet,
    rank_by: str | None,
    test: str | None = None,
    correction: str | None = None,
) -> str:
    """A key that changes whenever anything the fragment shows changes."""
    outputs = list(
        SystemOutput.objects.filter(test_set=test_set)
        .order_by("pk")
        .values_list("pk", "system__name", "hidden")
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
    comparisons = MetricComparison.objects.filter(test_set=test_set).aggregate(
        n=Count("pk"), last_pk=Max("pk"), last_computed=Max("computed_at")
    )
    state = repr(
        (
            comparison_pending(test_set),
            sorted(comparisons.items()),
            chosen_test(test),
            correction,
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


def leaderboard_fragment(
    test_set: TestSet,
    rank_by: str | None,
    test: str | None = None,
    correction: str | None = None,
) -> LeaderboardFragment:
    key = leaderboard_cache_key(test_set, rank_by, test, correction)
    fragment = cache.get(key)
    if fragment is None:
        leaderboard = build_leaderboard(
            test_set, rank_by=rank_by, test=test, correction=correction
        )
        figure = leaderboard_figure(leaderboard)
        html = render_to_string(
            "evaluation/_leaderboard.html",
            {
                "test_set": test_set,
                "leaderboard": leaderboard,
                "figure": figure,
                "rank_figure": rank_figure(leaderboard) if figure else None,
                "precision_figure": precision_figure(_bleu_details(leaderboard))
                if figure
                else None,
                "rank_by": rank_by or "",
                "hidden_outputs": SystemOutput.objects.filter(
                    test_set=test_set, hidden=True
                ).select_related("system"),
                "comparison_pending": comparison_pending(test_set),
                "corrections": CORRECTION_CHOICES,
                "export_query": export_query(rank_by, leaderboard),
            },
        )
        fragment = LeaderboardFragment(html=html, has_figure=bool(figure))
        cache.set(key, fragment, CACHE_SECONDS)
    return fragment


def export_query(rank_by: str | None, leaderboard: Leaderboard) -> str:
    """``?metric=…&test=…&correction=…`` for the export links, so a download
    ranks and clusters like the page it was taken from (defaults left out)."""
    query = {"metric": rank_by or None}
    if leaderboard.test != DEFAULT_TEST:
        query["test"] = leaderboard.test
    if leaderboard.correction != DEFAULT_CORRECTION:
        query["correction"] = leaderboard.correction
    given = {key: value for key, value in query.items() if value}
    return "?" + urlencode(given) if given else ""


def comparison_pending(test_set: TestSet) -> bool:
    """A worker is about to compute (or is computing) the intervals."""
    return ComparisonJob.objects.filter(
        test_set=test_set,
        status__in=(ComparisonJob.Status.QUEUED, ComparisonJob.Status.RUNNING),
    ).exists()


def _bleu_details(leaderboard: Leaderboard) -> list[tuple[str, dict]]:
    """(system, BLEU details) of the ranked rows, for the precision chart."""
    names = {row.output_id: row.system for row in leaderboard.rows}
    stored = dict(
        CorpusScore.objects.filter(output_id__in=list(names), metric="bleu")
        .exclude(details={})
        .values_list("output_id", "details")
    )
    return [(names[oid], stored[oid]) for oid in names if oid in stored]
