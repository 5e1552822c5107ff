"""What a permutation test between two metrics swaps, and the statistic after it.

PERM-BOTH (Deutsch, Dror & Roth 2021, "A Statistical Analysis of
Summarization Evaluation Metrics Using Resampling Methods", TACL) asks
whether metric X agrees better with the human scores than metric Y. Under
the null hypothesis the two metrics are exchangeable, so each draw swaps X's
and Y's scores unit by unit, every unit independently with probability 1/2,
and recomputes both statistics; :mod:`scoring.stats.metric_permutation` turns
the draws into p-values and ranks. This module says what a unit is and gives,
for a block of draws (a boolean mask ``(D, U)``, True = swap unit u) and a
list of metric pairs, every draw's difference stat(X') - stat(Y') at once.

:class:`ScoreSwap` swaps metric scores. Each metric is standardised first
(z-scores over all its compared points, population standard deviation, as
``scipy.stats.zscore``), so that a swapped score means the same on both
sides. Scores come as a system-level vector ``(S,)`` or a segment-level
matrix ``(S, N)`` (systems x segments, NaN = no human score; points some
metric did not score are dropped for every metric). The ``unit`` swapped:

- ``"point"`` (default): every score on its own, whatever the grouping. This
  is what mt-metrics-eval's ``PermutationSigDiff`` does for the WMT23/24
  tasks (one coin per entry of the grouped score vector, for grouping none,
  item and system alike); at system level a point is a system;
- ``"item"``: the scores of every system for one segment move together;
- ``"system"``: the scores of one system for every segment move together.

Statistics: ``"pearson"``, the mean over groups of Pearson's r (grouping
``"none"``: one group of all points; ``"item"``: the systems of each segment;
``"system"``: the segments of each system), leaving out groups whose r is
undefined (fewer than two points, a constant side), as mt-metrics-eval does.
It is computed from per-(group, unit) sums of x, x^2 and x*h, so a draw's
sums are masked sums: one batched matrix product serves every metric.
``"pairwise_accuracy"`` (system level): the share of system pairs that human
and metric order alike, sign(dh) = sign(dm) (Kocmi et al. 2021). Or any
function ``statistic(human (S, N), scores (B, S, N)) -> (B,)`` that a metric's
affine rescaling leaves unchanged, recomputed on the swapped scores.

:class:`OutcomeSwap` (:mod:`scoring.stats.outcome_swaps`) swaps per-pair
outcomes instead, for statistics whose metric scores must not be mixed.

Worked example: four systems, a good metric and a reversed one. Swapping
nothing gives the observed difference 0.983 - (-1) = 1.983 and swapping every
system its negative; swapping the first system only puts the reversed
metric's z-score 1.342 first in X' = (1.342, -0.507, 0.169, 1.521), r = 0.162,
and the good metric's -1.183 first in Y', r = -0.216::

    >>> test = ScoreSwap([1.0, 2.0, 3.0, 4.0], [[1, 2, 3, 5], [4, 3, 2, 1]],
    ...                  ("good", "reversed"))
    >>> test.values.round(3).tolist()
    [0.983, -1.0]
    >>> masks = np.array([[0, 0, 0, 0], [1, 1, 1, 1], [1, 0, 0, 0]], dtype=bool)
    >>> test.null_differences(masks, np.array([0]), np.array([1])).round(3).ravel()
    array([ 1.983, -1.983,  0.378])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from scoring.errors import ScoringError
from scoring.stats.swap_statistics import (
    CHUNK_ELEMENTS,
    AccuracyPlan,
    PearsonPlan,
    chunks,
)

GROUPINGS = ("none", "item", "system")
SCORE_UNITS = ("point", "item", "system")
SCORE_STATISTICS = ("pearson", "pairwise_accuracy")
CORRELATION_RANGE = (-1.0, 1.0)
ACCURACY_RANGE = (0.0, 1.0)

ScoreStatistic = Callable[[np.ndarray, np.ndarray], np.ndarray]


def check_metrics(metrics: Sequence[str], n_metrics: int) -> tuple[str, ...]:
    """The metric names as a tuple: one per row, all distinct."""
    names = tuple(metrics)
    if len(names) != n_metrics or len(set(names)) != n_metrics:
        raise ScoringError(
            f"give one distinct name per metric: {n_metrics} score rows, "
            f"{len(names)} names ({len(set(names))} distinct)"
        )
    return names


def _standardise(scores: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """z-scores of each metric over its valid points, NaN elsewhere:
    ``(M, S, N) -> (M, S, N)``; a constant metric is only centred."""
    values = scores[:, valid]  # (M, P)
    mean = values.mean(axis=1, keepdims=True)
    spread = values.std(axis=1, keepdims=True)
    z = (values - mean) / np.where(spread > 0, spread, 1.0)
    standardised = np.full(scores.shape, np.nan)
    standardised[:, valid] = z
    return standardised


def _labels(kind: str, n_systems: int, n_segments: int) -> tuple[np.ndarray, int]:
    """Label of each (system, segment) for a unit or grouping kind, and how
    many labels there are: ``(S, N)`` int64."""
    rows, columns = np.indices((n_systems, n_segments))
    if kind == "point":
        return rows * n_segments + columns, n_systems * n_segments
    if kind == "item":
        return columns, n_segments
    if kind == "system":
        return rows, n_systems
    return np.zeros((n_systems, n_segments), dtype=np.int64), 1  # grouping none


class ScoreSwap:
    """Metric scores swapped between two metrics (module docstring).

    ``human`` ``(S,)`` or ``(S, N)``; ``scores`` ``(M, S)`` or ``(M, S, N)``,
    higher is better (negate error rates first). ``values`` ``(M,)`` are
    the observed statistics, ``n_units`` what a mask row covers.
    """

    swapped = "scores"

    def __init__(
        self,
        human: np.ndarray | Sequence[float],
        scores: np.ndarray | Sequence[Sequence[float]],
        metrics: Sequence[str],
        *,
        statistic: str | ScoreStatistic = "pearson",
        grouping: str = "none",
        unit: str = "point",
        value_range: tuple[float, float] | None = None,
    ) -> None:
        human = np.asarray(human, dtype=np.float64)
        scores = np.asarray(scores, dtype=np.float64)
        if human.ndim not in (1, 2) or scores.shape[1:] != human.shape:
            raise ScoringError(
                "human scores must be (S,) or (S, N) and metric scores (M, S) or "
                f"(M, S, N); got {human.shape} and {scores.shape}"
            )
        self.metrics = check_metrics(metrics, scores.shape[0])
        if grouping not in GROUPINGS:
            raise ScoringError(f"unknown grouping {grouping!r}; valid: {GROUPINGS}")
        if unit not in SCORE_UNITS:
            raise ScoringError(f"unknown unit {unit!r}; valid: {SCORE_UNITS}")
        self.system_level = human.ndim == 1
        if self.system_level and (unit == "item" or grouping != "none"):
            raise ScoringError("system-level scores swap systems, ungrouped")
        n_systems = human.shape[0]
        human = human.reshape(n_systems, -1)
        scores = scores.reshape(len(self.metrics), n_systems, -1)
        valid = np.isfinite(human) & np.isfinite(scores).all(axis=0)
        if valid.sum() < 2:
            raise ScoringError("fewer than two points have human and metric scores")
        self.grouping, self.unit = grouping, unit
        self.human = np.where(valid, human, np.nan)
        self.human.setflags(write=False)
        self.standardised = _standardise(scores, valid)
        self.standardised.setflags(write=False)
        self._units, self.n_units = _labels(unit, *human.shape)
        self.n_points = int(valid.sum())
        self._plan: PearsonPlan | AccuracyPlan | None = None
        self._function: ScoreStatistic | None = None
        if callable(statistic):
            self.statistic = getattr(statistic, "__name__", "custom")
            self._function = statistic
            values = statistic(self.human, self.standardised)
        elif statistic == "pairwise_accuracy":
            if not self.system_level:
                raise ScoringError("pairwise accuracy is a system-level statistic")
            self._plan = AccuracyPlan(self.human, self.standardised)
            self.statistic, values = statistic, self._plan.values
        elif statistic == "pearson":
            groups, _ = _labels(grouping, *human.shape)
            self._plan = PearsonPlan(
                self.human, self.standardised, self._units, self.n_units, groups
            )
            self.statistic, values = statistic, self._plan.values
        else:
            raise ScoringError(
                f"unknown statistic {statistic!r}; valid: {SCORE_STATISTICS} or a "
                "function"
            )
        default_range = ACCURACY_RANGE if statistic == "pairwise_accuracy" else None
        self.value_range = value_range or default_range or CORRELATION_RANGE
        self.values = np.array(values, dtype=np.float64)
        self.values.setflags(write=False)

    def null_differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray:
        """stat(X') - stat(Y') for X = ``first[q]``, Y = ``second[q]`` when
        the units where ``masks`` is True are swapped: ``(D, U) -> (D, Q)``."""
        masks = np.asarray(masks, dtype=bool)
        if masks.ndim != 2 or masks.shape[1] != self.n_units:
            raise ValueError(f"masks must have shape (draws, {self.n_units})")
        if self._plan is not None:
            return self._plan.differences(masks, first, second)
        return self._recomputed_differences(masks, first, second)

    def _recomputed_differences(
        self, masks: np.ndarray, first: np.ndarray, second: np.ndarray
    ) -> np.ndarray:
        assert self._function is not None
        swapped = masks[:, self._units]  # (D, S, N)
        out = np.empty((masks.shape[0], first.size))
        per_pair = CHUNK_ELEMENTS // (2 * swapped.size)
        for pairs in chunks(first.size, per_pair):
            a = self.standardised[first[pairs]][None]  # (1, q, S, N)
            b = self.standardised[second[pairs]][None]
            where = swapped[:, None]  # (D, 1, S, N)
            batch = np.concatenate([np.where(where, b, a), np.where(where, a, b)])
            values = self._function(self.human, batch.reshape(-1, *a.shape[2:]))
            values = np.asarray(values).reshape(2, masks.shape[0], -1)
            out[:, pairs] = values[0] - values[1]
        return out
