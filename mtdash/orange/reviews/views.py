"""Review views: draw a sample, mark its items one at a time, read the report."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mtdash.common.responses import download_response
from mtdash.orange import access
from mtdash.orange.models import OrangeReview, OrangeReviewMark
from mtdash.orange.reviews.exports import review_csv, review_latex
from mtdash.orange.reviews.forms import ReviewSampleForm
from mtdash.orange.reviews.report import review_report
from mtdash.orange.reviews.reviewing import (
    ReviewError,
    create_review,
    item_view,
    mark_item,
    next_item,
    progress_of,
)


def get_review(user, pk: int) -> OrangeReview:
    """The review if its job's test set belongs to one of the user's teams, else 404."""
    reviews = OrangeReview.objects.filter(
        job__nbest__test_set__team__members=user
    ).select_related("job__nbest__test_set")
    return get_object_or_404(reviews, pk=pk)


@login_required
@require_POST
def orange_review_new(request, pk: int):
    job = access.get_job(request.user, pk)
    form = ReviewSampleForm(request.POST, job=job)
    if not form.is_valid():
        messages.error(request, "Choose a metric, a sample size and a seed.")
        return redirect(f"{job.get_absolute_url()}#reviews")
    data = form.cleaned_data
    try:
        review = create_review(
            job, data["metric"], data["size"], data["seed"], request.user
        )
    except ReviewError as refusal:
        messages.error(request, str(refusal))
        return redirect(f"{job.get_absolute_url()}#reviews")
    return redirect(review)


@login_required
@require_http_methods(["GET", "POST"])
def orange_review(request, pk: int):
    """GET: the next item this reviewer has not marked (or ``?item=<n>``);
    POST: a verdict on an item, then the next one."""
    review = get_review(request.user, pk)
    if request.method == "POST":
        item = get_object_or_404(review.items, pk=request.POST.get("item"))
        verdict = request.POST.get("verdict", "")
        if verdict not in OrangeReviewMark.Verdict.values:
            messages.error(request, "Mark the item good, worse or unsure.")
            return redirect(f"{review.get_absolute_url()}?item={item.position + 1}")
        mark_item(item, request.user, verdict)
        return redirect(review)
    wanted = request.GET.get("item")
    if wanted and wanted.isdigit():
        item = get_object_or_404(review.items, position=int(wanted) - 1)
    else:
        item = next_item(review, request.user)
    context = {
        "review": review,
        "job": review.job,
        "progress": progress_of(review, request.user),
        "view": item_view(item, request.user) if item else None,
        "verdicts": OrangeReviewMark.Verdict.choices,
        "report_url": reverse("orange_review_report", args=[review.pk]),
    }
    return render(request, "orange/review.html", context)


@login_required
@require_GET
def orange_review_report(request, pk: int):
    review = get_review(request.user, pk)
    context = {
        "review": review,
        "job": review.job,
        "report": review_report(review),
        "progress": progress_of(review, request.user),
    }
    return render(request, "orange/review_report.html", context)


@login_required
@require_GET
def orange_review_export(request, pk: int, fmt: str):
    review = get_review(request.user, pk)
    if fmt not in ("csv", "tex"):
        raise Http404("no such export")
    write = review_csv if fmt == "csv" else review_latex
    return download_response(
        write(review_report(review)), f"orange-review-{review.pk}.{fmt}"
    )
