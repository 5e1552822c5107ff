"""Reviews of the candidates a metric ranked above the references.

The ORANGE paper's caveat (Lin & Och 2004, end of section 4): a machine
translation ranked above the references may be as good as they are. A
review is a seeded sample of those candidates for one metric of one job;
each reviewer marks each item once ("as good as the reference", "worse",
"unsure"), and may stop and come back. Items are (sentence, candidate
index) pairs: the texts stay in the n-best artifact.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class OrangeReview(models.Model):
    """A seeded sample of one metric's candidates ranked above the references."""

    job = models.ForeignKey(
        "orange.OrangeJob", on_delete=models.CASCADE, related_name="reviews"
    )
    metric = models.CharField(max_length=200, help_text="metric spec of the job")
    size = models.PositiveIntegerField(help_text="items asked for")
    seed = models.PositiveIntegerField(default=1)
    population = models.PositiveBigIntegerField(
        help_text="candidates ranked above the references, sampled from"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "ORANGE review"

    def __str__(self) -> str:
        return f"review {self.pk} of {self.metric} (job {self.job_id})"

    def get_absolute_url(self) -> str:
        return reverse("orange_review", args=[self.pk])


class OrangeReviewItem(models.Model):
    """One sampled candidate: its sentence, its n-best index and its scores."""

    review = models.ForeignKey(
        OrangeReview, on_delete=models.CASCADE, related_name="items"
    )
    position = models.PositiveIntegerField(help_text="0-based order of review")
    sentence_id = models.PositiveIntegerField(help_text="segment index (Moses id)")
    candidate_index = models.PositiveIntegerField(help_text="0-based n-best index")
    candidate_score = models.FloatField()
    oracle_score = models.FloatField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["review", "position"], name="orange_review_item_position"
            )
        ]


class OrangeReviewMark(models.Model):
    """One reviewer's verdict on one item (changed by marking it again)."""

    class Verdict(models.TextChoices):
        GOOD = "good", "As good as the reference"
        WORSE = "worse", "Worse"
        UNSURE = "unsure", "Unsure"

    item = models.ForeignKey(
        OrangeReviewItem, on_delete=models.CASCADE, related_name="marks"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    verdict = models.CharField(max_length=8, choices=Verdict.choices)
    marked_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["item", "reviewer"], name="one_orange_mark_per_reviewer"
            )
        ]
