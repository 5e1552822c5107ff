"""Weighted n-gram matching of WNM: bags, matched weights, P, R and F.

See :mod:`scoring.metrics.wnm.metric` for the definitions; everything here works on
n-gram bags ``{ngram: total weight}`` of one hypothesis and its references.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

NGram = tuple[str, ...]
Weights = dict[str, float]


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (as the tool)."""
    safe = np.where(denominator == 0, 1.0, denominator)
    return np.where(denominator == 0, 0.0, numerator / safe)


def precision_recall_f(
    match_p: np.ndarray, hyp: np.ndarray, match_r: np.ndarray, ref: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P, R and F (0–1) from (summed) statistics, any common shape."""
    precision = ratio(np.asarray(match_p, float), np.asarray(hyp, float))
    recall = ratio(np.asarray(match_r, float), np.asarray(ref, float))
    f_measure = ratio(2 * precision * recall, precision + recall)
    return precision, recall, f_measure


def weighted_bag(
    counts: Counter[NGram], weights: Weights | None, ngram_weight: str
) -> dict[NGram, float]:
    """Total weight of each n-gram: its count times its weight (1 if unweighted)."""
    if weights is None:
        return {ngram: float(count) for ngram, count in counts.items()}
    if ngram_weight == "last":
        return {g: count * weights.get(g[-1], 0.0) for g, count in counts.items()}
    return {
        g: count * _sequential_sum(weights.get(w, 0.0) for w in g)
        for g, count in counts.items()
    }


def match_row(
    hyp: dict[NGram, float], refs: Sequence[dict[NGram, float]]
) -> list[float]:
    """``[match_p, hyp_weight, match_r, ref_weight]`` of weighted n-gram bags.

    An n-gram matches only where it occurs in the reference (so a
    zero-weight n-gram contributes nothing); the matched weight is the
    minimum of the two totals, as in the tool (with a negative weight that
    minimum is the larger count's).
    """
    match_p = 0.0
    for ngram, weight in hyp.items():
        present = [ref[ngram] for ref in refs if ngram in ref]
        if present:
            match_p += min(weight, max(present))
    match_r = _sequential_sum(
        min(weight, ref[ngram])
        for ref in refs
        for ngram, weight in hyp.items()
        if ngram in ref
    )
    ref_weight = _sequential_sum(_sequential_sum(ref.values()) for ref in refs)
    return [match_p, _sequential_sum(hyp.values()), match_r, ref_weight]


def _sequential_sum(values: Iterable[float]) -> float:
    """Left-to-right float sum. Python 3.12's ``sum`` compensates float
    rounding; this one does not on any version, so the compiled ORANGE path
    (:mod:`scoring.batch.kernels_wnm`), adding in the same order, gives the
    same bits."""
    total = 0.0
    for value in values:
        total += value
    return total
