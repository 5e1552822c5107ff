"""Forms: an n-best upload (stored at once, checked completely by a worker)
and the metrics and options of an ORANGE job."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from mtdash.common.forms import MetricSpecsForm
from mtdash.common.metric_specs import check_metric_specs
from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.uploads import AlreadyExists
from mtdash.orange.jobs.lifecycle import check_orange_metrics
from mtdash.orange.models import NBestList, OrangeScore
from mtdash.orange.nbest.upload_handlers import as_received
from mtdash.orange.nbest.uploads import (
    check_nbest_size,
    receive_nbest_upload,
    references_problem,
)
from scoring.orange import OrangeOptions


def _nbest_help() -> str:
    limit = filesizeformat(settings.MTDASH_MAX_NBEST_BYTES)
    return (
        "Moses format, one candidate a line: "
        "id ||| hypothesis ||| features ||| score. "
        "The id is the segment's line number counted from 0; any number of "
        "candidates per sentence, in the system's order. UTF-8, plain or "
        f"gzip-compressed (.gz); up to {limit} uncompressed."
    )


class NBestUploadForm(forms.Form):
    nbest_file = forms.FileField(label="n-best file", allow_empty_file=True)
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
        # The limit is a setting: read when the form is made, not at import.
        self.fields["nbest_file"].help_text = _nbest_help()

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
        taken = NBestList.objects.filter(test_set=self.test_set, name=name)
        if taken.exclude(status=NBestList.Status.FAILED).exists():
            self._name_taken(name)
            return cleaned
        try:
            self.received = as_received(uploaded)
            check_nbest_size(self.received)
        except UploadProblem as problem:
            self.add_error(None, str(problem))
        return cleaned

    def _name_taken(self, name: str) -> None:
        self.add_error(
            "name", f"This test set already has an n-best list named “{name}”."
        )

    def save(self, user) -> NBestList | None:
        """Store the file and a list waiting for its check (queued once the
        request's transaction commits); None (and a form error) if an
        identical upload took the name since ``clean`` looked (its artifact
        is removed again)."""
        name = self.cleaned_data["name"]
        try:
            return receive_nbest_upload(
                self.test_set,
                user,
                name,
                self.received,
                description=self.cleaned_data["description"],
            )
        except AlreadyExists:
            self._name_taken(name)
            return None


class OrangeJobForm(MetricSpecsForm):
    """Metrics (registry specs, checked like every other upload's) and options
    of a job over an n-best list of ``test_set``."""

    metric_examples = "bleu:n=6 rouge-w:w=1.2 rouge-s:d=4"

    all_references = forms.BooleanField(
        required=False,
        label="Score candidates against all references",
        help_text="Off: the jackknife of the paper (candidates and references are both "
        "scored against K − 1 references).",
    )
    curve_step = forms.IntegerField(
        min_value=1, max_value=1_000_000, required=False,
        help_text="n-best sizes of the cutoff curve: 1, step, 2·step, …, N. "
        "Blank: adapted to N (about 64 points, every size up to N = 64).",
    )  # fmt: skip
    n_bootstrap = forms.IntegerField(
        min_value=0, max_value=10_000, initial=1000, label="Bootstrap samples",
        help_text="For the 95% confidence intervals over sentences; 0 for none.",
    )  # fmt: skip
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1)

    def __init__(self, *args, test_set: TestSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def check_metric_specs(self, specs: list[str]) -> list[str]:
        longest = OrangeScore._meta.get_field("metric").max_length
        check_metric_specs(specs, has_document_ids=True, max_length=longest)
        # WNM needs document ids: ORANGE's message says why and what to do.
        return check_orange_metrics(
            specs, has_document_ids=self.test_set.has_document_ids()
        )

    @property
    def options(self) -> OrangeOptions:
        data = self.cleaned_data
        return OrangeOptions(
            all_references=data["all_references"],
            curve_step=data["curve_step"] or 0,  # 0: adapted to N by the job
            n_bootstrap=data["n_bootstrap"],
            seed=data["seed"],
        )
