"""Upload forms. Files are decoded and checked here; nothing is stored until
every file of the upload has passed (the services then write atomically)."""

from __future__ import annotations

import re

from django import forms
from django.conf import settings
from django.db import models

from mtdash.common.forms import MetricSpecsForm
from mtdash.common.metric_specs import check_metric_specs
from mtdash.common.upload_checks import (
    UploadProblem,
    check_document_ids,
    check_same_length,
    read_uploaded_segments,
)
from mtdash.evaluation.models import (
    CorpusScore,
    ReferenceSet,
    ScoringJob,
    Segment,
    System,
    TestSet,
)
from mtdash.evaluation.services.scoring_jobs import DEFAULT_METRICS
from mtdash.evaluation.services.uploads import (
    AlreadyExists,
    TestSetData,
    create_system_output,
    create_test_set,
)

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


def _max_length(model: type[models.Model], field: str) -> int:
    """The column's length: what a form accepts is what the database stores."""
    return model._meta.get_field(field).max_length


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
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    source_file = forms.FileField(
        help_text="Plain text, UTF-8, one segment per line.", allow_empty_file=True
    )
    reference_files = MultipleFileField(
        help_text="One or more files, each a complete reference translation.",
        allow_empty_file=True,
    )
    reference_labels = forms.CharField(
        required=False,
        help_text="Comma-separated translator labels in file order (default A, B, C…).",
    )
    document_ids_file = forms.FileField(
        required=False,
        help_text="Optional: one document id per line, same line count.",
        allow_empty_file=True,
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
            self._name_taken(name)
            return cleaned
        labels = self._labels(cleaned)
        if labels is None:
            return cleaned
        try:
            self.test_set_data = self._read_files(cleaned, name, labels)
        except UploadProblem as problem:
            self.add_error(None, str(problem))
        return cleaned

    def _name_taken(self, name: str) -> None:
        self.add_error("name", f"The team already has a test set named “{name}”.")

    def save(self, user) -> TestSet | None:
        """Store the valid upload; None (and a form error) if an identical
        upload took the name since ``clean`` looked."""
        try:
            return create_test_set(self.cleaned_data["team"], user, self.test_set_data)
        except AlreadyExists:
            self._name_taken(self.test_set_data.name)
            return None

    def _labels(self, cleaned) -> list[str] | None:
        files = cleaned["reference_files"]
        limit = settings.MTDASH_MAX_REFERENCES
        if len(files) > limit:
            self.add_error(
                "reference_files",
                f"{len(files)} reference files were sent; at most {limit} are "
                "accepted in one test set.",
            )
            return None
        raw = cleaned.get("reference_labels", "").strip()
        labels = [part.strip() for part in raw.split(",")] if raw else []
        if not labels:
            labels = [
                chr(ord("A") + i) if i < 26 else f"R{i + 1}" for i in range(len(files))
            ]
        if len(labels) != len(files) or any(not label for label in labels):
            self.add_error(
                "reference_labels",
                f"Give one label per reference file ({len(files)} files, {len(labels)} labels).",
            )
            return None
        if len(set(labels)) != len(labels):
            self.add_error("reference_labels", "Reference labels must be different.")
            return None
        longest = _max_length(ReferenceSet, "label")
        for position, label in enumerate(labels, start=1):
            if len(label) > longest:
                self.add_error(
                    "reference_labels",
                    f"Label {position} is {len(label)} characters long; "
                    f"at most {longest} are allowed.",
                )
                return None
        return labels

    def _read_files(self, cleaned, name: str, labels: list[str]) -> TestSetData:
        source_file = cleaned["source_file"]
        sources = read_uploaded_segments(source_file)
        expected_from = f"the source file {source_file.name}"
        references = {}
        for label, uploaded in zip(labels, cleaned["reference_files"], strict=True):
            lines = read_uploaded_segments(uploaded)
            check_same_length(expected_from, len(sources), uploaded.name, lines)
            references[label] = lines
        document_ids = None
        if cleaned.get("document_ids_file"):
            uploaded = cleaned["document_ids_file"]
            document_ids = [line.strip() for line in read_uploaded_segments(uploaded)]
            check_same_length(expected_from, len(sources), uploaded.name, document_ids)
            check_document_ids(uploaded.name, document_ids)
            _check_document_ids(uploaded.name, document_ids)
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


def _check_document_ids(file_name: str, document_ids: list[str]) -> None:
    longest = _max_length(Segment, "document_id")
    for number, document_id in enumerate(document_ids, start=1):
        if len(document_id) > longest:
            raise UploadProblem(
                file_name,
                number,
                f"the document id is {len(document_id)} characters long; "
                f"at most {longest} are allowed",
            )


class MetricSelectionForm(MetricSpecsForm):
    """Metrics to compute on a test set: ticked defaults plus specs with parameters.

    Re-scoring must name a metric; an upload that names none gets the defaults.
    """

    def __init__(self, *args, test_set: TestSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set = test_set

    def check_metric_specs(self, specs: list[str]) -> list[str]:
        has_docs = self.test_set.segments.exclude(document_id="").exists()
        return check_metric_specs(
            specs,
            has_document_ids=has_docs,
            max_length=_max_length(CorpusScore, "metric"),
        )


class SystemOutputUploadForm(MetricSelectionForm):
    system_name = forms.CharField(max_length=200)
    system_description = forms.CharField(max_length=500, required=False)
    hypothesis_file = forms.FileField(
        help_text="Plain text, UTF-8, one hypothesis per line.", allow_empty_file=True
    )

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
            self._name_taken(name)
            return cleaned
        uploaded = cleaned["hypothesis_file"]
        try:
            lines = read_uploaded_segments(uploaded)
            expected = self.test_set.segments.count()
            check_same_length("the test set", expected, uploaded.name, lines)
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return cleaned
        self.hypotheses = lines
        return cleaned

    def _name_taken(self, name: str) -> None:
        self.add_error(
            "system_name", f"“{name}” already has an output on this test set."
        )

    def save(self, user) -> ScoringJob | None:
        """Store the valid output and its job; None (and a form error) if an
        identical upload stored its output since ``clean`` looked."""
        name = self.cleaned_data["system_name"]
        try:
            return create_system_output(
                self.test_set,
                user,
                name,
                self.hypotheses,
                system_description=self.cleaned_data.get("system_description", ""),
                metrics=self.cleaned_data["metric_specs"],
            )
        except AlreadyExists:
            self._name_taken(name)
            return None
