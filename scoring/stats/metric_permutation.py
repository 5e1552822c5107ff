"""Is metric X better than metric Y? Permutation p-values and rank clusters.

The test is PERM-BOTH (Deutsch, Dror & Roth 2021, TACL) as the WMT metrics
task runs it through mt-metrics-eval (``PermutationSigDiff``,
``PairwisePermutationSigDiff``, ``AssignRanks``). What is swapped and how the
statistic is recomputed is the job of a *swap*: :class:`ScoreSwap` (metric
scores, standardised) or :class:`OutcomeSwap` (per-pair outcomes, for
tie-calibrated acc_eq and the like). For every pair of metrics (a, b):

- observed d = stat(a) - stat(b);
- draw r swaps unit u between a and b where ``mask[r, u]`` is True (each
  unit independently with probability 1/2): d*_r = stat(a') - stat(b');
- ``p_values[a, b]`` = #{r : d*_r >= d} / R, the one-sided p-value of "a is
  better than b" (mt-metrics-eval's convention: no +1 smoothing, a draw
  equal to d counts; ``add_one=True`` gives (# + 1) / (R + 1) instead).
  Equality is judged with a tolerance of 1e-9 x max(1, |stat a|, |stat b|),
  so that a draw that swaps nothing that matters is equal to d whatever the
  rounding of the sums. A NaN draw never counts; an undefined statistic
  gives NaN p-values. ``p_values[b, a]`` comes from the same draws
  (#{d*_r <= d} / R).

What a unit is depends on the swap: at system level a system; at segment
level mt-metrics-eval's ``PermutationSigDiff`` swaps every (system, segment)
score on its own for grouping none, item and system alike (``unit="point"``,
the default; whole segments or whole systems can be chosen), and
``PairwisePermutationSigDiff`` swaps the outcome of every pair of systems
on a segment (``unit="pair"``) for tie-calibrated acc_eq grouped by item.

One seeded generator draws the masks in blocks of :data:`DRAW_BLOCK` rows
(:func:`swap_masks`), and every metric pair sees the same masks: the
statistic of all pairs is recomputed from one matrix product (or one
popcount) per block, not from a loop over draws or pairs.

Early stopping (``early_stop_confidence``, off by default; mt-metrics-eval
stops at p < 0.02 or p > 0.5 instead): after each block, the pairs whose
exact (Clopper-Pearson) interval at that confidence for the share of draws
d* >= d, in the direction of the better metric, lies wholly at or below
alpha, or wholly above it, stop drawing; their p-value is the share over
the draws they saw (``n_draws_used``). The run ends when every pair has
stopped or the draws are spent.

Ranks (:func:`cluster_ranks`), WMT's rule: sort the metrics by statistic,
best first (ties keep the given order); walk down; a new rank starts at a
metric when any metric of the current rank is significantly better than it
(p <= alpha); rank 1 is the top. Worked example, three metrics where the
first is clearly best and the other two tie::

    >>> p = np.array([[np.nan, 0.001, 0.002], [0.999, np.nan, 0.4],
    ...               [0.998, 0.6, np.nan]])
    >>> cluster_ranks(np.array([0.9, 0.5, 0.5]), p, alpha=0.05).tolist()
    [1, 2, 2]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays
from scoring.stats.resampling import Seed, make_rng

DEFAULT_DRAWS = 1000
DRAW_BLOCK = 100  # draws per generated block, and per early-stopping check
TIE_TOLERANCE = 1e-9


class Swap(Protocol):
    """What :func:`permutation_ranking` needs from a swap (module docstring)."""

    metrics: tuple[str, ...]
    values: np.ndarray  # (M,) observed statistics
    n_units: int
    statistic: str
    grouping: str
    unit: str
    swapped: str  # "scores" or "outcomes"
    value_range: tuple[float, float]

    def null_differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray: ...


def swap_masks(n_units: int, n_draws: int, seed: Seed) -> Iterator[np.ndarray]:
    """The swap masks of a run, block by block: ``(<= DRAW_BLOCK, U)`` bool,
    True = swap; ``n_draws`` rows in all, from one generator. Unit u of a
    row is bit u (little-endian within each byte) of the row's random
    bytes."""
    if n_units < 1 or n_draws < 1:
        raise ScoringError("a permutation test needs units and draws")
    rng = make_rng(seed)
    n_bytes = -(-n_units // 8)
    for start in range(0, n_draws, DRAW_BLOCK):
        size = min(DRAW_BLOCK, n_draws - start)
        # Uniform random bytes unpacked: every bit a fair coin, 8 per draw
        # of the generator (a 380,000-pair mask costs 47,500 bytes a row).
        random_bytes = rng.integers(0, 256, size=(size, n_bytes), dtype=np.uint8)
        bits = np.unpackbits(random_bytes, axis=1, count=n_units, bitorder="little")
        yield bits.view(bool)


def cluster_ranks(
    values: np.ndarray, p_values: np.ndarray, *, alpha: float = 0.05
) -> np.ndarray:
    """Rank of each metric's cluster, 1 = top: ``(M,), (M, M) -> (M,)`` int.

    ``p_values[a, b]``: p-value of "a is better than b" (NaN never
    separates). Metrics with an undefined statistic come last, in a rank of
    their own.
    """
    values = np.asarray(values, dtype=np.float64)
    p_values = np.asarray(p_values, dtype=np.float64)
    defined = np.flatnonzero(np.isfinite(values))
    order = defined[np.argsort(-values[defined], kind="stable")]
    ranks = np.zeros(values.size, dtype=np.int64)
    rank, start = 1, 0
    for position, metric in enumerate(order):
        if (p_values[order[start:position], metric] <= alpha).any():
            rank, start = rank + 1, position
        ranks[metric] = rank
    ranks[~np.isfinite(values)] = rank + 1 if order.size else 1
    return ranks


def _settled(
    extreme: np.ndarray, used: int, alpha: float, confidence: float
) -> np.ndarray:
    """Pairs whose Clopper-Pearson interval of the p-value clears alpha."""
    from scipy.special import betaincinv  # lazily: see scoring.stats

    tail = (1.0 - confidence) / 2.0
    with np.errstate(invalid="ignore"):
        low = np.where(extreme > 0, betaincinv(extreme, used - extreme + 1, tail), 0.0)
        high = np.where(
            extreme < used, betaincinv(extreme + 1, used - extreme, 1 - tail), 1.0
        )
    return (high <= alpha) | (low > alpha)


@dataclass(frozen=True, eq=False)
class MetricRanking:
    """Statistics, p-values and rank clusters of M metrics.

    Arrays follow the order of ``metrics``. ``p_values[a, b]`` is the
    one-sided p-value of "a is better than b" (NaN on the diagonal);
    ``n_draws_used[a, b]`` the draws behind it (fewer than ``n_draws`` only
    with early stopping). ``null_differences[r, a, b]`` = stat(a') - stat(b')
    in draw r (NaN after a pair stopped, or where a statistic is undefined),
    kept for pooling; not in :meth:`to_dict`.
    """

    statistic: str
    metrics: tuple[str, ...]
    values: np.ndarray  # (M,)
    ranks: np.ndarray  # (M,) int, 1 = top cluster
    p_values: np.ndarray  # (M, M)
    n_draws_used: np.ndarray  # (M, M) int
    n_draws: int
    seed: int | None
    alpha: float
    grouping: str
    swapped: str  # "scores", "outcomes" or "pooled"
    unit: str
    value_range: tuple[float, float]
    add_one: bool = False
    early_stop_confidence: float | None = None
    null_differences: np.ndarray | None = None  # (R, M, M)
    epsilons: Mapping[str, float] | None = None  # tie thresholds (outcomes)

    def __post_init__(self) -> None:
        freeze_arrays(self)
        if self.epsilons is not None:
            object.__setattr__(self, "epsilons", MappingProxyType(dict(self.epsilons)))

    @property
    def order(self) -> tuple[int, ...]:
        """Metric indices best first (rank, then statistic, then given order)."""
        keys = [
            (int(rank), -value if np.isfinite(value) else np.inf)
            for rank, value in zip(self.ranks, self.values)
        ]
        return tuple(sorted(range(len(self.metrics)), key=keys.__getitem__))

    @property
    def clusters(self) -> tuple[tuple[str, ...], ...]:
        """Metric names by rank, best rank first."""
        order = self.order
        return tuple(
            tuple(self.metrics[i] for i in order if self.ranks[i] == rank)
            for rank in sorted({int(self.ranks[i]) for i in order})
        )

    def p_value(self, better: str, worse: str) -> float:
        """p-value of "``better`` is better than ``worse``" by name."""
        return float(
            self.p_values[self.metrics.index(better), self.metrics.index(worse)]
        )

    @property
    def description(self) -> str:
        """The test in words (JSON-safe label)."""
        smoothing = "(# + 1)/(R + 1)" if self.add_one else "#/R, no smoothing"
        if self.swapped == "pooled":
            test = (
                "pooled permutation test: draw r is the weighted sum of the "
                "tasks' draws r, each rescaled to [0, 1]"
            )
        else:
            test = (
                f"one-sided permutation test swapping {self.swapped} per "
                f"{self.unit} (PERM-BOTH)"
            )
        return (
            f"{test}, {self.n_draws} draws, seed {self.seed}; p = share of draws "
            f"with stat(a') - stat(b') >= stat(a) - stat(b) ({smoothing}); a new "
            f"rank starts where p <= {self.alpha:g} against any metric of the "
            "current rank"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form; matrices as nested dicts ``[a][b]``."""

        def matrix(values: np.ndarray) -> dict[str, dict[str, Any]]:
            return {
                a: {b: values[i, j] for j, b in enumerate(self.metrics) if i != j}
                for i, a in enumerate(self.metrics)
            }

        return json_safe(
            {
                "statistic": self.statistic,
                "grouping": self.grouping,
                "swapped": self.swapped,
                "unit": self.unit,
                "value_range": list(self.value_range),
                "n_draws": self.n_draws,
                "seed": self.seed,
                "alpha": self.alpha,
                "add_one": self.add_one,
                "early_stop_confidence": self.early_stop_confidence,
                "epsilons": dict(self.epsilons) if self.epsilons else None,
                "test": self.description,
                "metrics": [
                    {
                        "metric": self.metrics[i],
                        "value": self.values[i],
                        "rank": self.ranks[i],
                    }
                    for i in self.order
                ],
                "clusters": [list(cluster) for cluster in self.clusters],
                "p_values": matrix(self.p_values),
                "n_draws_used": matrix(self.n_draws_used),
            }
        )


