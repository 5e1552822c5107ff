"""Upload forms. Files are read and checked (``services.corpus_files``, every
corpus format) before anything is stored; the services then write atomically."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.db import models

from mtdash.common.forms import MetricSpecsForm
from mtdash.common.languages import language_choices
from mtdash.common.metric_specs import check_metric_specs
from mtdash.common.upload_checks import UploadProblem, check_size
from mtdash.evaluation.models import (
    CorpusScore,
    ReferenceSet,
    ScoringJob,
    System,
    TestSet,
)
from mtdash.evaluation.services.corpus_files import (
    DOCIDS,
    FORMAT_CHOICES,
    REFERENCE,
    SOURCE,
    SYSTEM,
    CorpusFile,
    identical_to_source_warnings,
    read_output_files,
    read_test_set_files,
)
from mtdash.evaluation.services.scoring_jobs import DEFAULT_METRICS
from mtdash.evaluation.services.uploads import (
    AlreadyExists,
    TestSetData,
    create_system_output,
    create_system_outputs,
    create_test_set,
    create_test_set_with_outputs,
    language_metric_specs,
)
from scoring import MetricError
from scoring.language_defaults import default_metric_specs

#: Reference rows the test set form reads (``reference_file_<n>``,
#: ``reference_label_<n>``); the page starts with one and its script adds more.
_ROW_FILE, _ROW_LABEL = "reference_file_{}", "reference_label_{}"


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


def _language_field(label: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label,
        choices=language_choices,
        required=False,
        help_text="Leave unchosen only if the files state it (SGML, WMT XML).",
    )


def _format_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label="File format",
        choices=FORMAT_CHOICES,
        initial="auto",
        required=False,  # scripts that predate it send plain text, detected
        help_text="Applies to every file; gzip and ZIP archives are unpacked.",
    )


def _corpus_file(uploaded, role: str, label: str = "") -> CorpusFile:
    check_size(uploaded)
    return CorpusFile(uploaded.name, uploaded.read(), role, label)


class TestSetUploadForm(forms.Form):
    team = forms.ModelChoiceField(queryset=None, empty_label=None)
    name = forms.CharField(max_length=200)
    source_language = _language_field("Source language")
    target_language = _language_field("Target language")
    text_type = forms.CharField(max_length=100, required=False, initial="news")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    file_format = _format_field()
    source_file = forms.FileField(
        required=False,
        label="Source",
        help_text="The source text; or one file holding everything: WMT XML, "
        "TSV, NIST SGML, or a ZIP of a WMT folder (src.*, ref.*, sys/*, docids).",
        allow_empty_file=True,
    )
    document_ids_file = forms.FileField(
        required=False,
        label="Document ids",
        help_text="Optional (plain text): one document id per line, same line "
        "count; WMT's docids files (id TAB number) are read as they are.",
        allow_empty_file=True,
    )
    # The multi-file picker of earlier versions, labelled by order; kept for
    # scripts that post it, not shown on the page (the rows are).
    reference_files = MultipleFileField(required=False, allow_empty_file=True)
    reference_labels = forms.CharField(required=False)

    __test__ = False

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams
        self.warnings: list[str] = []
        for row in self._row_numbers():
            self.fields[_ROW_FILE.format(row)] = forms.FileField(
                required=False, label=f"Reference {row}", allow_empty_file=True
            )
            self.fields[_ROW_LABEL.format(row)] = forms.CharField(
                required=False,
                label=f"Label of reference {row}",
                max_length=_max_length(ReferenceSet, "label"),
                widget=forms.TextInput(attrs={"placeholder": "e.g. A"}),
            )

    def _row_numbers(self) -> list[int]:
        """Row 1, and every row the submitted form has (the script adds rows)
        up to the limit; rows beyond it get no field (``clean`` refuses them)."""
        rows = {1}
        for key in list(self.data or ()) + list(self.files or ()):
            prefix, _, number = key.rpartition("_")
            if prefix in ("reference_file", "reference_label") and number.isdigit():
                rows.add(int(number))
        limit = settings.MTDASH_MAX_REFERENCES
        return sorted(row for row in rows if 1 <= row <= limit)

    def _too_many_rows(self) -> str | None:
        """The error when files came in rows beyond the limit: such a row has
        no field, and storing the rest without it would lose a reference."""
        limit = settings.MTDASH_MAX_REFERENCES
        with_file = []
        for key in self.files or ():
            prefix, _, number = key.rpartition("_")
            if prefix == "reference_file" and number.isdigit() and self.files[key]:
                with_file.append(int(number))
        beyond = sorted(row for row in with_file if row > limit)
        if not beyond:
            return None
        total = len(with_file) + len(self.files.getlist("reference_files"))
        rows = (
            f"row {beyond[0]} is"
            if len(beyond) == 1
            else f"rows {beyond[0]} to {beyond[-1]} are"
        )
        files = (
            "1 reference file was" if total == 1 else f"{total} reference files were"
        )
        return (
            f"{files} sent ({rows} beyond the limit); at most {limit} are "
            "accepted in one test set."
        )

    def reference_rows(self) -> list[tuple]:
        """(file field, label field) per row, for the template."""
        return [
            (self[_ROW_FILE.format(row)], self[_ROW_LABEL.format(row)])
            for row in self._row_numbers()
        ]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        too_many = self._too_many_rows()
        if too_many:
            self.add_error(None, too_many)
            return cleaned
        team, name = cleaned["team"], cleaned["name"].strip()
        if TestSet.objects.filter(team=team, name=name).exists():
            self._name_taken(name)
            return cleaned
        labels = self._labels(cleaned)
        if labels is None:
            return cleaned
        try:
            files = self._files(cleaned, labels)
            upload = read_test_set_files(files, cleaned.get("file_format") or "auto")
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return cleaned
        languages = {}
        for side in ("source", "target"):
            chosen = cleaned.get(f"{side}_language") or getattr(
                upload, f"{side}_language"
            )
            if not chosen:
                self.add_error(
                    f"{side}_language",
                    f"Choose the {side} language: the files do not state it.",
                )
            languages[side] = chosen
        if self.errors:
            return cleaned
        self.test_set_data = TestSetData(
            name=name,
            source_language=languages["source"],
            target_language=languages["target"],
            text_type=cleaned.get("text_type", "").strip(),
            description=cleaned.get("description", "").strip(),
            sources=upload.source,
            references=upload.references,
            document_ids=upload.document_ids,
        )
        self.outputs = upload.systems
        self.detected = upload.detected
        self.warnings = identical_to_source_warnings(upload.source, upload.systems)
        return cleaned

    def _files(self, cleaned, legacy_labels: list[str]) -> list[CorpusFile]:
        files = []
        if cleaned.get("source_file"):
            files.append(_corpus_file(cleaned["source_file"], SOURCE))
        for label, uploaded in zip(
            legacy_labels, cleaned["reference_files"], strict=True
        ):
            files.append(_corpus_file(uploaded, REFERENCE, label))
        for row in self._row_numbers():
            uploaded = cleaned.get(_ROW_FILE.format(row))
            if uploaded:  # a row left without a file is an unused row
                label = cleaned.get(_ROW_LABEL.format(row), "").strip()
                files.append(_corpus_file(uploaded, REFERENCE, label))
        if cleaned.get("document_ids_file"):
            files.append(_corpus_file(cleaned["document_ids_file"], DOCIDS))
        return files

    def _name_taken(self, name: str) -> None:
        self.add_error("name", f"The team already has a test set named “{name}”.")

    def save(self, user) -> TestSet | None:
        """Store the valid upload (and any outputs it carried, queued for
        scoring with the target language's default metrics); None (and a form
        error) if an identical upload took the name since ``clean`` looked."""
        data = self.test_set_data
        try:
            if not self.outputs:
                return create_test_set(self.cleaned_data["team"], user, data)
            test_set, _ = create_test_set_with_outputs(
                self.cleaned_data["team"],
                user,
                data,
                self.outputs,
                metrics=default_metric_specs(data.target_language),
            )
            return test_set
        except AlreadyExists:
            self._name_taken(data.name)
            return None

    def _labels(self, cleaned) -> list[str] | None:
        """Labels of the legacy multi-file picker (A, B, C… by default)."""
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


class MetricSelectionForm(MetricSpecsForm):
    """Metrics to compute on a test set: ticked defaults plus specs with parameters.

    Re-scoring must name a metric; an upload that names none gets the defaults.
    Every spec takes the target language's defaults (``bleu`` is
    ``bleu:tokenize=zh`` on a Chinese test set) unless it sets them itself.
    """

    def __init__(self, *args, test_set: TestSet, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set = test_set
        self.language_specs = default_metric_specs(test_set.target_language)

    def check_metric_specs(self, specs: list[str]) -> list[str]:
        has_docs = self.test_set.has_document_ids()
        longest = _max_length(CorpusScore, "metric")
        checked = check_metric_specs(
            specs, has_document_ids=has_docs, max_length=longest
        )
        # Checked first: building a metric from a spec that names a server
        # file would open it.
        with_language = language_metric_specs(checked, self.test_set.target_language)
        return check_metric_specs(
            with_language, has_document_ids=has_docs, max_length=longest
        )


class SystemOutputUploadForm(MetricSelectionForm):
    file_format = _format_field()
    hypothesis_file = MultipleFileField(
        label="System output files",
        help_text="One file per system (plain text: one hypothesis per line), "
        "or NIST SGML tstset / WMT XML files holding one or more systems. "
        "Several files may be chosen at once.",
        allow_empty_file=True,
    )
    system_name = forms.CharField(
        max_length=200,
        required=False,
        help_text="For a single file; default: its system name, else the file "
        "name without its extension.",
    )
    system_description = forms.CharField(max_length=500, required=False)

    field_order = [
        "file_format",
        "hypothesis_file",
        "system_name",
        "system_description",
    ]
    default_metrics = DEFAULT_METRICS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []
        self.fields["hypothesis_file"].required = True
        if not self.is_bound:
            ticked, typed = _initial_metrics(self.test_set, self.language_specs)
            self.initial.setdefault("metrics", ticked)
            self.initial.setdefault("more_metrics", " ".join(typed))

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        uploads = cleaned["hypothesis_file"]
        given = cleaned.get("system_name", "").strip()
        files = []
        try:
            for number, uploaded in enumerate(uploads, start=1):
                name = self.data.get(f"system_name_{number}", "").strip()
                if len(uploads) == 1:
                    name = given or name
                files.append(_corpus_file(uploaded, SYSTEM, name))
            outputs = read_output_files(
                self.test_set, files, cleaned.get("file_format") or "auto"
            )
        except UploadProblem as problem:
            self.add_error(None, str(problem))
            return cleaned
        taken = list(
            System.objects.filter(
                team=self.test_set.team,
                name__in=outputs,
                outputs__test_set=self.test_set,
            ).values_list("name", flat=True)
        )
        if taken:
            self._name_taken(taken[0])
            return cleaned
        self.outputs = outputs
        sources = list(
            self.test_set.segments.order_by("index").values_list("source", flat=True)
        )
        self.warnings = identical_to_source_warnings(sources, outputs)
        return cleaned

    def _name_taken(self, name: str) -> None:
        field = "system_name" if self.cleaned_data.get("system_name") else None
        self.add_error(field, f"“{name}” already has an output on this test set.")

    def save(self, user) -> list[ScoringJob] | None:
        """Store the valid outputs and their jobs, all or none; None (and a
        form error) if an identical upload stored an output since ``clean``
        looked."""
        description = self.cleaned_data.get("system_description", "")
        metrics = self.cleaned_data["metric_specs"]
        try:
            if len(self.outputs) == 1:
                [(name, hypotheses)] = self.outputs.items()
                job = create_system_output(
                    self.test_set,
                    user,
                    name,
                    hypotheses,
                    system_description=description,
                    metrics=metrics,
                )
                return [job]
            return create_system_outputs(
                self.test_set,
                user,
                self.outputs,
                system_description=description,
                metrics=metrics,
            )
        except AlreadyExists as taken:
            self._name_taken(str(taken))
            return None


def _initial_metrics(
    test_set: TestSet, language_specs: list[str]
) -> tuple[list[str], list[str]]:
    """The metrics the output form starts with: those of the leaderboard, else
    the target language's defaults; as (ticked names, specs with parameters).
    A ticked name takes the language's settings anyway, so ``bleu`` stands for
    ``bleu:tokenize=zh`` on a Chinese test set."""
    specs = (
        list(
            CorpusScore.objects.filter(output__test_set=test_set)
            .values_list("metric", flat=True)
            .distinct()
        )
        or language_specs
    )
    target = test_set.target_language
    ticked, typed = [], []
    for spec in dict.fromkeys(specs):
        name = spec.partition(":")[0]
        try:
            plain = language_metric_specs([name], target) == [spec]
        except MetricError:  # a metric no longer registered
            continue
        if plain:
            ticked.append(name)
        else:
            typed.append(spec)
    return ticked, typed
