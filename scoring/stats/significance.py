"""System comparison from resampled sufficient statistics.

For S systems scored on the same n segments with one metric, ``statistics``
is ``(S, n, k)``: the metric's per-segment sufficient statistics (see
:mod:`scoring.base`). Every resampled corpus score is the metric's
``corpus_scores_from_statistics`` of summed resampled rows; text is never
re-tokenised. All systems share the same resamples (the tests are paired).

- 95 % bootstrap interval of each system's corpus score: R resamples of the
  segments, one matrix product ``counts (R, n) @ statistics (n, S k)``, and
  the percentile interval (:func:`~scoring.stats.resampling.percentile_interval`).
- Paired bootstrap resampling (Koehn 2004), as Moses'
  ``bootstrap-hypothesis-difference-significance.pl`` and sacreBLEU's
  ``--paired-bs`` compute it: with d = |score_a - score_b| and d*_r the same
  on resample r, p = (#{d*_r - mean(d*) >= d} + 1) / (R + 1) (the resampled
  differences are centred to simulate the null hypothesis). ``wins[a, b]`` is
  Koehn's own figure: the share of resamples where a beats b.
- Paired approximate randomisation (Riezler & Maxwell 2005), as sacreBLEU's
  ``--paired-ar``: in each of T trials every segment's statistics are swapped
  between the two systems with probability 1/2; p = (#{|score(a') -
  score(b')| >= d} + 1) / (T + 1). All pairs at once: with the ±1 swap matrix
  s ``(T, n)``, one product P = s @ statistics gives the permuted sums of every
  pair, a' = (A + B + P_a - P_b) / 2 and b' = (A + B - P_a + P_b) / 2.
- Significance clusters: systems sorted by score; a boundary goes between
  ranks k and k + 1 when every system above it is significantly different
  (p < alpha) from every system below it. Systems inside a cluster are not
  separable at that level.

With the same seed and number of resamples the draws are sacreBLEU's, so the
p-values agree with ``sacrebleu --paired-bs/--paired-ar``, with one
deliberate difference: a resampled difference *equal* to the observed one
counts as at least as large (>=, as in Riezler & Maxwell 2005), where
sacreBLEU counts only larger ones (>). The two differ only on exact ties,
which for real systems happen essentially only when the two outputs are
identical: sacreBLEU then reports p = 1 / (R + 1), "significant", and this
module p = 1. ``count_ties=False`` gives sacreBLEU's counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.base import Metric
from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays
from scoring.stats.resampling import (
    Seed,
    bootstrap_counts,
    percentile_interval,
    random_signs,
)

ScoreFunction = Callable[[np.ndarray], np.ndarray]  # (..., k) -> (...)
SACREBLEU_SEED = 12345  # sacreBLEU's default SACREBLEU_SEED


def _as_table(statistics: np.ndarray) -> np.ndarray:
    """``(S, n, k) -> (n, S k)`` float64, segments first for the products."""
    statistics = np.asarray(statistics, dtype=np.float64)
    if statistics.ndim != 3:
        raise ValueError("statistics must have shape (systems, segments, stats)")
    n_systems, n_segments, n_stats = statistics.shape
    return statistics.transpose(1, 0, 2).reshape(n_segments, n_systems * n_stats)


def bootstrap_corpus_scores(
    score_fn: ScoreFunction, statistics: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """Corpus score of every system in every resample: ``(R, S)``.

    ``counts`` ``(R, n)`` says how often each segment is drawn.
    """
    n_systems, _, n_stats = np.shape(statistics)
    summed = np.asarray(counts, dtype=np.float64) @ _as_table(statistics)
    return score_fn(summed.reshape(-1, n_systems, n_stats))


def paired_bootstrap_p_values(
    scores: np.ndarray, samples: np.ndarray, count_ties: bool = True
) -> np.ndarray:
    """p-values of all pairs ``(S, S)`` from scores ``(S,)`` and resampled
    scores ``(R, S)``; NaN on the diagonal."""
    observed = np.abs(scores[:, None] - scores[None, :])
    differences = np.abs(samples[:, :, None] - samples[:, None, :])  # (R, S, S)
    centred = differences - differences.mean(axis=0)
    extreme = centred >= observed if count_ties else centred > observed
    p_values = (extreme.sum(axis=0) + 1.0) / (samples.shape[0] + 1.0)
    np.fill_diagonal(p_values, np.nan)
    return p_values


def bootstrap_wins(samples: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Share of resamples in which system a beats system b: ``(S, S)``."""
    if higher_is_better:
        wins = samples[:, :, None] > samples[:, None, :]
    else:
        wins = samples[:, :, None] < samples[:, None, :]
    return wins.mean(axis=0)


