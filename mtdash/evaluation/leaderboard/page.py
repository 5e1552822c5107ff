"""A test set's page content: the leaderboard with its charts, the header
and the links, rendered once per version of the data and query.

Rendering a leaderboard of 50 systems x 20 metrics costs tens of
milliseconds (a thousand cells through the template engine); the data behind
it changes only when an output is added, a job changes status or scores are
saved (computed here or imported as an external metric). So the content is
rendered once per version (:mod:`.version`) and stored (:mod:`.stored`),
as the whole document with two marks where the top bar names the reader
and carries their CSRF token: a request fills them in (two string
replacements), so serving costs no template rendering at all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import mark_safe

from mtdash.evaluation.leaderboard.build import Leaderboard, build_leaderboard
from mtdash.evaluation.leaderboard.figures import (
    leaderboard_figure,
    precision_figure,
    rank_figure,
)
from mtdash.evaluation.leaderboard.refresh import leaderboard_state
from mtdash.evaluation.leaderboard.significance import DEFAULT_TEST
from mtdash.evaluation.leaderboard.stored import LeaderboardQuery
from mtdash.evaluation.leaderboard.version import LeaderboardVersion
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    SystemOutput,
    TestSet,
)
from scoring.stats import DEFAULT_CORRECTION

# The corrections for multiple comparisons a reader can switch between.
CORRECTION_CHOICES = (("holm", "Holm"), ("bonferroni", "Bonferroni"), ("none", "none"))


@dataclass(frozen=True)
class PageContent:
    html: str  # rendered by evaluation/_test_set_content.html (autoescaped)
    has_figure: bool


@dataclass(frozen=True)
class StoredPage:
    content: PageContent
    # The whole page for any reader: ``user-<mark>`` and ``csrf-<mark>``
    # stand where the top bar shows the reader's name and CSRF token. The
    # mark is random per rendering, so no text of a test set can forge one.
    document: str
    mark: str


@dataclass(frozen=True)
class _Reader:
    """Who the stored document's top bar shows: a mark filled in later."""

    username: str
    is_authenticated: bool = True


def stored_page(
    test_set: TestSet, version: LeaderboardVersion, query: LeaderboardQuery
) -> StoredPage:
    content = page_content(test_set, version, query)
    mark = secrets.token_hex(16)
    document = render_to_string(
        "evaluation/test_set_detail.html",
        {
            "test_set": test_set,
            "content": mark_safe(content.html),  # rendered with autoescape
            "figure": content.has_figure,
            "user": _Reader(f"user-{mark}"),
            "csrf_token": f"csrf-{mark}",
            "messages": (),
        },
    )
    return StoredPage(content, document, mark)


def personal_document(page: StoredPage, request: HttpRequest) -> str:
    """The stored document with the reader's name and CSRF token in the top
    bar (which comes before anything a test set's data puts in the page)."""
    named = page.document.replace(
        f"user-{page.mark}", escape(request.user.get_username()), 1
    )
    return named.replace(f"csrf-{page.mark}", get_token(request), 1)


def page_content(
    test_set: TestSet, version: LeaderboardVersion, query: LeaderboardQuery
) -> PageContent:
    """The page below its top bar, for ``query`` at ``version``: the same for
    every member of the test set's team (nothing here names the reader)."""
    rank_by = query.metric
    leaderboard = build_leaderboard(
        test_set, rank_by=rank_by, test=query.test, correction=query.correction
    )
    figure = leaderboard_figure(leaderboard)
    html = render_to_string(
        "evaluation/_test_set_content.html",
        {
            "test_set": test_set,
            "n_segments": version.n_segments,
            "reference_labels": version.reference_labels,
            "leaderboard_state": leaderboard_state(version, query),
            "status_query": "?" + urlencode(query.items()) if query.items() else "",
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
    return PageContent(html=html, has_figure=bool(figure))


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
