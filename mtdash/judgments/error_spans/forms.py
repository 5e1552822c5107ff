"""The browser's form for a file of error spans: it checks the fields and
the file's size; the service checks the file and stores it (or says why
not)."""

from __future__ import annotations

from django import forms

from mtdash.common.upload_checks import UploadProblem, check_size
from mtdash.evaluation.external_scores.imports import ExternalMetricProblem
from mtdash.evaluation.models import TestSet
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import (
    AUTO,
    HUMAN,
    MQM_TSV,
    SPANS_JSONL,
    ErrorSpanImportResult,
    SpanImportOptions,
)


class ErrorSpansForm(forms.Form):
    file = forms.FileField(
        label="Span file",
        help_text="an MQM TSV in the WMT layout (spans marked by <v>…</v>), or "
        "spans JSON lines (one object per segment, system and annotator)",
    )
    format = forms.ChoiceField(
        choices=[
            (AUTO, "told by the extension (.tsv, .jsonl), else by a leading {"),
            (MQM_TSV, "MQM TSV (WMT layout)"),
            (SPANS_JSONL, "spans JSON lines"),
        ],
        initial=AUTO,
    )
    source = forms.CharField(
        max_length=100,
        initial=HUMAN,
        help_text="human (annotators' spans: MQM or ESA), or the name of the "
        "metric whose spans the file holds (e.g. xcomet-xl)",
    )
    weights = forms.CharField(
        required=False,
        max_length=500,
        label="MQM weights",
        help_text="over Freitag et al. 2021's (major 5, minor 1, minor "
        "fluency/punctuation 0.1, major non-translation 25, critical 10), e.g. "
        "major=5,minor=1,critical=25; MQM TSV only",
    )

    def __init__(self, *args, test_set: TestSet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def save(self, user) -> ErrorSpanImportResult | None:
        """Import the file; on a problem, add it to the form and return None."""
        data = self.cleaned_data
        uploaded = data["file"]
        try:
            check_size(uploaded)
            options = SpanImportOptions.from_fields(
                data["format"], data["source"], data["weights"]
            )
            return import_error_spans(
                self.test_set, user, uploaded.read(), uploaded.name, options
            )
        except ExternalMetricProblem as problem:
            self.add_error(problem.field, str(problem))
        except UploadProblem as problem:
            self.add_error(None, str(problem))
        return None
