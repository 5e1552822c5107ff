"""The import page of a metric's scores computed elsewhere (COMET...)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mtdash.evaluation import access
from mtdash.evaluation.external_scores.forms import ExternalScoresForm


@login_required
@require_http_methods(["GET", "POST"])
def external_scores_import(request, pk: int):
    """The form; after a successful import, the means and an empty form."""
    test_set = access.get_test_set(request.user, pk)
    result = None
    if request.method == "POST":
        form = ExternalScoresForm(request.POST, request.FILES, test_set=test_set)
        if form.is_valid():
            result = form.save(request.user)
        if result is not None:
            form = ExternalScoresForm(test_set=test_set)
    else:
        form = ExternalScoresForm(test_set=test_set)
    context = {"test_set": test_set, "form": form, "result": result}
    return render(request, "evaluation/external_scores_import.html", context)
