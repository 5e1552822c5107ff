"""Judging campaigns in the browser: list, create, follow, judge."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from mtdash.evaluation import access
from mtdash.evaluation.models import ReferenceSegment, Segment
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.campaigns.esa_agreement import VARIANT_LABELS, esa_agreement
from mtdash.judgments.campaigns.esa_quality import MIN_PASSED, attention_checks
from mtdash.judgments.campaigns.esa_views import esa_judge
from mtdash.judgments.campaigns.forms import CampaignForm, RatingForm
from mtdash.judgments.campaigns.quality_control import judge_quality
from mtdash.judgments.models import Campaign

# What a judge sees and how they answer, per criterion.
SCREENS = {
    "fluency": {
        "reference": False,
        "question": "How fluent is the translation? Judge it as text of its own language.",
        "labels": ["Incomprehensible", "Disfluent", "Non-native", "Good", "Flawless"],
    },
    "adequacy": {
        "reference": True,
        "question": "How much of the reference's meaning does the translation express?",
        "labels": ["None", "Little", "Much", "Most", "All"],
    },
    "da": {
        "reference": True,
        "question": "How adequately does the translation express the meaning of "
        "the reference? (0 = not at all, 100 = perfectly)",
        "labels": [],
    },
}


def _campaign(user, pk: int) -> Campaign:
    return get_object_or_404(service.campaigns_of(user), pk=pk)


@login_required
@require_GET
def campaign_list(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    campaigns = test_set.campaigns.order_by("-created_at")
    rows = [(c, service.progress(c)) for c in campaigns]
    context = {"test_set": test_set, "rows": rows}
    return render(request, "judgments/campaign_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    form = CampaignForm(request.POST or None, test_set=test_set)
    if request.method == "POST" and form.is_valid():
        campaign = service.create_campaign(test_set, request.user, form.settings())
        return redirect(campaign)
    context = {"test_set": test_set, "form": form}
    return render(request, "judgments/campaign_new.html", context)


@login_required
@require_GET
def campaign_detail(request, pk: int):
    campaign = _campaign(request.user, pk)
    quality = {q.judge: q for q in judge_quality(campaign)}
    judges = [(p, quality.get(p.judge)) for p in service.progress(campaign)]
    context = {
        "campaign": campaign,
        "test_set": campaign.test_set,
        "judges": judges,
        "mine": service.judge_progress(campaign, request.user),
        "criteria": campaign.criteria.order_by("name"),
        "systems": sorted(o.system.name for o in campaign.outputs.all()),
        "agreement": agreement_summary(campaign.test_set),
    }
    if campaign.is_esa:
        context["esa"] = {
            "attention": attention_checks(campaign),
            "min_passed": MIN_PASSED,
            "agreement": esa_agreement(campaign),
            "variants": VARIANT_LABELS,
        }
    return render(request, "judgments/campaign_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_judge(request, pk: int):
    campaign = _campaign(request.user, pk)
    if not service.is_judge(campaign, request.user):
        context = {"campaign": campaign}
        return render(request, "judgments/campaign_not_judge.html", context, status=403)
    if campaign.is_esa:
        return esa_judge(request, campaign)
    problem = None
    if request.method == "POST":
        form = RatingForm(request.POST)
        if form.is_valid():
            try:
                service.record_rating(
                    campaign,
                    request.user,
                    form.cleaned_data["assignment"],
                    form.cleaned_data["value"],
                )
                return redirect("campaign_judge", pk=campaign.pk)
            except service.RatingRefused as refused:
                problem = str(refused)
        else:
            problem = "choose a rating before submitting"
    assignment = service.next_assignment(campaign, request.user)
    context = {
        "campaign": campaign,
        "progress": service.judge_progress(campaign, request.user),
        "assignment": assignment,
        "problem": problem,
    }
    if assignment is not None:
        context.update(_screen(campaign, assignment))
    return render(
        request,
        "judgments/campaign_judge.html",
        context,
        status=400 if problem else 200,
    )


def _screen(campaign: Campaign, assignment) -> dict:
    criterion = assignment.criterion
    screen = SCREENS.get(criterion.name, SCREENS["adequacy"])
    index = assignment.item.index
    reference = None
    if screen["reference"]:
        reference = (
            ReferenceSegment.objects.filter(
                reference_set__test_set=campaign.test_set, index=index
            )
            .order_by("reference_set__label")
            .values_list("text", flat=True)
            .first()
        )
    low, high = int(criterion.minimum), int(criterion.maximum)
    points = []
    if high - low <= 10:
        labels = screen["labels"] or [""] * (high - low + 1)
        points = list(zip(range(low, high + 1), labels, strict=False))
    return {
        "criterion": criterion,
        "question": screen["question"],
        "source": get_object_or_404(
            Segment, test_set=campaign.test_set, index=index
        ).source,
        "translation": service.shown_text(assignment),
        "reference": reference,
        "points": points,
        "slider": None
        if points
        else {"low": low, "high": high, "middle": (low + high) // 2},
    }
