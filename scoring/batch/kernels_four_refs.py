"""Bit-parallel LCS and Levenshtein distance of one hypothesis against four
references of up to 64 words at once, and its bag-of-words matches with
four references of any length.

:func:`scoring.batch.kernels_lcs.lcs_grid` and
:func:`scoring.batch.kernels_edit.levenshtein_grid` walk a hypothesis once
per reference. Each step of those walks depends on the one before (an add,
a shift and a few logical operations on one 64-bit word), so a lone walk
waits on its own latency. Here the hypothesis is walked once for four
references: the four chains are independent and the processor overlaps
them, the four masks of a word are one cache line, and a word that no
reference has reads a row of zeros instead of taking a branch. Measured on
Table 7's corpus (6 sentences x 16,384 candidates x 4 references, one
core): LCS 0.061 -> 0.012 s, word edit distance 0.064 -> 0.037 s, bag
matches 0.050 -> 0.013 s, the same values (tested against plain dynamic
programmes and counters).

``masks[c, v + 1, k]``: bit i set where reference k of chunk c (the
group's references 4c .. 4c + 3) has local word id v at position i; row 0
(words no reference has) is all zeros. ``lengths[c, k]``: that
reference's length, 0 past the group's last.
"""

from __future__ import annotations

import numpy as np
from numba import njit

REFS_AT_ONCE = 4
WORD_BITS = 64


