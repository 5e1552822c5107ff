"""Compiled TER: TERCOM 0.7.25's greedy shift search over a PairGrid.

:func:`ter_edits_grid` gives, for every (hypothesis, reference) pair of a
:class:`~scoring.batch.grid.PairGrid`, the number of edits
:func:`scoring.metrics.ter.shifts.ter_edits` counts (shifts included): the
same alignments (:mod:`scoring.batch.kernels_ter_align`: bit-parallel where
the per-pair code proves the beam harmless, TERCOM's pruned programme
otherwise), the same candidate shifts in the same order with the same early
stops (:mod:`scoring.batch.kernels_ter_shifts`), so the same shift is kept at
every step and the counts are equal.

Words are local ids per group (:func:`scoring.batch.kernels_lcs.local_ids`):
a hypothesis word found in none of the group's references is -1 and equals
no reference word, which is all the search ever compares (the bit-parallel
columns read it as an empty mask without branching: unknown words are common
and a mispredicted branch per column cost about 8% of the time).

Numba's on-disk cache checks each function against its own file only, and
:func:`ter_edits_grid`'s cached machine code holds the kernels it calls from
the other ``kernels_ter_*`` modules: the cache directory is therefore keyed
by every kernel module's source (:mod:`scoring.batch.kernel_cache`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids
from scoring.batch.kernels_ter_align import (
    bit_alignment_errors,
    pruned_alignment_errors,
    without_refcounts,
)
from scoring.batch.kernels_ter_blocks import block_count, fill_block_masks
from scoring.batch.kernels_ter_shifts import (
    WORD,
    best_shift,
    link_reference,
    unlink_reference,
)


@njit(cache=True, nogil=True)
def scratch(longest_hyp, longest_ref, n_words):
    """Work arrays of :func:`ter_pair_edits` for sentences of up to these
    lengths and local word ids below ``n_words``."""
    n = max(longest_hyp, 1)
    m = max(longest_ref, 1)
    width = max(n, m) + 1
    return (
        np.zeros((3, n), dtype=np.int32),  # current, shifted, best hypothesis
        np.zeros((3, width), dtype=np.int32),  # errors and alignment
        np.zeros((2, width + 1), dtype=np.int32),  # errors before each position
        np.zeros(n, dtype=np.int32),  # reach of each block start
        np.zeros(n + 1, dtype=np.int32),  # first occurrence of each start
        np.zeros(n * m, dtype=np.int32),  # reference positions of occurrences
        np.zeros(n * m, dtype=np.int32),  # words shared from each occurrence
        np.zeros((2, m + 1), dtype=np.int32),  # two columns of the programme
        np.zeros((2, n + 1), dtype=np.uint64),  # bit-parallel columns
        np.full(max(n_words, 1), -1, dtype=np.int32),  # first position of a word
        np.zeros(m, dtype=np.int32),  # next position of the same word
        np.zeros((n + 1, m + 1), dtype=np.int8),  # moves of the alignment
        np.zeros(n + m, dtype=np.int8),  # trace
        np.zeros((2, n + 1, block_count(m)), dtype=np.uint64),  # long columns
        np.zeros((2, block_count(m)), dtype=np.uint64),  # one long column
        np.zeros(max(n_words, 1), dtype=np.int32),  # reference word counts
        np.zeros(n, dtype=np.int32),  # block starts that reach a candidate
    )


@without_refcounts
def _align(cur, n, ref, m, masks, k, unknown, beam_width, scratch):
    """Cost of ``cur``'s alignment; its error flags into ``scratch[1]``, as
    :func:`scoring.metrics.ter.alignment.beam_alignment`."""
    alignment, columns, bit_columns = scratch[1], scratch[7], scratch[8]
    moves, trace = scratch[11], scratch[12]
    if m <= WORD:
        return bit_alignment_errors(
            cur, n, ref, m, masks, k, unknown, beam_width,
            (columns[0], columns[1], moves), bit_columns, trace,
            alignment[0], alignment[1], alignment[2],
        )  # fmt: skip
    return pruned_alignment_errors(
        cur, n, ref, m, beam_width, columns[0], columns[1], moves, trace,
        alignment[0], alignment[1], alignment[2],
    )  # fmt: skip


@without_refcounts
def _fewest_edits_of_any_order(hyp, n, ref, m, counts):
    """max(n, m) - words matched regardless of order: a lower bound of the
    edit distance of every permutation of ``hyp[:n]`` (each edit fixes at
    most one of the larger side's words, and matches pair equal words).
    ``counts``: zeros, indexed by local id (left zeroed)."""
    for p in range(m):
        counts[ref[p]] += 1
    matched = 0
    for p in range(n):
        word = hyp[p]
        if word >= 0 and counts[word] > 0:
            counts[word] -= 1
            matched += 1
    for p in range(m):
        counts[ref[p]] = 0
    return max(n, m) - matched


@without_refcounts
def _search(hyp, n, ref, m, masks, long_masks, k, beam_width, scratch):
    """:func:`scoring.metrics.ter.shifts.ter_edits` for non-empty sides, the
    reference linked (:func:`~scoring.batch.kernels_ter_shifts.link_reference`)."""
    words, first_of = scratch[0], scratch[9]
    cur, best = words[0], words[2]
    # Hypothesis words absent from the reference: a permutation keeps them.
    unknown = 0
    for p in range(n):
        if hyp[p] < 0 or first_of[hyp[p]] < 0:
            unknown += 1
    floor = _fewest_edits_of_any_order(hyp, n, ref, m, scratch[15])
    for p in range(n):
        cur[p] = hyp[p]
    edits = _align(cur, n, ref, m, masks, k, unknown, beam_width, scratch)
    shifts = 0
    while True:
        found = best_shift(
            cur, n, ref, m, edits, floor, masks, long_masks, k, unknown,
            beam_width, scratch,
        )  # fmt: skip
        if found < 0:
            return edits + shifts
        for p in range(n):
            cur[p] = best[p]
        edits = found
        shifts += 1
        _align(cur, n, ref, m, masks, k, unknown, beam_width, scratch)


@without_refcounts
def ter_pair_edits(hyp, n, ref, m, masks, long_masks, k, beam_width, scratch):
    """TERCOM's edits (shifts included) turning ``hyp[:n]`` into ``ref[:m]``
    (local ids; ``masks[k]`` the reference's bit masks when m <= 64,
    ``long_masks[k]`` when longer).
    An empty side needs no search: every word of the other is one edit.

    ``scratch``: :func:`scratch`'s tuple, sized for n, m and the local ids.
    """
    if n == 0 or m == 0:
        return n + m
    first_of, next_of = scratch[9], scratch[10]
    link_reference(ref, m, first_of, next_of)
    edits = _search(hyp, n, ref, m, masks, long_masks, k, beam_width, scratch)
    unlink_reference(ref, m, first_of)
    return edits


@njit(cache=True, nogil=True)
def ter_edits_grid(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    beam_width,
):
    """TER edits of every (hypothesis, reference) pair: ``(H, K)`` int32,
    equal to :func:`scoring.metrics.ter.shifts.ter_edits` on the same words
    with TERCOM's beam of ``beam_width``."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs)), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    longest_ref = 1
    for r in range(ref_offsets.size - 1):
        longest_ref = max(longest_ref, ref_offsets[r + 1] - ref_offsets[r])
    work = scratch(longest, longest_ref, vocabulary_size)
    hyp_local = np.empty(longest, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        ref_local = np.empty(max(stop - start, 1), dtype=np.int32)
        for position in range(start, stop):
            ref_local[position - start] = local[ref_tokens[position]]
        masks = np.zeros((max(r1 - r0, 1), max(n_local, 1)), dtype=np.uint64)
        longest_here = 0
        for r in range(r0, r1):
            m = ref_offsets[r + 1] - ref_offsets[r]
            longest_here = max(longest_here, m)
            if m <= WORD:
                for i in range(m):
                    v = local[ref_tokens[ref_offsets[r] + i]]
                    masks[r - r0, v] |= np.uint64(1) << np.uint64(i)
        # References past 64 words: masks in several words per column.
        long_masks = np.zeros((1, 1, 1), dtype=np.uint64)
        if longest_here > WORD:
            long_masks = np.zeros(
                (r1 - r0, max(n_local, 1), block_count(longest_here)),
                dtype=np.uint64,
            )
            for r in range(r0, r1):
                m = ref_offsets[r + 1] - ref_offsets[r]
                if m > WORD:
                    first = ref_offsets[r] - start
                    fill_block_masks(
                        ref_local[first : first + m], m, long_masks, r - r0
                    )
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0 = hyp_offsets[h]
            n = hyp_offsets[h + 1] - h0
            for p in range(n):
                hyp_local[p] = local[hyp_tokens[h0 + p]]
            for r in range(r0, r1):
                first = ref_offsets[r] - start
                m = ref_offsets[r + 1] - ref_offsets[r]
                out[h, r - r0] = ter_pair_edits(
                    hyp_local,
                    n,
                    ref_local[first : first + m],
                    m,
                    masks,
                    long_masks,
                    r - r0,
                    beam_width,
                    work,
                )
        clear_local_ids(ref_tokens, start, stop, local)
    return out
