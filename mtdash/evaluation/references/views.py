"""The references page: per-reference diagnostics, read from the stored
analysis, and entering a reference as a system (a human translation ranked
beside the MT systems)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from mtdash.evaluation import access
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import SystemOutput
from mtdash.evaluation.references.as_system import (
    CannotEnterReference,
    default_system_name,
    enter_reference_as_system,
)
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
    entered = {
        output.reference.label: output
        for output in SystemOutput.objects.filter(
            test_set=test_set, reference__isnull=False
        ).select_related("system", "reference")
    }
    labels = test_set.reference_sets.order_by("label").values_list("label", flat=True)
    context = {
        "test_set": test_set,
        "diagnostics": diagnostics,
        "closest_figure": closest_reference_figure(diagnostics),
        "as_systems": [
            (label, entered.get(label), default_system_name(label)) for label in labels
        ],
    }
    return render(request, "evaluation/references.html", context)


@login_required
@require_POST
def reference_as_system(request, pk: int, label: str):
    """Enter reference ``label`` as a system output and queue its scoring."""
    test_set = access.get_test_set(request.user, pk)
    try:
        job = enter_reference_as_system(
            test_set,
            label,
            request.user,
            system_name=request.POST.get("system_name", ""),
        )
    except CannotEnterReference as problem:
        messages.error(request, f"Could not enter the reference: {problem}")
        url = reverse("reference_diagnostics", args=[test_set.pk])
        return redirect(f"{url}#as-systems")
    messages.success(
        request,
        f"Reference {label} is now the system {job.output.system.name}, "
        "scored against the other references.",
    )
    return redirect(job)
