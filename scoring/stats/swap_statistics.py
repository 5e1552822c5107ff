"""Pearson's r and pairwise accuracy of swapped metric scores, without a loop.

Both plans are built once from the standardised scores of
:class:`~scoring.stats.metric_swaps.ScoreSwap` and answer, for a block of
swap masks ``(D, U)`` and metric pairs (a, b), stat(a') - stat(b') of every
draw and pair ``(D, Q)``.

:class:`PearsonPlan`: a draw changes only which metric's points are summed.
Points are split into cells (one unit's points within one group); each cell
keeps sum x, sum x^2 and sum x h per metric. The sums of a' over group g
are a's sums plus, over the swapped cells c of g, T_b(c) - T_a(c); one
batched matrix product (swapped cells x cell sums) gives them for every
metric, and r per group follows from the sums:
r = (n Sxh - Sx Sh) / sqrt((n Sxx - Sx^2)(n Shh - Sh^2)).

:class:`AccuracyPlan` (system level, one unit per system): a system pair
(i, j) of a' compares a's or b's score of i with a's or b's of j, four
cases fixed by (w_i, w_j). With agree[x, y] = [sign(x_i - y_j) = sign(h_i -
h_j)] per system pair, D0 = agree[a, a] - agree[b, b] and D2 = agree[b, a] -
agree[a, b] (b' is a' with the roles exchanged),

    acc(a') - acc(b') = mean over pairs of (1 - w_i - w_j) D0 + (w_i - w_j) D2,

two matrix products over all draws and metric pairs. Worked example: human
(1, 2, 3), metric a orders the systems alike, b reversely. Swapping system 1
gives a' = (b_1, a_2, a_3) = (1, 0, 1) and b' = (-1, 0, -1), both right on
one pair of three; swapping all gives -1::

    >>> plan = AccuracyPlan(np.array([[1.0], [2.0], [3.0]]),
    ...                     np.array([[[-1.0], [0.0], [1.0]], [[1.0], [0.0], [-1.0]]]))
    >>> plan.values.tolist()
    [1.0, 0.0]
    >>> masks = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 1]], dtype=bool)
    >>> plan.differences(masks, np.array([0]), np.array([1])).ravel().tolist()
    [1.0, 0.0, -1.0]
"""

from __future__ import annotations

import numpy as np

# Elements (float64) a block of draws may expand to at once: bounds memory.
CHUNK_ELEMENTS = 4_000_000
# A variance this small relative to the sum of squares is a constant side.
CONSTANT = 1e-12


def chunks(total: int, size: int) -> list[slice]:
    """``range(total)`` cut into slices of at most ``size`` (at least 1)."""
    size = max(1, size)
    return [slice(start, min(start + size, total)) for start in range(0, total, size)]


def mean_over_groups(values: np.ndarray) -> np.ndarray:
    """Mean over the first axis, leaving NaN out; NaN where all are NaN."""
    defined = ~np.isnan(values)
    total = np.where(defined, values, 0.0).sum(axis=0)
    count = defined.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, np.nan)


