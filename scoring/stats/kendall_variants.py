"""Segment-level Kendall variants over pairs, grouped as WMT groups them.

Deutsch, Foster & Freitag (2023), "Ties Matter: Meta-Evaluating Modern
Metrics with Pairwise Accuracy and Tie Calibration". Scores come as two
``(systems, segments)`` arrays, metric and human, NaN where missing; a pair
with a missing human or metric score on either side is not counted.

Groupings (``group_by``):

- ``none``: every pair of (system, segment) points, pooled;
- ``item``: pairs of systems within one segment; one statistic per segment,
  averaged over the segments where it is defined (the WMT default);
- ``system``: pairs of segments within one system, averaged over systems.

Each counted pair is concordant (C), discordant (D), tied in the human scores
only (T_h), in the metric scores only (T_m) or in both (T_hm). Human ties are
exact equality; a metric tie is ``|m_i - m_j| <= epsilon`` (0 by default).
Per group:

- ``b``: tau_b = (C - D) / sqrt((C + D + T_h)(C + D + T_m));
- ``c``: Stuart's tau_c = 2 (C - D) / (n^2 (k - 1) / k), n the points of the
  group, k the smaller number of distinct human or metric values (as
  ``scipy.stats.kendalltau(variant="c")``; ``epsilon`` must be 0: a
  thresholded metric has no number of distinct values);
- ``23``: tau_23 = (C + T_hm - D - T_h - T_m) / (C + D + T_h + T_m + T_hm);
- ``acc23``: acc_eq = (C + T_hm) / (C + D + T_h + T_m + T_hm), the pairwise
  accuracy that rewards a metric for predicting the human ties.

A group's tau_b or tau_c is undefined when its denominator is 0 (all its
metric or all its human scores tied), tau_23 and acc_eq when it has no pair;
undefined groups are left out of the average (as mt-metrics-eval does).

Worked example: 3 systems x 2 segments, grouped by item. Segment 1 has human
(2, 1, 1) and metric (0.9, 0.5, 0.5): pairs (1,2) C, (1,3) C, (2,3) T_hm.
Segment 2 has human (3, 2, 1) and metric (0.7, 0.8, 0.1): (1,2) D, (1,3) C,
(2,3) C. acc_eq = (3/3 + 2/3) / 2::

    >>> import numpy as np
    >>> human = np.array([[2.0, 3.0], [1.0, 2.0], [1.0, 1.0]])
    >>> metric = np.array([[0.9, 0.7], [0.5, 0.8], [0.5, 0.1]])
    >>> round(kendall_variant(metric, human, "acc23").statistic, 4)
    0.8333
    >>> round(kendall_variant(metric, human, "23").statistic, 4)  # (1 + 1/3) / 2
    0.6667
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.results import json_safe

VARIANTS = ("b", "c", "23", "acc23")
GROUPINGS = ("none", "item", "system")
# What a pair is (pair_codes); the order of the counts in PairCounts.
CONCORDANT, DISCORDANT, HUMAN_TIE, METRIC_TIE, BOTH_TIE = range(5)
NOT_COUNTED = -1  # a score is missing on one side
# pair_codes' table: by (metric tied, human tied, orders agree), then missing.
_OUTCOME_TABLE = np.array(
    [DISCORDANT, CONCORDANT, HUMAN_TIE, HUMAN_TIE, METRIC_TIE, METRIC_TIE]
    + [BOTH_TIE, BOTH_TIE]
    + [NOT_COUNTED] * 8,
    dtype=np.int8,
)
_N_CODES = 5
# Pairs x groups handled at once: bounds the memory of the pooled grouping,
# whose pairs grow with the square of the points.
_BATCH = 1 << 21


def check_choice(value: str, valid: tuple[str, ...], what: str) -> str:
    """``value`` if it is one of ``valid``, else a ValueError naming them."""
    if value not in valid:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(valid)}")
    return value


def check_scores(metric: Any, human: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both score arrays as float64 ``(systems, segments)``, NaN = missing."""
    metric = np.asarray(metric, dtype=np.float64)
    human = np.asarray(human, dtype=np.float64)
    if metric.ndim != 2 or metric.shape != human.shape:
        raise ValueError(
            "metric and human scores must be two (systems, segments) arrays "
            "of the same shape"
        )
    if np.isinf(metric).any() or np.isinf(human).any():
        raise ValueError("scores must be finite numbers, or NaN where missing")
    return metric, human


def by_group(matrix: np.ndarray, group_by: str) -> np.ndarray:
    """``(systems, segments)`` -> ``(members, groups)``: column g holds the
    points of group g (item: a segment's systems; system: a system's
    segments; none: every point, system by system, in one column)."""
    check_choice(group_by, GROUPINGS, "grouping")
    if group_by == "item":
        return matrix
    if group_by == "system":
        return matrix.T
    return matrix.reshape(-1, 1)


