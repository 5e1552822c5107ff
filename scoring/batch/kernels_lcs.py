"""Compiled LCS and weighted-LCS kernels over a :class:`~scoring.batch.grid.PairGrid`.

All kernels loop over groups; per group they map the references' tokens to
small local ids (a token absent from every reference can never match), then
score every hypothesis of the group against every reference of the group.
Outputs are ``(H, K)`` (or ``(H, K, W)`` for W weights), see
:mod:`scoring.batch.grid`.

- :func:`lcs_grid`: bit-parallel LCS (Allison & Dix 1986, Hyyro 2004) with
  the reference as the bit vector, in 64-bit words with carries, so any
  length works; one word-add per hypothesis token and word.
- :func:`wlcs_grid`: the weighted-LCS dynamic programme of Lin & Och (2004,
  section 3.2) for W weights, LANES hypotheses side by side against one
  reference. Values follow :func:`scoring.metrics.rouge.lcs.wlcs_table` operation for
  operation (``(c(i-1, j-1) + f(k+1)) - f(k)`` with f from the same
  ``float(k) ** w`` table, ties going up), so they are bit-identical; with
  ``rouge155`` it keeps the back-trace directions and returns ROUGE-1.5.5's
  hit instead, the traced path re-weighted by runs of consecutive reference
  positions (:func:`scoring.metrics.rouge.lcs.rouge155_wlcs_hits`).

``powers[w, k]`` must be ``float(k) ** weight_w`` computed by Python (libm's
``pow``; NumPy's vectorised ``power`` may differ in the last bit).

Measured on the benchmark corpus (pairs of 20-40 tokens, one core): the
weighted LCS costs about 0.75 us per pair and weight with 8 lanes, against
3.9 us one pair at a time and 2x the lanes' time when the weights are
looped inside each cell instead (sharing the match and run bookkeeping
does not pay for the lost vectorisation); bit-parallel LCS about 0.1 us.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_four_refs import fits_in_words, popcount, walk_four_at_a_time
from scoring.batch.kernels_wlcs_vector import (
    VECTOR_LANES,
    clear_table,
    wlcs_rows_vector,
)

_UP, _LEFT, _DIAGONAL = 1, 2, 0


@njit(cache=True, nogil=True)
def local_ids(ref_tokens, start, stop, local):
    """Give each distinct token of ``ref_tokens[start:stop]`` a local id
    0..V-1 in ``local`` (a -1-filled scratch of vocabulary size); returns V."""
    count = 0
    for position in range(start, stop):
        token = ref_tokens[position]
        if local[token] < 0:
            local[token] = count
            count += 1
    return count


@njit(cache=True, nogil=True)
def clear_local_ids(ref_tokens, start, stop, local):
    for position in range(start, stop):
        local[ref_tokens[position]] = -1


@njit(cache=True, nogil=True)
def _max_refs(group_refs):
    most = 0
    for g in range(group_refs.size - 1):
        most = max(most, group_refs[g + 1] - group_refs[g])
    return most


@njit(cache=True, nogil=True)
def lcs_grid(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
):
    """LCS length of every (hypothesis, reference) pair: ``(H, K)`` int32."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs)), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    hyp_local = np.empty(0, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        if fits_in_words(ref_offsets, r0, r1):
            walk_four_at_a_time(
                hyp_tokens, hyp_offsets, ref_tokens, ref_offsets,
                group_hyps[g], group_hyps[g + 1], r0, r1, local, n_local, out,
                False,
            )  # fmt: skip
            clear_local_ids(ref_tokens, start, stop, local)
            continue
        n_words = 1
        for r in range(r0, r1):
            n_words = max(n_words, (ref_offsets[r + 1] - ref_offsets[r] + 63) // 64)
        # masks[k, v, w]: bit i of word w set where reference k has token v.
        masks = np.zeros((r1 - r0, max(n_local, 1), n_words), dtype=np.uint64)
        for r in range(r0, r1):
            for i in range(ref_offsets[r + 1] - ref_offsets[r]):
                v = local[ref_tokens[ref_offsets[r] + i]]
                masks[r - r0, v, i // 64] |= np.uint64(1) << np.uint64(i % 64)
        row = np.empty(n_words, dtype=np.uint64)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0, h1 = hyp_offsets[h], hyp_offsets[h + 1]
            if hyp_local.size < h1 - h0:
                hyp_local = np.empty(2 * (h1 - h0), dtype=np.int32)
            n_hyp = 0
            for position in range(h0, h1):
                v = local[hyp_tokens[position]]
                if v >= 0:  # a token no reference has never changes the row
                    hyp_local[n_hyp] = v
                    n_hyp += 1
            for r in range(r0, r1):
                m = ref_offsets[r + 1] - ref_offsets[r]
                if m == 0 or n_hyp == 0:
                    continue
                words = (m + 63) // 64
                last_bits = m - 64 * (words - 1)
                if last_bits == 64:
                    last_mask = ~np.uint64(0)
                else:
                    last_mask = (np.uint64(1) << np.uint64(last_bits)) - np.uint64(1)
                for w in range(words):
                    row[w] = ~np.uint64(0)
                row[words - 1] = last_mask
                k = r - r0
                for t in range(n_hyp):
                    v = hyp_local[t]
                    carry = np.uint64(0)
                    for w in range(words):
                        x = row[w]
                        matches = x & masks[k, v, w]
                        total = x + matches
                        carry_out = np.uint64(1) if total < x else np.uint64(0)
                        total2 = total + carry
                        if total2 < total:
                            carry_out = np.uint64(1)
                        # x - matches never borrows: matches is a subset of x.
                        row[w] = total2 | (x - matches)
                        carry = carry_out
                    row[words - 1] &= last_mask
                zeros = 0
                for w in range(words):
                    zeros += popcount(row[w])
                out[h, k] = m - zeros
        clear_local_ids(ref_tokens, start, stop, local)
    return out


# Hypotheses scored side by side against one reference: the DP's inner step
# runs over LANES independent hypotheses, about 5x faster than one pair at a
# time. Numba 0.62 compiles it to unrolled scalar code, not SIMD (read off
# the assembly on Zen 4): the gain is the lanes' independent dependency
# chains, which the processor overlaps (about 1.3 cycles per cell and lane).
LANES = 8
_PADDING = -2  # never equal to a local id (>= 0) nor to "absent" (-1)


@njit(cache=True, nogil=True)
def _load_lanes(hyp_tokens, hyp_offsets, b0, b1, local, lanes, lengths):
    """Local ids of hypotheses b0..b1-1 into ``lanes[j, l]``; returns the
    longest length."""
    lanes[:, :] = _PADDING
    lengths[:] = 0
    longest = 0
    for h in range(b0, b1):
        n = hyp_offsets[h + 1] - hyp_offsets[h]
        lengths[h - b0] = n
        longest = max(longest, n)
        for j in range(n):
            lanes[j, h - b0] = local[hyp_tokens[hyp_offsets[h] + j]]
    return longest


@njit(cache=True, nogil=True)
def _wlcs_rows(
    reference,
    start,
    m,
    local,
    lanes,
    n_max,
    power,
    previous,
    current,
    previous_run,
    current_run,
    moves,
    keep_moves,
):
    """Fill the weighted-LCS table of one reference against LANES
    hypotheses, row by row; on return ``previous`` holds row m. With
    ``keep_moves`` the back-trace directions go to ``moves[i, j, l]``."""
    clear_table(n_max, previous, current, previous_run, current_run)
    for i in range(1, m + 1):
        token = local[reference[start + i - 1]]
        for j in range(1, n_max + 1):
            for lane in range(LANES):
                match = lanes[j - 1, lane] == token
                k = previous_run[j - 1, lane]
                # (c + f(k+1)) - f(k), in this order, as the reference code.
                diagonal = (previous[j - 1, lane] + power[k + 1]) - power[k]
                up = previous[j, lane]
                left = current[j - 1, lane]
                # ROUGE-1.5.5 goes up on ties (>=).
                best = up if up >= left else left
                current[j, lane] = diagonal if match else best
                current_run[j, lane] = k + 1 if match else 0
                if keep_moves:
                    step = _UP if up >= left else _LEFT
                    moves[i, j, lane] = _DIAGONAL if match else step
        previous, current = current, previous
        previous_run, current_run = current_run, previous_run
    return previous


@njit(cache=True, nogil=True)
def _traced_runs(moves, m, n, lane, power, marked):
    """ROUGE-1.5.5's hit: back-trace from (m, n), mark the reference
    positions of diagonal steps, add run_length ** w over the runs of
    consecutive marks in reference order."""
    marked[:m] = False
    i, j = m, n
    while i > 0 and j > 0:
        step = moves[i, j, lane]
        if step == _DIAGONAL:
            i -= 1
            j -= 1
            marked[i] = True
        elif step == _UP:
            i -= 1
        else:
            j -= 1
    total = 0.0
    run = 0
    for position in range(m):
        if marked[position]:
            run += 1
        elif run > 0:
            total += power[run]
            run = 0
    if run > 0:
        total += power[run]
    return total


@njit(cache=True, nogil=True)
def wlcs_grid(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    powers,
    rouge155,
):
    """Weighted-LCS hits of every pair for W weights: ``(H, K, W)`` float64.

    ``powers`` is ``(W, L)``, ``powers[w, k] = float(k) ** weight_w`` for k up
    to the longest sequence + 1. ``rouge155=False``: the paper's c(m, n)
    (:func:`scoring.metrics.rouge.lcs.wlcs_table`); ``True``: ROUGE-1.5.5's re-weighted
    back-trace (:func:`scoring.metrics.rouge.lcs.rouge155_wlcs_hits`).
    """
    n_hyps = hyp_offsets.size - 1
    n_weights = powers.shape[0]
    out = np.zeros((n_hyps, _max_refs(group_refs), n_weights), dtype=np.float64)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    longest_ref = 1
    for r in range(ref_offsets.size - 1):
        longest_ref = max(longest_ref, ref_offsets[r + 1] - ref_offsets[r])
    # The plain value takes the vector kernel; ROUGE-1.5.5's back-trace
    # needs the scalar one's directions.
    width = LANES if rouge155 else VECTOR_LANES
    lanes = np.empty((longest, width), dtype=np.int32)
    lengths = np.zeros(width, dtype=np.int64)
    previous = np.zeros((longest + 1, width))
    current = np.zeros((longest + 1, width))
    previous_run = np.zeros((longest + 1, width), dtype=np.int32)
    current_run = np.zeros((longest + 1, width), dtype=np.int32)
    moves_shape = (longest_ref + 1, longest + 1, LANES) if rouge155 else (1, 1, LANES)
    moves = np.zeros(moves_shape, dtype=np.uint8)
    marked = np.zeros(longest_ref, dtype=np.bool_)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        local_ids(ref_tokens, start, stop, local)
        for b0 in range(group_hyps[g], group_hyps[g + 1], width):
            b1 = min(b0 + width, group_hyps[g + 1])
            n_max = _load_lanes(hyp_tokens, hyp_offsets, b0, b1, local, lanes, lengths)
            for r in range(r0, r1):
                m = ref_offsets[r + 1] - ref_offsets[r]
                if m == 0 or n_max == 0:
                    continue  # no common subsequence: hits stay 0
                for w in range(n_weights):
                    table = (
                        ref_tokens,
                        ref_offsets[r],
                        m,
                        local,
                        lanes,
                        n_max,
                        powers[w],
                    )
                    rows = (previous, current, previous_run, current_run)
                    if rouge155:
                        last_row = _wlcs_rows(*table, *rows, moves, True)
                    else:
                        last_row = wlcs_rows_vector(*table, rows)
                    for h in range(b0, b1):
                        n = lengths[h - b0]
                        if n == 0:
                            continue
                        if rouge155:
                            value = _traced_runs(moves, m, n, h - b0, powers[w], marked)
                        else:
                            value = last_row[n, h - b0]
                        out[h, r - r0, w] = value
        clear_local_ids(ref_tokens, start, stop, local)
    return out
