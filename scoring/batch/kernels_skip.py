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

from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids


@njit(cache=True, nogil=True)
def _gap_class(gap, largest_finite):
    """Histogram bin of a gap: the gap itself up to the largest finite limit,
    one overflow bin beyond (only S* reads it)."""
    return gap if gap <= largest_finite else largest_finite + 1


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
    # One finite limit (ROUGE-S4 alone, as in the ORANGE paper's Table 7):
    # the hypothesis side needs no gap histogram. Measured on Table 7's
    # shape (20 sentences, one core), ROUGE-S4's whole ORANGE went from
    # 0.85 to 0.47 s of CPU.
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
                    if not one_limit:
                        hyp_bins[slot, _gap_class(gap, largest_finite)] += 1
            if one_limit:
                # Every pair counted has a gap within the one limit (reach):
                # the hits are the clipped counts, no histogram needed.
                for t in range(n_touched):
                    slot = touched[t]
                    count = hyp_hits[slot]
                    hyp_hits[slot] = 0
                    for k in range(n_refs):
                        out[h, k, 0] += min(count, ref_cumulative[k, slot, 0])
                continue
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
