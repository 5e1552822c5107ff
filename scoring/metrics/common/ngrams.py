"""Word n-gram counting shared by the n-gram metrics (BLEU now; NIST, ROUGE-N
and WNM later)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from scoring.base import Bounds

NGram = tuple[str, ...]

# The n-gram orders a spec may ask of BLEU, NIST, ROUGE-N and WNM: the papers
# use up to 4 or 5 (BLEUS 1-9). Each order costs statistics columns for every
# segment, so an unbounded n (bleu:n=100000000) fills a worker's memory.
NGRAM_ORDERS = Bounds(1, 9)


def ngram_counts(tokens: Sequence[str], max_order: int) -> Counter[NGram]:
    """Counts of every n-gram of ``tokens`` with ``1 <= n <= max_order``.

    >>> sorted(ngram_counts(["a", "b", "a"], 2).items())
    [(('a',), 2), (('a', 'b'), 1), (('b',), 1), (('b', 'a'), 1)]
    """
    counts: Counter[NGram] = Counter()
    length = len(tokens)
    for order in range(1, min(max_order, length) + 1):
        starts = range(length - order + 1)
        counts.update(tuple(tokens[start : start + order]) for start in starts)
    return counts


def max_reference_counts(reference_counts: Iterable[Counter[NGram]]) -> Counter[NGram]:
    """For each n-gram, its largest count in any *single* reference.

    This is the clipping limit of BLEU's modified precision (Papineni et al.
    2002, section 2.1): a reference word is used up once matched.
    """
    limits: Counter[NGram] = Counter()
    for counts in reference_counts:
        for ngram, count in counts.items():
            if count > limits[ngram]:
                limits[ngram] = count
    return limits


def clipped_matches(
    hypothesis_counts: Counter[NGram], limits: Counter[NGram], max_order: int
) -> tuple[list[int], list[int]]:
    """Clipped matches and total hypothesis n-grams per order.

    Returns ``(matches, totals)``, two lists of length ``max_order``; index
    ``n - 1`` holds order ``n``.
    """
    matches = [0] * max_order
    totals = [0] * max_order
    for ngram, count in hypothesis_counts.items():
        order_index = len(ngram) - 1
        totals[order_index] += count
        limit = limits.get(ngram, 0)
        if limit:
            matches[order_index] += min(count, limit)
    return matches, totals


def closest_reference_length(
    hypothesis_length: int, reference_lengths: Sequence[int]
) -> int:
    """The reference length closest to the hypothesis length; ties go to the
    shorter reference (as in mteval-v13a and sacreBLEU).

    >>> closest_reference_length(8, [9, 10, 7])
    7
    """
    return min(
        reference_lengths,
        key=lambda length: (abs(length - hypothesis_length), length),
    )
