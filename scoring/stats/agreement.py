"""Agreement between human judges, and the quality controls of their ratings.

Ratings come as ``(item, judge, value)`` triples: three arrays of one length,
``items`` and ``judges`` integer codes (any), ``values`` floats; a judge who
did not rate an item simply has no triple (missing values). An item rated
twice by one judge keeps both values (each is one pairable value).

- :func:`krippendorff_alpha`: Krippendorff's alpha (2011, "Computing
  Krippendorff's Alpha-Reliability") for nominal, ordinal and interval data,
  from the coincidence matrix of the pairable values (items with at least
  two values).
- :func:`alpha_agreement`: alpha with a seeded bootstrap interval over items.
- :func:`pairwise_pearson` / :func:`pearson_agreement`: the mean Pearson
  correlation over judge pairs on the items both rated (DA, 0-100), with a
  seeded bootstrap interval over items.
- :func:`repeat_consistency`: intra-annotator consistency of repeated items.
- :func:`degradation_test`: WMT's "bad reference" check, one-sided paired
  Wilcoxon signed-rank test that degraded translations are rated lower.

Worked example (Krippendorff 2011, units 6 and 10 of section C): unit 6 has
values {1, 2, 3, 4} from four coders, so each ordered pair of distinct
values adds 1/(4-1) to the coincidence matrix; unit 10 has {5, 5, 5}, adding
2/(3-1) = 1 to o[5,5] per value. Alpha is ``1 - D_o / D_e`` with
``D_o = sum o_ck d_ck / n`` and ``D_e = sum n_c n_k d_ck / (n (n - 1))``.

Undefined figures are ``None`` (NaN in the plain functions) with a reason in
words (:data:`UNDEFINED`): alpha of a single pairable item is 0 by
construction whatever the ratings (its pairs are both the observed and the
expected disagreement), so it is undefined rather than 0, as is alpha
without variation (``D_e = 0``). Fleiss' and weighted kappa and the ICC are
in :mod:`~scoring.stats.reliability`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.stats.resampling import bootstrap_counts, percentile_interval

LEVELS = ("nominal", "ordinal", "interval")
# Resampling coincidence matrices costs (resamples x items x levels^2).
MAX_BOOTSTRAP_LEVELS = 30
# Bootstrap weights are drawn in blocks of at most this many (resample,
# item) cells, so 40,000 items x 1,000 resamples never sit in memory at once.
BLOCK_CELLS = 4_000_000

# Why a figure is undefined, in words for the pages (JSON: ``undefined``).
UNDEFINED = {
    "no-items": "no item has two ratings or more",
    "one-item": (
        "a single item has two ratings or more: α compares disagreement within "
        "items with disagreement across items, which one item cannot tell apart "
        "(α is 0 by construction)"
    ),
    "no-variation": "every rating has the same value: no disagreement is expected",
    "no-repeats": "no repeated items",
    "one-repeat": (
        "a single repeat: α needs two repeated items or more (from one, α is 0 "
        "by construction)"
    ),
    "no-pairs": "no two judges share {min_shared} items or more with varying ratings",
}


def _weight_blocks(n_items: int, n_samples: int, seed: int):
    """Bootstrap counts (r, U) in blocks of resamples, from one generator."""
    rng = np.random.default_rng(seed)
    rows = max(1, BLOCK_CELLS // n_items)
    for start in range(0, n_samples, rows):
        yield bootstrap_counts(n_items, min(rows, n_samples - start), rng)


@dataclass(frozen=True)
class AgreementEstimate:
    """An agreement coefficient with its bootstrap interval over items
    (``None`` where there are too few pairable items to compute it)."""

    # "alpha-ordinal", "alpha-interval", "alpha-nominal", "pearson"; from
    # scoring.stats.kappa and .icc: "fleiss", "kappa-linear",
    # "kappa-quadratic", "icc-a1", "icc-ak"
    method: str
    value: float | None
    low: float | None
    high: float | None
    confidence: float
    n_items: int  # items with at least two values (alpha) / in a judge pair
    n_judges: int
    n_values: int  # pairable values (alpha) or shared ratings (pearson)
    n_samples: int
    seed: int
    undefined: str | None = None  # why ``value`` is None, in words
    note: str | None = None  # which ratings were used, when not all were

    def to_dict(self) -> dict:
        return {
            "method": self.method,
            "value": self.value,
            "interval": None if self.low is None else [self.low, self.high],  # type: ignore[list-item]
            "confidence": self.confidence,
            "n_items": self.n_items,
            "n_judges": self.n_judges,
            "n_values": self.n_values,
            "n_samples": self.n_samples,
            "seed": self.seed,
            "undefined": self.undefined,
            "note": self.note,
        }


@dataclass(frozen=True)
class RepeatConsistency:
    """How a judge (or several) rated the same item the second time."""

    n_pairs: int
    mean_absolute_difference: float | None
    exact_share: float | None  # share of repeats given the same value
    alpha: float | None  # alpha (interval) over the repeat pairs
    undefined: str | None = None  # why ``alpha`` is None, in words

    def to_dict(self) -> dict:
        return {
            "n_pairs": self.n_pairs,
            "mean_absolute_difference": self.mean_absolute_difference,
            "exact_share": self.exact_share,
            "alpha": self.alpha,
            "undefined": self.undefined,
        }


@dataclass(frozen=True)
class DegradationTest:
    """Whether degraded translations were rated lower than their originals."""

    n_pairs: int
    mean_drop: float | None  # mean of original - degraded
    p_value: float | None  # one-sided signed-rank; None below min_pairs
    passed: bool | None  # None: no pairs
    tested: bool  # False: too few pairs, decided by the mean drop alone

    def to_dict(self) -> dict:
        return {
            "n_pairs": self.n_pairs,
            "mean_drop": self.mean_drop,
            "p_value": self.p_value,
            "passed": self.passed,
            "tested": self.tested,
        }


def _pairable(items, judges, values):
    """Codes of the items with >= 2 values and their values, as arrays."""
    items = np.asarray(items)
    values = np.asarray(values, dtype=np.float64)
    judges = np.asarray(judges)
    if not (len(items) == len(values) == len(judges)):
        raise ValueError("items, judges and values must have one length")
    keep = ~np.isnan(values)
    items, judges, values = items[keep], judges[keep], values[keep]
    _, item_codes, counts = np.unique(items, return_inverse=True, return_counts=True)
    pairable = counts[item_codes] >= 2
    _, item_codes = np.unique(item_codes[pairable], return_inverse=True)
    return item_codes, judges[pairable], values[pairable]


def _item_counts(item_codes, values):
    """The value levels (V,) and how often each item has each level (U, V)."""
    levels, value_codes = np.unique(values, return_inverse=True)
    n_items = int(item_codes.max()) + 1
    counts = np.zeros((n_items, len(levels)))
    np.add.at(counts, (item_codes, value_codes), 1.0)
    return levels, counts


def _coincidence(counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The coincidence matrix (V, V) of items weighted by ``weights`` (U,):
    ``sum_u w_u (n_u n_u^T - diag(n_u)) / (m_u - 1)``."""
    scale = weights / (counts.sum(axis=1) - 1)
    return (counts * scale[:, None]).T @ counts - np.diag(scale @ counts)