def approximate_randomization_p_values(
    score_fn: ScoreFunction,
    statistics: np.ndarray,
    signs: np.ndarray,
    count_ties: bool = True,
) -> np.ndarray:
    """p-values of all pairs ``(S, S)`` from ``(S, n, k)`` statistics and a
    ±1 swap matrix ``(T, n)``; NaN on the diagonal."""
    n_systems, _, n_stats = np.shape(statistics)
    totals = np.asarray(statistics, dtype=np.float64).sum(axis=1)  # (S, k)
    projected = (np.asarray(signs, dtype=np.float64) @ _as_table(statistics)).reshape(
        -1, n_systems, n_stats
    )  # (T, S, k): the one matrix product
    scores = score_fn(totals)
    n_trials = projected.shape[0]
    p_values = np.full((n_systems, n_systems), np.nan)
    for a in range(n_systems - 1):
        others = slice(a + 1, n_systems)
        both = totals[a] + totals[others]  # (S', k)
        moved = projected[:, a : a + 1, :] - projected[:, others, :]  # (T, S', k)
        shuffled_a = score_fn((both + moved) / 2.0)
        shuffled_b = score_fn((both - moved) / 2.0)
        observed = np.abs(scores[a] - scores[others])
        shuffled = np.abs(shuffled_a - shuffled_b)
        extreme = shuffled >= observed if count_ties else shuffled > observed
        larger = extreme.sum(axis=0)
        p_values[a, others] = p_values[others, a] = (larger + 1.0) / (n_trials + 1.0)
    return p_values


def significance_clusters(
    scores: np.ndarray, p_values: np.ndarray, *, higher_is_better: bool, alpha: float
) -> tuple[tuple[int, ...], ...]:
    """Clusters of system indices, best cluster first (module docstring)."""
    order = np.argsort(-scores if higher_is_better else scores, kind="stable")
    separated = p_values[np.ix_(order, order)] < alpha  # (S, S) in rank order
    clusters: list[tuple[int, ...]] = []
    current: list[int] = []
    for rank, system in enumerate(order):
        current.append(int(system))
        if rank + 1 < order.size and separated[: rank + 1, rank + 1 :].all():
            clusters.append(tuple(current))
            current = []
    if current:
        clusters.append(tuple(current))
    return tuple(clusters)


