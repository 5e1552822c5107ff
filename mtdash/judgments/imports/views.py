"""The judgments' import pages of a test set: the file, then its preview,
then the import."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from mtdash.evaluation import access
from mtdash.judgments.imports import pending
from mtdash.judgments.imports.forms import JudgmentImportForm, JudgmentPreviewForm


@login_required
@require_http_methods(["GET", "POST"])
def judgments_import(request, pk: int):
    """The file; a readable one goes on to its preview."""
    test_set = access.get_test_set(request.user, pk)
    form = JudgmentImportForm(
        request.POST or None, request.FILES or None, test_set=test_set
    )
    if request.method == "POST" and form.is_valid():
        kept = form.save(request.session)
        if kept is not None:
            return redirect("judgments_import_preview", pk, kept.token)
    context = {"test_set": test_set, "form": form, "result": None}
    return render(request, "judgments/judgments_import.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def judgments_import_preview(request, pk: int, token: str):
    """What the import would store; "Import" stores it, "Cancel" forgets it."""
    test_set = access.get_test_set(request.user, pk)
    file = pending.find(request.session, test_set.pk, token)
    if file is None:
        raise Http404("no such file waiting for import; upload it again")
    action = request.POST.get("action", "preview")
    if action == "cancel":
        pending.discard(request.session, file)
        return redirect("judgments_import", pk)
    form = JudgmentPreviewForm(request.POST or None, test_set=test_set, file=file)
    preview = form.preview()
    # Import only what the page showed: changed options get a new preview.
    shown = request.POST.get("previewed")
    if action == "import" and preview and shown == preview.key and form.is_valid():
        result = form.save(request.user, request.session)
        if result is not None:
            form = JudgmentImportForm(test_set=test_set)
            context = {"test_set": test_set, "form": form, "result": result}
            return render(request, "judgments/judgments_import.html", context)
    context = {"test_set": test_set, "form": form, "preview": preview, "file": file}
    return render(request, "judgments/judgments_preview.html", context)
