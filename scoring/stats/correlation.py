"""Correlation of metric scores with human scores, with bootstrap intervals.

Coefficients (``method``):

- ``pearson``: Pearson's r (linear correlation), as ``scipy.stats.pearsonr``;
- ``spearman``: Spearman's rho = Pearson's r of the mid-ranks (ties share
  the average rank), as ``scipy.stats.spearmanr``;
- ``kendall``: Kendall's tau-b (``variant="b"``, the default), which corrects
  for ties in either variable, as ``scipy.stats.kendalltau`` and
  mt-metrics-eval's ``Correlation.Kendall`` (default ``variant='b'``) do;
  tau-c (``variant="c"``) is also available. (WMT's segment-level
  "Kendall's tau-like" on relative-ranking pairs is a different statistic,
  defined on pairs of translations of the same source; it is not this.)

System level: one point per system (metric corpus score, human system
score). Sentence level: one point per judged (system, segment), pooled over
systems (mt-metrics-eval's ``average_by="none"``).

Confidence intervals: R bootstrap resamples (seeded) of the points, or of
whole clusters of points when ``clusters`` is given (at sentence level the
segments: every system's point of a drawn segment comes along, as WMT
resamples; :func:`~scoring.stats.resampling.cluster_bootstrap_counts`).
Each resample is a row of counts, and every coefficient is computed for all rows at once
from the original points (weighted moments for Pearson, weighted mid-ranks
for Spearman, :mod:`scoring.stats.kendall` for tau). The interval is the
two-sided percentile interval of
:func:`~scoring.stats.resampling.percentile_interval`.

Worked example::

    >>> import numpy as np
    >>> metric, human = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, 4.0])
    >>> round(correlate(metric, human, "pearson"), 4)   # 4.0 / sqrt(5 * 5)
    0.8
    >>> round(correlate(metric, human, "kendall"), 4)   # (5 - 1) / 6 pairs
    0.6667
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays
from scoring.stats.kendall import kendall_plan, weighted_tau
from scoring.stats.resampling import (
    Seed,
    bootstrap_counts,
    cluster_bootstrap_counts,
    percentile_interval,
)

METHODS = ("pearson", "spearman", "kendall")
# Resamples processed together: bounds the memory of (chunk, n) arrays.
_CHUNK = 256
# A weighted variance below this share of the mean square is rounding noise
# (a resample whose values are all equal): the correlation is undefined.
_RELATIVE_VARIANCE_FLOOR = 1e-12


def _check_points(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError("metric and human scores must be two vectors of equal length")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("scores must be finite numbers (drop unjudged points first)")
    return x, y


def _pearson_from_moments(moments: np.ndarray) -> np.ndarray:
    """r from weighted means of [x, y, x^2, y^2, xy]: ``(R, 5) -> (R,)``."""
    mx, my, mxx, myy, mxy = moments.T
    vx, vy, cov = mxx - mx * mx, myy - my * my, mxy - mx * my
    tiny = np.finfo(float).tiny
    defined = (vx > _RELATIVE_VARIANCE_FLOOR * np.maximum(mxx, tiny)) & (
        vy > _RELATIVE_VARIANCE_FLOOR * np.maximum(myy, tiny)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cov / np.sqrt(np.where(defined, vx * vy, 1.0))
    return np.where(defined, np.clip(r, -1.0, 1.0), np.nan)


def _weighted_pearson(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Pearson's r per row: x, y ``(n,)`` or ``(R, n)``; weights ``(R, n)``."""
    size = weights.sum(axis=1)
    if x.ndim == 1 and y.ndim == 1:
        # Centre first so that E[x^2] - E[x]^2 does not cancel; then every
        # resample's moments come from one matrix product.
        x, y = x - x.mean(), y - y.mean()
        columns = np.stack([x, y, x * x, y * y, x * y], axis=1)  # (n, 5)
        return _pearson_from_moments((weights @ columns) / size[:, None])

    def mean(values: np.ndarray) -> np.ndarray:
        return (weights * values).sum(axis=1) / size

    x = x - mean(x)[:, None]
    y = y - mean(y)[:, None]
    moments = np.stack(
        [mean(x), mean(y), mean(x * x), mean(y * y), mean(x * y)], axis=1
    )
    return _pearson_from_moments(moments)


