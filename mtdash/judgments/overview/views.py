"""The judgments of a test set (imports, WMT aggregates, agreement, CSV
exports) and the metric–human disagreement explorer."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from mtdash.evaluation import access
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.models import Criterion
from mtdash.judgments.overview import disagreements as explorer
from mtdash.judgments.overview.figures import system_figure
from mtdash.judgments.overview.store import all_aggregates
from mtdash.judgments.overview.summary import (
    imports,
    segment_page,
    segments_csv_text,
    systems_csv_text,
)
from mtdash.judgments.sources import choose_sources, criterion_sources


@login_required
@require_GET
def judgments_overview(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    criteria = all_aggregates(test_set)
    chosen = next(
        (c for c in criteria if c.name == request.GET.get("criterion")),
        criteria[0] if criteria else None,
    )
    context = {
        "test_set": test_set,
        "imports": imports(test_set),
        "criteria": criteria,
        "figures": [
            (c, f"figure-{i}", system_figure(c)) for i, c in enumerate(criteria)
        ],
        "segments": chosen and segment_page(chosen, _page(request)),
        "agreement": agreement_summary(test_set),
        "sources": [
            (criterion, criterion_sources(criterion))
            for criterion in test_set.criteria.order_by("name")
        ],
    }
    return render(request, "judgments/overview.html", context)


@login_required
@require_POST
def judgments_sources(request, pk: int, criterion_id: int):
    """Use the ticked sources (imports, campaigns) for one criterion."""
    test_set = access.get_test_set(request.user, pk)
    criterion = get_object_or_404(Criterion, pk=criterion_id, test_set=test_set)
    chosen = {int(v) for v in request.POST.getlist("source") if v.isdigit()}
    try:
        choose_sources(criterion, chosen)
    except ValueError:
        return HttpResponse("unknown source", status=400)
    request_comparison(test_set.pk)  # leaderboard human columns, correlations
    return redirect(reverse("judgments_overview", args=[pk]) + "#sources")


@login_required
@require_GET
def systems_csv(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    return _csv_response(
        f"judgments-systems-{test_set.pk}.csv",
        systems_csv_text(all_aggregates(test_set)),
    )


@login_required
@require_GET
def segments_csv(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    return _csv_response(
        f"judgments-segments-{test_set.pk}.csv",
        segments_csv_text(all_aggregates(test_set)),
    )


@login_required
@require_GET
def disagreements(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    metrics = explorer.metric_choices(test_set)
    criteria = list(test_set.criteria.order_by("name"))
    context = {
        "test_set": test_set,
        "metrics": metrics,
        "criteria": criteria,
        "problem": None,
        "result": None,
    }
    try:
        metric = explorer.choose(metrics, request.GET.get("metric"), "metric")
        criterion = explorer.choose(criteria, request.GET.get("criterion"), "criterion")
    except explorer.NoSuchChoice as problem:
        context["problem"] = str(problem)
        status = (
            400 if request.GET.get("metric") or request.GET.get("criterion") else 200
        )
        return render(request, "judgments/disagreements.html", context, status=status)
    context["result"] = explorer.disagreement_page(
        test_set, metric, criterion, _page(request)
    )
    return render(request, "judgments/disagreements.html", context)


def _page(request) -> int:
    try:
        return int(request.GET.get("page", 1))
    except ValueError:
        return 1


def _csv_response(file_name: str, text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response
