"""The form that draws a review sample of one metric of a job."""

from __future__ import annotations

from django import forms

from mtdash.orange.labels import metric_label
from mtdash.orange.models import OrangeJob
from mtdash.orange.reviews.reviewing import MAX_SAMPLE


class ReviewSampleForm(forms.Form):
    metric = forms.ChoiceField(
        help_text="whose candidates ranked above the references are sampled"
    )
    size = forms.IntegerField(
        min_value=1, max_value=MAX_SAMPLE, initial=50, label="Sample size",
        help_text="items; all candidates above if there are fewer",
    )  # fmt: skip
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1)

    def __init__(self, *args, job: OrangeJob, **kwargs):
        super().__init__(*args, **kwargs)
        scores = job.scores.only("metric", "n_candidates_above").order_by("position")
        self.fields["metric"].choices = [
            (s.metric, f"{metric_label(s.metric)} ({s.n_candidates_above} above)")
            for s in scores
        ]
