"""Views: fetch what the user may see, call a service, render. Nothing heavy."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from mtdash.evaluation import access, exports
from mtdash.evaluation.figures import leaderboard_figure
from mtdash.evaluation.forms import (
    MetricSelectionForm,
    SystemOutputUploadForm,
    TestSetUploadForm,
)
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.leaderboard import build_leaderboard
from mtdash.evaluation.services.scoring_jobs import rescore_test_set
from mtdash.evaluation.services.uploads import create_system_output, create_test_set


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
    return render(request, "evaluation/home.html", {"test_sets": test_sets, "jobs": jobs})


@login_required
@require_http_methods(["GET", "POST"])
def test_set_new(request):
    teams = access.teams_of(request.user)
    form = TestSetUploadForm(*_bound(request), teams=teams)
    if request.method == "POST" and form.is_valid():
        test_set = create_test_set(form.cleaned_data["team"], request.user, form.test_set_data)
        return redirect(test_set)
    return render(request, "evaluation/test_set_new.html", {"form": form, "teams": teams})


@login_required
@require_GET
def test_set_detail(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    leaderboard = build_leaderboard(test_set, rank_by=request.GET.get("metric"))
    context = {
        "test_set": test_set,
        "leaderboard": leaderboard,
        "figure": leaderboard_figure(leaderboard),
        "rescore_form": MetricSelectionForm(test_set=test_set),
        "n_segments": test_set.segments.count(),
        "reference_labels": list(test_set.reference_sets.values_list("label", flat=True)),
    }
    return render(request, "evaluation/test_set_detail.html", context)


@login_required
@require_GET
def test_set_export(request, pk: int, fmt: str):
    test_set = access.get_test_set(request.user, pk)
    leaderboard = build_leaderboard(test_set, rank_by=request.GET.get("metric"))
    if fmt == "csv":
        body, content_type = exports.leaderboard_csv(leaderboard), "text/csv"
    else:
        body, content_type = exports.leaderboard_latex(leaderboard), "application/x-latex"
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    filename = f"leaderboard-{test_set.pk}.{'csv' if fmt == 'csv' else 'tex'}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def output_new(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    form = SystemOutputUploadForm(*_bound(request), test_set=test_set)
    if request.method == "POST" and form.is_valid():
        job = create_system_output(
            test_set,
            request.user,
            form.cleaned_data["system_name"],
            form.hypotheses,
            system_description=form.cleaned_data.get("system_description", ""),
            metrics=form.cleaned_data["metric_specs"],
        )
        return redirect(job)
    return render(request, "evaluation/output_new.html", {"form": form, "test_set": test_set})


@login_required
@require_http_methods(["GET", "POST"])
def test_set_rescore(request, pk: int):
    """Score every output of the test set with more metrics (one job each)."""
    test_set = access.get_test_set(request.user, pk)
    form = MetricSelectionForm(*_bound(request), test_set=test_set)
    if request.method == "POST" and form.is_valid():
        jobs = rescore_test_set(test_set, request.user, form.cleaned_data["metric_specs"])
        messages.success(request, f"Queued {len(jobs)} scoring jobs.")
        return redirect(test_set)
    return render(request, "evaluation/test_set_rescore.html", {"form": form, "test_set": test_set})


@login_required
@require_GET
def job_detail(request, pk: int):
    job = access.get_job(request.user, pk)
    scores = []
    if job.status == ScoringJob.Status.SUCCEEDED:
        scores = job.output.corpus_scores.filter(metric__in=job.metrics)
    return render(request, "evaluation/job_detail.html", {"job": job, "scores": scores})


@login_required
@require_GET
def job_status(request, pk: int):
    """Polled by the job page while the job runs."""
    job = access.get_job(request.user, pk)
    return JsonResponse(
        {
            "status": job.status,
            "progress": job.progress,
            "error_message": job.error_message,
            "finished": job.is_finished,
        }
    )
