"""What every family of the batch engine answers.

A family is the engine's code for one kind of metric (``*_family``
modules). :mod:`scoring.batch.engine` knows the families only through
:class:`MetricFamily`: which metrics a family scores exactly
(:meth:`~MetricFamily.handles`), how those metrics read text
(:meth:`~MetricFamily.token_view`), and their scores over a grid
(:meth:`~MetricFamily.scores`) for the metrics it was made with.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

import numpy as np

from scoring.base import Metric
from scoring.batch.grid import PairGrid

M = TypeVar("M", bound=Metric)


class MetricFamily(ABC, Generic[M]):
    """The metrics of one family and one token view, scored together (so
    they share their kernel passes)."""

    def __init__(self, metrics: Sequence[M]) -> None:
        self.metrics: tuple[M, ...] = tuple(metrics)

    @staticmethod
    @abstractmethod
    def handles(metric: object) -> bool:
        """True when the family computes this metric exactly."""

    @staticmethod
    @abstractmethod
    def token_view(metric: M) -> Hashable:
        """The text -> tokens callable the metric applies, for a metric the
        family handles (hashable; metrics with equal views share one
        tokenisation: the grid holds that view's token ids)."""

    def scores_of_rows(self, rows_per_metric) -> list[np.ndarray]:
        """Each metric's sentence scores (float64) of its statistics rows
        ``(H, S, n_stats)``, for the families that build the rows first."""
        return [
            np.asarray(metric.sentence_scores_from_statistics(rows), dtype=np.float64)
            for metric, rows in zip(self.metrics, rows_per_metric, strict=True)
        ]

    @abstractmethod
    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence scores of every hypothesis against every subset, on
        each metric's own scale: one ``(H, S)`` float64 array per metric of
        :attr:`metrics`, in order. ``masks``: ``(S,)`` int64 subset bit
        masks (:mod:`scoring.batch.subsets`)."""