def _at_least(draws: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """How many draws ``(R, ...)`` reach the observed difference of
    ``first - second`` (statistics broadcast to the draws' trailing shape),
    within the tie tolerance."""
    scale = np.maximum(1.0, np.maximum(np.abs(first), np.abs(second)))
    with np.errstate(invalid="ignore"):
        return (draws >= first - second - TIE_TOLERANCE * scale).sum(axis=0)


def p_values_from_draws(
    values: np.ndarray,
    draws: np.ndarray,
    used: np.ndarray | None = None,
    *,
    add_one: bool = False,
) -> np.ndarray:
    """p-values ``(M, M)`` from statistics ``(M,)`` and the draws'
    differences ``(R, M, M)``; ``used[a, b]`` draws were made for a pair
    (default all R; later rows are NaN). A NaN draw never counts."""
    values = np.asarray(values, dtype=np.float64)
    observed = values[:, None] - values[None, :]
    extreme = _at_least(draws, values[:, None], values[None, :])
    if used is None:
        used = np.full(observed.shape, draws.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        p_values = (extreme + add_one) / (used + add_one)
    p_values[~np.isfinite(observed) | (used == 0)] = np.nan
    np.fill_diagonal(p_values, np.nan)
    return p_values


def permutation_ranking(
    swap: Swap,
    *,
    n_draws: int = DEFAULT_DRAWS,
    seed: Seed = 1,
    alpha: float = 0.05,
    add_one: bool = False,
    early_stop_confidence: float | None = None,
) -> MetricRanking:
    """Run the permutation test on every pair of ``swap``'s metrics and rank
    them (module docstring)."""
    if not 0.0 < alpha < 1.0:
        raise ScoringError("alpha must lie strictly between 0 and 1")
    if early_stop_confidence is not None and not 0.5 < early_stop_confidence < 1.0:
        raise ScoringError("the early-stopping confidence must lie in (0.5, 1)")
    values = np.asarray(swap.values, dtype=np.float64)
    n_metrics = values.size
    first, second = np.triu_indices(n_metrics, k=1)
    better_first = ~(values[first] < values[second])  # the direction that matters
    draws = np.full((n_draws, first.size), np.nan)
    used = np.zeros(first.size, dtype=np.int64)
    active = np.arange(first.size)
    done = 0
    for masks in swap_masks(swap.n_units, n_draws, seed):
        if not active.size:
            break
        block = swap.null_differences(masks, first[active], second[active])
        draws[done : done + masks.shape[0], active] = block
        done += masks.shape[0]
        used[active] = done
        if early_stop_confidence is not None:
            # The share that decides is that of the better metric's p-value.
            forward = better_first[active]
            a = np.where(forward, first[active], second[active])
            b = np.where(forward, second[active], first[active])
            seen = draws[:done, active] * np.where(forward, 1.0, -1.0)
            extreme = _at_least(seen, values[a], values[b])
            stopped = _settled(extreme, done, alpha, early_stop_confidence)
            active = active[~stopped]
    full = np.full((n_draws, n_metrics, n_metrics), np.nan)
    full[:, first, second] = draws
    full[:, second, first] = -draws
    used_matrix = np.zeros((n_metrics, n_metrics), dtype=np.int64)
    used_matrix[first, second] = used_matrix[second, first] = used
    p_values = p_values_from_draws(values, full, used_matrix, add_one=add_one)
    return MetricRanking(
        statistic=swap.statistic,
        metrics=tuple(swap.metrics),
        values=values,
        ranks=cluster_ranks(values, p_values, alpha=alpha),
        p_values=p_values,
        n_draws_used=used_matrix,
        n_draws=n_draws,
        seed=None if isinstance(seed, np.random.Generator) else int(seed),
        alpha=alpha,
        grouping=swap.grouping,
        swapped=swap.swapped,
        unit=swap.unit,
        value_range=tuple(swap.value_range),  # type: ignore[arg-type]
        add_one=add_one,
        early_stop_confidence=early_stop_confidence,
        null_differences=full,
        epsilons=dict(getattr(swap, "epsilons", None) or {}) or None,
    )
