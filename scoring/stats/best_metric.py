"""Which metric correlates best with a criterion, and which are as good.

The ORANGE paper's Table 1 marks, per criterion, the best metric (dark
cells) and the metrics statistically equivalent to it (gray cells). Here
"equivalent" is decided by a paired test on the *difference* of the two
correlations, not by overlapping intervals:

- ``test="bootstrap"`` (default): the correlations of the best metric and of
  metric m are computed on the same R resamples of the points; d_r = r_best
  - r_m. The metric is equivalent when the 95 % percentile interval of d
  contains 0 (a two-sided test at 5 %: equivalently, at least 2.5 % of the
  resamples have r_m >= r_best). ``p_value`` is the share of resamples with
  d_r <= 0, the one-sided bootstrap p-value of "best beats m".
- ``test="williams"`` (Pearson only): Williams' (1959) t-test for two
  dependent correlations sharing the human scores, as recommended by Graham
  & Baldwin (2014) and implemented in mt-metrics-eval's ``WilliamsTest``;
  one-sided p-value; equivalent when p >= alpha.

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
from scipy.special import stdtr

from scoring.results import json_safe
from scoring.stats.correlation import CorrelationEstimate
from scoring.stats.resampling import percentile_interval

TESTS = ("bootstrap", "williams")


def williams_p_value(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p-value that r12 > r13, where r12 = corr(human, metric A),
    r13 = corr(human, metric B), r23 = corr(A, B), over n points (n > 3)."""
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
            }
        )


def mark_best(
    metrics: Sequence[str],
    estimates: Sequence[CorrelationEstimate],
    *,
    test: str = "bootstrap",
    alpha: float = 0.05,
    pearson_between_metrics: np.ndarray | None = None,
) -> tuple[MetricCell, ...]:
    """Mark the best metric and those equivalent to it.

    ``estimates`` must share their resamples (``samples`` of equal length,
    drawn with the same counts). For ``test="williams"`` give
    ``pearson_between_metrics`` ``(M, M)``: Pearson's r between the metrics'
    scores on the same points.
    """
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; valid: {', '.join(TESTS)}")
    coefficients = np.array([e.coefficient for e in estimates], dtype=np.float64)
    if not np.isfinite(coefficients).any():
        return tuple(
            MetricCell(m, e, False, False, math.nan, math.nan, math.nan)
            for m, e in zip(metrics, estimates)
        )
    best = int(np.nanargmax(coefficients))
    cells = []
    for index, (metric, estimate) in enumerate(zip(metrics, estimates)):
        p_value = low = high = math.nan
        equivalent = False
        if index != best and math.isfinite(estimate.coefficient):
            if test == "bootstrap":
                difference = estimates[best].samples - estimate.samples  # type: ignore[operator]
                difference = difference[np.isfinite(difference)]
                if difference.size:
                    low, high = (
                        float(v) for v in percentile_interval(difference, 1 - alpha)
                    )
                    p_value = float((difference <= 0).mean())
                    equivalent = low <= 0
            else:
                if estimate.method != "pearson" or pearson_between_metrics is None:
                    raise ValueError("Williams' test needs Pearson correlations")
                p_value = williams_p_value(
                    estimates[best].coefficient,
                    estimate.coefficient,
                    float(pearson_between_metrics[best, index]),
                    estimate.n_points,
                )
                equivalent = not p_value < alpha
        cells.append(
            MetricCell(metric, estimate, index == best, equivalent, p_value, low, high)
        )
    return tuple(cells)
