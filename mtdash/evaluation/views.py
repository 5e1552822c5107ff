"""The app's core pages: the home page, uploading a test set and a system
output, rescoring, and the scoring jobs. Views fetch what the user may see,
call a service and render; nothing heavy. The leaderboard, compare, system,
reference, readability and manage pages live in their feature's folder."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mtdash.common.forms import bound_data
from mtdash.common.languages import language_label
from mtdash.common.responses import job_status_response
from mtdash.evaluation import access
from mtdash.evaluation.forms import (
    MetricSelectionForm,
    SystemOutputUploadForm,
    TestSetUploadForm,
)
from mtdash.evaluation.leaderboard.build import metric_decimals
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.scoring_jobs import rescore_test_set, retry_scoring_job
from scoring.language_defaults import tokenizer_for


@login_required
@require_GET
def home(request):
    test_sets = access.test_sets_of(request.user)
    jobs = ScoringJob.objects.filter(output__test_set__in=test_sets).select_related(
        "output__system", "output__test_set"
    )[:10]
    context = {
        "test_sets": test_sets.filter(hidden=False),
        "hidden_test_sets": test_sets.filter(hidden=True),
        "jobs": jobs,
    }
    return render(request, "evaluation/home.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def test_set_new(request):
    teams = access.teams_of(request.user)
    form = TestSetUploadForm(*bound_data(request), teams=teams)
    if request.method == "POST" and form.is_valid():
        test_set = form.save(request.user)
        if test_set is not None:
            _report_upload(request, form, form.detected)
            return redirect(test_set)
    context = {
        "form": form,
        "teams": teams,
        "max_references": settings.MTDASH_MAX_REFERENCES,
    }
    return render(request, "evaluation/test_set_new.html", context)


def _report_upload(request, form, detected=()) -> None:
    """What was read from structured files, and the upload's warnings."""
    for sentence in detected:
        messages.info(request, f"Read {sentence}.")
    for warning in form.warnings:
        messages.warning(request, warning)


@login_required
@require_http_methods(["GET", "POST"])
def output_new(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    form = SystemOutputUploadForm(*bound_data(request), test_set=test_set)
    if request.method == "POST" and form.is_valid():
        jobs = form.save(request.user)
        if jobs is not None:
            _report_upload(request, form)
            if len(jobs) == 1:
                return redirect(jobs[0])
            messages.success(request, f"Queued {len(jobs)} scoring jobs.")
            return redirect(test_set)
    context = {
        "form": form,
        "test_set": test_set,
        "n_segments": test_set.segments.count(),
        "target_language": language_label(test_set.target_language),
        "tokenizer": tokenizer_for(test_set.target_language),
    }
    return render(request, "evaluation/output_new.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def test_set_rescore(request, pk: int):
    """Score every output of the test set with more metrics (one job each)."""
    test_set = access.get_test_set(request.user, pk)
    form = MetricSelectionForm(*bound_data(request), test_set=test_set)
    if request.method == "POST" and form.is_valid():
        jobs = rescore_test_set(
            test_set, request.user, form.cleaned_data["metric_specs"]
        )
        messages.success(request, f"Queued {len(jobs)} scoring jobs.")
        return redirect(test_set)
    return render(
        request,
        "evaluation/test_set_rescore.html",
        {"form": form, "test_set": test_set},
    )


@login_required
@require_GET
def job_detail(request, pk: int):
    job = access.get_job(request.user, pk)
    scores = []
    if job.status == ScoringJob.Status.SUCCEEDED:
        scores = [
            (score, metric_decimals(score.metric))
            for score in job.output.corpus_scores.filter(metric__in=job.metrics)
        ]
    return render(request, "evaluation/job_detail.html", {"job": job, "scores": scores})


@login_required
@require_GET
def job_status(request, pk: int):
    """Polled by the job page while the job runs."""
    return job_status_response(access.get_job(request.user, pk))


@login_required
@require_POST
def job_retry(request, pk: int):
    """Queue a failed job, or one whose worker stopped, again."""
    job = access.get_job(request.user, pk)
    if retry_scoring_job(job):
        messages.success(request, "Queued the job again.")
    else:
        messages.error(
            request, "Only a failed job, or one whose worker stopped, can run again."
        )
    return redirect(job)
