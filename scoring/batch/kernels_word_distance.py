"""Compiled word edit distances with and without adjacent swaps (for RED).

- :func:`plain_edit_distance`: the row-by-row dynamic programme, Levenshtein
  (insertions, deletions, substitutions) or, with ``swap``, the "optimal
  string alignment" distance (an adjacent swap costs 1 and a swapped pair
  is not edited again), the same recurrence as
  :func:`scoring.metrics.red.edit_distance.edit_distances_by_swap`;
- :func:`bit_parallel_distance`: the same distances with the reference in
  one 64-bit word, one word operation per hypothesis token (Hyyro 2003,
  "A bit-vector algorithm for computing Levenshtein and Damerau edit
  distances");
- :func:`word_edit_distance`: the bit-parallel one when the reference fits;
  :func:`word_edit_distances` gives both distances in one pass (RED needs
  both).

Distances are integers, so every path gives the same value (tested against
the NumPy code).
"""

from __future__ import annotations

import numpy as np
from numba import njit

WORD = 64  # bits of the reference words of bit-parallel distances


@njit(cache=True, nogil=True)
def plain_edit_distance(a, n, b, m, swap, before, previous, current):
    """Levenshtein (``swap`` False) or optimal-string-alignment distance of
    ``a[:n]`` and ``b[:m]``; three scratch rows of at least ``m + 1``."""
    for j in range(m + 1):
        previous[j] = j
        before[j] = j
    for i in range(1, n + 1):
        current[0] = i
        word = a[i - 1]
        for j in range(1, m + 1):
            best = previous[j] + 1
            inserted = current[j - 1] + 1
            if inserted < best:
                best = inserted
            replaced = previous[j - 1] + (0 if word == b[j - 1] else 1)
            if replaced < best:
                best = replaced
            if (
                swap
                and i >= 2
                and j >= 2
                and word == b[j - 2]
                and a[i - 2] == b[j - 1]
                and before[j - 2] + 1 < best
            ):
                best = before[j - 2] + 1
            current[j] = best
        for j in range(m + 1):
            before[j] = previous[j]
            previous[j] = current[j]
    return previous[m]


@njit(cache=True, nogil=True)
def bit_parallel_distance(hyp, n, equal_masks, m, swap, local):
    """Levenshtein or optimal-string-alignment distance of ``hyp[:n]`` and a
    reference of ``1 <= m <= 64`` tokens given as one bit mask per local
    token id (bit i: reference position i), after Hyyro (2003): one column
    of the dynamic programme per hypothesis token, in a 64-bit word. Bits
    above ``m - 1`` hold garbage that only ever moves upwards."""
    one = np.uint64(1)
    last = one << np.uint64(m - 1)
    plus = ~np.uint64(0)
    minus = np.uint64(0)
    diagonal = np.uint64(0)
    previous_equal = np.uint64(0)
    score = m
    for t in range(n):
        v = local[hyp[t]]
        equal = equal_masks[v] if v >= 0 else np.uint64(0)
        extra = minus
        if swap:
            extra |= (((~diagonal) & equal) << one) & previous_equal
        diagonal = (((equal & plus) + plus) ^ plus) | equal | extra
        h_plus = minus | ~(diagonal | plus)
        h_minus = diagonal & plus
        if h_plus & last:
            score += 1
        elif h_minus & last:
            score -= 1
        h_plus = (h_plus << one) | one
        h_minus = h_minus << one
        plus = h_minus | ~(diagonal | h_plus)
        minus = h_plus & diagonal
        previous_equal = equal
    return score


@njit(cache=True, nogil=True)
def word_edit_distance(
    hyp, n, ref, m, swap, equal_masks, local, before, previous, current
):
    """Distance of ``hyp[:n]`` and ``ref[:m]``, bit-parallel when it fits."""
    if m == 0:
        return n
    if n == 0:
        return m
    if m <= WORD:
        return bit_parallel_distance(hyp, n, equal_masks, m, swap, local)
    return plain_edit_distance(hyp, n, ref, m, swap, before, previous, current)


@njit(cache=True, nogil=True)
def bit_parallel_distances(hyp, n, equal_masks, m, local):
    """``(Levenshtein, optimal-string-alignment)`` distances at once, as
    :func:`bit_parallel_distance` computes each (one token lookup each)."""
    one = np.uint64(1)
    last = one << np.uint64(m - 1)
    plus = swap_plus = ~np.uint64(0)
    minus = swap_minus = np.uint64(0)
    swap_diagonal = np.uint64(0)
    previous_equal = np.uint64(0)
    score = swap_score = m
    for t in range(n):
        v = local[hyp[t]]
        equal = equal_masks[v] if v >= 0 else np.uint64(0)
        diagonal = (((equal & plus) + plus) ^ plus) | equal | minus
        h_plus = minus | ~(diagonal | plus)
        h_minus = diagonal & plus
        if h_plus & last:
            score += 1
        elif h_minus & last:
            score -= 1
        h_plus = (h_plus << one) | one
        h_minus = h_minus << one
        plus = h_minus | ~(diagonal | h_plus)
        minus = h_plus & diagonal
        # The same column with adjacent swaps.
        swapped = (((~swap_diagonal) & equal) << one) & previous_equal
        swap_diagonal = (
            (((equal & swap_plus) + swap_plus) ^ swap_plus)
            | equal
            | swap_minus
            | swapped
        )
        h_plus = swap_minus | ~(swap_diagonal | swap_plus)
        h_minus = swap_diagonal & swap_plus
        if h_plus & last:
            swap_score += 1
        elif h_minus & last:
            swap_score -= 1
        h_plus = (h_plus << one) | one
        h_minus = h_minus << one
        swap_plus = h_minus | ~(swap_diagonal | h_plus)
        swap_minus = h_plus & swap_diagonal
        previous_equal = equal
    return score, swap_score


@njit(cache=True, nogil=True)
def word_edit_distances(hyp, n, ref, m, equal_masks, local, before, previous, current):
    """``(Levenshtein, optimal-string-alignment)`` distances of ``hyp[:n]``
    and ``ref[:m]``, bit-parallel when the reference fits a word."""
    if m == 0:
        return n, n
    if n == 0:
        return m, m
    if m <= WORD:
        return bit_parallel_distances(hyp, n, equal_masks, m, local)
    return (
        plain_edit_distance(hyp, n, ref, m, False, before, previous, current),
        plain_edit_distance(hyp, n, ref, m, True, before, previous, current),
    )
