"""The browser's import forms: they check the fields and the file's size;
the services check the file and store it (or say why not)."""

from __future__ import annotations

from django import forms

from mtdash.common.upload_checks import UploadProblem, check_size
from mtdash.evaluation.models import TestSet
from mtdash.judgments.services.external_scores import (
    ExternalMetricProblem,
    ExternalScoresResult,
    import_external_scores,
)
from mtdash.judgments.services.judgments import JudgmentImportResult, import_judgments


class JudgmentImportForm(forms.Form):
    file = forms.FileField(
        label="Judgments file",
        help_text="CSV or TSV with a header segment,system,judge,criterion,value "
        "(segment = line number), or WMT's mqm_seg.tsv / da_seg.tsv",
    )

    def __init__(self, *args, test_set: TestSet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def save(self, user) -> JudgmentImportResult | None:
        """Import the file; on a problem, add it to the form and return None."""
        uploaded = self.cleaned_data["file"]
        try:
            check_size(uploaded)
            return import_judgments(self.test_set, user, uploaded.read(), uploaded.name)
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return None


class ExternalScoresForm(forms.Form):
    metric = forms.CharField(
        max_length=100, help_text="a name of your own, e.g. comet-22"
    )
    description = forms.CharField(
        max_length=300,
        help_text="model and version, e.g. Unbabel/wmt22-comet-da, comet 2.2.2 "
        "(shown as the metric's signature)",
    )
    lower_is_better = forms.BooleanField(
        required=False, help_text="tick for error rates (lower scores are better)"
    )
    file = forms.FileField(
        label="Scores file",
        help_text="system<TAB>segment<TAB>score per line (segment = line number), "
        "every segment of each system",
    )

    def __init__(self, *args, test_set: TestSet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def save(self, user) -> ExternalScoresResult | None:
        """Import the scores; on a problem, add it to the form and return None."""
        data = self.cleaned_data
        uploaded = data["file"]
        try:
            check_size(uploaded)
            return import_external_scores(
                self.test_set,
                user,
                data["metric"],
                data["description"],
                not data["lower_is_better"],
                uploaded.read(),
                uploaded.name,
            )
        except ExternalMetricProblem as problem:
            self.add_error(problem.field, str(problem))
        except UploadProblem as problem:
            self.add_error(None, str(problem))
        return None