def _weighted_midranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mid-rank of each point in each weighted resample: ``(R, n)``.

    A point drawn w times occupies w consecutive ranks; tied points share
    the average of the ranks of their group (what ``scipy.stats.rankdata``
    gives on the resampled vector).
    """
    groups = np.unique(values, return_inverse=True)[1]
    order = np.argsort(groups, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(groups[order]) != 0])
    group_weights = np.add.reduceat(weights[:, order], starts, axis=1)
    before = np.cumsum(group_weights, axis=1) - group_weights
    return (before + (group_weights + 1.0) / 2.0)[:, groups]


def weighted_correlations(
    x: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray,
    method: str = "pearson",
    variant: str = "b",
) -> np.ndarray:
    """The coefficient of every weighted resample: ``(n,), (n,), (R, n) -> (R,)``.

    ``weights`` are bootstrap counts (a row of ones is the sample itself).
    NaN where the coefficient is undefined (constant scores).
    """
    x, y = _check_points(x, y)
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 2 or weights.shape[1] != x.size:
        raise ValueError(f"weights must have shape (R, {x.size})")
    if method not in METHODS:
        raise ValueError(f"unknown correlation {method!r}; valid: {', '.join(METHODS)}")
    plan = kendall_plan(x, y) if method == "kendall" else None
    results = []
    for start in range(0, weights.shape[0], _CHUNK):
        chunk = weights[start : start + _CHUNK]
        if method == "pearson":
            results.append(_weighted_pearson(x, y, chunk))
        elif method == "spearman":
            rx = _weighted_midranks(x, chunk)
            ry = _weighted_midranks(y, chunk)
            results.append(_weighted_pearson(rx, ry, chunk))
        else:
            results.append(weighted_tau(plan, chunk, variant))  # type: ignore[arg-type]
    return np.concatenate(results) if results else np.zeros(0)


def correlate(
    x: np.ndarray, y: np.ndarray, method: str = "pearson", variant: str = "b"
) -> float:
    """The coefficient of the points themselves (NaN if undefined)."""
    x, y = _check_points(x, y)
    if x.size < 2:
        return float("nan")
    ones = np.ones((1, x.size))
    return float(weighted_correlations(x, y, ones, method, variant)[0])


@dataclass(frozen=True, eq=False)
class CorrelationEstimate:
    """A coefficient with its two-sided bootstrap percentile interval.

    ``unit`` names what was resampled ("point", "segment", "system") and
    ``n_units`` how many of them there were. ``samples`` (``(R,)``, NaN for
    undefined resamples) is kept for paired tests between metrics; it is not
    part of ``to_dict``.
    """

    method: str
    coefficient: float
    low: float
    high: float
    n_points: int
    n_samples: int
    seed: int | None
    confidence: float
    undefined_samples: int
    samples: np.ndarray | None = None
    unit: str = "point"
    n_units: int | None = None

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes None)."""
        return json_safe(
            {
                "method": self.method,
                "coefficient": self.coefficient,
                "low": self.low,
                "high": self.high,
                "n_points": self.n_points,
                "n_samples": self.n_samples,
                "seed": self.seed,
                "confidence": self.confidence,
                "undefined_samples": self.undefined_samples,
                "resampling_unit": self.unit,
                "n_units": self.n_units,
            }
        )


def estimate_from_samples(
    coefficient: float,
    samples: np.ndarray,
    method: str,
    n_points: int,
    seed: int | None,
    confidence: float,
    *,
    unit: str = "point",
    n_units: int | None = None,
) -> CorrelationEstimate:
    """Wrap a coefficient and its resampled values ``(R,)`` into an estimate."""
    low, high = percentile_interval(samples, confidence)
    return CorrelationEstimate(
        method=method,
        coefficient=float(coefficient),
        low=float(low),
        high=float(high),
        n_points=n_points,
        n_samples=int(samples.shape[0]),
        seed=seed,
        confidence=confidence,
        undefined_samples=int(np.isnan(samples).sum()),
        samples=samples,
        unit=unit,
        n_units=n_points if n_units is None else n_units,
    )


def bootstrap_correlation(
    x: np.ndarray,
    y: np.ndarray,
    method: str = "pearson",
    *,
    n_samples: int = 1000,
    seed: Seed = 1,
    confidence: float = 0.95,
    variant: str = "b",
    clusters: np.ndarray | None = None,
    unit: str | None = None,
) -> CorrelationEstimate:
    """Coefficient of ``(x, y)`` and its 95 % (``confidence``) bootstrap interval.

    ``clusters`` ``(n,)`` labels the points that must be resampled together
    (e.g. the segment of each point; ``unit`` then names them, by default
    "cluster"); without it each point is resampled on its own.
    """
    x, y = _check_points(x, y)
    if clusters is None:
        counts = bootstrap_counts(x.size, n_samples, seed)
        n_units = x.size
    else:
        clusters = np.asarray(clusters)
        if clusters.shape != x.shape:
            raise ValueError("give one cluster label per point")
        counts = cluster_bootstrap_counts(clusters, n_samples, seed)
        n_units = int(np.unique(clusters).size)
    samples = weighted_correlations(x, y, counts, method, variant)
    return estimate_from_samples(
        correlate(x, y, method, variant),
        samples,
        method,
        x.size,
        seed if isinstance(seed, int) else None,
        confidence,
        unit=unit or ("point" if clusters is None else "cluster"),
        n_units=n_units,
    )
