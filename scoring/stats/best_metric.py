"""Which metric correlates best with a criterion, and which are as good.

The ORANGE paper's Table 1 marks, per criterion, the best metric (dark
cells) and the metrics statistically equivalent to it (gray cells). Here
"equivalent" is decided by a paired test on the *difference* of the two
correlations, not by overlapping intervals:

- ``test="bootstrap"`` (default), **two-sided**: the correlations of the
  best metric and of metric m are computed on the same R resamples (the
  same drawn segments, or systems, as the intervals); d_r = r_best - r_m.
  Metric m is significantly worse when the two-sided (1 - alpha) percentile
  interval of d lies above 0, equivalent when it contains 0. ``p_value`` is
  the two-sided bootstrap p-value ``min(1, 2 * share of resamples with d_r
  <= 0)``, so "significantly worse" is exactly ``p_value <= alpha``.
- ``test="williams"`` (Pearson only), **one-sided**: Williams' (1959) t-test
  for two dependent correlations sharing the human scores, as recommended by
  Graham & Baldwin (2014) and implemented in mt-metrics-eval's
  ``WilliamsTest``; ``p_value`` is one-sided (H1: r_best > r_m);
  significantly worse when p < alpha, equivalent otherwise.

:func:`describe_test` says the same in words for every output (page, CSV,
LaTeX, API, command line).

Ties: every metric whose coefficient equals the largest one (within a
relative :data:`TIE_TOLERANCE`) is best; another metric is compared with
each of them and reported against the one it is least distinguishable from
(``compared_with``).

Worked example of Williams' test (r(human, best) = 0.9, r(human, m) = 0.8,
r(best, m) = 0.85, n = 30 points): K = 1 - 0.81 - 0.64 - 0.7225 + 2 * 0.9 *
0.85 * 0.8 = 0.0515; t = 0.1 * sqrt(29 * 1.85) / sqrt(2 * 29 / 27 * K + 0.85^2
* 0.15^3) = 2.178 with 27 degrees of freedom::

    >>> round(williams_p_value(0.9, 0.8, 0.85, 30), 4)
    0.0191
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.results import json_safe
from scoring.stats.correlation import CorrelationEstimate
from scoring.stats.resampling import percentile_interval

TESTS = ("bootstrap", "williams")
# Coefficients this close (relative) to the largest one tie with it: five
# metrics ranking the systems identically have Kendall taus that differ, if
# at all, in the last bits.
TIE_TOLERANCE = 1e-12
# Resampled correlation differences this close (absolute) to 0 are 0.
DIFFERENCE_TOLERANCE = 1e-12


def describe_test(test: str, alpha: float) -> dict[str, Any]:
    """The paired test against the best metric, in words (JSON-safe).

    ``label`` is short (a legend, a CSV cell); ``rule`` says when a cell is
    marked significantly worse; ``p_value`` what the reported p means.
    """
    if test == "bootstrap":
        percent = f"{(1 - alpha) * 100:g}%"
        return {
            "test": test,
            "name": "paired bootstrap of the difference of correlations",
            "sides": "two-sided",
            "alpha": alpha,
            "label": f"paired bootstrap, two-sided, alpha {alpha:g}",
            "rule": f"significantly worse than the best when the two-sided "
            f"{percent} percentile interval of r_best - r_metric, over the same "
            f"resamples, lies above 0 (p <= {alpha:g}); equivalent otherwise",
            "p_value": "two-sided: twice the share of resamples in which the "
            "metric's coefficient is at least the best's (at most 1)",
        }
    if test == "williams":
        return {
            "test": test,
            "name": "Williams' test for dependent correlations",
            "sides": "one-sided",
            "alpha": alpha,
            "label": f"Williams' test, one-sided, alpha {alpha:g}",
            "rule": f"significantly worse than the best when the one-sided "
            f"p < {alpha:g} (H1: the best's Pearson r is larger); equivalent "
            "otherwise",
            "p_value": "one-sided p of Williams' t with n - 3 degrees of freedom",
        }
    raise ValueError(f"unknown test {test!r}; valid: {', '.join(TESTS)}")


def williams_p_value(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p-value that r12 > r13, where r12 = corr(human, metric A),
    r13 = corr(human, metric B), r23 = corr(A, B), over n points (n > 3)."""
    from scipy.special import stdtr  # lazily: see scoring.stats

    if n <= 3:
        return math.nan
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    r_bar = (r12 + r13) / 2
    numerator = (r12 - r13) * math.sqrt((n - 1) * (1 + r23))
    denominator_squared = 2 * (n - 1) / (n - 3) * k + r_bar**2 * (1 - r23) ** 3
    if not denominator_squared > 0:
        return math.nan
    # Student's t survival function: stdtr(df, -t) = P(T > t), which is what
    # scipy.stats.t.sf(t, df) computes.
    return float(stdtr(n - 3, -numerator / math.sqrt(denominator_squared)))