def pearson_from_sums(
    count: np.ndarray, human: np.ndarray, metric: np.ndarray
) -> np.ndarray:
    """Pearson's r from sums; NaN where undefined.

    ``count``, ``human`` ``(..., 2)`` (sum h, sum h^2) and ``metric``
    ``(..., 3)`` (sum x, sum x^2, sum x h) broadcast together.
    """
    sum_h, sum_hh = human[..., 0], human[..., 1]
    sum_x, sum_xx, sum_xh = metric[..., 0], metric[..., 1], metric[..., 2]
    spread_x = count * sum_xx - sum_x * sum_x
    spread_h = count * sum_hh - sum_h * sum_h
    defined = (spread_x > CONSTANT * count * sum_xx) & (
        spread_h > CONSTANT * count * sum_hh
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (count * sum_xh - sum_x * sum_h) / np.sqrt(spread_x * spread_h)
    return np.where(defined, r, np.nan)


class PearsonPlan:
    """Mean Pearson's r over groups under swaps (module docstring).

    ``human`` ``(S, N)`` and ``standardised`` ``(M, S, N)`` (NaN off the
    compared points), ``units`` and ``groups`` ``(S, N)`` labels in
    ``[0, n_units)`` and ``[0, G)``.
    """

    def __init__(
        self,
        human: np.ndarray,
        standardised: np.ndarray,
        units: np.ndarray,
        n_units: int,
        groups: np.ndarray,
    ) -> None:
        n_metrics = standardised.shape[0]
        points = np.flatnonzero(np.isfinite(human.ravel()))
        keys = groups.ravel()[points] * n_units + units.ravel()[points]
        cell_keys, cell_of_point = np.unique(keys, return_inverse=True)
        cell_of_point = cell_of_point.reshape(-1)
        _, cell_group = np.unique(cell_keys // n_units, return_inverse=True)
        cell_group = cell_group.reshape(-1)
        n_cells, n_groups = cell_keys.size, int(cell_group.max()) + 1
        x = standardised.reshape(n_metrics, -1)[:, points]  # (M, P)
        h = human.ravel()[points]
        order = np.argsort(cell_of_point, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(cell_of_point[order]) != 0])
        sums = np.stack([x, x * x, x * h], axis=-1)[:, order]  # (M, P, 3)
        cells = np.add.reduceat(sums, starts, axis=1)  # (M, C, 3)
        cells = np.concatenate([cells, np.zeros_like(cells[:, :1])], axis=1)
        # Cells are sorted by key, hence by group: each group's cells are
        # contiguous; pad every group to the largest with the zero cell C.
        sizes = np.bincount(cell_group, minlength=n_groups)
        group_starts = np.r_[0, np.cumsum(sizes)[:-1]]
        padded = np.full((n_groups, int(sizes.max())), n_cells)
        within = np.arange(n_cells) - group_starts[cell_group]
        padded[cell_group, within] = np.arange(n_cells)
        self.cell_units = np.r_[cell_keys % n_units, 0][padded]  # (G, n)
        self.cell_sums = (
            cells[:, padded].transpose(1, 2, 0, 3).reshape(*padded.shape, -1)
        )  # (G, n, M * 3)
        base = np.add.reduceat(cells[:, :-1], group_starts, axis=1)  # (M, G, 3)
        self.base = base.transpose(1, 0, 2)  # (G, M, 3)
        group_of_point = cell_group[cell_of_point]
        self.count = np.bincount(group_of_point, minlength=n_groups).astype(float)
        self.human_sums = np.stack(
            [np.bincount(group_of_point, weights=h**power, minlength=n_groups)
             for power in (1, 2)], axis=-1,
        )  # fmt: skip
        self.values = mean_over_groups(
            pearson_from_sums(self.count[:, None], self.human_sums[:, None], self.base)
        )

    def differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray:
        """r(a') - r(b') of every draw and pair: ``(D, U) -> (D, Q)``."""
        n_groups, _, width = self.cell_sums.shape
        count = self.count[:, None, None]
        human = self.human_sums[:, None, None]
        out = np.empty((masks.shape[0], first.size))
        for draws in chunks(masks.shape[0], CHUNK_ELEMENTS // (n_groups * width)):
            swapped = masks[draws][:, self.cell_units].transpose(1, 0, 2)  # (G, d, n)
            moved = np.matmul(swapped.astype(np.float64), self.cell_sums)
            moved = moved.reshape(n_groups, swapped.shape[1], -1, 3)  # (G, d, M, 3)
            per_pair = CHUNK_ELEMENTS // (3 * n_groups * swapped.shape[1])
            for pairs in chunks(first.size, per_pair):
                a, b = first[pairs], second[pairs]
                delta = moved[:, :, b] - moved[:, :, a]  # (G, d, q, 3)
                x = pearson_from_sums(count, human, self.base[:, None, a] + delta)
                y = pearson_from_sums(count, human, self.base[:, None, b] - delta)
                out[draws, pairs] = mean_over_groups(x) - mean_over_groups(y)
        return out


def pairwise_accuracy_of_batch(human: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Pairwise accuracy of each score vector: ``(S, 1), (B, S, 1) -> (B,)``.

    Over the system pairs with both human scores: the share with
    sign(h_i - h_j) = sign(m_i - m_j) (a tie agrees only with a tie).
    """
    human = human[:, 0]
    first, second = np.triu_indices(human.size, k=1)
    judged = np.isfinite(human[first]) & np.isfinite(human[second])
    first, second = first[judged], second[judged]
    human_order = np.sign(human[first] - human[second])
    metric_order = np.sign(scores[:, first, 0] - scores[:, second, 0])
    return (metric_order == human_order).mean(axis=1)


class AccuracyPlan:
    """System-level pairwise accuracy under swaps of systems (module
    docstring). ``human`` ``(S, 1)``, ``standardised`` ``(M, S, 1)``."""

    def __init__(self, human: np.ndarray, standardised: np.ndarray) -> None:
        human, scores = human[:, 0], standardised[:, :, 0]
        first, second = np.triu_indices(human.size, k=1)
        judged = np.isfinite(human[first]) & np.isfinite(human[second])
        self.first, self.second = first[judged], second[judged]  # (P,) systems
        human_order = np.sign(human[self.first] - human[self.second])
        # agree[x, y, p]: x's score of system i against y's of system j.
        self.agree = (
            np.sign(scores[:, None, self.first] - scores[None, :, self.second])
            == human_order
        ).astype(np.float64)  # (M, M, P)
        diagonal = np.arange(scores.shape[0])
        self.values = self.agree[diagonal, diagonal].mean(axis=1)

    def differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray:
        """acc(a') - acc(b') of every draw and pair: ``(D, S) -> (D, Q)``."""
        w_i = masks[:, self.first].astype(np.float64)  # (D, P)
        w_j = masks[:, self.second].astype(np.float64)
        same = self.agree[first, first] - self.agree[second, second]  # (Q, P)
        crossed = self.agree[second, first] - self.agree[first, second]
        total = (1.0 - w_i - w_j) @ same.T + (w_i - w_j) @ crossed.T
        return total / max(1, self.first.size)
