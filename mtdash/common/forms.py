"""What the forms share: the data a view binds a form to, and the metric
fields every job form has (ticked defaults plus typed specs)."""

from __future__ import annotations

from django import forms

from mtdash.common.metric_specs import metric_choices, parse_metric_specs
from scoring import MetricError


class MetricSpecsForm(forms.Form):
    """Base form: ``cleaned_data["metric_specs"]`` holds the checked specs.

    A subclass decides what a valid spec is for its job by overriding
    :meth:`check_metric_specs`, and may set ``default_metrics`` (what a
    submission that names no metric gets) and ``metric_examples``.
    """

    metrics = forms.MultipleChoiceField(
        choices=(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        initial=["bleu"],
    )
    more_metrics = forms.CharField(required=False, label="Metrics with parameters")

    default_metrics: tuple[str, ...] = ()
    metric_examples = "bleu:n=2 rouge-w:w=1.2 rouge-s:d=4"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Read at each form, not import: the registry is the one list of metrics.
        self.fields["metrics"].choices = metric_choices()
        self.fields[
            "more_metrics"
        ].help_text = f"e.g. {self.metric_examples} (separated by spaces)."

    def check_metric_specs(self, specs: list[str]) -> list[str]:
        """The specs to run, de-duplicated; raise ``MetricError`` for a bad one."""
        raise NotImplementedError

    def clean(self):
        cleaned = super().clean()
        specs = list(cleaned.get("metrics") or [])
        specs += parse_metric_specs(cleaned.get("more_metrics", ""))
        specs = specs or list(self.default_metrics)
        try:
            cleaned["metric_specs"] = self.check_metric_specs(specs)
        except MetricError as error:
            self.add_error("more_metrics" if specs else "metrics", str(error))
        return cleaned


def bound_data(request) -> tuple:
    """Form data and files for a POST (even an empty one), else nothing, so a
    GET shows an unbound form and an empty POST shows its errors."""
    return (request.POST, request.FILES) if request.method == "POST" else (None, None)
