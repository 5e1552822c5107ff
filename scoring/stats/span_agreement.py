"""Span-level precision, recall and F1 of a metric's error spans against the
human ones.

Perrella, Morales Agostinho & Zaragoza (2026), "Span-Level Machine
Translation Meta-Evaluation" (arXiv 2603.19921), section 3 and their
released code (``mt_evaluation/meta_evaluation/span_level``): in each
segment the metric's spans P are matched one-to-one to the human spans H
(only spans on the same side, source or target, that share a character;
the matching maximises the variant's total credit, Hungarian algorithm);
then

- **em** (exact match): a matched pair scores 1 when both spans have the
  same start and end, else 0;
- **mp** (match with partial overlap): a matched pair scores 1;
- **mpp** (match with partial overlap and partial credit): a pair (p, h)
  is matched on its F-score 2|p∩h| / (|p| + |h|) and credits |p∩h| / |p|
  to precision and |p∩h| / |h| to recall (|·| counts characters);

precision = (credit of the matched predicted spans) / |P| and recall =
(credit of the matched human spans) / |H|, F1 their harmonic mean.
**Micro** averaging sums credits and counts over all segments first (the
paper's recommendation: micro mpp, the default here); **macro** averages
each segment's precision, recall and F1. A segment without predicted spans
has precision 1, one without human spans recall 1, and F1 is 0 when both
are 0 (the paper's and WMT25's convention: a segment neither side marks
scores 1, 1, 1). ``severity_penalty`` p scales a pair of different
severities by 1 - p (default 0: severity ignored, as in the paper).

- **w25**, the severity-aware variant of the WMT25 error-span subtask
  (Lavie et al. 2025, "Findings of the WMT25 Shared Task on Automated
  Translation Evaluation Systems"; official scorer
  ``wmt-conference/wmt25-mteval``, ``scripts/scoring/task2``,
  ``get_char_f1`` with ``partial_credit=0.5``; the paper's "w25"): no
  matching. At every character, with g_M, g_m the numbers of human major
  (critical counts as major) and minor spans covering it and p_M, p_m the
  metric's, tp += min(g_M, p_M) + min(g_m, p_m) + 0.5 min(g', p') where
  g' = (g_M - p_M)+ + (g_m - p_m)+ and p' = (p_M - g_M)+ + (p_m - g_m)+;
  precision = Σ tp / Σ p-characters, recall = Σ tp / Σ g-characters
  (characters counted once per span covering them), micro over segments as
  WMT25 scores a language pair; macro per segment as for the others. WMT25
  marked targets only; source spans here count on their own characters.

Neutral spans and spans without position are left out on both sides (the
paper's code drops neutral errors: they score 0 in MQM). **Several human
annotators**: the paper evaluates against one annotation per segment, the
first rater of the segment in name order (its ``mqm.super.1``; the other
raters can be evaluated as metrics), so that one segment is never counted
twice and overlapping spans of different raters do not inflate recall. We
do the same: the gold spans of each (system, segment) are those of its
first annotator in name order, or of ``annotator`` if given (segments it
did not rate are left out). Segments the metric did not annotate are left
out and counted, as are metric annotations of segments without human spans.

Confidence intervals: a seeded percentile bootstrap over segments (WMT's
segment-level resampling): each draw takes segment numbers with
replacement, every system's item of a drawn segment together, and
re-aggregates the per-item counts (one matrix product per statistic; the
spans are matched once).

Worked example: humans mark [0, 10) in one segment, the metric [5, 15).
The pair overlaps by 5 characters: em 0/1, mp 1/1, mpp precision 5/10 and
recall 5/10::

    >>> from scoring.spans import Span, SpanAnnotation
    >>> human = [SpanAnnotation(1, "A", "r1", (Span(0, 10, "major"),))]
    >>> metric = [SpanAnnotation(1, "A", "m", (Span(5, 15, "major"),))]
    >>> result = evaluate_spans(human, metric, variants=("em", "mp", "mpp"))
    >>> [(r.variant, r.overall.f1) for r in result.results]
    [('em', 0.0), ('mp', 1.0), ('mpp', 0.5)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.spans import SpanAnnotation
from scoring.stats.resampling import Seed, bootstrap_counts, percentile_interval
from scoring.stats.span_matching import (
    VARIANTS,
    SpanTable,
    item_statistics,
    span_table,
)

AVERAGES = ("micro", "macro")
DEFAULT_VARIANT = "mpp"
DEFAULT_AVERAGE = "micro"


@dataclass(frozen=True)
class SpanFigures:
    """Precision, recall and F1 (0-1) over ``segments`` items, with their
    bootstrap intervals ``(low, high)`` when resampled."""

    precision: float
    recall: float
    f1: float
    segments: int
    precision_interval: tuple[float, float] | None = None
    recall_interval: tuple[float, float] | None = None
    f1_interval: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return json_safe(
            {
                "precision": self.precision,
                "recall": self.recall,
                "f1": self.f1,
                "segments": self.segments,
                "intervals": None
                if self.f1_interval is None
                else {
                    "precision": self.precision_interval,
                    "recall": self.recall_interval,
                    "f1": self.f1_interval,
                },
            }
        )


@dataclass(frozen=True)
class SpanAgreement:
    """One variant and averaging: overall and per system."""

    variant: str
    average: str
    overall: SpanFigures
    systems: Mapping[str, SpanFigures]

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "average": self.average,
            "overall": self.overall.to_dict(),
            "systems": {name: f.to_dict() for name, f in self.systems.items()},
        }


@dataclass(frozen=True)
class SpanEvaluation:
    """A metric's spans against the human spans, in each variant asked for."""

    metric: str
    results: tuple[SpanAgreement, ...]
    systems: tuple[str, ...]
    coverage: Mapping[str, int]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def result(self, variant: str, average: str = DEFAULT_AVERAGE) -> SpanAgreement:
        for result in self.results:
            if (result.variant, result.average) == (variant, average):
                return result
        raise KeyError((variant, average))

    def to_dict(self) -> dict[str, Any]:
        return json_safe(
            {
                "metric": self.metric,
                "systems": self.systems,
                "coverage": dict(self.coverage),
                "settings": dict(self.settings),
                "results": [result.to_dict() for result in self.results],
            }
        )


