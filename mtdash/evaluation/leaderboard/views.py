"""The small status JSON a leaderboard page polls while statistics are pending."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from mtdash.evaluation import access
from mtdash.evaluation.leaderboard.refresh import leaderboard_state


@login_required
@require_GET
def leaderboard_status(request, pk: int):
    """``{"state": ..., "pending": ...}`` for the page's query (``?metric=``,
    ``?test=``, ``?correction=``)."""
    test_set = access.get_test_set(request.user, pk)
    state = leaderboard_state(
        test_set,
        request.GET.get("metric"),
        request.GET.get("test"),
        request.GET.get("correction"),
    )
    return JsonResponse(state.to_dict())
