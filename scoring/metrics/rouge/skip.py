"""N-grams of one order, skip-bigrams and clipped overlaps for ROUGE-N/S/SU.

Pure functions over token sequences (strings or integer ids).

A skip-bigram is an ordered pair of tokens (t_i, t_j), i < j, with at most
``max_skip`` tokens between them (j - i - 1 <= max_skip; ``None`` =
unlimited, ROUGE-S*). ROUGE-S0 is therefore ROUGE-2. A sentence of m tokens
has C(m, 2) skip-bigrams without a limit, and sum over i of
min(max_skip + 1, m - 1 - i) with one, so the denominators count exactly
the skip-bigrams allowed under the same limit.

ROUGE-SU adds unigrams. Lin (2004) explains them as skip-bigrams from a
begin-of-sentence marker; ROUGE-1.5.5 instead adds the unigram of every token
*except the last one* (its loop ``for ($i = 0; $i < $#tokens; $i++)`` emits
the unigram of position i together with the skip-bigrams that start there), so
a one-token sentence has no SU units at all. ``unigrams="all"`` is the
definition, ``unigrams="all-but-last"`` ROUGE-1.5.5's counting.

Lin & Och's example, reference "police killed the gunman": "police kill the
gunman" shares 3 of 6 skip-bigrams (0.5), "the gunman kill police" 1 (0.167),
"the gunman police killed" 2 (0.333).

>>> reference = "police killed the gunman".split()
>>> [clipped_overlap(skip_bigram_counts(reference), skip_bigram_counts(h.split()))
...  for h in ["police kill the gunman", "the gunman kill police",
...            "the gunman police killed"]]
[3, 1, 2]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

Gram = tuple[Hashable, ...]


def ngram_counts(tokens: Sequence[Hashable], order: int) -> Counter[Gram]:
    """Counts of the n-grams of exactly one ``order`` (none if too short).

    >>> sorted(ngram_counts("abab", 2).items())
    [(('a', 'b'), 2), (('b', 'a'), 1)]
    """
    tokens = tuple(tokens)
    return Counter(
        tokens[start : start + order] for start in range(len(tokens) - order + 1)
    )


def skip_bigram_counts(
    tokens: Sequence[Hashable], max_skip: int | None = None, unigrams: str = "none"
) -> Counter[Gram]:
    """Skip-bigram counts, optionally with unigrams (ROUGE-SU).

    Args:
        tokens: one sentence.
        max_skip: most tokens allowed between the two words; ``None`` for
            no limit.
        unigrams: ``"none"`` (ROUGE-S), ``"all"`` (ROUGE-SU as defined) or
            ``"all-but-last"`` (ROUGE-SU as ROUGE-1.5.5 counts it).

    Unigrams are 1-tuples and skip-bigrams 2-tuples, so they never collide.

    >>> sum(skip_bigram_counts("abcde", max_skip=1).values())
    7
    >>> sum(skip_bigram_counts("abcde", unigrams="all-but-last").values())
    14
    """
    tokens = tuple(tokens)
    length = len(tokens)
    counts: Counter[Gram] = Counter()
    for i, first in enumerate(tokens):
        end = length if max_skip is None else min(length, i + max_skip + 2)
        counts.update((first, second) for second in tokens[i + 1 : end])
    if unigrams == "all":
        counts.update((token,) for token in tokens)
    elif unigrams == "all-but-last":
        counts.update((token,) for token in tokens[:-1])
    elif unigrams != "none":
        raise ValueError(
            f"unigrams must be none, all or all-but-last, not {unigrams!r}"
        )
    return counts


def clipped_overlap(reference: Counter[Gram], hypothesis: Counter[Gram]) -> int:
    """Matches, each unit counted at most as often as in either side."""
    if len(hypothesis) < len(reference):
        reference, hypothesis = hypothesis, reference
    return sum(
        min(count, hypothesis[gram])
        for gram, count in reference.items()
        if gram in hypothesis
    )
