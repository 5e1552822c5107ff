"""The block test of the BLEU paper (Papineni et al. 2002, section 3, Table 2).

The test corpus is cut into B consecutive blocks (20 in the paper: 500
sentences, 25 per block); the metric is computed on each block as a corpus
of its own (from the block's summed sufficient statistics), giving B scores
per system. Reported per system: the mean and the standard deviation of the
block scores, and the paired t-statistic against its left neighbour in the
given order, t = mean(d) / (sd(d) / sqrt(B)) with d the block-wise
differences (this system minus its neighbour), on B - 1 degrees of freedom.
The paper calls t >= 1.7 significant at 95 % (one-sided, 19 degrees of
freedom: 1.729); ``p_values`` are those one-sided p-values of the observed
direction, P(T >= |t|).

Choices the paper leaves open: standard deviations are sample standard
deviations (ddof = 1); when n is not a multiple of B the first n mod B
blocks get one segment more (``numpy.array_split``).

The t distribution is SciPy's (``scipy.special.stdtr``). Worked example:
block scores [1, 2, 3] and [2, 4, 3] give differences [1, 2, 0], mean 1,
sd 1, t = 1 / (1 / sqrt(3)) = 1.732 on 2 degrees of freedom, where
P(T >= t) = 1/2 - t / (2 sqrt(t^2 + 2)) = 0.1127.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays

DEFAULT_BLOCKS = 20


def block_starts(n_segments: int, n_blocks: int = DEFAULT_BLOCKS) -> np.ndarray:
    """First segment (0-based) of each block: ``(B,)`` int64."""
    if n_blocks < 2:
        raise ValueError("the block test needs at least 2 blocks")
    if n_segments < n_blocks:
        raise ValueError(f"cannot cut {n_segments} segments into {n_blocks} blocks")
    sizes = np.full(n_blocks, n_segments // n_blocks)
    sizes[: n_segments % n_blocks] += 1
    return np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)


def block_scores(
    score_fn: Callable[[np.ndarray], np.ndarray],
    statistics: np.ndarray,
    n_blocks: int = DEFAULT_BLOCKS,
) -> np.ndarray:
    """The metric on each block: ``(S, n, k) -> (S, B)``.

    ``score_fn`` is the metric's ``corpus_scores_from_statistics``.
    """
    statistics = np.asarray(statistics)
    starts = block_starts(statistics.shape[1], n_blocks)
    summed = np.add.reduceat(statistics, starts, axis=1)  # (S, B, k)
    return np.asarray(score_fn(summed), dtype=np.float64)


@dataclass(frozen=True, eq=False)
class BlockTest:
    """Table 2 of the BLEU paper for S systems (arrays ``(S,)`` in order)."""

    systems: tuple[str, ...]
    block_scores: np.ndarray  # (S, B)
    means: np.ndarray  # (S,)
    std: np.ndarray  # (S,) sample standard deviation
    t: np.ndarray  # (S,) paired t against the previous system; NaN for the first
    p_values: np.ndarray  # (S,) one-sided; NaN for the first

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def n_blocks(self) -> int:
        """B, the number of blocks."""
        return int(self.block_scores.shape[1])

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return json_safe(
            {
                "n_blocks": self.n_blocks,
                "systems": [
                    {
                        "system": name,
                        "mean": self.means[i],
                        "std": self.std[i],
                        "t": self.t[i],
                        "p_value": self.p_values[i],
                    }
                    for i, name in enumerate(self.systems)
                ],
            }
        )


def block_t_test(scores: np.ndarray, systems: Sequence[str]) -> BlockTest:
    """Means, standard deviations and neighbour t-tests of block scores
    ``(S, B)`` (rows in the order the systems are to be compared)."""
    from scipy.special import stdtr  # lazily: see scoring.stats

    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[0] != len(systems):
        raise ValueError("block scores must have shape (len(systems), n_blocks)")
    n_blocks = scores.shape[1]
    if n_blocks < 2:
        raise ValueError("the block test needs at least 2 blocks")
    t = np.full(len(systems), np.nan)
    p_values = np.full(len(systems), np.nan)
    for i in range(1, len(systems)):
        differences = scores[i] - scores[i - 1]
        spread = differences.std(ddof=1)
        if spread > 0:
            t[i] = differences.mean() / (spread / math.sqrt(n_blocks))
            # P(T >= |t|), as scipy.stats.t.sf(abs(t), df) computes it.
            p_values[i] = stdtr(n_blocks - 1, -abs(t[i]))
        elif differences.mean() != 0:
            t[i] = math.copysign(math.inf, differences.mean())
            p_values[i] = 0.0
    return BlockTest(
        systems=tuple(systems),
        block_scores=scores,
        means=scores.mean(axis=1),
        std=scores.std(axis=1, ddof=1),
        t=t,
        p_values=p_values,
    )