def _per_item_coincidences(counts: np.ndarray) -> np.ndarray:
    """Each item's coincidence matrix flattened, (U, V*V)."""
    n_items, n_levels = counts.shape
    outer = counts[:, :, None] * counts[:, None, :]
    outer[:, np.arange(n_levels), np.arange(n_levels)] -= counts
    return (outer / (counts.sum(axis=1) - 1)[:, None, None]).reshape(n_items, -1)


def _interval_alphas(item_codes, values, weights: np.ndarray) -> np.ndarray:
    """Interval alpha per row of item ``weights`` (R, U) without a coincidence
    matrix: ``1 - (n - 1) sum_u w_u d_u / (2 (n Q - S^2))`` with per-item
    ``m_u``, ``S = sum w_u sum x``, ``Q = sum w_u sum x^2`` and
    ``d_u = 2 (m_u sum x^2 - (sum x)^2) / (m_u - 1)``."""
    n_items = int(item_codes.max()) + 1
    m = np.bincount(item_codes, minlength=n_items).astype(float)
    s = np.bincount(item_codes, values, minlength=n_items)
    q = np.bincount(item_codes, values * values, minlength=n_items)
    d = 2 * (m * q - s * s) / (m - 1)
    n = weights @ m
    expected = 2 * (n * (weights @ q) - (weights @ s) ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1.0 - (n - 1) * (weights @ d) / expected
    return np.where(expected > 1e-12 * np.maximum(n, 1) ** 2, alpha, np.nan)


def _distances(level: str, levels: np.ndarray, marginals: np.ndarray) -> np.ndarray:
    """Squared differences ``delta^2`` (..., V, V) of the level; ordinal ones
    depend on the marginals ``n_c`` (..., V)."""
    if level == "nominal":
        d = 1.0 - np.eye(len(levels))
        return np.broadcast_to(d, marginals.shape[:-1] + d.shape)
    if level == "interval":
        d = (levels[:, None] - levels[None, :]) ** 2
        return np.broadcast_to(d, marginals.shape[:-1] + d.shape)
    if level == "ordinal":
        # (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2 with c <= k
        cumulative = np.cumsum(marginals, axis=-1)
        before = cumulative - marginals
        low = np.minimum.outer(np.arange(len(levels)), np.arange(len(levels)))
        high = np.maximum.outer(np.arange(len(levels)), np.arange(len(levels)))
        span = cumulative[..., high] - before[..., low]
        half = (marginals[..., :, None] + marginals[..., None, :]) / 2
        return (span - half) ** 2
    raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")


def _alpha_from(coincidence: np.ndarray, level: str, levels: np.ndarray):
    """Alpha per row of ``coincidence`` (R, V*V); NaN where undefined."""
    n_levels = len(levels)
    o = coincidence.reshape(-1, n_levels, n_levels)
    marginals = o.sum(axis=2)  # (R, V)
    n = marginals.sum(axis=1)  # (R,)
    d = _distances(level, levels, marginals)
    observed = (o * d).sum(axis=(1, 2))
    expected = np.einsum("rc,rk,rck->r", marginals, marginals, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1.0 - (n - 1) * observed / expected
    return np.where(expected > 0, alpha, np.nan)


def krippendorff_alpha(items, judges, values, level: str = "interval") -> float:
    """Krippendorff's alpha of ``(item, judge, value)`` triples.

    NaN when fewer than two items have two values or more (one item's alpha
    is 0 by construction: the ``krippendorff`` package returns that 0) or
    every pairable value is the same (no expected disagreement).

    Item 0 rated 1 and 1, item 1 rated 2 and 3: observed ``sum o d = 2``
    (the pair 2-3 both ways), expected ``sum n_c n_k d = 2 (4 * 15 - 7^2) =
    22``, so alpha = 1 - (4 - 1) * 2 / 22:

    >>> round(krippendorff_alpha([0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 2, 3]), 3)
    0.727
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    item_codes, _, pairable = _pairable(items, judges, values)
    if len(pairable) < 2 or item_codes.max() < 1:
        return float("nan")
    if level == "interval":
        one = np.ones((1, int(item_codes.max()) + 1))
        return float(_interval_alphas(item_codes, pairable, one)[0])
    levels, counts = _item_counts(item_codes, pairable)
    coincidence = _coincidence(counts, np.ones(len(counts)))
    return float(_alpha_from(coincidence.reshape(1, -1), level, levels)[0])


def alpha_agreement(
    items,
    judges,
    values,
    level: str = "ordinal",
    *,
    n_samples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> AgreementEstimate:
    """Alpha with a percentile bootstrap interval, resampling pairable items
    (``numpy.random.default_rng(seed)``, :func:`bootstrap_counts`)."""
    item_codes, pair_judges, pairable = _pairable(items, judges, values)
    value = krippendorff_alpha(items, judges, values, level)
    n_items = int(item_codes.max()) + 1 if len(item_codes) else 0
    low = high = None
    if n_items >= 2 and not np.isnan(value) and n_samples > 0:
        samples = np.concatenate(
            [
                _bootstrap_alphas(item_codes, pairable, weights, level)
                for weights in _weight_blocks(n_items, n_samples, seed)
            ]
        )
        samples = samples[~np.isnan(samples)]
        if len(samples):
            low, high = (float(x) for x in percentile_interval(samples, confidence))
    return AgreementEstimate(
        method=f"alpha-{level}",
        value=None if np.isnan(value) else value,
        low=low,
        high=high,
        confidence=confidence,
        n_items=n_items,
        n_judges=len(set(np.asarray(pair_judges).tolist())),
        n_values=len(pairable),
        n_samples=n_samples,
        seed=seed,
        undefined=_alpha_undefined(n_items, value),
    )


def _alpha_undefined(n_items: int, value: float, repeats: bool = False) -> str | None:
    """Why alpha over ``n_items`` pairable items is NaN (None if it is not)."""
    if not np.isnan(value):
        return None
    if n_items == 0:
        return UNDEFINED["no-repeats" if repeats else "no-items"]
    if n_items == 1:
        return UNDEFINED["one-repeat" if repeats else "one-item"]
    return UNDEFINED["no-variation"]


def _bootstrap_alphas(item_codes, values, weights, level: str) -> np.ndarray:
    """Alpha per resample; nominal and ordinal data with more than
    :data:`MAX_BOOTSTRAP_LEVELS` distinct values get no interval (NaNs)."""
    if level == "interval":
        return _interval_alphas(item_codes, values, weights)
    levels, counts = _item_counts(item_codes, values)
    if len(levels) > MAX_BOOTSTRAP_LEVELS:
        return np.full(len(weights), np.nan)
    return _alpha_from(weights @ _per_item_coincidences(counts), level, levels)


def _judge_pairs(items, judges, values, min_shared: int):
    """For every judge pair with >= ``min_shared`` shared items: the two
    judges, the shared items' codes and the judges' values on them (a
    judge's first value of an item counts)."""
    items = np.asarray(items)
    judges = np.asarray(judges)
    values = np.asarray(values, dtype=np.float64)
    _, item_codes = np.unique(items, return_inverse=True)
    by_judge: dict = {}
    for item, judge, value in zip(item_codes.tolist(), judges.tolist(), values):
        if not np.isnan(value):
            by_judge.setdefault(judge, {}).setdefault(item, float(value))
    names = sorted(by_judge, key=str)
    pairs = []
    for a_index, a in enumerate(names):
        for b in names[a_index + 1 :]:
            shared = sorted(set(by_judge[a]) & set(by_judge[b]))
            if len(shared) < min_shared:
                continue
            x = np.array([by_judge[a][i] for i in shared])
            y = np.array([by_judge[b][i] for i in shared])
            if np.ptp(x) == 0 or np.ptp(y) == 0:
                continue  # a constant judge has no correlation
            pairs.append((a, b, np.array(shared), x, y))
    return pairs, len(item_codes) and int(item_codes.max()) + 1


def _pair_moments(pairs, n_items: int) -> np.ndarray:
    """(U, 6P): per item and pair the moments (1, x, y, x², y², xy) of the
    pair's two ratings, zero where the pair does not share the item."""
    moments = np.zeros((n_items, 6 * len(pairs)))
    for p, (*_, shared, x, y) in enumerate(pairs):
        moments[shared, 6 * p : 6 * p + 6] = np.stack(
            [np.ones_like(x), x, y, x * x, y * y, x * y], 1
        )
    return moments


def _weighted_pearsons(weights: np.ndarray, moments: np.ndarray) -> np.ndarray:
    """Pearson r (r, P) of every pair under item ``weights`` (r, U)."""
    summed = (weights @ moments).reshape(len(weights), -1, 6)
    w, sx, sy, sxx, syy, sxy = np.moveaxis(summed, 2, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        cov = sxy - sx * sy / w
        return cov / np.sqrt((sxx - sx * sx / w) * (syy - sy * sy / w))


def pairwise_pearson(items, judges, values, *, min_shared: int = 3) -> float:
    """Mean Pearson r over judge pairs on the items both rated (NaN: no pair).

    >>> items, judges = [0, 1, 2, 0, 1, 2], [0, 0, 0, 1, 1, 1]
    >>> round(pairwise_pearson(items, judges, [1, 2, 3, 2, 4, 6]), 6)
    1.0
    """
    pairs, _ = _judge_pairs(items, judges, values, min_shared)
    if not pairs:
        return float("nan")
    return float(np.mean([np.corrcoef(x, y)[0, 1] for *_, x, y in pairs]))


def pearson_agreement(
    items,
    judges,
    values,
    *,
    min_shared: int = 3,
    n_samples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> AgreementEstimate:
    """:func:`pairwise_pearson` with a bootstrap interval: items are resampled
    (one draw for every pair), each pair's r recomputed with the drawn
    multiplicities and the pairs' rs averaged (pairs undefined in a
    resample are left out of its mean)."""
    pairs, n_all_items = _judge_pairs(items, judges, values, min_shared)
    value = pairwise_pearson(items, judges, values, min_shared=min_shared)
    shared_items = sorted({int(i) for *_, shared, _, _ in pairs for i in shared})
    low = high = None
    if pairs and n_samples > 0:
        moments = _pair_moments(pairs, n_all_items)
        blocks = []
        for counts in _weight_blocks(n_all_items, n_samples, seed):
            per_pair = _weighted_pearsons(counts, moments)  # (r, P)
            finite = np.isfinite(per_pair)
            with np.errstate(invalid="ignore", divide="ignore"):
                # the mean over the pairs defined in each resample
                blocks.append(np.where(finite, per_pair, 0).sum(1) / finite.sum(1))
        samples = np.concatenate(blocks)
        samples = samples[np.isfinite(samples)]
        if len(samples):
            low, high = (float(x) for x in percentile_interval(samples, confidence))
    judges_in_pairs = len({judge for a, b, *_ in pairs for judge in (a, b)})
    no_pairs = UNDEFINED["no-pairs"].format(min_shared=min_shared)
    return AgreementEstimate(
        method="pearson",
        value=None if np.isnan(value) else value,
        low=low,
        high=high,
        confidence=confidence,
        n_items=len(shared_items),
        n_judges=judges_in_pairs,
        n_values=int(sum(2 * len(shared) for *_, shared, _, _ in pairs)),
        n_samples=n_samples,
        seed=seed,
        undefined=None if pairs else no_pairs,
    )


def repeat_consistency(first, second) -> RepeatConsistency:
    """Consistency of repeated ratings: ``first[i]`` and ``second[i]`` are one
    judge's two ratings of one item. Alpha (interval) needs two repeats or
    more (one repeat's alpha would be 0 whatever the ratings).

    >>> round(repeat_consistency([4, 2, 5], [4, 3, 5]).exact_share, 3)
    0.667
    >>> repeat_consistency([4], [2]).alpha is None
    True
    """
    first = np.asarray(first, dtype=np.float64)
    second = np.asarray(second, dtype=np.float64)
    n = len(first)
    if n == 0:
        return RepeatConsistency(0, None, None, None, UNDEFINED["no-repeats"])
    alpha = krippendorff_alpha(
        np.concatenate([np.arange(n), np.arange(n)]),
        np.concatenate([np.zeros(n), np.ones(n)]),
        np.concatenate([first, second]),
        "interval",
    )
    return RepeatConsistency(
        n_pairs=n,
        mean_absolute_difference=float(np.mean(np.abs(first - second))),
        exact_share=float(np.mean(first == second)),
        alpha=None if np.isnan(alpha) else alpha,
        undefined=_alpha_undefined(n, alpha, repeats=True),
    )


def degradation_test(
    original, degraded, *, min_pairs: int = 5, alpha: float = 0.05
) -> DegradationTest:
    """WMT's bad-reference control for one judge: ``original[i]`` and
    ``degraded[i]`` are the judge's ratings of a translation and of its
    degraded copy (on one scale; rescale several criteria to 0-1 first).

    With at least ``min_pairs`` pairs (5: fewer can never reach p < 0.05 in
    the exact test) the judge passes when a one-sided Wilcoxon signed-rank
    test (SciPy, differences of zero dropped) finds the degraded copies
    rated lower at p < ``alpha``; with fewer pairs, when the degraded copies
    are rated lower on average.
    """
    from scipy.stats import wilcoxon

    drop = np.asarray(original, dtype=np.float64) - np.asarray(degraded, float)
    n = len(drop)
    if n == 0:
        return DegradationTest(0, None, None, None, False)
    mean_drop = float(drop.mean())
    if n < min_pairs:
        return DegradationTest(n, mean_drop, None, mean_drop > 0, False)
    if not np.any(drop != 0):
        p_value = 1.0
    else:
        p_value = float(wilcoxon(drop, alternative="greater").pvalue)
    return DegradationTest(n, mean_drop, p_value, p_value < alpha, True)
