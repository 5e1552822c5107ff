"""Character and word n-gram statistics and the F-score of chrF / chrF++.

Everything here follows sacreBLEU 2.6.0's ``CHRF`` operation for operation,
so that the same text gives the same statistics and the same floating-point
score (which also decides which reference is "best" when two are close).

Statistics of one segment against one reference: for each order, character
orders ``1..char_order`` first, then word orders ``1..word_order``, the triple
``[hyp_count, ref_count, matches]``; ``hyp_count`` is 0 for an order of which
the reference has no n-gram (sacreBLEU does not count those hypothesis
n-grams), ``matches`` is the clipped count ``sum(min(hyp, ref))``.

Worked example (chrF with ``char_order = 1``, β = 2): hypothesis ``ab``,
reference ``abc``: statistics ``[2, 3, 2]``, P = 1, R = 2/3,
F = 5 · P · R / (4P + R) = 0.714, reported on 0–100:

>>> profile = ngram_profile("ab", 1, 0, whitespace=False)
>>> statistics = match_statistics(profile, ngram_profile("abc", 1, 0, False))
>>> statistics
[2, 3, 2]
>>> round(chrf_score(statistics, beta=2.0, eps_smoothing=False), 4)
71.4286
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import add

import numpy as np

# sacreBLEU's stand-in for 0/0 precisions and recalls.
EPSILON = 1e-16
# ASCII punctuation (string.punctuation), split off words' edges for chrF++.
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

NgramProfile = tuple[Counter[str], ...]


def chrf_words(text: str) -> list[str]:
    """Words for chrF++'s word n-grams (Popović's chrF++.py rule).

    Split on whitespace; a word longer than one character loses one ASCII
    punctuation mark at its end, or else at its start, which becomes a word
    of its own (only one: ``"(hi)"`` gives ``"(hi"`` and ``")"``).

    >>> chrf_words("Hello, (world) 'x")
    ['Hello', ',', '(world', ')', "'", 'x']
    """
    words: list[str] = []
    for word in text.split():
        if len(word) > 1 and word[-1] in _PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in _PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def ngram_profile(
    text: str, char_order: int, word_order: int, whitespace: bool
) -> NgramProfile:
    """n-gram counts of one segment: ``char_order + word_order`` counters.

    Character n-grams are taken from the text with all whitespace removed,
    unless ``whitespace`` (then the text is used exactly as given, spaces
    included). Word n-grams are joined with single spaces.
    """
    characters = text if whitespace else "".join(text.split())
    counters: list[Counter[str]] = []
    grams = list(characters)
    for n in range(1, char_order + 1):
        if n > 1:  # the n-grams are the (n-1)-grams extended by one character
            grams = list(map(add, grams[:-1], characters[n - 1 :]))
        counters.append(Counter(grams))
    if word_order > 0:
        words = chrf_words(text)
        counters += [
            Counter(map(" ".join, zip(*(words[i:] for i in range(n)))))
            for n in range(1, word_order + 1)
        ]
    return tuple(counters)


def match_statistics(hypothesis: NgramProfile, reference: NgramProfile) -> list[int]:
    """``[hyp_count, ref_count, matches]`` for every order, concatenated."""
    statistics: list[int] = []
    for hypothesis_counts, reference_counts in zip(hypothesis, reference):
        common = list(hypothesis_counts.keys() & reference_counts.keys())
        # min(count in hypothesis, count in reference) summed, at C speed
        matches = sum(
            map(
                min,
                map(hypothesis_counts.__getitem__, common),
                map(reference_counts.__getitem__, common),
            )
        )
        statistics += [
            sum(hypothesis_counts.values()) if reference_counts else 0,
            sum(reference_counts.values()),
            matches,
        ]
    return statistics


def chrf_score(statistics: Sequence[int], beta: float, eps_smoothing: bool) -> float:
    """chrF (0–100) of one statistics row, in sacreBLEU's exact arithmetic.

    Default (``eps_smoothing=False``, sacreBLEU's "effective order"): average
    precision and recall over the orders where both the hypothesis and the
    reference have n-grams, then F-beta of the averages. With
    ``eps_smoothing``: mean of the per-order F-beta, 1e-16 standing in for
    undefined values (chrF++.py, Moses, NLTK).
    """
    factor = beta**2
    n_orders = len(statistics) // 3
    total = average_precision = average_recall = 0.0
    effective_order = 0
    for i in range(n_orders):
        n_hyp, n_ref, n_match = statistics[3 * i : 3 * i + 3]
        precision = n_match / n_hyp if n_hyp > 0 else EPSILON
        recall = n_match / n_ref if n_ref > 0 else EPSILON
        denominator = factor * precision + recall
        total += (
            (1 + factor) * precision * recall / denominator
            if denominator > 0
            else EPSILON
        )
        if n_hyp > 0 and n_ref > 0:
            average_precision += precision
            average_recall += recall
            effective_order += 1
    if eps_smoothing:
        return 100 * total / n_orders
    if effective_order == 0:
        return 0.0
    average_precision /= effective_order
    average_recall /= effective_order
    if not average_precision + average_recall:
        return 0.0
    score = (1 + factor) * average_precision * average_recall
    score /= factor * average_precision + average_recall
    return 100 * score


def chrf_scores(statistics: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """:func:`chrf_score` of every row: ``(..., 3 * n_orders) -> (...)``.

    The same operations in the same order, element-wise, so each value is
    bit-for-bit the scalar result.
    """
    statistics = np.asarray(statistics)
    factor = beta**2
    n_orders = statistics.shape[-1] // 3
    shape = statistics.shape[:-1]
    total = np.zeros(shape)
    average_precision = np.zeros(shape)
    average_recall = np.zeros(shape)
    effective_order = np.zeros(shape, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n_orders):
            n_hyp = statistics[..., 3 * i]
            n_ref = statistics[..., 3 * i + 1]
            n_match = statistics[..., 3 * i + 2]
            precision = np.where(n_hyp > 0, n_match / n_hyp, EPSILON)
            recall = np.where(n_ref > 0, n_match / n_ref, EPSILON)
            denominator = factor * precision + recall
            f_beta = (1 + factor) * precision * recall / denominator
            total = total + np.where(denominator > 0, f_beta, EPSILON)
            both = (n_hyp > 0) & (n_ref > 0)
            average_precision = np.where(
                both, average_precision + precision, average_precision
            )
            average_recall = np.where(both, average_recall + recall, average_recall)
            effective_order = effective_order + both
        if eps_smoothing:
            return 100 * total / n_orders
        average_precision = average_precision / effective_order
        average_recall = average_recall / effective_order
        score = (1 + factor) * average_precision * average_recall
        score = score / (factor * average_precision + average_recall)
        defined = (effective_order > 0) & (average_precision + average_recall != 0)
        return np.where(defined, 100 * score, 0.0)
