"""Upload forms. Files are decoded and checked here; nothing is stored until
every file of the upload has passed (the services then write atomically)."""

from __future__ import annotations

import re

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from mtdash.evaluation.models import System, TestSet
from mtdash.evaluation.services.textfiles import (
    UploadProblem,
    check_same_length,
    read_segments,
)
from mtdash.evaluation.services.metric_choices import (
    check_metric_specs,
    metric_choices,
    parse_metric_specs,
)
from mtdash.evaluation.services.scoring_jobs import DEFAULT_METRICS
from mtdash.evaluation.services.uploads import TestSetData
from scoring import MetricError

LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    widget = MultipleFileInput

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data]
        return [single(data, initial)] if data else []


def _read(uploaded: UploadedFile) -> list[str]:
    """Segments of an uploaded file, refusing one over the size limit unread."""
    limit = settings.MTDASH_MAX_UPLOAD_BYTES
    if uploaded.size > limit:
        raise UploadProblem(
            uploaded.name, None, f"the file is {uploaded.size:,} bytes; the limit is {limit:,}"
        )
    return read_segments(uploaded.read(), uploaded.name)


def _language_code(value: str) -> str:
    value = value.strip()
    if not LANGUAGE_CODE.match(value):
        raise forms.ValidationError("Use a language code such as en, fr, de or zh.")
    return value


class TestSetUploadForm(forms.Form):
    team = forms.ModelChoiceField(queryset=None, empty_label=None)
    name = forms.CharField(max_length=200)
    source_language = forms.CharField(max_length=16, initial="fr")
    target_language = forms.CharField(max_length=16, initial="en")
    text_type = forms.CharField(max_length=100, required=False, initial="news")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    source_file = forms.FileField(help_text="Plain text, UTF-8, one segment per line.")
    reference_files = MultipleFileField(
        help_text="One or more files, each a complete reference translation."
    )
    reference_labels = forms.CharField(
        required=False,
        help_text="Comma-separated translator labels in file order (default A, B, C…).",
    )
    document_ids_file = forms.FileField(
        required=False, help_text="Optional: one document id per line, same line count."
    )

    __test__ = False

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams

    def clean_source_language(self) -> str:
        return _language_code(self.cleaned_data["source_language"])

    def clean_target_language(self) -> str:
        return _language_code(self.cleaned_data["target_language"])

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        team, name = cleaned["team"], cleaned["name"].strip()
        if TestSet.objects.filter(team=team, name=name).exists():
            self.add_error("name", f"The team already has a test set named “{name}”.")
            return cleaned
        labels = self._labels(cleaned)
        if labels is None:
            return cleaned
        try:
            self.test_set_data = self._read_files(cleaned, name, labels)
        except UploadProblem as problem:
            self.add_error(None, str(problem))
        return cleaned

    def _labels(self, cleaned) -> list[str] | None:
        files = cleaned["reference_files"]
        raw = cleaned.get("reference_labels", "").strip()
        labels = [part.strip() for part in raw.split(",")] if raw else []
        if not labels:
            labels = [chr(ord("A") + i) if i < 26 else f"R{i + 1}" for i in range(len(files))]
        if len(labels) != len(files) or any(not label for label in labels):
            self.add_error(
                "reference_labels",
                f"Give one label per reference file ({len(files)} files, {len(labels)} labels).",
            )
            return None
        if len(set(labels)) != len(labels):
            self.add_error("reference_labels", "Reference labels must be different.")
            return None
        return labels

    def _read_files(self, cleaned, name: str, labels: list[str]) -> TestSetData:
        source_file = cleaned["source_file"]
        sources = _read(source_file)
        expected_from = f"the source file {source_file.name}"
        references = {}
        for label, uploaded in zip(labels, cleaned["reference_files"], strict=True):
            lines = _read(uploaded)
            check_same_length(lines, uploaded.name, len(sources), expected_from)
            references[label] = lines
        document_ids = None
        if cleaned.get("document_ids_file"):
            uploaded = cleaned["document_ids_file"]
            document_ids = [line.strip() for line in _read(uploaded)]
            check_same_length(document_ids, uploaded.name, len(sources), expected_from)
        return TestSetData(
            name=name,
            source_language=cleaned["source_language"],
            target_language=cleaned["target_language"],
            text_type=cleaned.get("text_type", "").strip(),
            description=cleaned.get("description", "").strip(),
            sources=sources,
            references=references,
            document_ids=document_ids,
        )


class MetricSelectionForm(forms.Form):
    """Metrics to compute: ticked defaults plus specs with parameters."""

    metrics = forms.MultipleChoiceField(
        choices=(), required=False, widget=forms.CheckboxSelectMultiple, initial=["bleu"]
    )
    more_metrics = forms.CharField(
        required=False,
        label="Metrics with parameters",
        help_text="e.g. bleu:n=2 rouge-w:w=1.2 rouge-s:d=4 (separated by spaces).",
    )

    # What an upload that names no metric gets; re-scoring must name one.
    default_metrics: tuple[str, ...] = ()

    def __init__(self, *args, test_set: TestSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set = test_set
        self.fields["metrics"].choices = metric_choices()

    def clean(self):
        cleaned = super().clean()
        specs = list(cleaned.get("metrics") or [])
        specs += parse_metric_specs(cleaned.get("more_metrics", ""))
        specs = specs or list(self.default_metrics)
        has_docs = self.test_set.segments.exclude(document_id="").exists()
        try:
            cleaned["metric_specs"] = check_metric_specs(specs, has_document_ids=has_docs)
        except MetricError as error:
            self.add_error("more_metrics" if specs else "metrics", str(error))
        return cleaned


class SystemOutputUploadForm(MetricSelectionForm):
    system_name = forms.CharField(max_length=200)
    system_description = forms.CharField(max_length=500, required=False)
    hypothesis_file = forms.FileField(help_text="Plain text, UTF-8, one hypothesis per line.")

    field_order = ["system_name", "system_description", "hypothesis_file"]
    default_metrics = DEFAULT_METRICS

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        name = cleaned["system_name"].strip()
        cleaned["system_name"] = name
        exists = System.objects.filter(
            team=self.test_set.team, name=name, outputs__test_set=self.test_set
        ).exists()
        if exists:
            self.add_error(
                "system_name", f"“{name}” already has an output on this test set."
            )
            return cleaned
        uploaded = cleaned["hypothesis_file"]
        try:
            lines = _read(uploaded)
            expected = self.test_set.segments.count()
            check_same_length(lines, uploaded.name, expected, "the test set")
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return cleaned
        self.hypotheses = lines
        return cleaned
