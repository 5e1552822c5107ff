"""The leaderboard pages: the test set's page (the leaderboard with its
charts), its p-value matrix, its exports, and the small status JSON the page
polls while statistics are pending."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from mtdash.common.responses import download_response
from mtdash.evaluation import access
from mtdash.evaluation.leaderboard import exports
from mtdash.evaluation.leaderboard.page import (
    CORRECTION_CHOICES,
    StoredPage,
    personal_document,
    stored_page,
)
from mtdash.evaluation.leaderboard.pvalues import compared_columns, pvalue_matrix
from mtdash.evaluation.leaderboard.refresh import leaderboard_state
from mtdash.evaluation.leaderboard.stored import (
    LeaderboardQuery,
    not_modified,
    personal_etag,
    rendering,
    revalidated,
    stored_value,
    with_validator,
)
from mtdash.evaluation.leaderboard.version import leaderboard_version


@login_required
@require_GET
def test_set_detail(request, pk: int):
    """The stored page with the reader filled in; 304 when the reader's copy
    is current."""
    test_set = access.get_test_set(request.user, pk)
    version = leaderboard_version(test_set)
    query = LeaderboardQuery.of(request.GET)
    wanted = rendering(test_set, version, "page", query)

    def page() -> StoredPage:
        return stored_value(wanted, lambda: stored_page(test_set, version, query))

    if len(get_messages(request)):
        # One-off messages ("Queued the job again"): rendered in full, and
        # never confirmed by a 304 of a page without them.
        content = page().content
        context = {
            "test_set": test_set,
            "content": mark_safe(content.html),  # rendered with autoescape
            "figure": content.has_figure,
        }
        return render(request, "evaluation/test_set_detail.html", context)
    etag = personal_etag(wanted.etag, request)
    if not_modified(request, etag):
        return revalidated(etag)
    return with_validator(HttpResponse(personal_document(page(), request)), etag)


@login_required
@require_GET
def test_set_pvalues(request, pk: int):
    """The p-value matrix of one metric (``?metric=``, ``?test=bootstrap|ar``,
    ``?correction=holm|bonferroni|none``)."""
    test_set = access.get_test_set(request.user, pk)
    matrix = pvalue_matrix(
        test_set,
        request.GET.get("metric"),
        request.GET.get("test"),
        request.GET.get("correction"),
    )
    context = {
        "test_set": test_set,
        "matrix": matrix,
        "columns": compared_columns(test_set),
        "corrections": CORRECTION_CHOICES,
    }
    return render(request, "evaluation/pvalues.html", context)


@login_required
@require_GET
def test_set_export(request, pk: int, fmt: str):
    """The leaderboard as a download, ranked like the page (``?metric=``)."""
    render_export = exports.FORMATS.get(fmt)
    if render_export is None:  # the URL admits only known formats; a backstop
        raise Http404(f"no leaderboard export in {fmt!r}")
    test_set = access.get_test_set(request.user, pk)
    export = exports.leaderboard_export(test_set, LeaderboardQuery.of(request.GET), fmt)
    if export.etag and not_modified(request, export.etag):
        return revalidated(export.etag)
    response = download_response(export.body, f"leaderboard-{test_set.pk}.{fmt}")
    return with_validator(response, export.etag) if export.etag else response


@login_required
@require_GET
def leaderboard_status(request, pk: int):
    """``{"state": ..., "pending": ...}`` for the page's query (``?metric=``,
    ``?test=``, ``?correction=``)."""
    test_set = access.get_test_set(request.user, pk)
    version = leaderboard_version(test_set)
    state = leaderboard_state(version, LeaderboardQuery.of(request.GET))
    return JsonResponse(state.to_dict())
