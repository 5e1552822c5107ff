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
- Both tests are two-sided: they ask whether the two systems differ, in
  either direction (the absolute difference).
- Multiple comparisons: the S (S - 1) / 2 p-values of all pairs are one
  family. :func:`adjust_p_values` gives Holm's step-down adjusted p-values
  (the default), Bonferroni's, or leaves them as they are (``none``); the
  raw matrices are kept as well.
- Significance clusters (:func:`significance_clusters`): walk down the
  systems ranked by score; the next system starts a new cluster when it
  differs significantly (adjusted p < alpha) from ANY member of the current
  cluster. So no two systems of a cluster differ significantly under the
  correction used. The walk reads the ranking top-down, as WMT's ranks do: a
  system starts a new cluster even when it differs from only one member of
  the current one (the old rule instead drew a boundary only where every
  system above differed from every system below, and so could join A and C
  at p = 0.0003 through a B close to both).

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
# Family-wise corrections of the all-pairs p-values; Holm is the default
# (uniformly more powerful than Bonferroni, with the same guarantee).
CORRECTIONS = ("holm", "bonferroni", "none")
DEFAULT_CORRECTION = "holm"
CORRECTION_LABELS = {
    "holm": "Holm",
    "bonferroni": "Bonferroni",
    "none": "no correction",
}
# Both paired tests of this module are two-sided (module docstring).
SIDED = "two-sided"


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


def holm_bonferroni(p_values: np.ndarray, correction: str) -> np.ndarray:
    """Adjusted p-values of one family ``(m,) -> (m,)``; NaN stays NaN and
    does not count in the family.

    Holm: sort ascending, multiply the i-th smallest (from 1) by m - i + 1,
    carry the running maximum forward and cap at 1. Bonferroni: multiply
    every p by m and cap at 1. Worked example (m = 3)::

        p         0.01  0.04  0.03
        sorted    0.01  0.03  0.04   times 3, 2, 1 -> 0.03 0.06 0.04
        running max                                 -> 0.03 0.06 0.06
        Holm      0.03  0.06  0.06   Bonferroni 0.03 0.12 0.09
    """
    if correction not in CORRECTIONS:
        raise ValueError(
            f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    p_values = np.asarray(p_values, dtype=np.float64)
    adjusted = p_values.copy()
    tested = np.flatnonzero(~np.isnan(p_values))
    m = tested.size
    if correction == "none" or m == 0:
        return adjusted
    if correction == "bonferroni":
        adjusted[tested] = np.minimum(1.0, p_values[tested] * m)
        return adjusted
    order = tested[np.argsort(p_values[tested], kind="stable")]
    stepped = p_values[order] * np.arange(m, 0, -1)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(stepped))
    return adjusted


def adjust_p_values(p_values: np.ndarray, correction: str) -> np.ndarray:
    """The symmetric ``(S, S)`` matrix of all pairs adjusted as one family of
    S (S - 1) / 2 tests (:func:`holm_bonferroni`); NaN on the diagonal."""
    p_values = np.asarray(p_values, dtype=np.float64)
    upper = np.triu_indices(p_values.shape[0], k=1)
    adjusted = np.full(p_values.shape, np.nan)
    adjusted[upper] = holm_bonferroni(p_values[upper], correction)
    adjusted.T[upper] = adjusted[upper]
    return adjusted


def smallest_adjusted_p(n_draws: int, n_systems: int, correction: str) -> float:
    """The smallest p-value a Monte Carlo test of ``n_draws`` resamples or
    trials can give, 1 / (n_draws + 1), after ``correction`` over all pairs
    of ``n_systems``: Holm's and Bonferroni's smallest is m / (n_draws + 1)
    for m pairs. When it is not below alpha no pair can be separated, however
    different the systems (23 systems: 253 pairs need more than 5,059
    resamples at alpha 0.05)."""
    if correction not in CORRECTIONS:
        raise ValueError(
            f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}"
        )
    pairs = n_systems * (n_systems - 1) // 2
    family = 1 if correction == "none" else max(pairs, 1)
    return min(1.0, family / (n_draws + 1.0))


def significance_clusters(
    scores: np.ndarray, p_values: np.ndarray, *, higher_is_better: bool, alpha: float
) -> tuple[tuple[int, ...], ...]:
    """Clusters of system indices, best cluster first (module docstring).

    ``p_values`` ``(S, S)`` are those the clusters must respect (adjusted
    for multiple comparisons by the caller); NaN (no test) never separates.
    Guarantee: no two systems of one cluster have p < alpha.
    """
    order = np.argsort(-scores if higher_is_better else scores, kind="stable")
    separated = np.asarray(p_values, dtype=np.float64) < alpha  # NaN: False
    clusters: list[tuple[int, ...]] = []
    current: list[int] = []
    for system in order:
        if current and separated[int(system), current].any():
            clusters.append(tuple(current))
            current = []
        current.append(int(system))
    if current:
        clusters.append(tuple(current))
    return tuple(clusters)


