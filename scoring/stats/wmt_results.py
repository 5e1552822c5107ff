"""What the WMT meta-evaluation (:mod:`scoring.stats.wmt_protocol`) returns:
a task's ranking as cells, one test set's tasks, the overall block.

A cell is what ``python -m scoring correlate --json`` prints and the API
returns for one metric: ``metric``, ``method``, ``coefficient`` (the
statistic, "higher is better"), ``tie_epsilon`` (the metric's calibrated tie
threshold, else null), ``p_value`` (one-sided, "the best metric is better
than this one"; null for the best) and ``cluster`` (1 = top rank).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.stats.metric_permutation import MetricRanking
from scoring.stats.pooled_meta_evaluation import PooledRanking


@dataclass(frozen=True, eq=False)
class TaskResult:
    """One task on one test set: the ranking and what it was computed on."""

    task: str
    ranking: MetricRanking
    epsilons: Mapping[str, float] = field(default_factory=dict)
    notes: Mapping[str, Any] = field(default_factory=dict)

    def cells(self) -> list[dict[str, Any]]:
        """One cell per metric, best first: the CLI's and the API's shape."""
        ranking = self.ranking
        order = ranking.order
        best = order[0]
        cells = []
        for index in order:
            metric = ranking.metrics[index]
            p_value = None if index == best else ranking.p_values[best, index]
            cells.append(
                {
                    "metric": metric,
                    "method": self.task.partition(":")[2],
                    "coefficient": _number(ranking.values[index]),
                    "tie_epsilon": _number(self.epsilons.get(metric)),
                    "p_value": _number(p_value),
                    "cluster": int(ranking.ranks[index]),
                }
            )
        return cells

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "statistic": self.ranking.statistic,
            "grouping": self.ranking.grouping,
            "test": self.ranking.description,
            "cells": self.cells(),
            **dict(self.notes),
        }


@dataclass(frozen=True, eq=False)
class ProtocolResult:
    """Every task of one test set (and criterion)."""

    name: str
    criterion: str
    settings: Any  # ProtocolSettings
    metrics: tuple[str, ...]
    negated: tuple[str, ...]
    systems: tuple[str, ...]
    excluded_systems: tuple[str, ...]
    tasks: tuple[TaskResult, ...]

    def task(self, name: str) -> TaskResult:
        """The result of task ``name`` (KeyError naming those run if absent)."""
        for result in self.tasks:
            if result.task == name:
                return result
        ran = ", ".join(result.task for result in self.tasks)
        raise KeyError(f"task {name!r} was not run on {self.name!r}; ran: {ran}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "test_set": self.name,
            "criterion": self.criterion,
            "settings": self.settings.to_dict(),
            "metrics": list(self.metrics),
            "negated": list(self.negated),
            "systems": list(self.systems),
            "excluded_systems": list(self.excluded_systems),
            "tasks": [task.to_dict() for task in self.tasks],
        }


def _number(value: Any) -> float | None:
    if value is None:
        return None
    value = float(value)
    return value if np.isfinite(value) else None


def overall_cells(pooled: PooledRanking) -> list[dict[str, Any]]:
    """The overall block's cells, best first (``coefficient`` in [0, 1])."""
    ranking = pooled.ranking
    best = ranking.order[0]
    return [
        {
            "metric": ranking.metrics[i],
            "method": "overall",
            "coefficient": _number(ranking.values[i]),
            "p_value": None if i == best else _number(ranking.p_values[best, i]),
            "cluster": int(ranking.ranks[i]),
        }
        for i in ranking.order
    ]
