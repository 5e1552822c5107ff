"""Views: fetch what the user may see, call a service, render. Nothing heavy."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_http_methods

from mtdash.common.languages import language_label
from mtdash.common.responses import download_response, job_status_response
from mtdash.evaluation import access
from mtdash.evaluation.forms import (
    MetricSelectionForm,
    SystemOutputUploadForm,
    TestSetUploadForm,
)
from mtdash.evaluation.leaderboard import exports
from mtdash.evaluation.leaderboard.build import build_leaderboard, metric_decimals
from mtdash.evaluation.leaderboard.page import (
    CORRECTION_CHOICES,
    leaderboard_fragment,
)
from mtdash.evaluation.leaderboard.pvalues import compared_columns, pvalue_matrix
from mtdash.evaluation.leaderboard.refresh import leaderboard_state
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.scoring_jobs import rescore_test_set
from scoring.language_defaults import tokenizer_for


def _bound(request) -> tuple:
    """Form data and files for a POST (even an empty one), else nothing."""
    return (request.POST, request.FILES) if request.method == "POST" else (None, None)


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
    form = TestSetUploadForm(*_bound(request), teams=teams)
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
@require_GET
def test_set_detail(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    fragment = leaderboard_fragment(
        test_set,
        request.GET.get("metric"),
        request.GET.get("test"),
        request.GET.get("correction"),
    )
    context = {
        "test_set": test_set,
        "leaderboard_html": mark_safe(fragment.html),  # rendered with autoescape
        # Polled by leaderboard_refresh.js while workers will change the table.
        "leaderboard_state": leaderboard_state(
            test_set,
            request.GET.get("metric"),
            request.GET.get("test"),
            request.GET.get("correction"),
        ),
        "figure": fragment.has_figure,
        "rescore_form": MetricSelectionForm(test_set=test_set),
        "n_segments": test_set.segments.count(),
        "reference_labels": list(
            test_set.reference_sets.values_list("label", flat=True)
        ),
    }
    return render(request, "evaluation/test_set_detail.html", context)


@login_required
@require_GET
def test_set_pvalues(request, pk: int):
    """The p-value matrix of one metric (``?metric=``, ``?test=bootstrap|ar``,
    ``?correction=holm|bonferroni|none``)."""
    test_set = access.get_test_set(request.user, pk)
    matrix = pvalue_matrix(
        test_set,
        request.GET.get("metric"),
        request.GET.get("test"),
        request.GET.get("correction"),
    )
    context = {
        "test_set": test_set,
        "matrix": matrix,
        "columns": compared_columns(test_set),
        "corrections": CORRECTION_CHOICES,
    }
    return render(request, "evaluation/pvalues.html", context)


@login_required
@require_GET
def test_set_export(request, pk: int, fmt: str):
    """The leaderboard as a download, ranked like the page (``?metric=``)."""
    render_export = exports.FORMATS.get(fmt)
    if render_export is None:  # the URL admits only known formats; a backstop
        raise Http404(f"no leaderboard export in {fmt!r}")
    test_set = access.get_test_set(request.user, pk)
    leaderboard = build_leaderboard(
        test_set,
        rank_by=request.GET.get("metric"),
        test=request.GET.get("test"),
        correction=request.GET.get("correction"),
    )
    return download_response(
        render_export(leaderboard), f"leaderboard-{test_set.pk}.{fmt}"
    )


@login_required
@require_http_methods(["GET", "POST"])
def output_new(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    form = SystemOutputUploadForm(*_bound(request), test_set=test_set)
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
    form = MetricSelectionForm(*_bound(request), test_set=test_set)
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
