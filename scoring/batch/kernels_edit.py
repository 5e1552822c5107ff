"""Compiled word edit distance (WER) and bag-of-words matches (PER, ROUGE-1).

- :func:`levenshtein_grid`: insertions + deletions + substitutions of every
  pair, Myers' (1999) bit-parallel column update (as
  :func:`scoring.metrics.common.edit_distance.levenshtein_with_masks`) with the reference in
  one 64-bit word; longer references use the plain dynamic programme.
- :func:`bag_matches_grid`: sum over words of min(count in hypothesis, count
  in reference), optionally leaving out each sequence's last token
  (ROUGE-1.5.5's ROUGE-SU unigrams).

Both take one walk of the hypothesis for four references
(:mod:`scoring.batch.kernels_four_refs`); the edit distance only where
every reference of the group fits in one 64-bit word.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_four_refs import (
    REFS_AT_ONCE,
    bag_matches_of_four,
    fits_in_words,
    group_word_counts,
    shifted_ids,
    walk_four_at_a_time,
)
from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids

_WORD = 64


@njit(cache=True, nogil=True)
def _myers(hyp_local, n, masks, k, m):
    """Levenshtein distance, reference of m <= 64 tokens as bit masks."""
    full = (
        ~np.uint64(0) if m == _WORD else (np.uint64(1) << np.uint64(m)) - np.uint64(1)
    )
    last = np.uint64(1) << np.uint64(m - 1)
    one = np.uint64(1)
    plus = full
    minus = np.uint64(0)
    score = m
    for t in range(n):
        v = hyp_local[t]
        equal = masks[k, v] if v >= 0 else np.uint64(0)
        vertical = equal | minus
        horizontal = (((equal & plus) + plus) ^ plus) | equal
        h_plus = minus | (full & ~(horizontal | plus))
        h_minus = plus & horizontal
        if h_plus & last:
            score += 1
        elif h_minus & last:
            score -= 1
        h_plus = ((h_plus << one) | one) & full
        h_minus = (h_minus << one) & full
        plus = h_minus | (full & ~(vertical | h_plus))
        minus = h_plus & vertical
    return score


@njit(cache=True, nogil=True)
def _plain_levenshtein(hyp_local, n, reference, m, row):
    """Row-by-row dynamic programme (references longer than 64 tokens)."""
    for j in range(m + 1):
        row[j] = j
    for i in range(1, n + 1):
        diagonal = row[0]
        row[0] = i
        token = hyp_local[i - 1]
        for j in range(1, m + 1):
            above = row[j]
            cost = 0 if reference[j - 1] == token else 1
            row[j] = min(above + 1, row[j - 1] + 1, diagonal + cost)
            diagonal = above
    return row[m]


@njit(cache=True, nogil=True)
def levenshtein_grid(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
):
    """Word edit distance of every (hypothesis, reference) pair: ``(H, K)`` int32."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs)), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    longest_ref = 1
    for r in range(ref_offsets.size - 1):
        longest_ref = max(longest_ref, ref_offsets[r + 1] - ref_offsets[r])
    hyp_local = np.empty(longest, dtype=np.int32)
    ref_local = np.empty(longest_ref, dtype=np.int32)
    row = np.empty(longest_ref + 1, dtype=np.int64)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        if fits_in_words(ref_offsets, r0, r1):
            walk_four_at_a_time(
                hyp_tokens, hyp_offsets, ref_tokens, ref_offsets,
                group_hyps[g], group_hyps[g + 1], r0, r1, local, n_local, out,
                True,
            )  # fmt: skip
            clear_local_ids(ref_tokens, start, stop, local)
            continue
        masks = np.zeros((r1 - r0, max(n_local, 1)), dtype=np.uint64)
        for r in range(r0, r1):
            m = ref_offsets[r + 1] - ref_offsets[r]
            if m <= _WORD:
                for i in range(m):
                    v = local[ref_tokens[ref_offsets[r] + i]]
                    masks[r - r0, v] |= np.uint64(1) << np.uint64(i)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0, h1 = hyp_offsets[h], hyp_offsets[h + 1]
            n = h1 - h0
            for p in range(n):
                hyp_local[p] = local[hyp_tokens[h0 + p]]
            for r in range(r0, r1):
                m = ref_offsets[r + 1] - ref_offsets[r]
                if m == 0:
                    distance = n
                elif m <= _WORD:
                    distance = _myers(hyp_local, n, masks, r - r0, m)
                else:
                    for i in range(m):
                        ref_local[i] = local[ref_tokens[ref_offsets[r] + i]]
                    distance = _plain_levenshtein(hyp_local, n, ref_local, m, row)
                out[h, r - r0] = distance
        clear_local_ids(ref_tokens, start, stop, local)
    return out


@njit(cache=True, nogil=True)
def bag_matches_grid(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    drop_last,
):
    """Words shared regardless of position, every pair: ``(H, K)`` int32.

    With ``drop_last`` each sequence's last token is left out on both sides
    (ROUGE-1.5.5's ROUGE-SU unigrams).
    """
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs)), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    tail = 1 if drop_last else 0
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    shifted = np.empty(longest, dtype=np.int64)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        counts = group_word_counts(
            ref_tokens, ref_offsets, r0, r1, local, n_local, tail
        )
        seen = np.zeros(n_local + 1, dtype=np.int32)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0, h1 = hyp_offsets[h], max(hyp_offsets[h + 1] - tail, hyp_offsets[h])
            shifted_ids(hyp_tokens, h0, h1, local, shifted)
            for c in range(counts.shape[0]):
                values = bag_matches_of_four(shifted, h1 - h0, counts, c, seen)
                for k in range(min(REFS_AT_ONCE, r1 - r0 - REFS_AT_ONCE * c)):
                    out[h, REFS_AT_ONCE * c + k] = values[k]
        clear_local_ids(ref_tokens, start, stop, local)
    return out