def precision_recall_f1(statistics: np.ndarray) -> np.ndarray:
    """``(..., 4)`` summed counts -> ``(..., 3)`` precision, recall, F1.

    >>> precision_recall_f1(np.array([[1.0, 1.0, 2.0, 4.0], [0, 0, 0, 0]])).tolist()
    [[0.5, 0.25, 0.3333333333333333], [1.0, 1.0, 1.0]]
    """
    tp_precision, tp_recall, n_predicted, n_gold = np.moveaxis(statistics, -1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(n_predicted > 0, tp_precision / n_predicted, 1.0)
        recall = np.where(n_gold > 0, tp_recall / n_gold, 1.0)
        total = precision + recall
        f1 = np.where(total > 0, 2.0 * precision * recall / total, 0.0)
    return np.stack([precision, recall, f1], axis=-1)


def evaluate_spans(
    human: Sequence[SpanAnnotation],
    metric: Sequence[SpanAnnotation],
    *,
    variants: Sequence[str] = (DEFAULT_VARIANT,),
    averages: Sequence[str] = (DEFAULT_AVERAGE,),
    n_samples: int = 0,
    seed: Seed = 1,
    confidence: float = 0.95,
    severity_penalty: float = 0.0,
    annotator: str | None = None,
) -> SpanEvaluation:
    """Evaluate one metric's spans (``metric``) against ``human`` (module doc).

    ``n_samples`` bootstrap resamples give the intervals (0: none); the same
    ``seed`` gives every metric the same draws.
    """
    for variant in variants:
        if variant not in VARIANTS:
            raise ScoringError(
                f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}"
            )
    for average in averages:
        if average not in AVERAGES:
            raise ScoringError(f"unknown averaging {average!r}; use micro or macro")
    names = {a.annotator for a in metric}
    if len(names) > 1:
        raise ScoringError("give the spans of one metric at a time")
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 0:
        raise ScoringError("the number of bootstrap resamples must be 0 or more")
    items = _items(human, metric, annotator)
    # By name: the figures must not depend on the order the spans were read
    # in (a database without ORDER BY, a shuffled file).
    systems = tuple(sorted({system for system, _ in items.keys}))
    position = {name: k for k, name in enumerate(systems)}
    segment_labels, segment_of = np.unique(
        np.array([g for _, g in items.keys], dtype=np.int64), return_inverse=True
    )
    layout = _Layout(
        systems=systems,
        system_of=np.array([position[s] for s, _ in items.keys], dtype=np.int64),
        segment_of=segment_of.reshape(-1),
        n_segments=int(segment_labels.size),
        counts=bootstrap_counts(segment_labels.size, n_samples, seed)
        if n_samples
        else None,
        confidence=confidence,
    )
    results = []
    for variant in dict.fromkeys(variants):
        stats = item_statistics(
            items.gold, items.predicted, len(items.keys), variant, severity_penalty
        )
        for average in dict.fromkeys(averages):
            results.append(_aggregate(stats, variant, average, layout))
    return SpanEvaluation(
        metric=next(iter(names), ""),
        results=tuple(results),
        systems=systems,
        coverage=items.coverage,
        settings={
            "gold": f"annotator {annotator}"
            if annotator
            else "first annotator by name",
            "severity_penalty": severity_penalty,
            "bootstrap": n_samples,
            "seed": seed if isinstance(seed, int) else None,
            "confidence": confidence,
            "resampled": "segments (every system's item of a drawn segment together)",
        },
    )