@njit(cache=True, nogil=True)
def popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + (
        (x >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def fits_in_words(ref_offsets, r0, r1):
    """True when every reference r0..r1-1 has at most 64 words."""
    for r in range(r0, r1):
        if ref_offsets[r + 1] - ref_offsets[r] > WORD_BITS:
            return False
    return True


@njit(cache=True, nogil=True)
def group_masks(ref_tokens, ref_offsets, r0, r1, local, n_local):
    """``masks[c, v + 1, k]`` and ``lengths[c, k]`` of chunk c (references
    r0 + 4c ..) of a group whose references all have at most 64 words."""
    n_chunks = (r1 - r0 + REFS_AT_ONCE - 1) // REFS_AT_ONCE
    masks = np.zeros((n_chunks, n_local + 1, REFS_AT_ONCE), dtype=np.uint64)
    lengths = np.zeros((n_chunks, REFS_AT_ONCE), dtype=np.int64)
    for r in range(r0, r1):
        c, k = divmod(r - r0, REFS_AT_ONCE)
        m = ref_offsets[r + 1] - ref_offsets[r]
        lengths[c, k] = m
        for i in range(m):
            v = local[ref_tokens[ref_offsets[r] + i]]
            masks[c, v + 1, k] |= np.uint64(1) << np.uint64(i)
    return masks, lengths


@njit(cache=True, nogil=True)
def shifted_ids(hyp_tokens, h0, h1, local, shifted):
    """Local id + 1 of each hypothesis word (0: in no reference)."""
    for p in range(h1 - h0):
        shifted[p] = local[hyp_tokens[h0 + p]] + 1


@njit(cache=True, nogil=True)
def _low_bits(m):
    if m >= WORD_BITS:
        return ~np.uint64(0)
    return (np.uint64(1) << np.uint64(m)) - np.uint64(1)


@njit(cache=True, nogil=True)
def _lcs_step(row, mask, keep):
    # Allison-Dix / Hyyro: matches is a subset of row, so row - matches
    # never borrows; the add's carry out of the reference's bits is cut.
    matches = row & mask
    return ((row + matches) | (row - matches)) & keep


@njit(cache=True, nogil=True)
def lcs_of_four(shifted, n, masks, lengths, c):
    """LCS length of the hypothesis against each reference of chunk c."""
    keep0, keep1 = _low_bits(lengths[c, 0]), _low_bits(lengths[c, 1])
    keep2, keep3 = _low_bits(lengths[c, 2]), _low_bits(lengths[c, 3])
    row0, row1, row2, row3 = keep0, keep1, keep2, keep3
    for p in range(n):
        v = shifted[p]
        row0 = _lcs_step(row0, masks[c, v, 0], keep0)
        row1 = _lcs_step(row1, masks[c, v, 1], keep1)
        row2 = _lcs_step(row2, masks[c, v, 2], keep2)
        row3 = _lcs_step(row3, masks[c, v, 3], keep3)
    return (
        lengths[c, 0] - popcount(row0),
        lengths[c, 1] - popcount(row1),
        lengths[c, 2] - popcount(row2),
        lengths[c, 3] - popcount(row3),
    )


@njit(cache=True, nogil=True)
def _myers_step(equal, plus, minus, score, full, last):
    """One hypothesis word of Myers' (1999) column update; the score moves
    by the last row's horizontal delta (+1, -1 or 0, never both)."""
    vertical = equal | minus
    horizontal = (((equal & plus) + plus) ^ plus) | equal
    h_plus = minus | (full & ~(horizontal | plus))
    h_minus = plus & horizontal
    score += np.int64((h_plus & last) != 0) - np.int64((h_minus & last) != 0)
    h_plus = ((h_plus << np.uint64(1)) | np.uint64(1)) & full
    h_minus = (h_minus << np.uint64(1)) & full
    return h_minus | (full & ~(vertical | h_plus)), h_plus & vertical, score


@njit(cache=True, nogil=True)
def _last_bit(m):
    if m == 0:
        return np.uint64(0)
    return np.uint64(1) << np.uint64(m - 1)


@njit(cache=True, nogil=True)
def levenshtein_of_four(shifted, n, masks, lengths, c):
    """Word edit distance of the hypothesis to each reference of chunk c
    (to an empty reference: the hypothesis's length)."""
    m0, m1, m2, m3 = lengths[c, 0], lengths[c, 1], lengths[c, 2], lengths[c, 3]
    full0, full1, full2, full3 = (
        _low_bits(m0),
        _low_bits(m1),
        _low_bits(m2),
        _low_bits(m3),
    )
    last0, last1, last2, last3 = (
        _last_bit(m0),
        _last_bit(m1),
        _last_bit(m2),
        _last_bit(m3),
    )
    plus0, plus1, plus2, plus3 = full0, full1, full2, full3
    minus0 = minus1 = minus2 = minus3 = np.uint64(0)
    score0, score1, score2, score3 = m0, m1, m2, m3
    for p in range(n):
        v = shifted[p]
        plus0, minus0, score0 = _myers_step(
            masks[c, v, 0], plus0, minus0, score0, full0, last0
        )
        plus1, minus1, score1 = _myers_step(
            masks[c, v, 1], plus1, minus1, score1, full1, last1
        )
        plus2, minus2, score2 = _myers_step(
            masks[c, v, 2], plus2, minus2, score2, full2, last2
        )
        plus3, minus3, score3 = _myers_step(
            masks[c, v, 3], plus3, minus3, score3, full3, last3
        )
    return (
        score0 if m0 else n,
        score1 if m1 else n,
        score2 if m2 else n,
        score3 if m3 else n,
    )


@njit(cache=True, nogil=True)
def group_word_counts(ref_tokens, ref_offsets, r0, r1, local, n_local, tail):
    """``counts[c, v + 1, k]``: how often reference k of chunk c has local
    word id v, leaving out each reference's last ``tail`` words."""
    n_chunks = (r1 - r0 + REFS_AT_ONCE - 1) // REFS_AT_ONCE
    counts = np.zeros((n_chunks, n_local + 1, REFS_AT_ONCE), dtype=np.int32)
    for r in range(r0, r1):
        c, k = divmod(r - r0, REFS_AT_ONCE)
        for position in range(
            ref_offsets[r], max(ref_offsets[r + 1] - tail, ref_offsets[r])
        ):
            counts[c, local[ref_tokens[position]] + 1, k] += 1
    return counts


@njit(cache=True, nogil=True)
def bag_matches_of_four(shifted, n, counts, c, seen):
    """Words the hypothesis shares with each reference of chunk c, regardless
    of position (sum over words of the smaller count): a word's j-th
    occurrence matches in reference k while j <= its count there, so no
    branch depends on the data. ``seen`` (zeros) is scratch, left zero."""
    matches0 = matches1 = matches2 = matches3 = 0
    for p in range(n):
        v = shifted[p]
        occurrence = seen[v] + 1
        seen[v] = occurrence
        matches0 += occurrence <= counts[c, v, 0]
        matches1 += occurrence <= counts[c, v, 1]
        matches2 += occurrence <= counts[c, v, 2]
        matches3 += occurrence <= counts[c, v, 3]
    for p in range(n):
        seen[shifted[p]] = 0
    return matches0, matches1, matches2, matches3


@njit(cache=True, nogil=True)
def walk_four_at_a_time(
    hyp_tokens, hyp_offsets, ref_tokens, ref_offsets, h_first, h_stop, r0, r1,
    local, n_local, out, edit_distance,
):  # fmt: skip
    """``out[h, k]`` for hypotheses h_first..h_stop-1 and the group's
    references r0..r1-1 (each of at most 64 words): the word edit distance
    with ``edit_distance``, else the LCS length."""
    masks, lengths = group_masks(ref_tokens, ref_offsets, r0, r1, local, n_local)
    longest = 1
    for h in range(h_first, h_stop):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    shifted = np.empty(longest, dtype=np.int64)
    for h in range(h_first, h_stop):
        h0, h1 = hyp_offsets[h], hyp_offsets[h + 1]
        shifted_ids(hyp_tokens, h0, h1, local, shifted)
        for c in range(lengths.shape[0]):
            if edit_distance:
                values = levenshtein_of_four(shifted, h1 - h0, masks, lengths, c)
            else:
                values = lcs_of_four(shifted, h1 - h0, masks, lengths, c)
            for k in range(min(REFS_AT_ONCE, r1 - r0 - REFS_AT_ONCE * c)):
                out[h, REFS_AT_ONCE * c + k] = values[k]
