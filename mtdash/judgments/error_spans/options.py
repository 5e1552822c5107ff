"""What an error-span import takes (:class:`SpanImportOptions`) and tells
(:class:`ErrorSpanImportResult`), and how the import list shows one
(:func:`import_summary`).

A refused field raises ``ExternalMetricProblem(field, message)``, as the
other imports' fields do, so the API and the forms name the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mtdash.evaluation.external_scores.imports import (
    ExternalMetricProblem,
    check_metric_name,
)
from mtdash.judgments.models import JudgmentImport
from scoring import ScoringError
from scoring.spans import FORMATS, MqmWeights

AUTO = "auto"
HUMAN = "human"
MQM_TSV, SPANS_JSONL = "mqm-tsv", "spans-jsonl"  # scoring.spans.FORMATS
FORMAT_CHOICES = (AUTO, *FORMATS)
# The judgments criterion each format's human annotations give.
CRITERION_OF_FORMAT = {MQM_TSV: "mqm", SPANS_JSONL: "esa"}


@dataclass(frozen=True)
class SpanImportOptions:
    """``format``: ``mqm-tsv``, ``spans-jsonl`` or ``auto`` (told by the
    extension, else by a leading ``{``); ``source``: ``human`` (annotators'
    spans) or the name of the metric whose spans the file holds;
    ``weights``: MQM weights for an MQM TSV, ``None`` for the library's
    defaults (Freitag et al. 2021)."""

    format: str = AUTO
    source: str = HUMAN
    weights: MqmWeights | None = None

    @property
    def is_human(self) -> bool:
        return self.source == HUMAN

    @classmethod
    def from_fields(
        cls, format: str = "", source: str = "", weights: str = ""
    ) -> SpanImportOptions:
        """The options from the text of the form's, the API's or the
        command's fields (blank: the default)."""
        chosen = format.strip().lower() or AUTO
        if chosen not in FORMAT_CHOICES:
            raise ExternalMetricProblem(
                "format",
                f"format must be one of {', '.join(FORMAT_CHOICES)}, "
                f"not {chosen[:40]!r}",
            )
        return cls(chosen, _source(source), parse_weights(weights))


def _source(text: str) -> str:
    text = text.strip()
    if not text or text.lower() == HUMAN:
        return HUMAN
    try:
        return check_metric_name(text)
    except ExternalMetricProblem as problem:
        raise ExternalMetricProblem(
            "source", f"source is human or a metric's name: {problem}"
        ) from None


def parse_weights(spec: str) -> MqmWeights | None:
    """``major=5,minor=1,minor/fluency/punctuation=0.1`` (or ``rule:weight``
    items separated by commas or spaces) on top of the default weights;
    ``None`` for a blank spec."""
    if not spec.strip():
        return None
    try:
        return MqmWeights.parse(spec.replace("=", ":"))
    except ScoringError as error:
        raise ExternalMetricProblem(
            "weights", f"{error} (e.g. major=5,minor=1,critical=10)"
        ) from None


@dataclass(frozen=True)
class SystemSpans:
    """One system's share of an import: annotations, spans, and the mean of
    its segment scores under the import's criterion (``None``: no criterion,
    as for a metric's spans)."""

    annotations: int
    spans: int
    score: float | None

    def to_dict(self) -> dict:
        return {
            "annotations": self.annotations,
            "spans": self.spans,
            "score": self.score,
        }


@dataclass(frozen=True)
class ErrorSpanImportResult:
    import_id: int
    file_name: str
    format: str
    source: str  # "human" or the metric's name
    n_annotations: int
    n_spans: int
    n_judgments: int
    criterion: str | None  # "mqm", "esa", or None (no judgments)
    systems: dict[str, SystemSpans] = field(default_factory=dict)
    weights: dict[str, float] | None = None  # MQM rules, for an MQM TSV
    # The criterion does not read this import yet: its judgments in use come
    # from a campaign (sources never merge silently; the user chooses).
    left_out: bool = False
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {
            "import_id": self.import_id,
            "file": self.file_name,
            "format": self.format,
            "source": self.source,
            "annotations": self.n_annotations,
            "spans": self.n_spans,
            "judgments": self.n_judgments,
            "criterion": self.criterion,
            "systems": {name: s.to_dict() for name, s in self.systems.items()},
            "weights": self.weights,
            "left_out": self.left_out,
            "warnings": list(self.warnings),
        }


def import_summary(batch: JudgmentImport) -> dict:
    """One error-span import as the API's list shows it."""
    return {
        "id": batch.pk,
        "file": batch.file_name,
        "format": batch.layout,
        "source": batch.span_source,
        "annotations": batch.n_annotations,
        "spans": batch.n_spans,
        "judgments": batch.n_judgments,
        "criteria": sorted(batch.counts),
        "weights": batch.mqm_weights,
        "imported_by": batch.imported_by.username if batch.imported_by else None,
        "created": batch.imported_at.isoformat(),
    }