def pair_rows(n_members: int, n_groups: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Member indices ``(first, second)``, first < second, of every pair in
    lexicographic order, in batches of about ``_BATCH / n_groups`` pairs."""
    per_first = np.arange(n_members - 1, 0, -1, dtype=np.int64)  # n-1, ..., 1
    ends = np.cumsum(per_first)
    rows = max(1, _BATCH // max(n_groups, 1))
    start = 0
    while start < n_members - 1:
        done = int(ends[start - 1]) if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, done + rows, side="right")))
        counts = per_first[start:stop]
        first = np.repeat(np.arange(start, stop, dtype=np.int64), counts)
        offsets = np.arange(first.size) - np.repeat(np.cumsum(counts) - counts, counts)
        yield first, first + 1 + offsets
        start = stop


def pair_codes(
    metric_differences: np.ndarray, human_signs: np.ndarray, epsilon: float = 0.0
) -> np.ndarray:
    """What each pair is at threshold ``epsilon``: int8 codes, same shape.

    ``metric_differences`` are m_i - m_j (NaN where a metric score is
    missing), ``human_signs`` sign(h_i - h_j) (NaN where missing); the codes
    are CONCORDANT, DISCORDANT, HUMAN_TIE, METRIC_TIE, BOTH_TIE, NOT_COUNTED.
    """
    if not epsilon >= 0:
        raise ValueError(f"epsilon must be a non-negative number, not {epsilon!r}")
    differences = np.asarray(metric_differences, dtype=np.float64)
    signs = np.asarray(human_signs)
    # Index a table of outcomes by four bits: missing, metric tied, human
    # tied, orders agree (an untied metric pair has d != 0, so its sign is
    # the metric's order).
    index = (np.isnan(differences) | np.isnan(signs)).astype(np.uint8) << 3
    index |= (np.abs(differences) <= epsilon).astype(np.uint8) << 2
    index |= (signs == 0).astype(np.uint8) << 1
    index |= ((differences > 0) == (signs > 0)).astype(np.uint8)
    return _OUTCOME_TABLE[index]


def group_values(
    counts: np.ndarray,
    variant: str,
    points: np.ndarray | None = None,
    distinct: np.ndarray | None = None,
) -> np.ndarray:
    """Each group's statistic from its counts: ``(..., G, 5) -> (..., G)``.

    NaN where undefined. Variant ``c`` also needs each group's number of
    points and smaller number of distinct values, ``(..., G)`` each.
    """
    check_choice(variant, VARIANTS, "Kendall variant")
    c, d, t_h, t_m, t_hm = np.moveaxis(counts.astype(np.float64), -1, 0)
    total = c + d + t_h + t_m + t_hm
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            denominator = np.sqrt(c + d + t_h) * np.sqrt(c + d + t_m)
            values = (c - d) / denominator
        elif variant == "c":
            if points is None or distinct is None:
                raise ValueError("tau_c needs the points and distinct values per group")
            denominator = points**2 * (distinct - 1.0) / distinct
            denominator = np.where(total > 0, denominator, 0.0)
            values = 2.0 * (c - d) / denominator
        elif variant == "23":
            denominator = total
            values = (c + t_hm - d - t_h - t_m) / total
        else:
            denominator = total
            values = (c + t_hm) / total
    return np.where(denominator > 0, values, np.nan)


def average_groups(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean over the defined groups, and how many: ``(..., G) -> (...), (...)``."""
    defined = ~np.isnan(values)
    n_defined = defined.sum(axis=-1)
    total = np.where(defined, values, 0.0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n_defined > 0, total / np.maximum(n_defined, 1), np.nan)
    return mean, n_defined


def group_counts(codes: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Pairs of each outcome per group: codes ``(..., P)`` -> ``(..., G, 5)``.

    ``groups`` ``(P,)`` is the group of each pair; NOT_COUNTED pairs are
    left out.
    """
    codes = np.asarray(codes)
    groups = np.asarray(groups, dtype=np.int64)
    n_rows = math.prod(codes.shape[:-1])
    rows = codes.reshape(n_rows, codes.shape[-1])
    counts = np.zeros((n_rows, n_groups, _N_CODES), dtype=np.int64)
    if groups.size and (groups[1:] >= groups[:-1]).all():
        # Pairs in group order: one sum per run of a group, per outcome.
        present, starts = np.unique(groups, return_index=True)
        for code in range(_N_CODES):
            counts[:, present, code] = np.add.reduceat(
                rows == code, starts, axis=1, dtype=np.int64
            )
    elif groups.size:
        # One bincount for every (row, group, code) at once.
        keys = (
            np.arange(n_rows, dtype=np.int64)[:, None] * (n_groups * _N_CODES)
            + groups[None, :] * _N_CODES
            + rows
        )[rows >= 0]
        counts += np.bincount(keys, minlength=counts.size).reshape(counts.shape)
    return counts.reshape(codes.shape[:-1] + (n_groups, _N_CODES))


@dataclass(frozen=True)
class PairCounts:
    """Pairs by outcome, summed over the groups."""

    concordant: int
    discordant: int
    human_ties: int
    metric_ties: int
    both_ties: int

    @classmethod
    def from_array(cls, counts: np.ndarray) -> PairCounts:
        """From per-group counts ``(G, 5)``."""
        return cls(*(int(value) for value in np.asarray(counts).sum(axis=0)))

    @property
    def total(self) -> int:
        return (
            self.concordant
            + self.discordant
            + self.human_ties
            + self.metric_ties
            + self.both_ties
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "concordant": self.concordant,
            "discordant": self.discordant,
            "human_ties": self.human_ties,
            "metric_ties": self.metric_ties,
            "both_ties": self.both_ties,
        }


@dataclass(frozen=True)
class KendallVariant:
    """A grouped Kendall variant of a metric against human scores.

    ``n_groups`` counts the groups averaged (those where the statistic is
    defined), ``n_pairs`` the pairs counted in all groups, ``n_dropped`` the
    pairs of the grouping left out for a missing score.
    """

    statistic: float
    variant: str
    group_by: str
    epsilon: float
    n_groups: int
    n_pairs: int
    n_dropped: int
    counts: PairCounts

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes None)."""
        return json_safe(
            {
                "statistic": self.statistic,
                "variant": self.variant,
                "group_by": self.group_by,
                "epsilon": self.epsilon,
                "n_groups": self.n_groups,
                "n_pairs": self.n_pairs,
                "n_dropped": self.n_dropped,
                "counts": self.counts.to_dict(),
            }
        )


def _distinct_per_group(values: np.ndarray, complete: np.ndarray) -> np.ndarray:
    """Distinct values among each column's complete points: ``(n, G) -> (G,)``."""
    ordered = np.sort(np.where(complete, values, np.nan), axis=0)  # NaN last
    changes = (ordered[1:] != ordered[:-1]) & ~np.isnan(ordered[1:])
    return changes.sum(axis=0) + (complete.sum(axis=0) > 0)


def kendall_variant(
    metric: np.ndarray,
    human: np.ndarray,
    variant: str = "b",
    group_by: str = "item",
    epsilon: float = 0.0,
) -> KendallVariant:
    """Kendall ``variant`` of ``metric`` against ``human`` grouped by ``group_by``.

    ``metric``, ``human``: ``(systems, segments)`` floats, NaN = missing.
    Time is linear in the pairs (pooled: the square of the points); memory
    stays bounded.
    """
    metric, human = check_scores(metric, human)
    check_choice(variant, VARIANTS, "Kendall variant")
    if variant == "c" and epsilon != 0:
        raise ValueError("tau_c is defined for epsilon = 0 only")
    m, h = by_group(metric, group_by), by_group(human, group_by)
    n_members, n_groups = m.shape
    n_possible = n_groups * n_members * (n_members - 1) // 2
    # A member without a complete point in any group is in no counted pair
    # (e.g. segments nobody rated): leave it out of the walk over pairs.
    present = (~np.isnan(m) & ~np.isnan(h)).any(axis=1)
    m, h = m[present], h[present]
    n_members = m.shape[0]
    counts = np.zeros((n_groups, _N_CODES), dtype=np.int64)
    columns = np.arange(n_groups)
    for first, second in pair_rows(n_members, n_groups):
        codes = pair_codes(m[first] - m[second], np.sign(h[first] - h[second]), epsilon)
        # (pairs, groups): read group by group, so the groups come in order.
        groups = np.repeat(columns, first.size)
        counts += group_counts(codes.T.ravel(), groups, n_groups)
    complete = ~np.isnan(m) & ~np.isnan(h)
    points = complete.sum(axis=0)
    distinct = None
    if variant == "c":
        distinct = np.minimum(
            _distinct_per_group(m, complete), _distinct_per_group(h, complete)
        )
    values = group_values(counts, variant, points, distinct)
    statistic, n_defined = average_groups(values)
    n_pairs = int(counts.sum())
    return KendallVariant(
        statistic=float(statistic),
        variant=variant,
        group_by=group_by,
        epsilon=float(epsilon),
        n_groups=int(n_defined),
        n_pairs=n_pairs,
        n_dropped=n_possible - n_pairs,
        counts=PairCounts.from_array(counts),
    )
