"""Correlation tables of metrics against human criteria (ORANGE Table 1).

Joins :class:`~scoring.stats.scores_file.MetricScores` with
:class:`~scoring.stats.judgments.Judgments`: for each criterion, the points
(systems, or judged (system, segment) pairs) that every metric scored, the
coefficient of each metric with its bootstrap interval, the best metric and
the metrics equivalent to it (:mod:`scoring.stats.best_metric`). All metrics
of a criterion are correlated on the same points and the same resamples.

Metrics whose lower scores are better (error rates such as TER, WER) are
negated first, so every coefficient reads "higher is better" and the best
metric is the largest coefficient (the ORANGE paper reports WER and PER this
way); ``negated`` lists them.

Points: at system level, the systems that have a human score for the
criterion and a corpus score for every metric (the others are listed in
``excluded_systems``); at sentence level, every judged (system, segment)
of the systems that have sentence scores for every metric, leaving out
segments some metric has no score for (``null``).

Resampling (``resample``): at system level the systems are resampled. At
sentence level the default resamples whole segments: a drawn segment brings
every system's point of that segment, together, as WMT's segment-level
bootstrap does; ``resample="points"`` draws the (system, segment) points one
by one, which ignores that the systems' scores of a segment are correlated
and gives intervals about a fifth too narrow (WMT21 ru-en DA, sentence
BLEU). The same resamples serve the intervals and the paired test against
the best metric; the table names its unit (``resampling_unit``).

A criterion with fewer than :data:`MIN_POINTS` points (a criterion judged
for two systems, at system level) is "too few points": no coefficient, no
interval, no best metric (two points always correlate perfectly). An
interval needs at least :data:`MIN_POINTS` resampling units as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.best_metric import MetricCell, describe_test, mark_best
from scoring.stats.correlation import (
    CorrelationEstimate,
    correlate,
    estimate_from_samples,
    weighted_correlations,
)
from scoring.stats.human import HumanScores, human_scores
from scoring.stats.judgments import Judgments
from scoring.stats.resampling import Seed, cluster_bootstrap_counts
from scoring.stats.scores_file import MetricScores

LEVELS = ("system", "sentence")
# What a sentence-level bootstrap resamples: whole segments (WMT) or points.
RESAMPLING = ("segments", "points")
# Fewer points than this give no coefficient (two points correlate +-1).
MIN_POINTS = 3
OK = "ok"
TOO_FEW_POINTS = "too few points"
UNIT_DESCRIPTIONS = {
    "system": "systems (one point per system)",
    "segment": "whole segments (every system's score of a drawn segment kept "
    "together, as WMT does)",
    "point": "single (system, segment) points, each drawn on its own",
}


def describe_interval(
    confidence: float, unit: str, n_samples: int, seed: int | None
) -> dict[str, Any]:
    """The coefficient intervals in words (JSON-safe); ``label`` is short."""
    percent = f"{confidence * 100:g}%"
    return {
        "kind": "percentile bootstrap",
        "sides": "two-sided",
        "confidence": confidence,
        "unit": unit,
        "resampled": UNIT_DESCRIPTIONS[unit],
        "n_samples": n_samples,
        "seed": seed,
        "label": f"two-sided {percent} percentile bootstrap interval, "
        f"{n_samples} resamples of {unit}s, seed {seed}",
    }


@dataclass(frozen=True, eq=False)
class CriterionColumn:
    """One criterion: its points and one cell per metric.

    ``status`` is :data:`OK` or :data:`TOO_FEW_POINTS` (then every cell is
    undefined and ``note`` says why); ``n_units`` counts what was resampled.
    """

    criterion: str
    n_points: int
    systems: tuple[str, ...]  # systems contributing points
    excluded_systems: tuple[str, ...]  # judged systems left out (no metric scores)
    cells: tuple[MetricCell, ...]
    n_units: int = 0
    status: str = OK
    note: str = ""

    @property
    def best_metrics(self) -> tuple[str, ...]:
        """Every best metric (several when their coefficients tie)."""
        return tuple(cell.metric for cell in self.cells if cell.best)

    @property
    def best_metric(self) -> str | None:
        """The first best metric in list order (None if no coefficient is
        defined); see :attr:`best_metrics` for ties."""
        return next(iter(self.best_metrics), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return json_safe(
            {
                "criterion": self.criterion,
                "n_points": self.n_points,
                "n_units": self.n_units,
                "status": self.status,
                "note": self.note,
                "systems": list(self.systems),
                "excluded_systems": list(self.excluded_systems),
                "best_metric": self.best_metric,
                "best_metrics": list(self.best_metrics),
                "cells": [cell.to_dict() for cell in self.cells],
            }
        )


@dataclass(frozen=True, eq=False)
class CorrelationTable:
    """Metrics (rows) against criteria (columns), like ORANGE Table 1."""

    level: str
    method: str
    variant: str
    test: str
    human: str  # "z" (per-judge z-scores) or "raw"
    metrics: tuple[str, ...]
    negated: tuple[str, ...]
    columns: tuple[CriterionColumn, ...]
    n_samples: int
    seed: int | None
    confidence: float
    alpha: float
    unit: str = "system"  # what the bootstrap resampled: system, segment, point

    @property
    def interval(self) -> dict[str, Any]:
        """:func:`describe_interval` of this table."""
        return describe_interval(self.confidence, self.unit, self.n_samples, self.seed)

    @property
    def equivalence_test(self) -> dict[str, Any]:
        """:func:`~scoring.stats.best_metric.describe_test` of this table."""
        return describe_test(self.test, self.alpha)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return json_safe(
            {
                "level": self.level,
                "method": self.method,
                "kendall_variant": self.variant if self.method == "kendall" else None,
                "test": self.test,
                "resampling_unit": self.unit,
                "interval": self.interval,
                "equivalence_test": self.equivalence_test,
                "human": self.human,
                "metrics": list(self.metrics),
                "negated": list(self.negated),
                "n_samples": self.n_samples,
                "seed": self.seed,
                "confidence": self.confidence,
                "alpha": self.alpha,
                "criteria": [column.to_dict() for column in self.columns],
            }
        )


def _system_points(
    scores: MetricScores, human: HumanScores
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """(metric scores (M, P), human scores (P,), unit of each point (P,),
    systems) at system level: each point is its own unit."""
    systems = tuple(
        s
        for s in human.systems
        if all(s in scores.corpus.get(metric, {}) for metric in scores.metrics)
    )
    matrix = np.array(
        [[scores.corpus[m][s] for s in systems] for m in scores.metrics],
        dtype=np.float64,
    ).reshape(len(scores.metrics), len(systems))
    values = np.array([human.system_score(s) for s in systems], dtype=np.float64)
    return matrix, values, np.arange(len(systems)), systems


def _sentence_points(
    scores: MetricScores, human: HumanScores
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """(metric scores (M, P), human scores (P,), segment of each point (P,),
    systems) at sentence level."""
    systems = tuple(
        s
        for s in human.systems
        if all(s in scores.sentence.get(metric, {}) for metric in scores.metrics)
    )
    metric_rows: list[list[np.ndarray]] = [[] for _ in scores.metrics]
    human_parts, segment_parts = [], []
    for system in systems:
        row = human.segment_scores[human.systems.index(system)]
        judged = np.isfinite(row)
        segments = human.segments[judged]
        for m, metric in enumerate(scores.metrics):
            vector = scores.sentence[metric][system]
            if segments.size and segments[-1] > vector.size:
                raise ScoringError(
                    f"segment {segments[-1]} of system {system!r} was judged but "
                    f"metric {metric!r} has only {vector.size} sentence scores"
                )
            metric_rows[m].append(vector[segments - 1])
        human_parts.append(row[judged])
        segment_parts.append(segments)
    matrix = np.array([np.concatenate(parts) if parts else [] for parts in metric_rows])
    matrix = matrix.reshape(len(scores.metrics), -1)
    values = np.concatenate(human_parts) if human_parts else np.zeros(0)
    segments = np.concatenate(segment_parts) if segment_parts else np.zeros(0, np.int64)
    scored = np.isfinite(matrix).all(axis=0)  # drop points some metric did not score
    return matrix[:, scored], values[scored], segments[scored], systems


def _resampling_unit(level: str, resample: str) -> str:
    if resample not in RESAMPLING:
        raise ValueError(
            f"unknown resampling {resample!r}; valid: {', '.join(RESAMPLING)}"
        )
    if level == "system":
        return "system"
    return "segment" if resample == "segments" else "point"


def _too_few_points(
    metrics: Sequence[str],
    method: str,
    n_points: int,
    n_units: int,
    level: str,
    confidence: float,
    unit: str,
) -> tuple[str, tuple[MetricCell, ...]]:
    """The note and the undefined cells of a criterion with too few points."""
    note = (
        f"too few points: {n_points} {level}-level point(s) have both human and "
        f"metric scores, a correlation needs at least {MIN_POINTS}"
    )
    if n_points == 0:
        note += "; check that system names match"
    undefined = CorrelationEstimate(
        method=method,
        coefficient=np.nan,
        low=np.nan,
        high=np.nan,
        n_points=n_points,
        n_samples=0,
        seed=None,
        confidence=confidence,
        undefined_samples=0,
        unit=unit,
        n_units=n_units,
    )
    cells = tuple(
        MetricCell(metric, undefined, False, False, np.nan, np.nan, np.nan)
        for metric in metrics
    )
    return note, cells


def correlation_table(
    scores: MetricScores,
    judgments: Judgments,
    *,
    level: str = "system",
    method: str = "pearson",
    criteria: Sequence[str] | None = None,
    standardise: bool = True,
    n_samples: int = 1000,
    seed: Seed = 1,
    confidence: float = 0.95,
    test: str = "bootstrap",
    alpha: float = 0.05,
    variant: str = "b",
    resample: str = "segments",
) -> CorrelationTable:
    """Correlate every metric with every criterion (all criteria by default).

    ``resample`` ("segments" or "points") chooses the sentence-level
    bootstrap unit (see the module docstring); at system level the systems
    are resampled whatever it says.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; valid: {', '.join(LEVELS)}")
    unit = _resampling_unit(level, resample)
    if test == "williams" and method != "pearson":
        raise ScoringError(
            "Williams' test compares Pearson correlations: use --method pearson"
        )
    signs = np.array(
        [1.0 if scores.higher_is_better[m] else -1.0 for m in scores.metrics]
    )
    stored_seed = seed if isinstance(seed, int) else None
    columns = []
    for criterion in criteria or judgments.criteria:
        human = human_scores(judgments, criterion, standardise=standardise)
        points = _system_points if level == "system" else _sentence_points
        matrix, values, units, systems = points(scores, human)
        matrix = matrix * signs[:, None]
        excluded = tuple(s for s in human.systems if s not in systems)
        if unit == "point":
            units = np.arange(values.size)
        n_units = int(np.unique(units).size)
        if values.size < MIN_POINTS:
            note, cells = _too_few_points(
                scores.metrics,
                method,
                values.size,
                n_units,
                level,
                confidence,
                unit,
            )
            columns.append(
                CriterionColumn(
                    criterion,
                    values.size,
                    systems,
                    excluded,
                    cells,
                    n_units,
                    TOO_FEW_POINTS,
                    note,
                )
            )
            continue
        if n_units >= MIN_POINTS:
            # One set of resamples for every metric of the criterion: the
            # paired test compares coefficients on the same drawn units.
            counts = cluster_bootstrap_counts(units, n_samples, seed)
        else:
            counts = None
        estimates = [
            estimate_from_samples(
                correlate(row, values, method, variant),
                weighted_correlations(row, values, counts, method, variant)
                if counts is not None
                else np.full(n_samples, np.nan),
                method,
                values.size,
                stored_seed,
                confidence,
                unit=unit,
                n_units=n_units,
            )
            for row in matrix
        ]
        between = None
        if test == "williams":
            with np.errstate(invalid="ignore", divide="ignore"):  # constant metric: NaN
                between = np.corrcoef(matrix)
        cells = mark_best(
            scores.metrics,
            estimates,
            test=test,
            alpha=alpha,
            pearson_between_metrics=np.atleast_2d(between)
            if between is not None
            else None,
        )
        note = ""
        if counts is None:
            note = (
                f"no interval: {n_units} {unit}(s) to resample, at least "
                f"{MIN_POINTS} needed"
            )
        columns.append(
            CriterionColumn(
                criterion, values.size, systems, excluded, cells, n_units, OK, note
            )
        )
    return CorrelationTable(
        level=level,
        method=method,
        variant=variant,
        test=test,
        human="z" if standardise else "raw",
        metrics=scores.metrics,
        negated=tuple(m for m in scores.metrics if not scores.higher_is_better[m]),
        columns=tuple(columns),
        n_samples=n_samples,
        seed=stored_seed,
        confidence=confidence,
        alpha=alpha,
        unit=unit,
    )
