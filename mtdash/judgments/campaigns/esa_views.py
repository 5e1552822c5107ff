"""The ESA judging page: one screen, its document context, the answer.

The page's script (``static/js/campaign_esa.js``) reads the texts from
``json_script`` elements, so offsets are counted on exactly the stored
strings, and sends the spans as JSON in the form's ``spans`` field.
"""

from __future__ import annotations

from django.shortcuts import redirect, render

from mtdash.evaluation.models import Hypothesis, Segment
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.esa import (
    CATEGORIES,
    RatingRefused,
    record_esa,
    shown_texts,
)
from mtdash.judgments.models import Assignment, Campaign

# The ESA paper's descriptions of the score scale (Kocmi et al. 2024, fig. 1).
SCORE_MARKS = (
    (0, "no meaning preserved"),
    (33, "some meaning preserved"),
    (66, "most meaning preserved, few grammar mistakes"),
    (100, "perfect meaning and grammar"),
)


def esa_judge(request, campaign: Campaign):
    problem = None
    if request.method == "POST":
        try:
            assignment_id = int(request.POST.get("assignment", ""))
        except ValueError:
            assignment_id = 0
        try:
            record_esa(
                campaign,
                request.user,
                assignment_id,
                request.POST.get("score"),
                request.POST.get("spans"),
            )
            return redirect("campaign_judge", pk=campaign.pk)
        except RatingRefused as refused:
            problem = str(refused)
    assignment = service.next_assignment(campaign, request.user)
    context = {
        "campaign": campaign,
        "progress": service.judge_progress(campaign, request.user),
        "assignment": assignment,
        "problem": problem,
        "categories": CATEGORIES,
        "score_marks": SCORE_MARKS,
    }
    if assignment is not None:
        texts = shown_texts(assignment)
        context.update(
            {
                "source": texts["source"],
                "translation": texts["target"],
                "texts": texts,
                "context": document_context(campaign, assignment),
            }
        )
    return render(
        request,
        "judgments/campaign_esa.html",
        context,
        status=400 if problem else 200,
    )


def document_context(campaign: Campaign, assignment: Assignment) -> dict:
    """The previous and next segments of the item's document (source and
    this output's translation), when the test set has document ids."""
    index = assignment.item.index
    segments = {
        i: (source, document)
        for i, source, document in Segment.objects.filter(
            test_set_id=campaign.test_set_id, index__in=[index - 1, index, index + 1]
        ).values_list("index", "source", "document_id")
    }
    document = segments.get(index, ("", ""))[1]
    if not document:
        return {}
    near = [
        i for i in (index - 1, index + 1) if segments.get(i, ("", ""))[1] == document
    ]
    translations = dict(
        Hypothesis.objects.filter(
            output_id=assignment.item.output_id, index__in=near
        ).values_list("index", "text")
    )
    found = {
        ("previous" if i < index else "next"): {
            "source": segments[i][0],
            "translation": translations.get(i, ""),
        }
        for i in near
    }
    return {"document": document, **found}
