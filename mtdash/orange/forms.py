"""Forms: an n-best upload (checked completely before anything is stored) and
the metrics and options of an ORANGE job."""

from __future__ import annotations

from django import forms
from django.conf import settings

from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.metric_choices import metric_choices, parse_metric_specs
from mtdash.evaluation.services.textfiles import UploadProblem
from mtdash.orange.models import NBestList
from mtdash.orange.services.nbest_uploads import parse_nbest_upload, references_problem
from mtdash.orange.services.orange_jobs import check_orange_metrics
from scoring import MetricError
from scoring.orange_run import OrangeOptions


class NBestUploadForm(forms.Form):
    nbest_file = forms.FileField(
        label="n-best file",
        help_text="Moses format, one candidate a line: "
        "id ||| hypothesis ||| features ||| score. "
        "The id is the segment's line number counted from 0; any number of candidates "
        "per sentence, in the system's order. UTF-8.",
    )
    name = forms.CharField(
        max_length=200,
        required=False,
        help_text="e.g. the system and N; default: the file name.",
    )
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False
    )

    def __init__(self, *args, test_set: TestSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def clean(self):
        cleaned = super().clean()
        problem = references_problem(self.test_set)
        if problem:
            raise forms.ValidationError(problem)
        if self.errors:
            return cleaned
        uploaded = cleaned["nbest_file"]
        name = (cleaned.get("name") or "").strip() or uploaded.name[:200]
        cleaned["name"] = name
        if NBestList.objects.filter(test_set=self.test_set, name=name).exists():
            self.add_error(
                "name", f"This test set already has an n-best list named “{name}”."
            )
            return cleaned
        limit = settings.MTDASH_MAX_UPLOAD_BYTES
        try:
            if uploaded.size > limit:
                raise UploadProblem(
                    uploaded.name,
                    None,
                    f"the file is {uploaded.size:,} bytes; the limit is {limit:,}",
                )
            n_segments = self.test_set.segments.count()
            self.parsed = parse_nbest_upload(uploaded.read(), uploaded.name, n_segments)
        except UploadProblem as problem:
            self.add_error(None, str(problem))
        return cleaned


class OrangeJobForm(forms.Form):
    """Metrics (registry specs, checked like every other upload's) and options."""

    metrics = forms.MultipleChoiceField(
        choices=(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        initial=["bleu"],
    )
    more_metrics = forms.CharField(
        required=False,
        label="Metrics with parameters",
        help_text="e.g. bleu:n=6 rouge-w:w=1.2 rouge-s:d=4 (separated by spaces).",
    )
    all_references = forms.BooleanField(
        required=False,
        label="Score candidates against all references",
        help_text="Off: the jackknife of the paper (candidates and references are both "
        "scored against K − 1 references).",
    )
    curve_step = forms.IntegerField(
        min_value=1, max_value=1_000_000, initial=64,
        help_text="n-best sizes of the cutoff curve: 1, step, 2·step, …, N.",
    )  # fmt: skip
    n_bootstrap = forms.IntegerField(
        min_value=0, max_value=10_000, initial=1000, label="Bootstrap samples",
        help_text="For the 95% confidence intervals over sentences; 0 for none.",
    )  # fmt: skip
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["metrics"].choices = metric_choices()

    def clean(self):
        cleaned = super().clean()
        specs = list(cleaned.get("metrics") or [])
        specs += parse_metric_specs(cleaned.get("more_metrics", ""))
        try:
            cleaned["metric_specs"] = check_orange_metrics(specs)
        except MetricError as error:
            self.add_error("more_metrics" if specs else "metrics", str(error))
        return cleaned

    @property
    def options(self) -> OrangeOptions:
        data = self.cleaned_data
        return OrangeOptions(
            all_references=data["all_references"],
            curve_step=data["curve_step"],
            n_bootstrap=data["n_bootstrap"],
            seed=data["seed"],
        )
