"""Fleiss' kappa and weighted Cohen's kappa of human judges.

Ratings come as ``(item, judge, value)`` triples, as in
:mod:`~scoring.stats.agreement`; categories are the distinct values.

**Fleiss' kappa** (Fleiss 1971, "Measuring nominal scale agreement among
many raters"): each of N items is rated by the same number n of raters,
``n_ic`` of them choosing category c; raters need not be the same people
from item to item::

    P_i   = (sum_c n_ic^2 - n) / (n (n - 1))   # agreeing rater pairs on item i
    p_c   = sum_i n_ic / (N n)                 # share of all ratings in c
    kappa = (mean_i P_i - sum_c p_c^2) / (1 - sum_c p_c^2)

Categories are nominal (a 4 against a 5 disagrees as much as a 1 against a
5). With missing ratings the items do not all have n raters: only the items
rated by the most common number of judges are used
(:func:`~scoring.stats.rating_tables.equal_count_items`), and the estimate
says how many were left out.

**Weighted kappa** (Cohen 1968) of two raters on the items both rated, with
disagreement weights ``w_cd = |x_c - x_d|`` (linear) or ``(x_c - x_d)^2``
(quadratic) between category values, ``o_cd`` the share of items the first
rated c and the second d, and ``e_cd = o_c. o_.d`` its chance share::

    kappa_w = 1 - sum_cd w_cd o_cd / sum_cd w_cd e_cd

Weights are distances between category *values*: scikit-learn's
``cohen_kappa_score(weights=...)`` measures them between label positions,
which is the same when ``labels`` lists every point of the scale (a scale
factor cancels). With several judges the figure is the mean over judge
pairs sharing at least ``min_shared`` items (as the pairwise Pearson of
:mod:`~scoring.stats.agreement`), each judge's first rating of an item
counting. Kappa is undefined (NaN) when there is no expected disagreement
(both raters used one and the same value), as scikit-learn has it.

Intervals: percentile bootstrap over items (the items in use), seeded.
"""

from __future__ import annotations

import numpy as np

from scoring.stats.agreement import AgreementEstimate, _weight_blocks
from scoring.stats.rating_tables import Ratings, equal_count_items, first_ratings
from scoring.stats.resampling import percentile_interval

WEIGHTS = ("linear", "quadratic")
# Bootstrapping confusion matrices costs (resamples x pairs x levels^2).
MAX_BOOTSTRAP_LEVELS = 30


def fleiss_kappa(counts) -> float:
    """Fleiss' kappa of a table ``counts`` (N items, V categories), every row
    summing to the same number of raters n >= 2. NaN without expected
    disagreement (every rating in one category) or with fewer than 2 items.

    Three items, two raters, two categories: both chose A on item 1, both B
    on item 2, they split on item 3: P = (1, 1, 0), mean 2/3; p = (1/2,
    1/2), sum p^2 = 1/2; kappa = (2/3 - 1/2) / (1 - 1/2) = 1/3:

    >>> round(fleiss_kappa([[2, 0], [0, 2], [1, 1]]), 6)
    0.333333
    """
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 2:
        raise ValueError("counts must be a table: items x categories")
    raters = counts.sum(axis=1)
    if len(counts) and (np.any(raters != raters[0]) or raters[0] < 2):
        raise ValueError("every item needs the same number of raters, two or more")
    if len(counts) < 2:
        return float("nan")
    return float(_fleiss(np.ones((1, len(counts))), counts)[0])


