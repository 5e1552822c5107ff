"""The form that queues a test set's span-level meta-evaluation: bootstrap
resamples and seed (every variant and averaging is computed anyway)."""

from __future__ import annotations

from django import forms

from mtdash.evaluation.models import Segment, TestSet
from mtdash.judgments.error_spans.agreement_options import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MAX_SAMPLES,
    MAX_SEED,
    AgreementSettings,
    SettingsProblem,
    checked_settings,
)


def settings_for(test_set: TestSet, n_samples: int, seed: int) -> AgreementSettings:
    """:func:`checked_settings` with the test set's number of segments."""
    n_segments = Segment.objects.filter(test_set=test_set).count()
    return checked_settings(n_samples, seed, n_segments)


class SpanAgreementForm(forms.Form):
    bootstrap = forms.IntegerField(
        min_value=0,
        max_value=MAX_SAMPLES,
        initial=DEFAULT_SAMPLES,
        label="Bootstrap resamples",
        help_text="of segments, for the 95% intervals (0: none)",
    )
    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, initial=DEFAULT_SEED)

    def __init__(self, *args, test_set: TestSet, **kwargs):
        # Ids apart from the WMT section's form on the same page (its seed).
        kwargs.setdefault("auto_id", "span_%s")
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            cleaned["settings"] = settings_for(
                self.test_set, cleaned["bootstrap"], cleaned["seed"]
            )
        except SettingsProblem as problem:
            self.add_error(problem.field, problem.message)
        return cleaned

    def settings(self) -> AgreementSettings:
        return self.cleaned_data["settings"]
