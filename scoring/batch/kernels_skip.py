"""Compiled skip-bigram kernel: ROUGE-S hits for several skip limits at once.

A skip-bigram (t_i, t_j), i < j, has *gap* j - i - 1; ROUGE-Sd counts those
with gap <= d, ROUGE-S* all of them (:mod:`scoring.metrics.rouge.skip`). Per group,
each distinct reference skip-bigram (a pair of local token ids) gets a slot,
and each reference a histogram of its slots' gaps; a hypothesis histograms
its own skip-bigrams the same way. For a limit d the clipped overlap is
sum over slots of min(hyp count with gap <= d, ref count with gap <= d), so
one pass over the hypothesis's skip-bigrams serves every limit.

Limits are given as sorted finite gaps plus an optional "no limit" (S*):
``limits`` int64 with ``-1`` for no limit, placed last.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_four_refs import REFS_AT_ONCE
from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids


@njit(cache=True, nogil=True)
def _gap_class(gap, largest_finite):
    """Histogram bin of a gap: the gap itself up to the largest finite limit,
    one overflow bin beyond (only S* reads it)."""
    return gap if gap <= largest_finite else largest_finite + 1


@njit(cache=True, nogil=True)
def _one_limit_tables(slot_of, n_local, n_slots, ref_cumulative):
    """For the one-finite-limit path: ``pair_slot[(a + 1) * (V + 1) + b +
    1]`` is the slot of the local-id pair (a, b), or the dummy slot
    ``n_slots`` when the pair is in no reference or a side is absent (id
    -1); ``caps[slot, k]`` is reference k's count with gap <= the limit
    (four columns: up to four references), 0 for the dummy."""
    side = n_local + 1
    pair_slot = np.full(side * side, n_slots, dtype=np.int32)
    for a in range(n_local):
        for b in range(n_local):
            slot = slot_of[a * n_local + b]
            if slot >= 0:
                pair_slot[(a + 1) * side + b + 1] = slot
    n_refs = ref_cumulative.shape[0]
    caps = np.zeros((n_slots + 1, REFS_AT_ONCE), dtype=np.int32)
    for k in range(n_refs):
        for slot in range(n_slots):
            caps[slot, k] = ref_cumulative[k, slot, 0]
    return pair_slot, caps


@njit(cache=True, nogil=True)
def _one_limit_hypothesis(
    hyp_tokens, h0, h1, local, reach, side, pair_slot, caps, counts, shifted, out, h
):
    """Clipped skip-bigram overlap of one hypothesis with each of up to four
    references for one finite limit, added to ``out[h, k, 0]``, without
    data-dependent branches: the pair's c-th occurrence counts for
    reference k while c <= reference k's count (so the sum is min(hyp
    count, ref count)); pairs no reference has land on the dummy slot,
    whose caps are 0. ``caps`` has four columns (0 past the group's
    references), so the four sums stay in registers. ``shifted`` and
    ``counts`` are scratch (``counts`` all 0, and left so)."""
    n = h1 - h0
    for p in range(n):
        shifted[p] = local[hyp_tokens[h0 + p]] + 1  # 0: in no reference
    hits0 = hits1 = hits2 = hits3 = 0
    for p in range(n):
        row = shifted[p] * side
        for q in range(p + 1, min(n, p + reach + 2)):
            slot = pair_slot[row + shifted[q]]
            seen = counts[slot] + 1
            counts[slot] = seen
            hits0 += seen <= caps[slot, 0]
            hits1 += seen <= caps[slot, 1]
            hits2 += seen <= caps[slot, 2]
            hits3 += seen <= caps[slot, 3]
    for p in range(n):
        row = shifted[p] * side
        for q in range(p + 1, min(n, p + reach + 2)):
            counts[pair_slot[row + shifted[q]]] = 0
    hits = (hits0, hits1, hits2, hits3)
    for k in range(min(REFS_AT_ONCE, out.shape[1])):
        out[h, k, 0] += hits[k]


@njit(cache=True, nogil=True)
def skip_bigram_hits(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    limits,
):
    """Clipped skip-bigram overlap of every pair for every limit:
    ``(H, K, D)`` int32 with D = ``limits.size``."""
    n_hyps = hyp_offsets.size - 1
    n_limits = limits.size
    unlimited = limits[n_limits - 1] < 0
    largest_finite = -1
    for q in range(n_limits):
        largest_finite = max(largest_finite, limits[q])
    # Pairs further apart than this are never counted.
    reach = 1 << 30 if unlimited else largest_finite
    n_bins = largest_finite + 2
    # One finite limit (ROUGE-S4 alone, as in the ORANGE paper's Table 7)
    # and up to four references: no gap histogram, and no data-dependent
    # branch (_one_limit_hypothesis). Measured on Table 7's shape (20
    # sentences, one core), ROUGE-S4's whole ORANGE went from 0.85 to 0.47
    # s of CPU without the histogram; the kernel on 6 sentences x 16,384
    # candidates from 0.121 to 0.084 s without the branches.
    one_limit = n_limits == 1 and not unlimited
    out = np.zeros((n_hyps, _max_refs(group_refs), n_limits), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    hyp_ids = np.empty(longest, dtype=np.int64)
    hyp_positions = np.empty(longest, dtype=np.int64)
    hyp_cumulative = np.zeros(n_limits, dtype=np.int64)
    # Bin holding each limit's largest gap (S*: the overflow bin, the last),
    # and the hypothesis's running counts over the bins.
    limit_bins = np.empty(n_limits, dtype=np.int64)
    for q in range(n_limits):
        limit_bins[q] = limits[q] if limits[q] >= 0 else n_bins - 1
    prefix = np.zeros(n_bins, dtype=np.int64)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        n_refs = r1 - r0
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        slot_of = np.full(max(n_local * n_local, 1), -1, dtype=np.int32)
        # Upper bound on distinct reference skip-bigrams.
        capacity = 1
        for r in range(r0, r1):
            m = ref_offsets[r + 1] - ref_offsets[r]
            capacity += m * (m - 1) // 2
        ref_bins = np.zeros((n_refs, capacity, n_bins), dtype=np.int32)
        n_slots = 0
        for r in range(r0, r1):
            base = ref_offsets[r]
            m = ref_offsets[r + 1] - base
            for i in range(m):
                a = local[ref_tokens[base + i]]
                for j in range(i + 1, min(m, i + reach + 2)):
                    key = a * n_local + local[ref_tokens[base + j]]
                    slot = slot_of[key]
                    if slot < 0:
                        slot = n_slots
                        slot_of[key] = slot
                        n_slots += 1
                    ref_bins[r - r0, slot, _gap_class(j - i - 1, largest_finite)] += 1
        # ref_cumulative[k, slot, q]: count with gap <= limits[q].
        ref_cumulative = np.zeros((n_refs, max(n_slots, 1), n_limits), dtype=np.int32)
        for k in range(n_refs):
            for slot in range(n_slots):
                running = 0
                q = 0
                for gap in range(n_bins):
                    running += ref_bins[k, slot, gap]
                    while q < n_limits and limits[q] == gap:
                        ref_cumulative[k, slot, q] = running
                        q += 1
                if unlimited:
                    ref_cumulative[k, slot, n_limits - 1] = running
        if one_limit and n_refs <= REFS_AT_ONCE:
            # Pairs further apart than the limit never reach a slot, so
            # every counted pair is within it: no gap histogram needed.
            pair_slot, caps = _one_limit_tables(
                slot_of, n_local, n_slots, ref_cumulative
            )
            counts = np.zeros(n_slots + 1, dtype=np.int32)
            for h in range(group_hyps[g], group_hyps[g + 1]):
                _one_limit_hypothesis(
                    hyp_tokens, hyp_offsets[h], hyp_offsets[h + 1], local, reach,
                    n_local + 1, pair_slot, caps, counts, hyp_ids, out, h,
                )  # fmt: skip
            clear_local_ids(ref_tokens, start, stop, local)
            continue
        hyp_bins = np.zeros((max(n_slots, 1), n_bins), dtype=np.int32)
        hyp_hits = np.zeros(max(n_slots, 1), dtype=np.int32)
        touched = np.empty(max(n_slots, 1), dtype=np.int64)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0, h1 = hyp_offsets[h], hyp_offsets[h + 1]
            # Only tokens some reference has can form a matching skip-bigram;
            # their original positions keep the gaps right.
            n_kept = 0
            for p in range(h1 - h0):
                v = local[hyp_tokens[h0 + p]]
                if v >= 0:
                    hyp_ids[n_kept] = v
                    hyp_positions[n_kept] = p
                    n_kept += 1
            n_touched = 0
            for x in range(n_kept):
                a = hyp_ids[x] * n_local
                for y in range(x + 1, n_kept):
                    gap = hyp_positions[y] - hyp_positions[x] - 1
                    if gap > reach:
                        break
                    slot = slot_of[a + hyp_ids[y]]
                    if slot < 0:
                        continue
                    # Indexed, not sliced: a row view per hit costs
                    # reference counting.
                    if hyp_hits[slot] == 0:
                        touched[n_touched] = slot
                        n_touched += 1
                    hyp_hits[slot] += 1
                    hyp_bins[slot, _gap_class(gap, largest_finite)] += 1
            for t in range(n_touched):
                slot = touched[t]
                hyp_hits[slot] = 0
                running = 0
                for gap in range(n_bins):
                    running += hyp_bins[slot, gap]
                    hyp_bins[slot, gap] = 0
                    prefix[gap] = running
                for q in range(n_limits):
                    hyp_cumulative[q] = prefix[limit_bins[q]]
                for k in range(n_refs):
                    for q in range(n_limits):
                        out[h, k, q] += min(
                            hyp_cumulative[q], ref_cumulative[k, slot, q]
                        )
        clear_local_ids(ref_tokens, start, stop, local)
    return out