def _fleiss(weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Fleiss' kappa per row of item ``weights`` (R, N) for ``counts`` (N, V)."""
    n = counts[0].sum()
    agreement = ((counts**2).sum(axis=1) - n) / (n * (n - 1))  # P_i, (N,)
    total = weights.sum(axis=1)  # (R,)
    mean_agreement = weights @ agreement / total
    shares = weights @ counts / (total * n)[:, None]  # (R, V)
    chance = (shares**2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (mean_agreement - chance) / (1 - chance)
    return np.where(1 - chance > 1e-12, kappa, np.nan)


def weighted_kappa(first, second, weights: str | None = "linear") -> float:
    """Weighted Cohen's kappa of two raters' values of the same items, in
    order (``weights=None``: unweighted). NaN without expected disagreement.

    First 1, 2, 3 and second 1, 3, 3 (linear): only item 2 disagrees, by
    |2 - 3| = 1, so ``sum w o = 1/3``; the marginals r = (1/3, 1/3, 1/3) and
    s = (1/3, 0, 2/3) give ``sum |c - d| r_c s_d = 4/9 + 1/9 + 2/9 + 2/9 =
    1``, so kappa_w = 1 - (1/3) / 1 = 2/3:

    >>> round(weighted_kappa([1, 2, 3], [1, 3, 3], "linear"), 6)
    0.666667
    """
    first = np.asarray(first, dtype=np.float64)
    second = np.asarray(second, dtype=np.float64)
    if first.shape != second.shape or first.ndim != 1:
        raise ValueError("both raters need a value for every item")
    if len(first) == 0:
        return float("nan")
    levels, codes = np.unique(np.concatenate([first, second]), return_inverse=True)
    matrix = disagreement_weights(levels, weights)
    cells = codes[: len(first)] * len(levels) + codes[len(first) :]
    observed = np.bincount(cells, minlength=len(levels) ** 2).astype(float)
    return float(_kappas(observed[None, :], matrix)[0])


def disagreement_weights(levels, weights: str | None) -> np.ndarray:
    """``w_cd`` (V, V) between the category values ``levels`` (V,)."""
    levels = np.asarray(levels, dtype=np.float64)
    difference = np.abs(levels[:, None] - levels[None, :])
    if weights is None:
        return (difference > 0).astype(np.float64)
    if weights == "linear":
        return difference
    if weights == "quadratic":
        return difference**2
    raise ValueError(f"unknown weights {weights!r}; choose from {', '.join(WEIGHTS)}")


def _kappas(observed: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Weighted kappa per row of confusion counts ``observed`` (R, V*V)."""
    n_levels = len(matrix)
    o = observed.reshape(-1, n_levels, n_levels)
    n = o.sum(axis=(1, 2))
    rows, columns = o.sum(axis=2), o.sum(axis=1)  # (R, V) each
    disagreement = np.einsum("rcd,cd->r", o, matrix)
    chance = np.einsum("rc,rd,cd->r", rows, columns, matrix)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = 1.0 - n * disagreement / chance
    return np.where(chance > 1e-12 * np.maximum(n, 1) ** 2, kappa, np.nan)


def fleiss_agreement(
    items,
    judges,
    values,
    *,
    n_samples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> AgreementEstimate:
    """Fleiss' kappa of the items rated by the most common number of judges
    (each judge's first rating), with a bootstrap interval over those items."""
    ratings = first_ratings(items, judges, values)
    kept, m, rated = equal_count_items(ratings)
    counts, levels = _category_counts(ratings, kept)
    value = fleiss_kappa(counts) if len(kept) else float("nan")
    low = high = None
    if len(kept) >= 2 and not np.isnan(value) and n_samples > 0:
        samples = np.concatenate(
            [_fleiss(w, counts) for w in _weight_blocks(len(kept), n_samples, seed)]
        )
        low, high = _interval(samples, confidence)
    used = np.isin(ratings.items, kept)
    undefined = None
    if np.isnan(value):
        if len(kept) < 2:
            undefined = "fewer than two items rated by the same number of judges"
        else:
            undefined = "every rating is in one category: no disagreement is expected"
    note = None
    if rated > len(kept):
        note = (
            f"{len(kept)} of {rated} items: those rated by {m} judges (Fleiss' κ "
            f"needs the same number of raters per item)"
        )
    return AgreementEstimate(
        method="fleiss",
        value=None if np.isnan(value) else value,
        low=low,
        high=high,
        confidence=confidence,
        n_items=len(kept),
        n_judges=len(np.unique(ratings.judges[used])),
        n_values=int(used.sum()),
        n_samples=n_samples,
        seed=seed,
        undefined=undefined,
        note=note,
    )


def _category_counts(ratings: Ratings, kept: np.ndarray):
    """How often each kept item got each value: (N, V), and the values (V,)."""
    used = np.isin(ratings.items, kept)
    levels, codes = np.unique(ratings.values[used], return_inverse=True)
    rows = np.searchsorted(kept, ratings.items[used])
    counts = np.zeros((len(kept), len(levels)))
    np.add.at(counts, (rows, codes), 1.0)
    return counts, levels


def _interval(samples: np.ndarray, confidence: float):
    samples = samples[np.isfinite(samples)]
    if not len(samples):
        return None, None
    low, high = percentile_interval(samples, confidence)
    return float(low), float(high)


def weighted_kappa_agreement(
    items,
    judges,
    values,
    weights: str = "linear",
    *,
    min_shared: int = 3,
    n_samples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> AgreementEstimate:
    """The mean weighted kappa over judge pairs sharing ``min_shared`` items
    or more (pairs whose kappa is undefined are left out), with a bootstrap
    interval: the items in use are resampled (one draw for every pair), each
    pair's kappa recomputed and the pairs' kappas averaged."""
    if weights not in WEIGHTS:
        raise ValueError(
            f"unknown weights {weights!r}; choose from {', '.join(WEIGHTS)}"
        )
    ratings = first_ratings(items, judges, values)
    levels, codes = np.unique(ratings.values, return_inverse=True)
    matrix = disagreement_weights(levels, weights)
    pairs = _judge_pairs(ratings, codes, len(levels), min_shared)
    per_pair = (
        _pair_kappas(np.ones((1, ratings.n_items)), pairs, matrix)[0]
        if pairs
        else np.zeros(0)
    )
    defined = [pair for pair, kappa in zip(pairs, per_pair) if np.isfinite(kappa)]
    value = float(np.mean(per_pair[np.isfinite(per_pair)])) if defined else np.nan
    in_use = np.unique(np.concatenate([p[2] for p in defined])) if defined else []
    low = high = None
    if len(in_use) >= 2 and len(levels) <= MAX_BOOTSTRAP_LEVELS and n_samples > 0:
        # resample the items in use: re-index them 0..len(in_use)-1
        local = [(a, b, np.searchsorted(in_use, s), c) for a, b, s, c in defined]
        blocks = []
        for w in _weight_blocks(len(in_use), n_samples, seed):
            kappas = _pair_kappas(w, local, matrix)  # (r, P)
            finite = np.isfinite(kappas)
            with np.errstate(invalid="ignore", divide="ignore"):
                blocks.append(np.where(finite, kappas, 0).sum(1) / finite.sum(1))
        low, high = _interval(np.concatenate(blocks), confidence)
    undefined = None
    if not defined:
        undefined = (
            f"no two judges share {min_shared} items or more"
            if not pairs
            else "every judge pair used one and the same value: no disagreement "
            "is expected"
        )
    return AgreementEstimate(
        method=f"kappa-{weights}",
        value=None if np.isnan(value) else value,
        low=low,
        high=high,
        confidence=confidence,
        n_items=len(in_use),
        n_judges=len({j for a, b, *_ in defined for j in (a, b)}),
        n_values=int(sum(2 * len(p[2]) for p in defined)),
        n_samples=n_samples,
        seed=seed,
        undefined=undefined,
    )


def _judge_pairs(ratings: Ratings, codes: np.ndarray, n_levels: int, min_shared: int):
    """(judge a, judge b, shared item codes (S,), confusion cells (S,)) for
    every judge pair with at least ``min_shared`` shared items."""
    by_judge: list[dict[int, int]] = [{} for _ in range(ratings.n_judges)]
    for item, judge, code in zip(
        ratings.items.tolist(), ratings.judges.tolist(), codes.tolist()
    ):
        by_judge[judge][item] = code
    pairs = []
    for a in range(ratings.n_judges):
        for b in range(a + 1, ratings.n_judges):
            shared = sorted(by_judge[a].keys() & by_judge[b].keys())
            if len(shared) < min_shared:
                continue
            cells = [by_judge[a][i] * n_levels + by_judge[b][i] for i in shared]
            pairs.append((a, b, np.array(shared), np.array(cells)))
    return pairs


def _pair_kappas(weights: np.ndarray, pairs, matrix: np.ndarray) -> np.ndarray:
    """Weighted kappa (R, P) of every pair under item ``weights`` (R, U)."""
    n_cells = len(matrix) ** 2
    kappas = np.empty((len(weights), len(pairs)))
    for p, (_, _, shared, cells) in enumerate(pairs):
        onehot = np.zeros((len(shared), n_cells))
        onehot[np.arange(len(shared)), cells] = 1.0
        kappas[:, p] = _kappas(weights[:, shared] @ onehot, matrix)
    return kappas