def paired_mean_randomization_p_values(
    segment_scores: np.ndarray, signs: np.ndarray
) -> np.ndarray:
    """Two-sided paired approximate randomisation of mean segment scores
    (human judgments), each pair over the segments judged for both.

    ``segment_scores`` ``(S, n)`` hold NaN where a system's segment was not
    judged; ``signs`` ``(T, n)`` is a ±1 swap matrix. For a pair, d is the
    per-segment difference on the common segments and p = (#{|sum(s d)| >=
    |sum(d)|} + 1) / (T + 1): swapping a segment's two scores flips its d.
    Returns ``(S, S)``, NaN on the diagonal and for pairs judged on no common
    segment.
    """
    scores = np.asarray(segment_scores, dtype=np.float64)
    signs = np.asarray(signs, dtype=np.float64)
    n_systems = scores.shape[0]
    n_trials = signs.shape[0]
    p_values = np.full((n_systems, n_systems), np.nan)
    for a in range(n_systems - 1):
        others = slice(a + 1, n_systems)
        differences = scores[a] - scores[others]  # (S', n), NaN where not common
        common = ~np.isnan(differences)
        differences = np.where(common, differences, 0.0)
        observed = np.abs(differences.sum(axis=1))  # (S',)
        shuffled = np.abs(signs @ differences.T)  # (T, S')
        # The identity swap gives the observed sum up to rounding (BLAS sums
        # in another order): allow that much so it counts as a tie.
        slack = 1e-9 * np.abs(differences).sum(axis=1)
        larger = (shuffled >= observed - slack).sum(axis=0)
        pair = (larger + 1.0) / (n_trials + 1.0)
        pair[common.sum(axis=1) == 0] = np.nan
        p_values[a, others] = p_values[others, a] = pair
    return p_values


@dataclass(frozen=True, eq=False)
class SystemComparison:
    """Scores, intervals, p-value matrices and clusters of S systems.

    Matrices are ``(S, S)`` in the order of ``systems``; scores are on the
    metric's scale. Intervals are two-sided percentile bootstrap intervals;
    both tests are two-sided. ``bootstrap_p`` / ``ar_p`` are the raw
    p-values, ``*_adjusted`` those adjusted by ``correction`` over all pairs,
    which the clusters respect.
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
    correction: str = DEFAULT_CORRECTION
    bootstrap_p_adjusted: np.ndarray | None = None  # (S, S)
    ar_p_adjusted: np.ndarray | None = None  # (S, S)

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
                "sided": SIDED,
                "interval": f"{SIDED} percentile bootstrap",
                "correction": self.correction,
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
                "bootstrap_p_adjusted": matrix(self.bootstrap_p_adjusted),
                "ar_p_adjusted": matrix(self.ar_p_adjusted),
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
    correction: str = DEFAULT_CORRECTION,
) -> SystemComparison:
    """Compare systems whose per-segment statistics (each ``(n, k)``, from
    ``metric.segment_statistics``) are given in the order of ``systems``.

    ``n_trials = 0`` skips approximate randomisation. The bootstrap and the
    randomisation each draw from their own generator seeded with ``seed``.
    Clusters respect the p-values adjusted by ``correction`` (``holm``,
    ``bonferroni`` or ``none``) over all pairs.
    """
    if len(systems) != len(statistics) or len(set(systems)) != len(systems):
        raise ValueError("give one statistics array per system, with distinct names")
    if correction not in CORRECTIONS:
        raise ValueError(
            f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}"
        )
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
    bootstrap_adjusted = adjust_p_values(bootstrap_p, correction)
    ar_adjusted = None if ar_p is None else adjust_p_values(ar_p, correction)

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
        bootstrap_clusters=clusters(bootstrap_adjusted),
        ar_clusters=None if ar_adjusted is None else clusters(ar_adjusted),
        n_segments=n_segments,
        n_samples=n_samples,
        n_trials=n_trials,
        seed=seed if isinstance(seed, int) else None,
        confidence=confidence,
        alpha=alpha,
        correction=correction,
        bootstrap_p_adjusted=bootstrap_adjusted,
        ar_p_adjusted=ar_adjusted,
    )
