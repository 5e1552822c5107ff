"""NIST's information weights and brevity factor (Doddington 2002, mteval-v13a).

Information weight of an n-gram, from the reference translations of the
whole test set (every segment of every reference)::

    info(w1..wn) = log2( count(w1..wn-1) / count(w1..wn) )     n > 1
    info(w1)     = log2( total reference words / count(w1) )

so an n-gram that is predictable from its first n - 1 words carries little
information. mteval-v13a.pl has a quirk, reproduced by default
(``perl_zero_prefix``): it tests the prefix string for Perl truth, and the
string ``"0"`` is false, so a bigram whose first token is ``0`` gets the
unigram formula ``log2(total words / count("0" w2))``.

Brevity factor, with c = hypothesis length and r = average reference length
(both in tokens)::

    BF = exp(-beta * ln(c / r)^2)  if c < r,  else 1;  beta = -ln 0.5 / ln(1.5)^2

so that BF = 0.5 when the hypothesis has 2/3 of the reference length.

>>> weights = information_weights([("a", "b"), ("a", "c")], max_order=2)
>>> weights[("a",)], weights[("b",)], weights[("a", "b")]
(1.0, 2.0, 1.0)
>>> round(float(nist_brevity_factor(2.0, 3.0)), 12)
0.5
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from scoring.metrics.common.ngrams import NGram

#: mteval's beta: the factor is 0.5 (score_x) at 2/3 of the length (1 / ratio_x).
NIST_BETA = -math.log(0.5) / math.log(1.5) ** 2

_LOG_2 = math.log(2)


def information_weights(
    references: Iterable[Sequence[str]],
    max_order: int,
    perl_zero_prefix: bool = True,
) -> dict[NGram, float]:
    """Information weight (bits) of every n-gram (n <= ``max_order``) seen in
    ``references``, a flat iterable of tokenised reference segments (all
    segments of all reference translations). ``perl_zero_prefix``: mteval's
    weight for bigrams starting with the token ``0`` (module docstring)."""
    counts: Counter[NGram] = Counter()
    total_words = 0
    for tokens in references:
        tokens = tuple(tokens)
        total_words += len(tokens)
        for order in range(1, min(max_order, len(tokens)) + 1):
            # One update per order with a generator: Counter counts in C.
            counts.update(tokens[i : i + order] for i in range(len(tokens) - order + 1))
    weights: dict[NGram, float] = {}
    for ngram, count in counts.items():
        prefix = ngram[:-1]
        if not prefix or (perl_zero_prefix and prefix == ("0",)):
            denominator = total_words
        else:
            denominator = counts[prefix]
        # Written as mteval computes it, -log(count / denominator) / log 2,
        # so the doubles agree to the last bits.
        weights[ngram] = -math.log(count / denominator) / _LOG_2
    return weights


def nist_brevity_factor(hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """mteval-v13a's ``nist_length_penalty``, element-wise, in [0, 1].

    ``hyp_len`` and ``ref_len`` (average reference length) in tokens, any
    equal shapes. An empty hypothesis gets 0; an empty reference (average
    length 0, where mteval divides by zero and dies) gets 1.
    """
    hyp_len = np.asarray(hyp_len, dtype=np.float64)
    ref_len = np.asarray(ref_len, dtype=np.float64)
    shorter = (hyp_len > 0) & (hyp_len < ref_len)
    ratio = np.where(shorter, hyp_len / np.where(shorter, ref_len, 1.0), 1.0)
    factor = np.exp(-NIST_BETA * np.log(ratio) ** 2)
    return np.where(hyp_len > 0, factor, 0.0)
