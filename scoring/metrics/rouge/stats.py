"""ROUGE segment statistics: several references, recall, precision, F.

Each ROUGE variant first reduces one (hypothesis, reference) pair to a
:class:`PairCounts`; this module combines the pairs of a segment and turns
them into one statistics row (float64)::

    [hits, reference_total, hypothesis_total, recall, precision, f_measure, segments]

``segments`` is 1 per row. The corpus score is the mean of the segment scores
(ROUGE-1.5.5's default ``-t 0`` "average over units"), i.e. the summed
score column divided by the summed ``segments`` column, so bootstrap
resampling of rows gives resampled means. Scores are on 0-1.

Several references (ROUGE-1.5.5 ``-f``):

- ``average`` (``-f A``, "model average"): hits, reference counts and
  hypothesis counts are *summed* over the K references, so
  R = sum(hits) / sum(reference counts) and P = sum(hits) / (K * hypothesis
  count); this is not the mean of the K per-reference scores.
- ``best`` (``-f B``, "best model"): only the reference with the highest
  per-reference recall is used (the first one on ties). ROUGE-1.5.5 compares
  that recall rounded to 5 decimals for ROUGE-N/S/SU, unrounded for L/W.

F-measure: ROUGE-1.5.5 uses F = 1 / (alpha / P + (1 - alpha) / R) (``-p
alpha``, van Rijsbergen), the paper F = (1 + beta^2) R P / (R + beta^2 P). They
are the same with alpha = 1 / (1 + beta^2): beta = 1 <=> alpha = 0.5, alpha ->
1 weighs precision, alpha -> 0 recall. F = 0 when R and P are 0.

With ``rouge155=True`` R and P are rounded to 5 decimals first (``%7.5f``),
F is computed from the rounded values and rounded too, as ROUGE-1.5.5 prints
them. ROUGE-W passes its ``weight`` so that ratios are mapped back with
f^-1(x) = x ** (1 / weight).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

STATISTICS_NAMES = (
    "hits",
    "reference_total",
    "hypothesis_total",
    "recall",
    "precision",
    "f_measure",
    "segments",
)
MEASURE_COLUMNS = {"r": 3, "p": 4, "f": 5}
SEGMENTS_COLUMN = 6
MULTIREF_RULES = ("average", "best")


@dataclass(frozen=True)
class PairCounts:
    """One hypothesis against one reference.

    Attributes:
        hits: matched units (weighted for ROUGE-W).
        reference_total: recall denominator (units of the reference).
        hypothesis_total: precision denominator (units of the hypothesis).
        selector: the per-reference score the ``best`` rule compares.
    """

    hits: float
    reference_total: float
    hypothesis_total: float
    selector: float


def round5(value: float) -> float:
    """Perl's ``sprintf("%7.5f", value)`` read back as a number."""
    return float(f"{value:.5f}")


def f_measure(recall: float, precision: float, alpha: float) -> float:
    """F = R P / ((1 - alpha) P + alpha R), the expression ROUGE-1.5.5 uses."""
    denominator = (1 - alpha) * precision + alpha * recall
    if denominator > 0:
        return (precision * recall) / denominator
    return 0.0


def combine(pairs: Sequence[PairCounts], multiref: str) -> tuple[float, float, float]:
    """``(hits, reference_total, hypothesis_total)`` of a segment's references."""
    if multiref == "best":
        best = pairs[0]
        for pair in pairs[1:]:
            if pair.selector > best.selector:  # strictly: ties keep the first
                best = pair
        return best.hits, best.reference_total, best.hypothesis_total
    hits = reference_total = hypothesis_total = 0.0
    for pair in pairs:
        hits += pair.hits
        reference_total += pair.reference_total
        hypothesis_total += pair.hypothesis_total
    return hits, reference_total, hypothesis_total


def _ratio(hits: float, total: float, weight: float | None) -> float:
    if total == 0:
        return 0.0
    ratio = hits / total
    return ratio if weight is None else ratio ** (1 / weight)


def segment_row(
    pairs: Sequence[PairCounts],
    multiref: str,
    alpha: float,
    *,
    weight: float | None = None,
    rouge155: bool = False,
) -> list[float]:
    """The statistics row of one segment (see the module docstring)."""
    hits, reference_total, hypothesis_total = combine(pairs, multiref)
    recall = _ratio(hits, reference_total, weight)
    precision = _ratio(hits, hypothesis_total, weight)
    if rouge155:
        recall, precision = round5(recall), round5(precision)
        f_value = round5(f_measure(recall, precision, alpha))
    else:
        f_value = f_measure(recall, precision, alpha)
    return [hits, reference_total, hypothesis_total, recall, precision, f_value, 1.0]


def mean_scores(summed: np.ndarray, measure: str) -> np.ndarray:
    """Mean segment score from summed rows: ``(..., 7) -> (...)``; 0 if empty."""
    summed = np.asarray(summed, dtype=np.float64)
    totals = summed[..., MEASURE_COLUMNS[measure]]
    counts = summed[..., SEGMENTS_COLUMN]
    return np.divide(totals, counts, out=np.zeros_like(totals), where=counts > 0)
