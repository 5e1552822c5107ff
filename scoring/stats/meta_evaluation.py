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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.best_metric import MetricCell, mark_best
from scoring.stats.correlation import (
    correlate,
    estimate_from_samples,
    weighted_correlations,
)
from scoring.stats.human import HumanScores, human_scores
from scoring.stats.judgments import Judgments
from scoring.stats.resampling import Seed, bootstrap_counts
from scoring.stats.scores_file import MetricScores

LEVELS = ("system", "sentence")


@dataclass(frozen=True, eq=False)
class CriterionColumn:
    """One criterion: its points and one cell per metric."""

    criterion: str
    n_points: int
    systems: tuple[str, ...]  # systems contributing points
    excluded_systems: tuple[str, ...]  # judged systems left out (no metric scores)
    cells: tuple[MetricCell, ...]

    @property
    def best_metric(self) -> str | None:
        """Name of the best metric (None if no coefficient is defined)."""
        return next((cell.metric for cell in self.cells if cell.best), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return json_safe(
            {
                "criterion": self.criterion,
                "n_points": self.n_points,
                "systems": list(self.systems),
                "excluded_systems": list(self.excluded_systems),
                "best_metric": self.best_metric,
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return json_safe(
            {
                "level": self.level,
                "method": self.method,
                "kendall_variant": self.variant if self.method == "kendall" else None,
                "test": self.test,
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
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(metric scores (M, P), human scores (P,), systems) at system level."""
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
    return matrix, values, systems


def _sentence_points(
    scores: MetricScores, human: HumanScores
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(metric scores (M, P), human scores (P,), systems) at sentence level."""
    systems = tuple(
        s
        for s in human.systems
        if all(s in scores.sentence.get(metric, {}) for metric in scores.metrics)
    )
    metric_rows: list[list[np.ndarray]] = [[] for _ in scores.metrics]
    human_parts = []
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
    matrix = np.array([np.concatenate(parts) if parts else [] for parts in metric_rows])
    matrix = matrix.reshape(len(scores.metrics), -1)
    values = np.concatenate(human_parts) if human_parts else np.zeros(0)
    scored = np.isfinite(matrix).all(axis=0)  # drop points some metric did not score
    return matrix[:, scored], values[scored], systems


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
) -> CorrelationTable:
    """Correlate every metric with every criterion (all criteria by default)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; valid: {', '.join(LEVELS)}")
    if test == "williams" and method != "pearson":
        raise ScoringError(
            "Williams' test compares Pearson correlations: use --method pearson"
        )
    signs = np.array(
        [1.0 if scores.higher_is_better[m] else -1.0 for m in scores.metrics]
    )
    columns = []
    for criterion in criteria or judgments.criteria:
        human = human_scores(judgments, criterion, standardise=standardise)
        points = _system_points if level == "system" else _sentence_points
        matrix, values, systems = points(scores, human)
        matrix = matrix * signs[:, None]
        if values.size < 2:
            raise ScoringError(
                f"criterion {criterion!r}: only {values.size} {level}-level "
                "point(s) have both human and metric scores; check that system "
                "names match"
            )
        counts = bootstrap_counts(values.size, n_samples, seed)
        estimates = [
            estimate_from_samples(
                correlate(row, values, method, variant),
                weighted_correlations(row, values, counts, method, variant),
                method,
                values.size,
                seed if isinstance(seed, int) else None,
                confidence,
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
        excluded = tuple(s for s in human.systems if s not in systems)
        columns.append(
            CriterionColumn(criterion, values.size, systems, excluded, cells)
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
        seed=seed if isinstance(seed, int) else None,
        confidence=confidence,
        alpha=alpha,
    )
