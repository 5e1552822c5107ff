"""The error spans' import page of a test set: the form, the result of an
import, and the imports so far."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mtdash.evaluation import access
from mtdash.judgments.error_spans.forms import ErrorSpansForm
from mtdash.judgments.error_spans.imports import span_import_batches


@login_required
@require_http_methods(["GET", "POST"])
def error_spans_import(request, pk: int):
    """The form; after a successful import, its counts and an empty form."""
    test_set = access.get_test_set(request.user, pk)
    result = None
    form = ErrorSpansForm(
        request.POST or None, request.FILES or None, test_set=test_set
    )
    if request.method == "POST" and form.is_valid():
        result = form.save(request.user)
        if result is not None:
            form = ErrorSpansForm(test_set=test_set)
    context = {
        "test_set": test_set,
        "form": form,
        "result": result,
        "imports": span_import_batches(test_set),
    }
    return render(request, "judgments/error_spans_import.html", context)
