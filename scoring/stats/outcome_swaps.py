"""Permutation draws that swap per-pair outcomes between two metrics.

Some statistics cannot swap metric scores. acc_eq and tau_23 with tie
calibration (Deutsch, Foster & Freitag 2023) give each metric its own
epsilon (metric scores closer than it count as a tie); a score of Y placed
among X's scores would be judged with the wrong epsilon. So, as
mt-metrics-eval's ``PairwisePermutationSigDiff`` does for WMT23/24, each
metric's outcome on every compared pair is computed once, with its own
epsilon, and a draw swaps the two metrics' *outcomes*: pair k of X' has Y's
outcome where the mask says so. Soft pairwise accuracy (Thompson et al.
2024) fits the same frame with one term 1 - |p_h - p_m| per system pair.

``outcomes`` ``(M, K)`` holds what pair k contributes for metric m (acc_eq:
1 if the metric orders the pair as the humans do, ties included, else 0;
tau_23: +1 or -1; SPA: 1 - |p_h - p_m|). The statistic is the mean over
groups of each group's mean (grouping ``"item"``: the pairs of systems on one
segment; ``"none"``: all pairs in one group), as mt-metrics-eval averages
per-item accuracies. The ``unit`` swapped: ``"pair"`` (default, every pair
on its own, as WMT does) or ``"group"`` (all pairs of a group together).

With weight c_k = 1 / (G n_g(k)) of pair k in a group of n_g pairs out of G
groups, stat(m) = sum_k c_k v_mk, and a draw w (1 = swap) moves
Q_m = sum_k w_k c_k v_mk: stat(X') = stat(X) + Q_Y - Q_X, so
stat(X') - stat(Y') = stat(X) - stat(Y) + 2 (Q_Y - Q_X). One matrix product
masks @ (c v)^T gives Q for every metric and draw; pairs on which every
metric has the same outcome cancel and are left out of it. When the outcomes
take two values (acc_eq, tau_23) and single pairs are swapped, Q is counted
instead: AND of the bit-packed masks with each metric's bit-packed outcomes,
popcount, one count per weight c (exact integers; at WMT size, 380,000
pairs, about fifty times faster than the product). A function
``statistic(outcomes (B, K)) -> (B,)`` can replace the mean (then each
draw's hybrid outcomes are built and the function is called on them).

Worked example: two groups, metric A right on 3 of 3 and 1 of 1 pairs, B on
1 of 3 and 0 of 1: acc_eq (1 + 1)/2 = 1.0 and (1/3 + 0)/2 = 1/6. Swapping the
lone pair of group 2 gives A' = (1 + 0)/2 and B' = (1/3 + 1)/2, a difference
of -1/6; swapping the second pair gives A' = (2/3 + 1)/2 = 5/6 and
B' = (2/3 + 0)/2 = 1/3::

    >>> test = OutcomeSwap([[1, 1, 1, 1], [1, 0, 0, 0]], ("A", "B"),
    ...                    groups=[1, 1, 1, 2], grouping="item")
    >>> test.values.round(4).tolist()
    [1.0, 0.1667]
    >>> masks = np.array([[0, 0, 0, 1], [0, 1, 0, 0]], dtype=bool)
    >>> test.null_differences(masks, np.array([0]), np.array([1])).round(4).ravel()
    array([-0.1667,  0.5   ])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from scoring.errors import ScoringError
from scoring.stats.metric_swaps import ACCURACY_RANGE, check_metrics
from scoring.stats.swap_statistics import CHUNK_ELEMENTS, chunks

OUTCOME_UNITS = ("pair", "group")
OutcomeStatistic = Callable[[np.ndarray], np.ndarray]


def _packed_words(bits: np.ndarray) -> np.ndarray:
    """Rows of booleans as 64-bit words, bit k of a row in word k // 64
    (little-endian bit order): ``(R, K) -> (R, ceil(K / 64))`` uint64."""
    packed = np.packbits(bits, axis=1, bitorder="little")
    padding = -packed.shape[1] % 8
    if padding:
        packed = np.pad(packed, ((0, 0), (0, padding)))
    return np.ascontiguousarray(packed).view(np.uint64)


class _BitCounts:
    """sum_k w_k c_k b_mk of every draw and metric for binary b, counted with
    AND and popcount on packed words (exact: integer counts per weight).

    Pairs are split by weight c (one class per group size); each class keeps
    the word range its pairs span.
    """

    def __init__(self, bits: np.ndarray, weights: np.ndarray) -> None:
        self.n_metrics = bits.shape[0]
        self.classes = []
        class_weights, class_of_pair = np.unique(weights, return_inverse=True)
        for index, weight in enumerate(class_weights):
            members = class_of_pair.reshape(-1) == index
            columns = np.flatnonzero(members)
            low, high = columns[0] // 64, columns[-1] // 64 + 1
            words = _packed_words(bits & members)[:, low:high]  # (M, w)
            self.classes.append((float(weight), low, high, words))

    def weighted_counts(self, masks: np.ndarray) -> np.ndarray:
        """``(D, K)`` bool masks -> ``(D, M)``."""
        swapped = _packed_words(masks)
        out = np.zeros((masks.shape[0], self.n_metrics))
        for weight, low, high, words in self.classes:
            window = swapped[:, low:high]
            for metric in range(self.n_metrics):
                counts = np.bitwise_count(window & words[metric]).sum(
                    axis=1, dtype=np.int64
                )
                out[:, metric] += weight * counts
        return out


class OutcomeSwap:
    """Per-pair outcomes swapped between two metrics (module docstring).

    ``outcomes`` ``(M, K)``; ``groups`` ``(K,)`` labels the group of each
    pair (None: one group); ``grouping`` names what the groups are;
    ``epsilons`` records each metric's tie threshold behind its outcomes.
    """

    swapped = "outcomes"

    def __init__(
        self,
        outcomes: np.ndarray | Sequence[Sequence[float]],
        metrics: Sequence[str],
        *,
        groups: np.ndarray | Sequence[object] | None = None,
        grouping: str = "none",
        unit: str = "pair",
        statistic: str | OutcomeStatistic = "acc_eq",
        value_range: tuple[float, float] = ACCURACY_RANGE,
        epsilons: Mapping[str, float] | None = None,
    ) -> None:
        outcomes = np.asarray(outcomes, dtype=np.float64)
        if outcomes.ndim != 2 or outcomes.shape[1] < 1:
            raise ScoringError("outcomes must be (metrics, pairs) with some pairs")
        if not np.isfinite(outcomes).all():
            raise ScoringError("every metric needs a finite outcome on every pair")
        self.metrics = check_metrics(metrics, outcomes.shape[0])
        if unit not in OUTCOME_UNITS:
            raise ScoringError(f"unknown unit {unit!r}; valid: {OUTCOME_UNITS}")
        if (groups is None) != (grouping == "none"):
            raise ScoringError("give group labels exactly when grouping is not none")
        n_pairs = outcomes.shape[1]
        labels = np.zeros(n_pairs) if groups is None else np.asarray(groups)
        if labels.shape != (n_pairs,):
            raise ScoringError(f"give one group label per pair ({n_pairs})")
        _, group_of_pair = np.unique(labels, return_inverse=True)
        group_of_pair = group_of_pair.reshape(-1)
        sizes = np.bincount(group_of_pair)
        self.grouping, self.unit, self.value_range = grouping, unit, value_range
        self.epsilons = dict(epsilons or {})
        self.n_pairs, self.n_groups = n_pairs, sizes.size
        self.outcomes = outcomes
        self.outcomes.setflags(write=False)
        weights = 1.0 / (sizes.size * sizes[group_of_pair])  # (K,) c_k
        if callable(statistic):
            self.statistic = getattr(statistic, "__name__", "custom")
            self._function: OutcomeStatistic | None = statistic
            self.values = np.asarray(statistic(outcomes), dtype=np.float64)
        else:
            self.statistic, self._function = statistic, None
            self.values = outcomes @ weights
        self.values.setflags(write=False)
        self._units = np.arange(n_pairs) if unit == "pair" else group_of_pair
        self.n_units = n_pairs if unit == "pair" else sizes.size
        self._bit_counts: _BitCounts | None = None
        self._moved = np.zeros((0, len(self.metrics)))
        self._informative = np.zeros(0, dtype=np.int64)
        if self._function is not None:
            return
        levels = np.unique(outcomes)
        if unit == "pair" and levels.size == 2:
            self._bit_counts = _BitCounts(outcomes == levels[1], weights)
            self._step = float(levels[1] - levels[0])
            return
        weighted = outcomes * weights  # (M, K)
        if unit == "group":
            weighted = np.stack(
                [np.bincount(group_of_pair, weights=row) for row in weighted]
            )  # (M, G)
        # Units on which every metric contributes the same cancel in every
        # difference: the product needs only the others.
        self._informative = np.flatnonzero(~(weighted == weighted[:1]).all(axis=0))
        self._moved = np.ascontiguousarray(weighted[:, self._informative].T)

    def null_differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray:
        """stat(X') - stat(Y') for X = ``first[q]``, Y = ``second[q]`` when
        the units where ``masks`` is True are swapped: ``(D, U) -> (D, Q)``."""
        masks = np.asarray(masks, dtype=bool)
        if masks.ndim != 2 or masks.shape[1] != self.n_units:
            raise ValueError(f"masks must have shape (draws, {self.n_units})")
        if self._function is not None:
            return self._recomputed_differences(masks, first, second)
        observed = self.values[first] - self.values[second]
        if self._bit_counts is not None:
            moved = self._step * self._bit_counts.weighted_counts(masks)
            return observed + 2.0 * (moved[:, second] - moved[:, first])
        out = np.empty((masks.shape[0], first.size))
        width = max(1, self._informative.size)
        for draws in chunks(masks.shape[0], CHUNK_ELEMENTS // width):
            swapped = masks[draws][:, self._informative].astype(np.float64)
            moved = swapped @ self._moved  # (d, M) Q of every metric
            out[draws] = observed + 2.0 * (moved[:, second] - moved[:, first])
        return out

    def _recomputed_differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray:
        assert self._function is not None
        swapped = masks[:, self._units]  # (D, K)
        out = np.empty((masks.shape[0], first.size))
        for pairs in chunks(first.size, CHUNK_ELEMENTS // (2 * swapped.size)):
            a = self.outcomes[first[pairs]][None]  # (1, q, K)
            b = self.outcomes[second[pairs]][None]
            where = swapped[:, None]  # (D, 1, K)
            batch = np.concatenate([np.where(where, b, a), np.where(where, a, b)])
            values = self._function(batch.reshape(-1, self.n_pairs))
            values = np.asarray(values).reshape(2, masks.shape[0], -1)
            out[:, pairs] = values[0] - values[1]
        return out
