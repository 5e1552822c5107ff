"""Meta-evaluation pages: queueing one for a test set (from its
metric-evaluation page), the team's meta-evaluations across test sets and
the form that queues one, a job's page (progress, then the overall and
per-test-set tables), its status JSON, running it again, its exports, and
one metric's drill-down on one of its test sets.

The computing is a worker's (:mod:`~mtdash.judgments.meta_evaluation.jobs`);
pages only read what it stored."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from mtdash.common.forms import bound_data
from mtdash.common.responses import download_response, job_status_response
from mtdash.evaluation import access
from mtdash.evaluation.models import TestSet
from mtdash.judgments.meta_evaluation.drill_down import NotInResult, drill_down_page
from mtdash.judgments.meta_evaluation.drill_down_figure import pairs_figure
from mtdash.judgments.meta_evaluation.exports import FORMATS
from mtdash.judgments.meta_evaluation.forms import AcrossForm, OneTestSetForm
from mtdash.judgments.meta_evaluation.jobs import (
    meta_evaluations_of,
    request_meta_evaluation,
    retry_meta_evaluation,
)
from mtdash.judgments.meta_evaluation.options import describe
from mtdash.judgments.meta_evaluation.page import job_tables
from mtdash.judgments.models import MetaEvaluation


def _queued_message(job: MetaEvaluation, created: bool) -> str:
    if created:
        return f"Queued the WMT meta-evaluation of {job.criterion}."
    if job.status == MetaEvaluation.Status.SUCCEEDED:
        return (
            "This meta-evaluation is stored already (the same settings on "
            "unchanged scores and judgments)."
        )
    return "This meta-evaluation is already waiting for a worker."


@login_required
@require_POST
def test_set_meta_evaluation(request, pk: int):
    """Queue the meta-evaluation of one test set (the settings form of its
    metric-evaluation page), then back to that page."""
    test_set = access.get_test_set(request.user, pk)
    form = OneTestSetForm(request.POST, test_set=test_set, user=request.user)
    criterion = request.POST.get("criterion", "")
    if form.is_valid():
        job, created = request_meta_evaluation(form.request(), request.user)
        messages.success(request, _queued_message(job, created))
        criterion = job.criterion
    else:
        problems = [
            f"{name.replace('_', ' ')}: {message}" if name != "__all__" else message
            for name, errors in form.errors.items()
            for message in errors
        ]
        messages.error(
            request, "Could not queue the meta-evaluation: " + "; ".join(problems)
        )
    url = reverse("test_set_correlations", args=[test_set.pk])
    query = f"?{urlencode({'criterion': criterion})}" if criterion else ""
    return redirect(f"{url}{query}#meta-evaluation")


@login_required
@require_http_methods(["GET", "POST"])
def meta_evaluation_list(request):
    """The team's meta-evaluations and the form to queue one across test sets."""
    form = AcrossForm(*bound_data(request), user=request.user)
    if request.method == "POST" and form.is_valid():
        job, created = request_meta_evaluation(form.request(), request.user)
        messages.success(request, _queued_message(job, created))
        return redirect(job)
    jobs = list(meta_evaluations_of(request.user).select_related("created_by")[:50])
    ids = {pk for job in jobs for pk in job.test_set_ids}
    names = dict(TestSet.objects.filter(pk__in=ids).values_list("pk", "name"))
    context = {
        "form": form,
        "jobs": [
            (job, [names.get(pk, "?") for pk in job.test_set_ids]) for job in jobs
        ],
    }
    status = 400 if request.method == "POST" else 200
    return render(
        request, "judgments/meta_evaluation_list.html", context, status=status
    )


@login_required
@require_GET
def meta_evaluation_detail(request, pk: int):
    job = get_object_or_404(meta_evaluations_of(request.user), pk=pk)
    test_sets = TestSet.objects.in_bulk(job.test_set_ids)
    context = {
        "job": job,
        "tables": job_tables(job),
        "settings_text": describe(job.protocol_settings),
        "test_sets": [test_sets[pk] for pk in job.test_set_ids if pk in test_sets],
    }
    return render(request, "judgments/meta_evaluation_detail.html", context)


@login_required
@require_GET
def meta_evaluation_status(request, pk: int):
    """Polled by the pages while the job runs."""
    job = get_object_or_404(meta_evaluations_of(request.user), pk=pk)
    return job_status_response(job)


@login_required
@require_POST
def meta_evaluation_retry(request, pk: int):
    """Queue a failed meta-evaluation again (a new job, same request)."""
    job = get_object_or_404(meta_evaluations_of(request.user), pk=pk)
    again = retry_meta_evaluation(job, request.user)
    if again is None:
        messages.error(request, "Only a failed meta-evaluation can run again.")
        return redirect(job)
    if again == job:  # stuck: its worker stopped renewing the lease
        messages.info(request, "Its worker stopped; the sweeper queues it again.")
    else:
        messages.success(request, "Queued the meta-evaluation again.")
    return redirect(again)


@login_required
@require_GET
def meta_evaluation_export(request, pk: int, fmt: str):
    render_export = FORMATS.get(fmt)
    if render_export is None:  # the URL admits only known formats; a backstop
        raise Http404(f"no meta-evaluation export in {fmt!r}")
    job = get_object_or_404(meta_evaluations_of(request.user), pk=pk)
    tables = job_tables(job)
    if tables is None:
        message = (
            f"The meta-evaluation failed: {job.error_message}"
            if job.status == MetaEvaluation.Status.FAILED
            else "The meta-evaluation is being computed by a worker; try again soon."
        )
        status = 409 if job.status == MetaEvaluation.Status.FAILED else 202
        return HttpResponse(message, status=status, content_type="text/plain")
    return download_response(render_export(tables), f"meta-evaluation-{job.pk}.{fmt}")


@login_required
@require_GET
def meta_evaluation_metric(request, pk: int, test_set_id: int, metric: str):
    """One metric's system pairs and the segments that decide its acc_eq;
    the job's progress (or failure) until it has a result."""
    job = get_object_or_404(meta_evaluations_of(request.user), pk=pk)
    context = {"job": job, "metric": metric}
    if job.status == MetaEvaluation.Status.SUCCEEDED:
        try:
            page = drill_down_page(job, test_set_id, metric, request.GET.get("page"))
        except NotInResult as missing:
            raise Http404(str(missing)) from None
        figure = pairs_figure(page.pairs, metric, job.criterion, page.standardised)
        context.update(page=page, figure=figure)
    return render(request, "judgments/meta_evaluation_metric.html", context)