@dataclass(frozen=True, eq=False)
class MetricCell:
    """One metric's correlation with one criterion, compared with the best."""

    metric: str
    estimate: CorrelationEstimate
    best: bool
    equivalent: bool  # not distinguishable from the best (False for the best)
    p_value: float  # see the module docstring; NaN for the best itself
    difference_low: float  # interval of r_best - r_metric (bootstrap test)
    difference_high: float
    compared_with: str | None = None  # the best metric the test was against

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return json_safe(
            {
                "metric": self.metric,
                **self.estimate.to_dict(),
                "best": self.best,
                "equivalent": self.equivalent,
                "p_value": self.p_value,
                "difference_low": self.difference_low,
                "difference_high": self.difference_high,
                "compared_with": self.compared_with,
            }
        )


def best_indices(coefficients: np.ndarray) -> np.ndarray:
    """Indices of the largest finite coefficients, ties included: ``(M,) -> (k,)``.

    >>> best_indices(np.array([0.5, 0.7818, np.nan, 0.7818])).tolist()
    [1, 3]
    """
    coefficients = np.asarray(coefficients, dtype=np.float64)
    finite = np.isfinite(coefficients)
    if not finite.any():
        return np.zeros(0, dtype=np.int64)
    top = float(np.max(coefficients[finite]))
    tied = finite & (coefficients >= top - TIE_TOLERANCE * abs(top))
    return np.flatnonzero(tied)


def _bootstrap_against(
    best: CorrelationEstimate, estimate: CorrelationEstimate, alpha: float
) -> tuple[bool, float, float, float]:
    """(equivalent, two-sided p, difference interval) of one metric."""
    difference = best.samples - estimate.samples  # type: ignore[operator]
    difference = difference[np.isfinite(difference)]
    # A resample that repeats points often gives both metrics the same
    # correlation (both +-1 on three systems, say), whose difference is 0
    # only up to the order of summation: the command line and the web sum
    # differently and landed on either side of 0 (p 0.84 against 1.0). Such
    # a difference is a tie.
    difference = np.where(np.abs(difference) <= DIFFERENCE_TOLERANCE, 0.0, difference)
    if not difference.size:
        return False, math.nan, math.nan, math.nan
    low, high = (float(v) for v in percentile_interval(difference, 1 - alpha))
    p_value = min(1.0, 2.0 * float((difference <= 0).mean()))
    return low <= 0, p_value, low, high


def mark_best(
    metrics: Sequence[str],
    estimates: Sequence[CorrelationEstimate],
    *,
    test: str = "bootstrap",
    alpha: float = 0.05,
    pearson_between_metrics: np.ndarray | None = None,
) -> tuple[MetricCell, ...]:
    """Mark the best metric(s) and those equivalent to it.

    ``estimates`` must share their resamples (``samples`` of equal length,
    drawn with the same counts). For ``test="williams"`` give
    ``pearson_between_metrics`` ``(M, M)``: Pearson's r between the metrics'
    scores on the same points.
    """
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; valid: {', '.join(TESTS)}")
    coefficients = np.array([e.coefficient for e in estimates], dtype=np.float64)
    bests = best_indices(coefficients).tolist()
    cells = []
    for index, (metric, estimate) in enumerate(zip(metrics, estimates)):
        is_best = index in bests
        if is_best or not bests or not math.isfinite(estimate.coefficient):
            cells.append(MetricCell(metric, estimate, is_best, False, *(math.nan,) * 3))
            continue
        # Against each best metric; keep the weakest evidence that this one
        # is worse (equivalent to any best wins, then the largest p).
        outcomes = []
        for best in bests:
            if test == "bootstrap":
                outcome = _bootstrap_against(estimates[best], estimate, alpha)
            else:
                if estimate.method != "pearson" or pearson_between_metrics is None:
                    raise ValueError("Williams' test needs Pearson correlations")
                p_value = williams_p_value(
                    estimates[best].coefficient,
                    estimate.coefficient,
                    float(pearson_between_metrics[best, index]),
                    estimate.n_points,
                )
                outcome = (not p_value < alpha, p_value, math.nan, math.nan)
            outcomes.append((outcome, metrics[best]))
        (equivalent, p_value, low, high), against = max(
            outcomes,
            key=lambda item: (item[0][0], np.nan_to_num(item[0][1], nan=-1.0)),
        )
        cells.append(
            MetricCell(metric, estimate, False, equivalent, p_value, low, high, against)
        )
    return tuple(cells)
