"""BLEU from its sufficient statistics: smoothing and brevity penalty.

Pure NumPy and vectorised over any leading shape, so bootstrap resampling can
score thousands of resampled corpora in one call. Statistics layout (see
:mod:`scoring.metrics.ngram.bleu`)::

    [..., hyp_len, ref_len, matches_1 .. matches_N, totals_1 .. totals_N]
"""

from __future__ import annotations

import numpy as np

#: Smoothing methods (Chen & Cherry 2014 numbering in brackets) and the
#: default value of those that take one.
#: none: no smoothing [0]; floor: a zero match count becomes ``value`` [1];
#: add-k: add ``value`` to matches and totals for n > 1 [2, Lin & Och 2004];
#: exp: the k-th zero-match order gets precision 1 / (2^k * total) [3];
#: mteval: exp as mteval-v13a.pl computes it (segment BLEU by default): an
#: order without hypothesis n-grams counts as precision 1 and stays in the
#: mean (so effective order does not apply), a hypothesis without any match
#: still scores above 0, and an empty hypothesis scores 0.
SMOOTHING_DEFAULT_VALUES: dict[str, float | None] = {
    "none": None,
    "floor": 0.1,
    "add-k": 1.0,
    "exp": None,
    "mteval": None,
}


def smoothing_label(method: str, value: float | None) -> str:
    """The signature form of a smoothing: ``exp``, ``add-k[1]``, ``floor[0.1]``."""
    default = SMOOTHING_DEFAULT_VALUES[method]
    if default is None:
        return method
    return f"{method}[{(default if value is None else value):g}]"


def bleu_from_statistics(
    statistics: np.ndarray,
    max_order: int,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> np.ndarray:
    """BLEU on the 0–1 scale from (summed) statistics, vectorised.

    Args:
        statistics: shape ``(..., 2 + 2 * max_order)``, layout as in the
            module docstring; one BLEU value per leading index.
        max_order: N, the largest n-gram order.
        smooth: one of :data:`SMOOTHING_DEFAULT_VALUES`.
        smooth_value: k for ``add-k``, the floor for ``floor``; ``None`` means
            the method's default.
        effective_order: leave out orders for which there are no hypothesis
            n-grams instead of scoring them as precision zero (ignored by
            ``mteval``, which scores them as precision one).

    Returns:
        Array of shape ``statistics.shape[:-1]``, values in [0, 1].

    >>> round(float(bleu_from_statistics(np.array([8, 9, 8, 6, 4, 3, 8, 7, 6, 5]), 4)), 12)
    0.675291821813

    mteval-v13a, "x y z" against "x b c": p1 = 1/3, p2 = 1/(2*2), p3 =
    1/(4*1), no 4-grams (log 1 = 0), so BLEU = (1/48) ** (1/4) = 0.3799:

    >>> row = np.array([3, 3, 1, 0, 0, 0, 3, 2, 1, 0])
    >>> round(float(bleu_from_statistics(row, 4, "mteval")), 6)
    0.379918
    """
    statistics = np.asarray(statistics, dtype=np.float64)
    hyp_len = statistics[..., 0]
    ref_len = statistics[..., 1]
    matches = statistics[..., 2 : 2 + max_order].copy()
    totals = statistics[..., 2 + max_order : 2 + 2 * max_order].copy()
    value = SMOOTHING_DEFAULT_VALUES[smooth] if smooth_value is None else smooth_value

    # Any match at all? (A matched n-gram implies matched unigrams.) Without
    # one, BLEU is 0 whatever the smoothing: Lin & Och's "zero when no
    # unigram matches", and sacreBLEU's early exit.
    has_match = matches[..., 0] > 0

    if smooth == "add-k":
        matches[..., 1:] += value
        totals[..., 1:] += value
    # Orders are used up to the first one with no hypothesis n-grams.
    counted = np.cumprod(totals > 0, axis=-1).astype(bool)
    safe_totals = np.where(counted, totals, 1.0)
    precisions = matches / safe_totals
    if smooth in ("exp", "mteval", "floor"):
        unmatched = counted & (matches == 0)
    if smooth in ("exp", "mteval"):
        halvings = np.cumsum(unmatched, axis=-1)
        exp_smoothed = 1.0 / (2.0**halvings * safe_totals)
        precisions = np.where(unmatched, exp_smoothed, precisions)
    elif smooth == "floor":
        precisions = np.where(unmatched, value / safe_totals, precisions)

    brevity = brevity_penalty(hyp_len, ref_len)
    if smooth == "mteval":
        # mteval-v13a's bleu_score: log-precision 0 for orders without
        # n-grams, always divided by N; its brevity factor is 0 for an empty
        # hypothesis even when the reference is empty too.
        log_precisions = np.log(np.where(counted, precisions, 1.0))
        mean_log = log_precisions.sum(axis=-1) / max_order
        return np.where(hyp_len > 0, brevity * np.exp(mean_log), 0.0)

    with np.errstate(divide="ignore"):
        # log(0) = -inf makes the geometric mean 0, as intended.
        log_precisions = np.log(np.where(counted, precisions, 0.0))
    if effective_order:
        n_orders = np.maximum(counted.sum(axis=-1), 1)
        mean_log = np.where(counted, log_precisions, 0.0).sum(axis=-1) / n_orders
    else:
        mean_log = log_precisions.sum(axis=-1) / max_order
    return np.where(has_match, brevity * np.exp(mean_log), 0.0)


def brevity_penalty(hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """BP = exp(1 - r/c) when c < r, else 1; 0 for an empty hypothesis.

    Element-wise over arrays of the same shape (lengths in tokens).
    """
    hyp_len = np.asarray(hyp_len, dtype=np.float64)
    ratio = ref_len / np.where(hyp_len > 0, hyp_len, 1.0)
    shortened = np.where(hyp_len > 0, np.exp(1.0 - ratio), 0.0)
    return np.where(hyp_len < ref_len, shortened, 1.0)
