"""The references page: per-reference diagnostics, read from the stored analysis."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mtdash.evaluation import access
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.references.diagnostics import read_diagnostics
from mtdash.evaluation.references.figures import closest_reference_figure


@login_required
@require_GET
def reference_diagnostics(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    diagnostics = read_diagnostics(test_set)
    if diagnostics.state == "pending":
        # Computed by the comparison job; a test set with no outputs yet has
        # never had one, so ask (at most one waits in the queue).
        request_comparison(test_set.pk)
    context = {
        "test_set": test_set,
        "diagnostics": diagnostics,
        "closest_figure": closest_reference_figure(diagnostics),
    }
    return render(request, "evaluation/references.html", context)
