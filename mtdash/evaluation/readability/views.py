"""Readability pages: one test set's texts, and complexity-normalised scores
across test sets (Babych et al. 2005), with their exports.

The counting is a worker's (:mod:`~mtdash.evaluation.readability.jobs`):
a page shows the stored counts, or the job counting them with its progress
(the page reloads itself when it finishes), or its failure with a button
to run it again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from mtdash.common.responses import download_response, job_status_response
from mtdash.evaluation import access
from mtdash.evaluation.models import ReadabilityJob
from mtdash.evaluation.readability.exports import STABILITY_FORMATS, TEST_SET_FORMATS
from mtdash.evaluation.readability.figures import readability_figure, stability_figure
from mtdash.evaluation.readability.jobs import (
    readability_state,
    retry_readability,
)
from mtdash.evaluation.readability.query import (
    StabilityQuery,
    chosen_test_sets,
    read_query,
)
from mtdash.evaluation.readability.stability import build_stability


@login_required
@require_GET
def readability_test_set(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    state = readability_state(test_set)
    readability = state.readability
    context = {
        "test_set": test_set,
        "state": state,
        "readability": readability,
        "figure": readability_figure(readability) if readability else None,
    }
    return render(request, "evaluation/readability.html", context)


@login_required
@require_GET
def readability_job_status(request, pk: int):
    """Polled by the page while its readability job runs."""
    test_set = access.get_test_set(request.user, pk)
    job = ReadabilityJob.objects.filter(test_set=test_set).first()
    if job is None:
        raise Http404("no readability job")
    return job_status_response(job)


@login_required
@require_POST
def readability_retry(request, pk: int):
    """Queue the counting again after a failure."""
    test_set = access.get_test_set(request.user, pk)
    if retry_readability(test_set):
        messages.success(request, "Queued the readability count again.")
    else:
        messages.error(request, "Only a failed count can run again.")
    return redirect("readability_test_set", pk=test_set.pk)


@login_required
@require_GET
def readability_test_set_export(request, pk: int, fmt: str):
    test_set = access.get_test_set(request.user, pk)
    state = readability_state(test_set)
    readability = state.readability
    if readability is None:
        return _not_ready(state)
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
    if report.pending:
        return HttpResponse(
            " ".join(report.problems), status=202, content_type="text/plain"
        )
    if not report.ready:
        return HttpResponseBadRequest(
            " ".join(report.problems), content_type="text/plain"
        )
    name = "readability-" + ("stability.tex" if fmt == "tex" else fmt)
    return download_response(STABILITY_FORMATS[fmt](report), name)


def _not_ready(state) -> HttpResponse:
    """202 while a worker counts (try again), 409 after it failed."""
    if state.state == "failed":
        message = f"Counting failed: {state.job.error_message}"
        return HttpResponse(message, status=409, content_type="text/plain")
    return HttpResponse(
        "The readability is being counted by a worker; try again in a moment.",
        status=202,
        content_type="text/plain",
    )


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
