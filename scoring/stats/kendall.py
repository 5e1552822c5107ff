"""Kendall's tau for many bootstrap resamples at once, in O(R n log n).

A bootstrap resample is a weight vector w (how often each of the n points
was drawn), so tau of every resample can be computed from the n original
points. Everything that depends only on the points (sort orders, tie groups,
the merge structure below) is computed once in a :class:`KendallPlan`;
:func:`weighted_tau` then needs only gathers and cumulative sums over a
``(R, n)`` weight matrix.

With the points sorted by (x, y), the tau numerator S = sum over pairs of
w_i w_j sgn(x_i - x_j) sgn(y_i - y_j) is

    S = U - (sum_g Wx_g^2 - sum_h Wxy_h^2) / 2,
    U = sum_{p < q} w_p w_q sgn(y_q - y_p)       (positions in that order)

where Wx_g sums the weights of x-tie group g and Wxy_h of the (x, y)-tie
group h (the correction removes the pairs tied in x, which U counts as +1
when their y differ). U is a weighted inversion count, computed bottom-up as
in merge sort: at each level every right half is compared with its left half
through prefix sums of the left half's weights in y order.

Ties follow ``scipy.stats.kendalltau``: tau-b divides by
sqrt((n0 - Tx)(n0 - Ty)) with n0 = N(N - 1)/2 pairs and Tx, Ty the pairs
tied in x, in y (copies of one point are tied in both); tau-c by
N^2 (m - 1) / (2 m) with m the smaller number of distinct values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class _Level:
    """One merge level: indices into the prefix sums of the left halves."""

    left: np.ndarray  # (L,) point indices of left-half elements, by (half, y)
    right: np.ndarray  # (Q,) point indices of right-half elements
    below: np.ndarray  # (Q,) prefix end: left elements with smaller y
    at_most: np.ndarray  # (Q,) prefix end: left elements with y <= this y
    start: np.ndarray  # (Q,) prefix start of this element's left half
    stop: np.ndarray  # (Q,) prefix end of this element's left half


@dataclass(frozen=True, eq=False)
class KendallPlan:
    """The weight-independent part of tau for fixed points (x, y)."""

    n_points: int
    x_groups: np.ndarray  # (n,) int64 dense rank of x (tie group)
    y_groups: np.ndarray  # (n,) int64 dense rank of y
    xy_groups: np.ndarray  # (n,) int64 id of the (x, y) tie group
    levels: tuple[_Level, ...]


def _dense_ranks(values: np.ndarray) -> np.ndarray:
    return np.unique(values, return_inverse=True)[1].astype(np.int64)


def kendall_plan(x: np.ndarray, y: np.ndarray) -> KendallPlan:
    """Prepare tau for the points ``(x, y)``, both ``(n,)`` finite floats."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n = x.size
    x_groups, y_groups = _dense_ranks(x), _dense_ranks(y)
    n_y = int(y_groups.max()) + 1 if n else 1
    xy_groups = _dense_ranks(x_groups * n_y + y_groups)
    order = np.lexsort((y_groups, x_groups))  # point index at each position
    v = y_groups[order]  # y rank at each position
    positions = np.arange(n, dtype=np.int64)
    levels = []
    half = 1
    while half < n:
        segment = positions // (2 * half)
        is_right = positions % (2 * half) >= half
        left_positions = positions[~is_right]
        keys = segment[~is_right] * n_y + v[~is_right]
        by_key = np.argsort(keys, kind="stable")
        left_keys = keys[by_key]
        right_segment = segment[is_right]
        right_keys = right_segment * n_y + v[is_right]
        levels.append(
            _Level(
                left=order[left_positions[by_key]],
                right=order[positions[is_right]],
                below=np.searchsorted(left_keys, right_keys, side="left"),
                at_most=np.searchsorted(left_keys, right_keys, side="right"),
                start=np.searchsorted(left_keys, right_segment * n_y, side="left"),
                stop=np.searchsorted(left_keys, (right_segment + 1) * n_y, side="left"),
            )
        )
        half *= 2
    return KendallPlan(n, x_groups, y_groups, xy_groups, tuple(levels))


def _group_totals(
    weights: np.ndarray, groups: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the sum over tie groups of (group weight)^2, and the number
    of groups with positive weight: ``(R, n) -> (R,), (R,)``.

    Only groups of two or more points need summing; a single point's group
    weight is its own weight (most points, for continuous metric scores).
    """
    sizes = np.bincount(groups)
    shared = sizes[groups] > 1  # (n,) points that share their value
    alone = weights[:, ~shared]
    squares = (alone * alone).sum(axis=1)
    present = (alone > 0).sum(axis=1)
    if shared.any():
        members = np.flatnonzero(shared)
        order = members[np.argsort(groups[members], kind="stable")]
        starts = np.flatnonzero(np.r_[True, np.diff(groups[order]) != 0])
        sums = np.add.reduceat(weights[:, order], starts, axis=1)
        squares = squares + (sums * sums).sum(axis=1)
        present = present + (sums > 0).sum(axis=1)
    return squares, present


def _inversion_sum(plan: KendallPlan, weights: np.ndarray) -> np.ndarray:
    """U of the module docstring for every row of ``weights``: ``(R,)``."""
    # Points on the first axis: gathering whole rows of R weights is
    # contiguous; int32 counts halve the memory traffic and stay exact
    # (prefix sums are at most n); products are summed in float64.
    by_point = np.ascontiguousarray(weights.T, dtype=np.int32)  # (n, R)
    total = np.zeros(weights.shape[0])
    for level in plan.levels:
        prefix = np.zeros((level.left.size + 1, weights.shape[0]), dtype=np.int32)
        np.cumsum(by_point[level.left], axis=0, out=prefix[1:])
        balance = prefix[level.below]
        balance += prefix[level.at_most]
        balance -= prefix[level.start]
        balance -= prefix[level.stop]
        total += np.einsum("qr,qr->r", by_point[level.right], balance, dtype=np.float64)
    return total


def weighted_tau(
    plan: KendallPlan, weights: np.ndarray, variant: str = "b"
) -> np.ndarray:
    """Kendall's tau of each weighted resample: ``(R, n) -> (R,)``.

    ``weights`` are non-negative integer counts (a row of ones is the
    sample itself). NaN where tau is undefined (all x or all y tied).
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 2 or weights.shape[1] != plan.n_points:
        raise ValueError(f"weights must have shape (R, {plan.n_points})")
    x_squares, x_distinct = _group_totals(weights, plan.x_groups)
    y_squares, y_distinct = _group_totals(weights, plan.y_groups)
    xy_squares, _ = _group_totals(weights, plan.xy_groups)
    numerator = _inversion_sum(plan, weights) - (x_squares - xy_squares) / 2.0
    size = weights.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            pairs = size * (size - 1.0) / 2.0
            # Pairs tied in x: sum_g G(G - 1)/2 = (sum_g G^2 - N) / 2.
            untied_x = pairs - (x_squares - size) / 2.0
            untied_y = pairs - (y_squares - size) / 2.0
            denominator = np.sqrt(untied_x) * np.sqrt(untied_y)
        elif variant == "c":
            distinct = np.minimum(x_distinct, y_distinct).astype(np.float64)
            denominator = size**2 * (distinct - 1.0) / (2.0 * distinct)
        else:
            raise ValueError(f"unknown Kendall variant {variant!r}; valid: b, c")
        tau = numerator / denominator
    return np.where(denominator > 0, tau, np.nan)
