"""Metric rankings pooled over several tasks (WMT23's overall ranking).

A task is one statistic on one test set (language pair), ranked by
:func:`~scoring.stats.metric_permutation.permutation_ranking`. WMT23's
metrics task (mt-metrics-eval's ``TaskSetResults.AverageCorrs`` and
``AverageCorrMatrix``) ranks metrics overall by a weighted mean of their
statistics, each first mapped to [0, 1] by its range [lo, hi]: correlations
and Kendall variants r -> (r + 1) / 2, accuracies and SPA as they are.
With the weights normalised to sum 1,

    overall(m) = sum_t w_t (s_t(m) - lo_t) / (hi_t - lo_t).

Significance reuses every task's permutation draws. Draw r of each task is
paired with draw r of the others (:func:`pooled_permutation` spawns one
generator per task from one seed, so the draws are aligned by index and
independent between tasks), which gives a pooled difference per metric pair

    d*_r(a, b) = sum_t w_t d*_{t,r}(a, b) / (hi_t - lo_t),

and p(a better than b) = #{r : d*_r >= overall(a) - overall(b)} / R, with
the conventions and rank rule of :mod:`~scoring.stats.metric_permutation`.
Only metrics ranked in every task are pooled (the others are listed in
``excluded_metrics``); tasks run with early stopping cannot be pooled (their
pairs saw different numbers of draws).

WMT23 with L language pairs: system-level pairwise accuracy pooled over all
L pairs (weight L), then for each language pair system-level Pearson,
segment-level Pearson (no grouping) and segment-level acc_eq with tie
calibration grouped by item (weight 1 each): :func:`wmt23_weights`.

Pairwise accuracy "by counting pairs" over test sets (Kocmi et al. 2021,
WMT23's first task) is agreements summed over the sets divided by pairs
summed: the weighted mean of the sets' accuracies with weights n_pairs_t,
so :func:`pooled_accuracy_ranking` pools with those weights. Each set's
scores are standardised on their own (mt-metrics-eval standardises the
merged vector of all sets).

Worked example: Pearson 0.8 and 0.6 on one task, accuracy 0.7 and 0.75 on
another, equal weights: overall (0.9 + 0.7) / 2 = 0.8 and (0.8 + 0.75) / 2::

    >>> pooled_scores(np.array([[0.8, 0.6], [0.7, 0.75]]),
    ...               [(-1.0, 1.0), (0.0, 1.0)], np.array([1.0, 1.0])).tolist()
    [0.8, 0.775]
    >>> wmt23_weights(3).round(4).tolist()[:5]
    [0.25, 0.0833, 0.0833, 0.0833, 0.0833]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays
from scoring.stats.metric_permutation import (
    DEFAULT_DRAWS,
    MetricRanking,
    Swap,
    cluster_ranks,
    p_values_from_draws,
    permutation_ranking,
)
from scoring.stats.metric_swaps import ACCURACY_RANGE, ScoreSwap

UNIT_RANGE = (0.0, 1.0)


def rescale(values: np.ndarray, value_range: Sequence[float]) -> np.ndarray:
    """Map statistics from ``value_range`` (lo, hi) to [0, 1]."""
    low, high = (float(v) for v in value_range)
    if not high > low:
        raise ScoringError(f"a value range needs lo < hi, got {value_range}")
    return (np.asarray(values, dtype=np.float64) - low) / (high - low)


def normalised_weights(
    weights: Sequence[float] | np.ndarray, n_tasks: int
) -> np.ndarray:
    """Non-negative weights, one per task, scaled to sum 1."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (n_tasks,) or (weights < 0).any() or not weights.sum() > 0:
        raise ScoringError(f"give {n_tasks} non-negative weights, not all zero")
    return weights / weights.sum()


def pooled_scores(
    task_values: np.ndarray,
    value_ranges: Sequence[Sequence[float]],
    weights: np.ndarray,
) -> np.ndarray:
    """Overall score of each metric: ``(T, M) -> (M,)`` (module docstring)."""
    weights = normalised_weights(weights, len(value_ranges))
    rescaled = np.stack(
        [rescale(row, span) for row, span in zip(task_values, value_ranges)]
    )
    return weights @ rescaled


def wmt23_weights(n_language_pairs: int) -> np.ndarray:
    """WMT23's task weights: the pooled system-level accuracy first (weight
    L), then system Pearson, segment Pearson and segment acc_eq of each of
    the L language pairs in turn (weight 1 each), normalised."""
    if n_language_pairs < 1:
        raise ScoringError("WMT23's weights need at least one language pair")
    weights = np.ones(1 + 3 * n_language_pairs)
    weights[0] = n_language_pairs
    return weights / weights.sum()


