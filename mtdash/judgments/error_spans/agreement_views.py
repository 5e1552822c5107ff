"""The span-level meta-evaluation's pages: queueing it from the
metric-evaluation page, the job's status JSON (polled while it runs), and
the exports of the newest stored result. The page's section itself is
:mod:`.agreement_section`, rendered by the metric-evaluation view."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from mtdash.common.responses import download_response, job_status_response
from mtdash.evaluation import access
from mtdash.judgments.error_spans.agreement_exports import FORMATS
from mtdash.judgments.error_spans.agreement_forms import SpanAgreementForm
from mtdash.judgments.error_spans.agreement_jobs import (
    request_span_evaluation,
    span_evaluations_of,
)
from mtdash.judgments.error_spans.agreement_options import (
    AVERAGE_PARAMETER,
    VARIANT_PARAMETER,
    chosen_view,
)
from mtdash.judgments.meta_evaluation.jobs import RequestProblem
from mtdash.judgments.models import ErrorSpanEvaluation


def _queued_message(job: ErrorSpanEvaluation, created: bool) -> str:
    if created:
        return "Queued the span-level meta-evaluation of the metrics' error spans."
    if job.status == ErrorSpanEvaluation.Status.SUCCEEDED:
        return (
            "This span-level meta-evaluation is stored already (the same settings "
            "on unchanged spans)."
        )
    return "This span-level meta-evaluation is already waiting for a worker."


@login_required
@require_POST
def span_agreement_run(request, pk: int):
    """Queue the test set's span-level meta-evaluation (the section's form),
    then back to the section with the variant and averaging shown."""
    test_set = access.get_test_set(request.user, pk)
    form = SpanAgreementForm(request.POST, test_set=test_set)
    if form.is_valid():
        try:
            job, created = request_span_evaluation(
                test_set, form.settings(), request.user
            )
        except RequestProblem as problem:
            messages.error(request, f"Could not queue it: {problem.message}.")
        else:
            messages.success(request, _queued_message(job, created))
    else:
        problems = [
            f"{name}: {message}" if name != "__all__" else message
            for name, errors in form.errors.items()
            for message in errors
        ]
        messages.error(request, "Could not queue it: " + "; ".join(problems))
    variant, average = chosen_view(
        request.POST.get(VARIANT_PARAMETER), request.POST.get(AVERAGE_PARAMETER)
    )
    query = urlencode({VARIANT_PARAMETER: variant, AVERAGE_PARAMETER: average})
    url = reverse("test_set_correlations", args=[test_set.pk])
    return redirect(f"{url}?{query}#error-spans")


@login_required
@require_GET
def span_evaluation_status(request, pk: int):
    """Polled by the page while the job waits or runs."""
    job = get_object_or_404(span_evaluations_of(request.user), pk=pk)
    return job_status_response(job)


@login_required
@require_GET
def span_agreement_export(request, pk: int, fmt: str):
    """The newest stored result of the test set (``?span_variant=`` and
    ``?span_average=`` choose the LaTeX table; the CSV has them all)."""
    render_export = FORMATS.get(fmt)
    if render_export is None:  # the URL admits only known formats; a backstop
        raise Http404(f"no error-span export in {fmt!r}")
    test_set = access.get_test_set(request.user, pk)
    job = (
        ErrorSpanEvaluation.objects.filter(
            test_set=test_set, status=ErrorSpanEvaluation.Status.SUCCEEDED
        )
        .select_related("test_set")
        .first()
    )
    if job is None:
        raise Http404("no span-level meta-evaluation is stored for this test set")
    variant, average = chosen_view(
        request.GET.get(VARIANT_PARAMETER), request.GET.get(AVERAGE_PARAMETER)
    )
    body = render_export(job, variant, average)
    suffix = "" if fmt == "csv" else f"-{variant}-{average}"
    return download_response(body, f"error-spans-{test_set.pk}{suffix}.{fmt}")