@dataclass(frozen=True, eq=False)
class _Layout:
    """Where each item belongs, and the bootstrap draws of the segments."""

    systems: tuple[str, ...]
    system_of: np.ndarray  # (n,) index into systems
    segment_of: np.ndarray  # (n,) index into the G distinct segment numbers
    n_segments: int  # G
    counts: np.ndarray | None  # (R, G) times each segment is drawn
    confidence: float


def _aggregate(
    stats: np.ndarray, variant: str, average: str, layout: _Layout
) -> SpanAgreement:
    """Point figures and intervals, overall and per system, from item counts."""
    n_systems = len(layout.systems)
    # What each segment brings to each system, (G, S, 4): the summed counts
    # for micro; for macro the sums of the items' precision, recall, F1 and
    # the number of items.
    values = (
        stats
        if average == "micro"
        else np.column_stack([precision_recall_f1(stats), np.ones(len(stats))])
    )
    table = np.zeros((layout.n_segments, n_systems, 4))
    np.add.at(table, (layout.segment_of, layout.system_of), values)

    def figures(sums: np.ndarray) -> np.ndarray:
        """(..., S, 4) sums -> (..., S + 1, 3) figures, the overall last."""
        sums = np.concatenate([sums, sums.sum(axis=-2, keepdims=True)], axis=-2)
        if average == "micro":
            return precision_recall_f1(sums)
        with np.errstate(invalid="ignore", divide="ignore"):
            return sums[..., :3] / sums[..., 3:4]

    point = figures(table.sum(axis=0))  # (S + 1, 3)
    low = high = None
    if layout.counts is not None:
        drawn = layout.counts @ table.reshape(layout.n_segments, -1)
        low, high = percentile_interval(
            figures(drawn.reshape(-1, n_systems, 4)), layout.confidence
        )
    n_items = np.bincount(layout.system_of, minlength=n_systems).tolist()
    n_items.append(sum(n_items))
    made = [_figures(point, low, high, k, n_items[k]) for k in range(n_systems + 1)]
    return SpanAgreement(
        variant=variant,
        average=average,
        overall=made[-1],
        systems=dict(zip(layout.systems, made[:-1])),
    )


def _figures(point, low, high, k: int, segments: int) -> SpanFigures:
    """Row ``k`` of the point figures and of the interval bounds."""
    intervals = [None, None, None]
    if low is not None and high is not None:
        intervals = [(float(low[k, i]), float(high[k, i])) for i in range(3)]
    return SpanFigures(
        float(point[k, 0]), float(point[k, 1]), float(point[k, 2]), segments, *intervals
    )


@dataclass(frozen=True)
class _Items:
    keys: tuple[tuple[str, int], ...]  # (system, segment) of each item
    gold: SpanTable
    predicted: SpanTable
    coverage: Mapping[str, int]


def _items(
    human: Sequence[SpanAnnotation],
    metric: Sequence[SpanAnnotation],
    annotator: str | None,
) -> _Items:
    gold_of: dict[tuple[str, int], SpanAnnotation] = {}
    for annotation in human:
        if annotator is not None and annotation.annotator != annotator:
            continue
        key = (annotation.system, annotation.segment)
        kept = gold_of.get(key)
        if kept is None or annotation.annotator < kept.annotator:
            gold_of[key] = annotation
    predicted_of: dict[tuple[str, int], SpanAnnotation] = {}
    for annotation in metric:
        key = (annotation.system, annotation.segment)
        if key in predicted_of:
            raise ScoringError(
                f"the metric has two annotations of system {annotation.system!r}, "
                f"segment {annotation.segment}"
            )
        predicted_of[key] = annotation
    if annotator is not None and not gold_of:
        raise ScoringError(f"no human annotations by {annotator!r}")
    keys = tuple(key for key in gold_of if key in predicted_of)
    if not keys:
        raise ScoringError(
            "no segment has both human spans and the metric's spans "
            "(check the system names and segment numbers of both files)"
        )
    left_out = {"neutral": 0, "no_position": 0}
    tables = [
        span_table([gold_of[key] for key in keys], left_out),
        span_table([predicted_of[key] for key in keys], left_out),
    ]
    coverage = {
        "segments": len(keys),
        "segments_without_metric": len(gold_of) - len(keys),
        "metric_segments_without_human": len(predicted_of) - len(keys),
        "human_spans": len(tables[0]),
        "metric_spans": len(tables[1]),
        "spans_left_out_neutral": left_out["neutral"],
        "spans_left_out_no_position": left_out["no_position"],
    }
    return _Items(keys, tables[0], tables[1], coverage)