@dataclass(frozen=True, eq=False)
class PooledRanking:
    """Metrics ranked over several tasks.

    ``task_values[t, m]`` is metric m's statistic on task t (its own scale),
    ``task_ranks`` its rank there; ``ranking`` holds the overall scores
    (``ranking.values``, in [0, 1]), the pooled p-values and the ranks, with
    the pooled draws, so a pooled ranking can itself be a task of another.
    """

    tasks: tuple[str, ...]
    weights: np.ndarray  # (T,) summing to 1
    metrics: tuple[str, ...]
    task_values: np.ndarray  # (T, M)
    task_ranks: np.ndarray  # (T, M)
    task_statistics: tuple[str, ...]
    value_ranges: tuple[tuple[float, float], ...]
    ranking: MetricRanking
    excluded_metrics: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def overall(self) -> np.ndarray:
        """Overall score of each metric ``(M,)``, in [0, 1]."""
        return self.ranking.values

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: the tasks, then the overall ranking."""
        return json_safe(
            {
                "tasks": [
                    {
                        "task": task,
                        "statistic": self.task_statistics[t],
                        "weight": self.weights[t],
                        "value_range": list(self.value_ranges[t]),
                        "values": dict(zip(self.metrics, self.task_values[t])),
                        "ranks": dict(zip(self.metrics, self.task_ranks[t])),
                    }
                    for t, task in enumerate(self.tasks)
                ],
                "excluded_metrics": list(self.excluded_metrics),
                "overall": self.ranking.to_dict(),
            }
        )


def pool_rankings(
    rankings: Mapping[str, MetricRanking],
    weights: Sequence[float] | np.ndarray | None = None,
    *,
    alpha: float | None = None,
    statistic: str = "overall",
    seed: int | None = None,
) -> PooledRanking:
    """Pool tasks' rankings (module docstring); ``weights`` in the order of
    ``rankings`` (default: equal), ``alpha`` that of the first task."""
    names = tuple(rankings)
    results = [rankings[name] for name in names]
    if not results:
        raise ScoringError("pooling needs at least one task")
    weights = normalised_weights(
        np.ones(len(results)) if weights is None else weights, len(results)
    )
    shared = set.intersection(*(set(r.metrics) for r in results))
    metrics = tuple(m for m in results[0].metrics if m in shared)
    everyone = dict.fromkeys(m for r in results for m in r.metrics)
    excluded = tuple(m for m in everyone if m not in shared)
    n_draws = {r.n_draws for r in results}
    for name, result in zip(names, results):
        draws = result.null_differences
        if draws is None or len(n_draws) > 1 or _missing_draws(result):
            raise ScoringError(
                f"task {name!r} cannot be pooled: every task needs all its draws "
                "(the same number, no early stopping)"
            )
    indices = [np.array([r.metrics.index(m) for m in metrics]) for r in results]
    task_values = np.stack([r.values[i] for r, i in zip(results, indices)])
    ranges = tuple(tuple(float(v) for v in r.value_range) for r in results)
    overall = pooled_scores(task_values, ranges, weights)
    pooled = sum(
        w * r.null_differences[:, i][:, :, i] / (span[1] - span[0])  # type: ignore[index]
        for w, r, i, span in zip(weights, results, indices, ranges)
    )
    add_one = all(r.add_one for r in results)
    p_values = p_values_from_draws(overall, pooled, add_one=add_one)
    used = np.full(p_values.shape, pooled.shape[0])
    np.fill_diagonal(used, 0)
    alpha = results[0].alpha if alpha is None else alpha
    ranking = MetricRanking(
        statistic=statistic,
        metrics=metrics,
        values=overall,
        ranks=cluster_ranks(overall, p_values, alpha=alpha),
        p_values=p_values,
        n_draws_used=used,
        n_draws=n_draws.pop(),
        seed=seed,
        alpha=alpha,
        grouping="pooled",
        swapped="pooled",
        unit="task",
        value_range=UNIT_RANGE,
        add_one=add_one,
        null_differences=pooled,
    )
    return PooledRanking(
        tasks=names,
        weights=weights,
        metrics=metrics,
        task_values=task_values,
        task_ranks=np.stack([r.ranks[i] for r, i in zip(results, indices)]),
        task_statistics=tuple(r.statistic for r in results),
        value_ranges=ranges,  # type: ignore[arg-type]
        ranking=ranking,
        excluded_metrics=excluded,
    )


def _missing_draws(result: MetricRanking) -> bool:
    """Whether a pair of ``result`` stopped before the last draw."""
    off_diagonal = ~np.eye(len(result.metrics), dtype=bool)
    return bool((result.n_draws_used[off_diagonal] < result.n_draws).any())


def pooled_permutation(
    swaps: Mapping[str, Swap],
    weights: Sequence[float] | np.ndarray | None = None,
    *,
    n_draws: int = DEFAULT_DRAWS,
    seed: int = 1,
    alpha: float = 0.05,
    add_one: bool = False,
    statistic: str = "overall",
) -> PooledRanking:
    """Rank every task's metrics with aligned draws (one generator per task,
    spawned from ``seed``) and pool them (module docstring)."""
    children = np.random.SeedSequence(seed).spawn(len(swaps))
    rankings = {
        name: permutation_ranking(
            swap,
            n_draws=n_draws,
            seed=np.random.default_rng(child),
            alpha=alpha,
            add_one=add_one,
        )
        for (name, swap), child in zip(swaps.items(), children)
    }
    return pool_rankings(rankings, weights, alpha=alpha, statistic=statistic, seed=seed)


def judged_system_pairs(swap: ScoreSwap) -> int:
    """How many system pairs a system-level swap compares (both judged)."""
    judged = int(np.isfinite(swap.human).sum())
    return judged * (judged - 1) // 2


def pooled_accuracy_ranking(
    swaps: Mapping[str, ScoreSwap],
    *,
    n_draws: int = DEFAULT_DRAWS,
    seed: int = 1,
    alpha: float = 0.05,
    add_one: bool = False,
) -> PooledRanking:
    """System-level pairwise accuracy over several test sets by counting
    pairs: each set weighted by its number of judged system pairs."""
    for name, swap in swaps.items():
        if swap.statistic != "pairwise_accuracy" or tuple(swap.value_range) != (
            ACCURACY_RANGE
        ):
            raise ScoringError(
                f"test set {name!r} must be ranked by system-level pairwise accuracy"
            )
    weights = [judged_system_pairs(swap) for swap in swaps.values()]
    return pooled_permutation(
        swaps,
        weights,
        n_draws=n_draws,
        seed=seed,
        alpha=alpha,
        add_one=add_one,
        statistic="pairwise_accuracy",
    )
