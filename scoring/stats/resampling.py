"""Seeded resampling shared by every statistical procedure of mtdash.

Every function takes a ``seed`` (an ``int``) or a ready
``numpy.random.Generator``; nothing touches NumPy's global random state.
Each procedure builds its *own* generator from the seed, as sacreBLEU does, so
the same seed gives the same resamples as ``sacrebleu --paired-bs`` /
``--paired-ar`` (``numpy.random.default_rng(seed)`` followed by one
``choice``/``integers`` call of the same shape).

Shapes: ``R`` resamples (or randomisation trials), ``n`` items (segments,
systems or judged points).
"""

from __future__ import annotations

import math

import numpy as np

Seed = int | np.random.Generator


def make_rng(seed: Seed) -> np.random.Generator:
    """A generator for ``seed``; a Generator passed in is used as it is."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"a seed must be an integer, not {seed!r}")
    return np.random.default_rng(int(seed))


def _check_sizes(n_items: int, n_samples: int) -> None:
    if n_items < 1:
        raise ValueError("resampling needs at least one item")
    if n_samples < 1:
        raise ValueError("the number of resamples must be positive")


def bootstrap_indices(n_items: int, n_samples: int, seed: Seed) -> np.ndarray:
    """Indices of ``n_samples`` bootstrap resamples: ``(R, n)`` int64.

    Row r lists the n items drawn with replacement for resample r (the same
    draw as sacreBLEU's ``rng.choice(n, size=(R, n), replace=True)``).
    """
    _check_sizes(n_items, n_samples)
    rng = make_rng(seed)
    return rng.choice(n_items, size=(n_samples, n_items), replace=True)


def counts_from_indices(indices: np.ndarray, n_items: int) -> np.ndarray:
    """How often each item is drawn in each resample: ``(R, n) -> (R, n)``.

    The counts are float64 so that ``counts @ statistics`` (the summed
    statistics of every resample at once) runs as one BLAS product; they are
    small integers, hence exact.
    """
    n_samples = indices.shape[0]
    offsets = np.arange(n_samples, dtype=np.int64)[:, None] * n_items
    flat = np.bincount((indices + offsets).ravel(), minlength=n_samples * n_items)
    return flat.reshape(n_samples, n_items).astype(np.float64)


def bootstrap_counts(n_items: int, n_samples: int, seed: Seed) -> np.ndarray:
    """Bootstrap weights: ``(R, n)`` float64 counts, each row summing to n."""
    return counts_from_indices(bootstrap_indices(n_items, n_samples, seed), n_items)


def cluster_bootstrap_counts(
    clusters: np.ndarray, n_samples: int, seed: Seed
) -> np.ndarray:
    """Bootstrap weights of items drawn in whole clusters: ``(n,) -> (R, n)``.

    ``clusters`` labels each item with its cluster (for a segment-level
    correlation: the segment of each judged (system, segment) point). The G
    distinct clusters are resampled with replacement, as
    :func:`bootstrap_counts` draws G items with the same seed, and every item
    gets its cluster's count: a segment drawn twice brings every system's
    point of that segment twice, together (WMT's segment-level bootstrap).
    With one item per cluster this is :func:`bootstrap_counts` itself.

    Two resamples of three points in segments 7, 7 and 9 (seed 0): segment
    9 twice, then each segment once; the two points of segment 7 move
    together::

        >>> cluster_bootstrap_counts(np.array([7, 7, 9]), 2, 0).tolist()
        [[0.0, 0.0, 2.0], [1.0, 1.0, 1.0]]
    """
    clusters = np.asarray(clusters)
    if clusters.ndim != 1:
        raise ValueError("cluster labels must be a vector, one per item")
    labels, of_item = np.unique(clusters, return_inverse=True)
    counts = bootstrap_counts(labels.size, n_samples, seed)  # (R, G)
    return counts[:, of_item.reshape(-1)]


def random_signs(n_items: int, n_trials: int, seed: Seed) -> np.ndarray:
    """Approximate-randomisation swaps as a ±1 matrix: ``(T, n)`` float64.

    +1 keeps item i of each system where it is, -1 swaps it between the two
    systems compared. Drawn as sacreBLEU draws its ``pos_sel`` mask
    (``rng.integers(2, size=(T, n), dtype=bool)``; True becomes +1).
    """
    _check_sizes(n_items, n_trials)
    rng = make_rng(seed)
    keep = rng.integers(2, size=(n_trials, n_items), dtype=bool)
    return np.where(keep, 1.0, -1.0)


def interval_positions(n_samples: int, confidence: float) -> tuple[int, int]:
    """Order statistics bounding a ``confidence`` percentile interval.

    With R sorted resampled values, the interval is
    ``[sorted[k], sorted[R - 1 - k]]`` where ``k = floor(R (1 - confidence) / 2)``:
    for R = 1000 and 95 %, the 26th and the 975th values. This is the rule of
    Koehn (2004), Moses' bootstrap scripts and sacreBLEU (``n // 40``).

    >>> interval_positions(1000, 0.95)
    (25, 974)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError("the confidence level must lie strictly between 0 and 1")
    # The small epsilon keeps 1000 * 0.025 = 24.999999999999996 at 25.
    k = math.floor(n_samples * (1.0 - confidence) / 2.0 + 1e-9)
    return k, n_samples - 1 - k


def percentile_interval(
    samples: np.ndarray, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval over the first axis: ``(R, ...) -> ((...), (...))``.

    NaN resamples (e.g. a correlation of a resample whose scores are all
    equal) are left out; where none is finite the bounds are NaN.
    """
    samples = np.asarray(samples, dtype=np.float64)
    tail_shape = samples.shape[1:]
    flat = samples.reshape(samples.shape[0], -1)  # (R, m)
    ordered = np.sort(flat, axis=0)  # NaN sorts last
    finite = np.isfinite(flat).sum(axis=0)  # (m,)
    low = np.full(flat.shape[1], np.nan)
    high = np.full(flat.shape[1], np.nan)
    for column, count in enumerate(finite):
        if count:
            lower, upper = interval_positions(int(count), confidence)
            low[column], high[column] = ordered[lower, column], ordered[upper, column]
    return low.reshape(tail_shape), high.reshape(tail_shape)
