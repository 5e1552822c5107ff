"""The maximum matching size of GTM 1.4 (Turian, Shen & Melamed 2003).

GTM aligns a test (hypothesis) token sequence with reference tokens. A *hit*
is a pair of equal tokens; a *run* is a diagonal sequence of hits (tokens
that are contiguous on both sides). The matching keeps runs that share no
token, and its size is ``MMS = (sum of run_length ** e) ** (1 / e)``, which
rewards long runs when ``e > 1``.

Finding the maximum such matching is hard for ``e > 1``; GTM 1.4 does not try.
This module reproduces exactly what GTM 1.4 (``Bitext.java``) computes:

1. The references of a segment are concatenated, each followed by a break
   marker that equals no token, so no run crosses two references, a
   reference token can be used once and a hypothesis token once (one
   hypothesis token may match reference 1 and the next one reference 2).
2. Every hit starts one candidate run of every length from 1 up to the
   length of the diagonal that continues from it (so every sub-run of a
   diagonal is a candidate).
3. Candidates are visited longest first; among equal lengths, the one whose
   start ``t * X + r`` is larger comes first (``t`` = hypothesis position,
   ``r`` = position in the concatenated references, ``X`` = length of that
   concatenation including the break markers), i.e. later hypothesis
   positions first, then later reference positions.
4. A candidate is taken when none of its tokens is used yet. At most
   ``min(|hyp|, mean reference length)`` tokens are matched: a candidate longer
   than what is left of that budget is cut to it (the cut length may be
   fractional, e.g. 2.5 when the mean reference length is 7.5; GTM then marks
   ``ceil(2.5)`` tokens as used and adds ``2.5 ** e``).

For ``e = 1`` the result is the plain bag-of-words matching capped by that
budget. For ``e > 1`` the greedy order matters, which is why swapping the
test and the reference files can change GTM 1.4's figure.

Worked example (``e = 2``): hypothesis ``a b c d``, reference ``a b x c d``:
runs ``a b`` and ``c d`` are taken, ``MMS = sqrt(2**2 + 2**2) = 2.83``.

>>> hypothesis, reference = ("a", "b", "c", "d"), ("a", "b", "x", "c", "d")
>>> round(gtm14_matching_size(hypothesis, [reference], 2.0), 4)
2.8284
>>> gtm14_matching_size(hypothesis, [reference], 1.0)
4.0
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence


def gtm14_matching_size(
    hypothesis: Sequence[str],
    references: Sequence[Sequence[str]],
    exponent: float,
) -> float:
    """GTM 1.4's maximum matching size ``MMS`` (already raised to ``1/e``).

    Args:
        hypothesis: the test tokens.
        references: the token sequences of the segment's references, in the
            order they are given to GTM (it decides ties of the greedy).
        exponent: ``e >= 1``, the weight exponent of run lengths.

    Returns:
        ``(sum of taken run lengths ** e) ** (1 / e)``, in tokens; 0.0 when
        nothing matches.
    """
    # The concatenated references with a break marker (None) after each one.
    concatenated: list[str | None] = []
    for reference in references:
        concatenated.extend(reference)
        concatenated.append(None)
    mean_reference_length = (len(concatenated) - len(references)) / len(references)
    budget = min(float(len(hypothesis)), mean_reference_length)
    if budget <= 0:
        return 0.0

    width = len(concatenated)  # GTM's X
    positions_in_hypothesis: dict[str, list[int]] = defaultdict(list)
    for t, token in enumerate(hypothesis):
        positions_in_hypothesis[token].append(t)
    hits = {
        (t, r)
        for r, token in enumerate(concatenated)
        if token is not None
        for t in positions_in_hypothesis.get(token, ())
    }
    if not hits:
        return 0.0

    # How far the diagonal continues from each hit (the hit included).
    extent: dict[tuple[int, int], int] = {}
    for t, r in sorted(hits, reverse=True):
        extent[(t, r)] = 1 + extent.get((t + 1, r + 1), 0)

    # Hits as (start key, t, r, extent), in GTM's order among runs of equal
    # length: larger t * X + r first.
    starts = sorted(
        ((t * width + r, t, r, length) for (t, r), length in extent.items()),
        reverse=True,
    )
    hypothesis_used = [False] * len(hypothesis)
    reference_used = [False] * width
    weighted_sum = 0.0
    for run_length in range(max(extent.values()), 0, -1):
        alive = []
        for start in starts:
            _, t, r, length = start
            if hypothesis_used[t] or reference_used[r]:
                continue  # every run starting here would conflict, now and later
            alive.append(start)
            if length < run_length:
                continue  # no run of this length starts here
            if budget <= 0:
                break
            taken = min(float(run_length), budget)
            covered = math.ceil(taken)
            if any(
                hypothesis_used[t + i] or reference_used[r + i] for i in range(covered)
            ):
                continue
            for i in range(covered):
                hypothesis_used[t + i] = True
                reference_used[r + i] = True
            budget -= taken
            weighted_sum += taken**exponent
        if budget <= 0:
            break
        starts = alive
    return weighted_sum ** (1.0 / exponent) if weighted_sum > 0 else 0.0
