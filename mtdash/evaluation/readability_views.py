"""Readability pages: one test set's texts, and complexity-normalised scores
across test sets (Babych et al. 2005), with their exports."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mtdash.common.responses import download_response
from mtdash.evaluation import access
from mtdash.evaluation.readability_exports import STABILITY_FORMATS, TEST_SET_FORMATS
from mtdash.evaluation.readability_figures import readability_figure, stability_figure
from mtdash.evaluation.services.readability_page import test_set_readability
from mtdash.evaluation.services.readability_query import (
    StabilityQuery,
    chosen_test_sets,
    read_query,
)
from mtdash.evaluation.services.readability_stability import build_stability


@login_required
@require_GET
def readability_test_set(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    readability = test_set_readability(test_set)
    context = {
        "test_set": test_set,
        "readability": readability,
        "figure": readability_figure(readability),
    }
    return render(request, "evaluation/readability.html", context)


@login_required
@require_GET
def readability_test_set_export(request, pk: int, fmt: str):
    test_set = access.get_test_set(request.user, pk)
    readability = test_set_readability(test_set)
    export = TEST_SET_FORMATS[fmt]
    body = export(readability, test_set.name) if fmt == "tex" else export(readability)
    return download_response(body, f"readability-{test_set.pk}.{fmt}")


@login_required
@require_GET
def readability_across(request):
    error = ""
    try:
        query = read_query(request.GET)
    except ValueError as problem:
        query, error = StabilityQuery(), str(problem)
    chosen = chosen_test_sets(request.user, query)
    report = build_stability(
        chosen,
        reference_id=query.reference_id,
        measure_on=query.measure_on,
        specs=query.specs,
    )
    visible = access.test_sets_of(request.user).order_by("name", "pk")
    chosen_ids = {ts.pk for ts in chosen}
    context = {
        "query": query,
        "error": error,
        "report": report,
        "choices": [ts for ts in visible if not ts.hidden or ts.pk in chosen_ids],
        "chosen_ids": chosen_ids,
        "target_languages": sorted(
            set(visible.filter(hidden=False).values_list("target_language", flat=True))
        ),
        "figures": [
            (
                metric,
                stability_figure(report, metric),
                f"stability-{metric.metric}-figure",
            )
            for metric in report.metrics
        ],
        "export_query": _export_query(report, query),
    }
    status = 400 if error else 200
    return render(request, "evaluation/readability_across.html", context, status=status)


@login_required
@require_GET
def readability_across_export(request, fmt: str):
    try:
        query = read_query(request.GET)
    except ValueError as problem:
        return HttpResponseBadRequest(str(problem), content_type="text/plain")
    report = build_stability(
        chosen_test_sets(request.user, query),
        reference_id=query.reference_id,
        measure_on=query.measure_on,
        specs=query.specs,
    )
    if not report.ready:
        return HttpResponseBadRequest(
            " ".join(report.problems), content_type="text/plain"
        )
    name = "readability-" + ("stability.tex" if fmt == "tex" else fmt)
    return download_response(STABILITY_FORMATS[fmt](report), name)


def _export_query(report, query: StabilityQuery) -> str:
    """The query string that exports exactly what the page shows."""
    if not report.ready:
        return ""
    params = QueryDict(mutable=True)
    params["test_sets"] = ",".join(str(t.test_set.pk) for t in report.types)
    params["reference"] = str(report.reference.test_set.pk)
    params["measure_on"] = report.measure_on
    for metric in report.metrics:
        params[metric.metric] = metric.spec
    return params.urlencode()
