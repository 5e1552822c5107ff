"""Views: fetch what the user may see, call a service, render. Nothing heavy."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mtdash.common.forms import bound_data
from mtdash.common.responses import download_response, job_status_response
from mtdash.evaluation import access as evaluation_access
from mtdash.orange import access
from mtdash.orange.forms import NBestUploadForm, OrangeJobForm
from mtdash.orange.jobs import exports
from mtdash.orange.jobs.figures import orange_curve_figure
from mtdash.orange.jobs.lifecycle import (
    NotRetryable,
    create_orange_job,
    retry_orange_job,
)
from mtdash.orange.jobs.metric_significance import best_metrics, equivalent_metrics
from mtdash.orange.jobs.results import (
    CANDIDATES_PER_SENTENCE,
    above_reference_page,
)
from mtdash.orange.models import OrangeJob
from mtdash.orange.nbest.upload_handlers import NBestUploadHandler
from mtdash.orange.nbest.uploads import references_problem
from mtdash.orange.reviews.forms import ReviewSampleForm
from scoring.orange import (
    ORANGE_INTERVAL,
    paired_test_line,
    single_candidate_warning,
    table_decimals,
)


@login_required
@require_GET
def orange_home(request):
    test_sets = evaluation_access.test_sets_of(request.user)
    jobs = access.jobs_of(request.user)[:20]
    return render(request, "orange/home.html", {"test_sets": test_sets, "jobs": jobs})


@login_required
@require_GET
def orange_test_set(request, pk: int):
    test_set = evaluation_access.get_test_set(request.user, pk)
    context = {
        "test_set": test_set,
        "problem": references_problem(test_set),
        "nbest_lists": test_set.nbest_lists.all(),
        "jobs": OrangeJob.objects.filter(nbest__test_set=test_set).select_related(
            "nbest"
        ),
    }
    return render(request, "orange/test_set.html", context)


@csrf_exempt  # checked by _nbest_new, once the upload handler is in place
def nbest_new(request, pk: int):
    """The n-best upload: the file goes to disk compressed as it arrives
    (``NBestUploadHandler``, which must be set before anything reads the
    form data, CSRF's check included)."""
    request.upload_handlers = [NBestUploadHandler(request)]
    return _nbest_new(request, pk)


@csrf_protect
@login_required
@require_http_methods(["GET", "POST"])
def _nbest_new(request, pk: int):
    test_set = evaluation_access.get_test_set(request.user, pk)
    form = NBestUploadForm(*bound_data(request), test_set=test_set)
    if request.method == "POST" and form.is_valid():
        nbest = form.save(request.user)
        if nbest is not None:
            return redirect(nbest)
    context = {
        "form": form,
        "test_set": test_set,
        "problem": references_problem(test_set),
    }
    return render(request, "orange/nbest_new.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def nbest_detail(request, pk: int):
    """The n-best list, its jobs, and the form that starts a new job."""
    nbest = access.get_nbest(request.user, pk)
    form = OrangeJobForm(
        request.POST if request.method == "POST" else None, test_set=nbest.test_set
    )
    problem = references_problem(nbest.test_set)
    ready = nbest.is_ready
    if request.method == "POST" and ready and not problem and form.is_valid():
        job = create_orange_job(
            nbest, request.user, form.cleaned_data["metric_specs"], form.options
        )
        return redirect(job)
    context = {
        "nbest": nbest,
        "form": form,
        "problem": problem,
        "warning": _nbest_warning(nbest),
        "jobs": nbest.orange_jobs.all(),
    }
    return render(request, "orange/nbest_detail.html", context)


@login_required
@require_GET
def nbest_status(request, pk: int):
    """Polled by the n-best list's page while its upload is checked."""
    return job_status_response(access.get_nbest(request.user, pk))


@login_required
@require_GET
def orange_job_detail(request, pk: int):
    job = access.get_job(request.user, pk)
    scores = (
        list(job.scores.defer("above_reference"))
        if job.status == job.Status.SUCCEEDED
        else []
    )
    best, equivalent = best_metrics(scores), equivalent_metrics(scores)
    above = None
    if scores:
        wanted = request.GET.get("metric")
        chosen = next((s for s in scores if s.metric == wanted), None)
        chosen = chosen or next(s for s in scores if s.metric in best)
        above = above_reference_page(
            job, job.scores.get(pk=chosen.pk), request.GET.get("page")
        )
    counts = job.chunk_counts
    context = {
        "job": job,
        "counts": counts,
        "running_chunks": job.running_chunks() if counts.running else [],
        "scores": scores,
        "best": best,
        "equivalent": equivalent,
        "tested": any(score.tested for score in scores),
        "figure": orange_curve_figure(scores, best, equivalent),
        "reviews": job.reviews.all() if scores else [],
        "review_form": ReviewSampleForm(job=job) if scores else None,
        "above": above,
        "per_sentence": CANDIDATES_PER_SENTENCE,
        "settings_line": exports.settings_line(job),
        "warning": _nbest_warning(job.nbest),
        "interval": ORANGE_INTERVAL,
        "paired_test": paired_test_line(),
        # Enough decimals that each rank interval differs from its rank.
        "rank_decimals": table_decimals(
            (s.avg_rank, s.ci_low, s.ci_high) for s in scores
        ),
    }
    return render(request, "orange/job_detail.html", context)


def _nbest_warning(nbest) -> str | None:
    """Why ORANGE on this list means nothing (one candidate per sentence)."""
    return single_candidate_warning(nbest.max_candidates) if nbest.is_ready else None


@login_required
@require_GET
def orange_job_status(request, pk: int):
    """Polled by the job page while the job runs."""
    return job_status_response(access.get_job(request.user, pk))


@login_required
@require_GET
def orange_job_export(request, pk: int, fmt: str):
    job = access.get_job(request.user, pk)
    if fmt not in ("csv", "tex") or job.status != job.Status.SUCCEEDED:
        raise Http404("no ORANGE results to export")
    scores = list(job.scores.defer("above_reference"))
    best, equivalent = best_metrics(scores), equivalent_metrics(scores)
    write = exports.orange_csv if fmt == "csv" else exports.orange_latex
    return download_response(
        write(job, scores, best, equivalent), f"orange-{job.pk}.{fmt}"
    )


@login_required
@require_POST
def orange_job_retry(request, pk: int):
    """Queue the unfinished chunks of a failed or stuck job again."""
    job = access.get_job(request.user, pk)
    try:
        chunk_ids = retry_orange_job(job)
    except NotRetryable as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _queued_message(len(chunk_ids)))
    return redirect(job)


def _queued_message(n_chunks: int) -> str:
    if n_chunks == 0:
        return "Every chunk is done: queued the merge again."
    return f"Queued {n_chunks} chunk{pluralize(n_chunks)} again."
