"""The "Error spans" section of a test set's metric-evaluation page: each
metric's span-level precision, recall and F1 against the human spans in the
chosen variant and averaging (overall, and per system), read from the
newest stored evaluation; the job computing a newer one (its progress) or
its failure; the settings the form starts from.

Only stored rows are read (the evaluation's JSON and the imports' counts
for the stale check): the statistics are the worker's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mtdash.evaluation.models import TestSet
from mtdash.judgments.error_spans.agreement_jobs import has_metric_spans, is_stale
from mtdash.judgments.error_spans.agreement_options import (
    AVERAGE_LABELS,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    VARIANT_LABELS,
    chosen_view,
    describe,
)
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.models import ErrorSpanEvaluation


@dataclass(frozen=True)
class Figures:
    """Precision, recall and F1 (0-1) of one row, with their intervals
    (``None`` without bootstrap), as ``SpanFigures.to_dict()`` stored them."""

    precision: float | None
    recall: float | None
    f1: float | None
    segments: int
    precision_interval: tuple[float, float] | None
    recall_interval: tuple[float, float] | None
    f1_interval: tuple[float, float] | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Figures:
        intervals = data.get("intervals") or {}

        def interval(name: str) -> tuple[float, float] | None:
            pair = intervals.get(name)
            return None if pair is None else (pair[0], pair[1])

        return cls(
            data["precision"],
            data["recall"],
            data["f1"],
            data["segments"],
            interval("precision"),
            interval("recall"),
            interval("f1"),
        )

    @property
    def cells(self) -> list[tuple[str, float | None, tuple[float, float] | None]]:
        """(name, value, interval) of P, R and F1, for a table's cells."""
        return [
            ("precision", self.precision, self.precision_interval),
            ("recall", self.recall, self.recall_interval),
            ("f1", self.f1, self.f1_interval),
        ]


@dataclass(frozen=True)
class MetricRow:
    metric: str
    overall: Figures
    systems: tuple[tuple[str, Figures], ...]
    coverage: dict[str, int]


@dataclass(frozen=True)
class SpanTable:
    """One variant and averaging of a stored result: a row per metric."""

    variant: str
    average: str
    rows: tuple[MetricRow, ...]
    failed: tuple[dict[str, str], ...]  # {"metric", "error"}
    settings: dict[str, Any]
    human: dict[str, Any]

    @property
    def variant_label(self) -> str:
        return VARIANT_LABELS[self.variant]

    @property
    def average_label(self) -> str:
        return AVERAGE_LABELS[self.average]

    @property
    def settings_text(self) -> str:
        return describe(self.settings)

    @property
    def has_intervals(self) -> bool:
        return bool(self.settings.get("bootstrap"))


def span_table(result: dict[str, Any], variant: str, average: str) -> SpanTable:
    """The rows of one (variant, average) of a stored result."""
    rows = []
    for metric in result["metrics"]:
        chosen = next(
            r
            for r in metric["results"]
            if (r["variant"], r["average"]) == (variant, average)
        )
        rows.append(
            MetricRow(
                metric=metric["metric"],
                overall=Figures.from_dict(chosen["overall"]),
                # By name: PostgreSQL's jsonb does not keep the stored order.
                systems=tuple(
                    (name, Figures.from_dict(figures))
                    for name, figures in sorted(chosen["systems"].items())
                ),
                coverage=metric["coverage"],
            )
        )
    return SpanTable(
        variant=variant,
        average=average,
        rows=tuple(rows),
        failed=tuple(result.get("metrics_failed", [])),
        settings=result["metrics"][0]["settings"] if result["metrics"] else {},
        human=result["human"],
    )


@dataclass(frozen=True)
class SpanSection:
    present: bool  # the test set has a metric's spans
    variant: str
    average: str
    latest: ErrorSpanEvaluation | None  # the newest job, whatever its status
    shown: ErrorSpanEvaluation | None  # the newest succeeded job
    table: SpanTable | None
    stale: bool  # the spans or the outputs shown changed since ``shown`` ran
    initial: dict[str, int]  # the form's values

    @property
    def waiting(self) -> ErrorSpanEvaluation | None:
        latest = self.latest
        return latest if latest is not None and not latest.is_finished else None

    @property
    def failed(self) -> ErrorSpanEvaluation | None:
        latest = self.latest
        failed = ErrorSpanEvaluation.Status.FAILED
        return latest if latest is not None and latest.status == failed else None

    @property
    def variants(self) -> list[tuple[str, str]]:
        return list(VARIANT_LABELS.items())

    @property
    def averages(self) -> list[tuple[str, str]]:
        return list(AVERAGE_LABELS.items())


def span_section(
    test_set: TestSet, variant: str | None, average: str | None
) -> SpanSection:
    variant, average = chosen_view(variant, average)
    initial = {"bootstrap": DEFAULT_SAMPLES, "seed": DEFAULT_SEED}
    if not has_metric_spans(test_set):
        return SpanSection(False, variant, average, None, None, None, False, initial)
    jobs = ErrorSpanEvaluation.objects.filter(test_set=test_set)
    latest = jobs.first()
    succeeded = ErrorSpanEvaluation.Status.SUCCEEDED
    shown = (
        latest
        if latest is not None and latest.status == succeeded
        else jobs.filter(status=succeeded).first()
    )
    table, stale = None, False
    if shown is not None and shown.result:
        table = span_table(shown.result, variant, average)
        stale = is_stale(shown, visible_outputs(test_set))
    source = latest or shown
    if source is not None:
        initial = {"bootstrap": source.n_samples, "seed": source.seed}
    return SpanSection(True, variant, average, latest, shown, table, stale, initial)
