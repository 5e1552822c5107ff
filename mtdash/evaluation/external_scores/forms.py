"""The browser's form for a metric's scores computed elsewhere: it checks
the fields and the file's size; the service checks the file and stores it."""

from __future__ import annotations

from django import forms

from mtdash.common.upload_checks import UploadProblem, check_size
from mtdash.evaluation.external_scores.imports import (
    ExternalMetricProblem,
    ExternalScoresResult,
    import_external_scores,
)
from mtdash.evaluation.models import TestSet


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