@dataclass(frozen=True, eq=False)
class SystemComparison:
    """Scores, intervals, p-value matrices and clusters of S systems.

    Matrices are ``(S, S)`` in the order of ``systems``; scores are on the
    metric's scale.
    """

    metric: str
    signature: str
    higher_is_better: bool
    systems: tuple[str, ...]
    scores: np.ndarray  # (S,)
    low: np.ndarray  # (S,) bootstrap interval
    high: np.ndarray  # (S,)
    bootstrap_mean: np.ndarray  # (S,) mean resampled score (sacreBLEU's mu)
    bootstrap_p: np.ndarray  # (S, S) paired bootstrap p-values
    bootstrap_wins: np.ndarray  # (S, S) share of resamples a beats b
    ar_p: np.ndarray | None  # (S, S) approximate randomisation p-values
    bootstrap_clusters: tuple[tuple[str, ...], ...]
    ar_clusters: tuple[tuple[str, ...], ...] | None
    n_segments: int
    n_samples: int
    n_trials: int
    seed: int | None
    confidence: float
    alpha: float

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form; matrices as nested dicts ``[a][b]``."""

        def matrix(values: np.ndarray | None) -> dict[str, dict[str, Any]] | None:
            if values is None:
                return None
            return {
                a: {b: values[i, j] for j, b in enumerate(self.systems) if i != j}
                for i, a in enumerate(self.systems)
            }

        return json_safe(
            {
                "metric": self.metric,
                "signature": self.signature,
                "higher_is_better": self.higher_is_better,
                "n_segments": self.n_segments,
                "n_samples": self.n_samples,
                "n_trials": self.n_trials,
                "seed": self.seed,
                "confidence": self.confidence,
                "alpha": self.alpha,
                "systems": {
                    name: {
                        "score": self.scores[i],
                        "low": self.low[i],
                        "high": self.high[i],
                        "bootstrap_mean": self.bootstrap_mean[i],
                    }
                    for i, name in enumerate(self.systems)
                },
                "bootstrap_p": matrix(self.bootstrap_p),
                "bootstrap_wins": matrix(self.bootstrap_wins),
                "ar_p": matrix(self.ar_p),
                "bootstrap_clusters": [list(c) for c in self.bootstrap_clusters],
                "ar_clusters": (
                    None
                    if self.ar_clusters is None
                    else [list(c) for c in self.ar_clusters]
                ),
            }
        )


def compare_systems(
    metric: Metric,
    systems: Sequence[str],
    statistics: Sequence[np.ndarray],
    *,
    signature: str = "",
    n_samples: int = 1000,
    n_trials: int = 10000,
    seed: Seed = SACREBLEU_SEED,
    confidence: float = 0.95,
    alpha: float = 0.05,
) -> SystemComparison:
    """Compare systems whose per-segment statistics (each ``(n, k)``, from
    ``metric.segment_statistics``) are given in the order of ``systems``.

    ``n_trials = 0`` skips approximate randomisation. The bootstrap and the
    randomisation each draw from their own generator seeded with ``seed``.
    """
    if len(systems) != len(statistics) or len(set(systems)) != len(systems):
        raise ValueError("give one statistics array per system, with distinct names")
    stacked = np.stack([np.asarray(s) for s in statistics])  # (S, n, k)
    score_fn = metric.corpus_scores_from_statistics
    n_segments = stacked.shape[1]
    scores = np.asarray(
        score_fn(stacked.sum(axis=1).astype(np.float64)), dtype=np.float64
    )
    samples = bootstrap_corpus_scores(
        score_fn, stacked, bootstrap_counts(n_segments, n_samples, seed)
    )
    low, high = percentile_interval(samples, confidence)
    bootstrap_p = paired_bootstrap_p_values(scores, samples)
    ar_p = None
    if n_trials > 0:
        signs = random_signs(n_segments, n_trials, seed)
        ar_p = approximate_randomization_p_values(score_fn, stacked, signs)

    def clusters(p_values: np.ndarray) -> tuple[tuple[str, ...], ...]:
        groups = significance_clusters(
            scores, p_values, higher_is_better=metric.higher_is_better, alpha=alpha
        )
        return tuple(tuple(systems[i] for i in group) for group in groups)

    return SystemComparison(
        metric=metric.name,
        signature=signature,
        higher_is_better=metric.higher_is_better,
        systems=tuple(systems),
        scores=scores,
        low=low,
        high=high,
        bootstrap_mean=samples.mean(axis=0),
        bootstrap_p=bootstrap_p,
        bootstrap_wins=bootstrap_wins(samples, metric.higher_is_better),
        ar_p=ar_p,
        bootstrap_clusters=clusters(bootstrap_p),
        ar_clusters=None if ar_p is None else clusters(ar_p),
        n_segments=n_segments,
        n_samples=n_samples,
        n_trials=n_trials,
        seed=seed if isinstance(seed, int) else None,
        confidence=confidence,
        alpha=alpha,
    )
