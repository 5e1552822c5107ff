"""Which metrics the batch engine scores, and scoring them over a grid.

:func:`subset_scores` is the engine's core: for metrics that read text the
same way (one *token view*), the sentence score of every hypothesis of a
:class:`~scoring.batch.grid.PairGrid` against every reference subset, with
each family of metrics sharing its kernel passes. The values equal what the
metric's own ``segment_statistics`` + ``sentence_scores_from_statistics``
give for the same hypothesis and references (tests compare them).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from scoring.base import Metric
from scoring.batch.chrf_family import ChrfFamily
from scoring.batch.error_family import ErrorRateFamily
from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.gtm_family import GtmFamily
from scoring.batch.meteor_family import MeteorFamily
from scoring.batch.ngram_family import BleuFamily, NistFamily
from scoring.batch.red_family import RedFamily
from scoring.batch.rouge_family import RougeFamily
from scoring.batch.ter_family import TerFamily
from scoring.batch.wnm_family import WnmFamily

# Each metric is handled by at most one family (tested).
FAMILIES: tuple[type[MetricFamily[Any]], ...] = (
    RougeFamily,
    BleuFamily,
    NistFamily,
    ErrorRateFamily,
    GtmFamily,
    ChrfFamily,
    TerFamily,
    MeteorFamily,
    WnmFamily,
    RedFamily,
)


def supports(metric: Metric) -> bool:
    """True when the batch engine computes this metric exactly."""
    return family_of(metric) is not None


def family_of(metric: Metric) -> type[MetricFamily[Any]] | None:
    """The family that scores this metric, or None when the engine does not."""
    for family in FAMILIES:
        if family.handles(metric):
            return family
    return None


def token_view(metric: Metric) -> Hashable:
    """The text -> tokens callable the metric applies (hashable; metrics
    with equal views share one tokenisation). The metric must be supported."""
    family = family_of(metric)
    if family is None:
        raise ValueError(f"the batch engine does not support: {metric.name}")
    return family.token_view(metric)


def subset_scores(
    metrics: Sequence[Metric], grid: PairGrid, masks: np.ndarray
) -> list[np.ndarray]:
    """Sentence scores of every hypothesis against every subset, on each
    metric's own scale: one ``(H, S)`` float64 array per metric, in order.

    All ``metrics`` must be supported and share one token view (the grid
    holds that view's token ids). ``masks``: ``(S,)`` int64 subset bit masks
    (:mod:`scoring.batch.subsets`).
    """
    masks = np.asarray(masks, dtype=np.int64)
    results: list[np.ndarray | None] = [None] * len(metrics)
    for family in FAMILIES:
        indices = [i for i, metric in enumerate(metrics) if family.handles(metric)]
        if not indices:
            continue
        scores = family([metrics[i] for i in indices]).scores(grid, masks)
        for index, values in zip(indices, scores):
            results[index] = values
    missing = [metrics[i].name for i, value in enumerate(results) if value is None]
    if missing:
        raise ValueError(f"the batch engine does not support: {', '.join(missing)}")
    return results  # type: ignore[return-value]
