"""Soft pairwise accuracy (SPA) of a metric against human segment scores.

Thompson, Mathur, Deutsch & Khayrallah (2024), "Improving Statistical
Significance in Human Evaluation of Automatic Metrics via Soft Pairwise
Accuracy" (WMT 2024; the WMT24 metrics task's system-level meta-metric). For
S systems scored on the same segments, and every pair i < j:

- p_h(i, j) is the one-sided p-value of "system i is better than system j"
  from a paired permutation test on the human segment scores, p_m(i, j) the
  same on the metric's segment scores;
- SPA = 1 - mean over the S (S - 1) / 2 pairs of |p_h(i, j) - p_m(i, j)|.

The permutation test, as mt-metrics-eval's ``pce.py`` runs it: the statistic
is the sum over segments of score_i - score_j (the mean times the fixed
number of segments, so the same test); a permutation swaps i's and j's
scores of each segment with probability 1/2, i.e. multiplies the segment's
difference by a random sign; and

    p(i, j) = #{permutations whose statistic >= the observed one} / N,

without the +1 of some other tests (so p can be 0, as in mt-metrics-eval).
Each of the N permutations is ONE ±1 row of signs over the segments, shared
by every pair and by the human and the metric scores (mt-metrics-eval draws
the same masks for both with its fixed seed). With the signs ``(N, n)`` and
the scores ``(S, n)``, one product ``signs @ scores.T`` ``(N, S)`` gives
every system's permuted sum, and a pair's permuted statistic is the
difference of two columns. p(j, i) counts ``<=`` where p(i, j) counts
``>=``: a permuted statistic equal to the observed one counts in both.
"Equal" allows for rounding: a statistic within :data:`TIE_TOLERANCE` of
the pair's summed absolute scores counts as equal (the product and a plain
sum round differently).

The signs are drawn once per input segment (``random_signs(n, N, seed)``), so
a segment keeps its signs whichever other segments are dropped, and the
human p-values are computed once (:func:`human_permutation_test`) for all
the metrics compared with them (:func:`soft_pairwise_accuracy`).

Missing scores are NaN. A system without any human score, or without any
metric score, is left out and listed. Of the systems kept, only the
segments where every one has both a human and a metric score are used; the
others are counted as dropped for a missing human score and/or a missing
metric score (a segment can miss both).

Worked example with all four sign rows of two segments, so the p-values are
exact. Humans: A = [3, 1], B = [1, 2]; A - B = [2, -1], observed 1; the
permuted sums are 1, 3, -3, -1, so p(A, B) = 2/4 and p(B, A) = 3/4. A metric
with A = [1, 0], B = [0, 4] gives A - B = [1, -4], observed -3, permuted -3,
5, -5, 3: p_m(A, B) = 3/4, and SPA = 1 - |0.5 - 0.75| = 0.75::

    >>> import numpy as np
    >>> all_signs = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]])
    >>> human = human_permutation_test(np.array([[3.0, 1.0], [1.0, 2.0]]), signs=all_signs)
    >>> human.p_values.tolist()
    [[nan, 0.5], [0.75, nan]]
    >>> result = soft_pairwise_accuracy(np.array([[1.0, 0.0], [0.0, 4.0]]), human)
    >>> result.spa, result.pair_errors.tolist()
    (0.75, [0.25])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays
from scoring.stats.pairwise_accuracy import system_names, system_pairs
from scoring.stats.resampling import Seed, random_signs

DEFAULT_PERMUTATIONS = 1000
# A permuted statistic this close to the observed one, relative to the
# pair's summed absolute segment scores, is equal to it: BLAS rounding of a
# sum of n terms stays below about n * 1.1e-16 of that magnitude.
TIE_TOLERANCE = 1e-10
# Permutations compared together: bounds the (chunk, S, S) differences.
_CHUNK = 256
P_VALUE_RULE = (
    "one-sided p(i, j) that system i is better than j: the share of the N "
    "permutations whose summed difference i - j is at least the observed one"
)


def _segment_matrix(values: np.ndarray, what: str) -> np.ndarray:
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim != 2:
        raise ScoringError(f"{what} scores must have shape (systems, segments)")
    if np.isinf(matrix).any():
        raise ScoringError(f"{what} scores must be finite or NaN (missing)")
    return matrix


def permutation_p_values(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """One-sided p-values of all system pairs: ``(S, n), (N, n) -> (S, S)``.

    ``p[i, j]`` is the p-value of "system i is better than system j" (module
    docstring); NaN on the diagonal. ``scores`` must be finite.
    """
    scores = np.asarray(scores, dtype=np.float64)
    signs = np.asarray(signs, dtype=np.float64)
    if not np.isfinite(scores).all():
        raise ScoringError("the scores of a permutation test must be finite")
    observed = scores.sum(axis=1)  # (S,)
    observed_differences = observed[:, None] - observed[None, :]  # (S, S)
    magnitude = np.abs(scores).sum(axis=1)
    threshold = observed_differences - TIE_TOLERANCE * (
        magnitude[:, None] + magnitude[None, :]
    )
    permuted = signs @ scores.T  # (N, S): every system's permuted sum
    at_least = np.zeros(observed_differences.shape)
    for start in range(0, permuted.shape[0], _CHUNK):
        chunk = permuted[start : start + _CHUNK]
        differences = chunk[:, :, None] - chunk[:, None, :]  # (chunk, S, S)
        at_least += (differences >= threshold).sum(axis=0)
    p_values = at_least / signs.shape[0]
    np.fill_diagonal(p_values, np.nan)
    return p_values


@dataclass(frozen=True, eq=False)
class HumanPermutationTest:
    """The human side of SPA, computed once for many metrics.

    ``human_scores`` ``(S, n)`` as given (NaN = not judged) and ``signs``
    ``(N, n)``, one ±1 column per input segment. ``judged_systems`` are the
    input positions of the systems with a human score, ``judged_segments``
    those of the segments on which all of them have one, and ``p_values``
    ``(S_judged, S_judged)`` their pairs' p-values on those segments.
    """

    systems: tuple[str, ...]
    human_scores: np.ndarray
    signs: np.ndarray
    seed: int | None
    judged_systems: np.ndarray
    judged_segments: np.ndarray
    p_values: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def n_permutations(self) -> int:
        return int(self.signs.shape[0])

    def p_values_for(self, systems: np.ndarray, segments: np.ndarray) -> np.ndarray:
        """Human p-values of ``systems`` (input positions, all judged) on
        ``segments``: ``(k, k)``; reused when the segments are the judged
        ones (a pair's p-value depends on its two systems only), recomputed
        with the same signs otherwise."""
        if np.array_equal(segments, self.judged_segments):
            rows = np.searchsorted(self.judged_systems, systems)
            return self.p_values[np.ix_(rows, rows)]
        scores = self.human_scores[np.ix_(systems, segments)]
        return permutation_p_values(scores, self.signs[:, segments])

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe summary (the matrices are left out)."""
        return json_safe(
            {
                "systems_judged": [self.systems[i] for i in self.judged_systems],
                "n_segments": self.human_scores.shape[1],
                "n_segments_judged": self.judged_segments.size,
                "n_permutations": self.n_permutations,
                "seed": self.seed,
                "p_value": P_VALUE_RULE,
            }
        )


def _checked_signs(signs: np.ndarray, n_segments: int) -> np.ndarray:
    signs = np.asarray(signs, dtype=np.float64)
    if signs.ndim != 2 or signs.shape[1] != n_segments or signs.shape[0] < 1:
        raise ScoringError(f"signs must have shape (permutations, {n_segments})")
    if not np.isin(signs, (-1.0, 1.0)).all():
        raise ScoringError("signs must be +1 (keep) or -1 (swap)")
    return signs


def human_permutation_test(
    human_scores: np.ndarray,
    *,
    systems: Sequence[str] | None = None,
    n_permutations: int = DEFAULT_PERMUTATIONS,
    seed: Seed = 1,
    signs: np.ndarray | None = None,
) -> HumanPermutationTest:
    """Draw the shared signs and the human p-values of all judged pairs.

    ``human_scores`` ``(S, n)``: human segment scores, higher is better, NaN
    where a segment was not judged. ``signs`` ``(N, n)`` of ±1 replaces the
    ``n_permutations`` rows drawn from ``seed`` (e.g. every sign pattern of
    a few segments, for exact p-values); the seed is then not recorded.
    """
    human = _segment_matrix(human_scores, "human")
    names = system_names(systems, human.shape[0])
    if signs is None:
        signs = random_signs(human.shape[1], n_permutations, seed)
        recorded_seed = int(seed) if isinstance(seed, (int, np.integer)) else None
    else:
        signs, recorded_seed = _checked_signs(signs, human.shape[1]), None
    has_score = ~np.isnan(human)
    judged_systems = np.flatnonzero(has_score.any(axis=1))
    judged_segments = np.flatnonzero(has_score[judged_systems].all(axis=0))
    scores = human[np.ix_(judged_systems, judged_segments)]
    return HumanPermutationTest(
        systems=names,
        human_scores=human,
        signs=signs,
        seed=recorded_seed,
        judged_systems=judged_systems,
        judged_segments=judged_segments,
        p_values=permutation_p_values(scores, signs[:, judged_segments]),
    )


@dataclass(frozen=True, eq=False)
class SoftPairwiseAccuracy:
    """SPA of one metric, with the pairs, segments and systems behind it.

    ``spa`` is 0-1 (NaN with fewer than two systems or no segment left).
    ``pairs`` ``(P, 2)`` holds the input positions of each pair's systems,
    ``pair_errors`` ``(P,)`` its |p_h - p_m| (kept for a permutation test
    between metrics), ``human_p_values`` and ``metric_p_values``
    ``(k, k)`` the p-values of the k systems used, in ``systems_used``
    order. ``segments_used`` are input positions. Arrays are not part of
    ``to_dict`` except the segments used.
    """

    spa: float
    n_pairs: int
    systems_used: tuple[str, ...]
    systems_without_human: tuple[str, ...]
    systems_without_metric: tuple[str, ...]
    n_segments: int
    segments_used: np.ndarray
    segments_missing_human: int
    segments_missing_metric: int
    n_permutations: int
    seed: int | None
    pairs: np.ndarray
    pair_errors: np.ndarray
    human_p_values: np.ndarray
    metric_p_values: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def segments_dropped(self) -> int:
        return self.n_segments - int(self.segments_used.size)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes None)."""
        return json_safe(
            {
                "spa": self.spa,
                "n_pairs": self.n_pairs,
                "n_permutations": self.n_permutations,
                "seed": self.seed,
                "p_value": P_VALUE_RULE,
                "systems_used": self.systems_used,
                "systems_left_out": {
                    "no_human_score": self.systems_without_human,
                    "no_metric_score": self.systems_without_metric,
                },
                "segments": {
                    "n_input": self.n_segments,
                    "n_used": self.segments_used.size,
                    "n_dropped": self.segments_dropped,
                    "missing_human_score": self.segments_missing_human,
                    "missing_metric_score": self.segments_missing_metric,
                    "used": self.segments_used,
                },
            }
        )


def soft_pairwise_accuracy(
    metric_scores: np.ndarray, human: HumanPermutationTest
) -> SoftPairwiseAccuracy:
    """SPA of a metric's segment scores ``(S, n)`` (NaN = not scored),
    aligned with the human test's systems and segments, higher is better."""
    metric = _segment_matrix(metric_scores, "metric")
    if metric.shape != human.human_scores.shape:
        raise ScoringError(
            f"metric scores must have the human scores' shape "
            f"{human.human_scores.shape}, not {metric.shape}"
        )
    judged = human.judged_systems
    scored = ~np.isnan(metric[judged]).all(axis=1)
    kept = judged[scored]
    has_human = ~np.isnan(human.human_scores[kept]).any(axis=0)  # (n,)
    has_metric = ~np.isnan(metric[kept]).any(axis=0)
    used = np.flatnonzero(has_human & has_metric)
    human_p = human.p_values_for(kept, used)
    metric_p = permutation_p_values(metric[np.ix_(kept, used)], human.signs[:, used])
    local_pairs = system_pairs(kept.size)
    first, second = local_pairs[:, 0], local_pairs[:, 1]
    errors = np.abs(human_p[first, second] - metric_p[first, second])
    defined = errors.size > 0 and used.size > 0
    without_human = np.setdiff1d(np.arange(metric.shape[0]), judged)
    return SoftPairwiseAccuracy(
        spa=float(1.0 - errors.mean()) if defined else float("nan"),
        n_pairs=int(errors.size),
        systems_used=tuple(human.systems[i] for i in kept),
        systems_without_human=tuple(human.systems[i] for i in without_human),
        systems_without_metric=tuple(human.systems[i] for i in judged[~scored]),
        n_segments=int(metric.shape[1]),
        segments_used=used,
        segments_missing_human=int((~has_human).sum()),
        segments_missing_metric=int((~has_metric).sum()),
        n_permutations=human.n_permutations,
        seed=human.seed,
        pairs=kept[local_pairs],
        pair_errors=errors,
        human_p_values=human_p,
        metric_p_values=metric_p,
    )
