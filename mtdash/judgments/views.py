"""Import pages of a test set: judgments and external metric scores."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mtdash.evaluation import access
from mtdash.judgments.forms import ExternalScoresForm, JudgmentImportForm


@login_required
@require_http_methods(["GET", "POST"])
def judgments_import(request, pk: int):
    return _import_page(
        request, pk, JudgmentImportForm, "judgments/judgments_import.html"
    )


@login_required
@require_http_methods(["GET", "POST"])
def external_scores_import(request, pk: int):
    return _import_page(
        request, pk, ExternalScoresForm, "judgments/external_scores_import.html"
    )


def _import_page(request, pk: int, form_class, template: str):
    """The form; after a successful import, the counts and an empty form."""
    test_set = access.get_test_set(request.user, pk)
    result = None
    if request.method == "POST":
        form = form_class(request.POST, request.FILES, test_set=test_set)
        if form.is_valid():
            result = form.save(request.user)
        if result is not None:
            form = form_class(test_set=test_set)
    else:
        form = form_class(test_set=test_set)
    context = {"test_set": test_set, "form": form, "result": result}
    return render(request, template, context)
