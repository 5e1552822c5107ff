"""The browser's import forms: they check the fields and the file's size;
the services check the file and store it (or say why not)."""

from __future__ import annotations

from django import forms

from mtdash.common.upload_checks import UploadProblem, check_size
from mtdash.evaluation.models import TestSet
from mtdash.judgments.imports import pending
from mtdash.judgments.imports.judgments import import_judgments, preview_judgments
from mtdash.judgments.imports.layouts import SEGMENT_ORDERS
from mtdash.judgments.imports.results import (
    ImportOptions,
    JudgmentImportResult,
    JudgmentPreview,
)


class JudgmentImportForm(forms.Form):
    """Step 1: the file. Nothing is stored: a readable file waits for the
    preview page (:mod:`~mtdash.judgments.imports.pending`)."""

    file = forms.FileField(
        label="Judgments file",
        help_text="CSV or TSV with a header segment,system,judge,criterion,value "
        "(segment = line number), or WMT's mqm_seg.tsv, da_seg.tsv or "
        "ad-*-good-stnd.csv; a preview comes before anything is stored",
    )

    def __init__(self, *args, test_set: TestSet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def save(self, session) -> pending.PendingFile | None:
        """Keep a readable file for its preview; on a problem, add it to the
        form and return None."""
        uploaded = self.cleaned_data["file"]
        try:
            check_size(uploaded)
            data = uploaded.read()
            preview_judgments(self.test_set, data, uploaded.name)  # readable?
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return None
        return pending.keep(session, self.test_set.pk, uploaded.name, data)


class JudgmentPreviewForm(forms.Form):
    """Step 2: the choices the preview shows the effect of; "Import" stores
    the file with them."""

    human_rows = forms.ChoiceField(
        label="Rows of HUMAN-* systems (references judged as systems)",
        choices=[
            ("auto", "keep them if the test set has outputs of those names"),
            ("keep", "keep them (each needs an output of that name)"),
            ("skip", "skip them"),
        ],
        initial="auto",
        required=False,
        widget=forms.RadioSelect,
    )
    segment_order = forms.ChoiceField(
        label="Segment ids are",
        choices=[("", "the layout's default"), *SEGMENT_ORDERS.items()],
        initial="",
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, test_set: TestSet, file: pending.PendingFile, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set = test_set
        self.file = file

    def options(self) -> ImportOptions:
        if self.is_bound and self.is_valid():
            data = self.cleaned_data
            return ImportOptions(
                data["human_rows"] or "auto", data["segment_order"] or ""
            )
        return ImportOptions()

    def preview(self) -> JudgmentPreview | None:
        try:
            return preview_judgments(
                self.test_set, self.file.read(), self.file.file_name, self.options()
            )
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return None

    def save(self, user, session) -> JudgmentImportResult | None:
        """Import the file with the chosen options and forget it; on a
        problem, add it to the form and return None (the file waits)."""
        try:
            result = import_judgments(
                self.test_set,
                user,
                self.file.read(),
                self.file.file_name,
                options=self.options(),
            )
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return None
        pending.discard(session, self.file)
        return result
