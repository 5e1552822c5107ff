"""Compiled WNM statistics of every hypothesis against every reference subset.

WNM's per-pair code (:func:`scoring.metrics.wnm.matching.match_row`) sums
float weights over n-gram bags, so to give the same bits this kernel adds
the same products in the same order:

- a bag's n-grams are visited as ``collections.Counter`` holds them after
  :func:`scoring.metrics.common.ngrams.ngram_counts`: orders ascending, and
  within an order by first occurrence;
- an n-gram's bag value is ``float(count) * weight`` with the n-gram's
  weight taken as the per-pair code takes it (its last word's, or the
  left-to-right sum of its words' weights, which a trie node gets as its
  parent's sum plus its last word's);
- ``match_p`` adds ``min(h, max over the subset's references holding the
  n-gram of r_k)``, ``match_r`` adds ``min(h, r_k)`` reference by reference
  (subset order) and n-gram by n-gram, ``ref_weight`` adds each reference's
  own bag sum in subset order.

Per group, the n-grams of the references *and* of the hypotheses (a
hypothesis n-gram that no reference holds still weighs in ``hyp_weight``)
get exact ids in a trie over local token ids, found through an
open-addressing table keyed by (parent id, token): a 1024-best list adds
many distinct n-grams, which a linked list of children would search slowly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import clear_local_ids

_EMPTY = -1


@njit(cache=True, nogil=True)
def _extend_local_ids(tokens, start, stop, local, count, global_of):
    """Local ids for the tokens of ``tokens[start:stop]`` that have none yet,
    recording each one's global id in ``global_of``; returns the new count."""
    for position in range(start, stop):
        token = tokens[position]
        if local[token] < 0:
            local[token] = count
            global_of[count] = token
            count += 1
    return count


@njit(cache=True, nogil=True)
def _ngram_capacity(offsets, first, last, max_order):
    """Upper bound on the n-grams of orders 2..N of sequences first..last-1."""
    total = 0
    for s in range(first, last):
        m = offsets[s + 1] - offsets[s]
        for order in range(2, max_order + 1):
            total += max(m - order + 1, 0)
    return total


@njit(cache=True, nogil=True)
def _slot(keys, key):
    """Slot of ``key`` in the open-addressing table (its own or the empty one
    where it would go); the table is a power of two, at most half full."""
    mask = keys.size - 1
    # Unsigned: a signed multiply past int64's range is not sure to wrap
    # (chrF++'s word keys saturated when loaded from Numba's cache).
    mixed = np.uint64(key) * np.uint64(0x27D4EB2F165667C5)
    slot = np.int64((mixed >> np.uint64(17)) & np.uint64(mask))
    while keys[slot] != _EMPTY and keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


@njit(cache=True, nogil=True)
def _walk(
    tokens,
    start,
    stop,
    local,
    max_order,
    n_local,
    keys,
    values,
    order_of,
    weight,
    token_weight,
    sum_weights,
    n_nodes,
    counts,
    touched,
):
    """Count every n-gram of ``tokens[start:stop]`` into ``counts``, adding
    new n-grams to the trie (``keys``/``values``: parent * n_local + token ->
    node; ``order_of`` and ``weight`` per node; nodes 0..n_local-1 are the
    unigrams); ``touched`` gets each id once, first-seen order, starts
    ascending. Returns ``(n_touched, n_nodes)``."""
    n_touched = 0
    n = stop - start
    for p in range(n):
        node = local[tokens[start + p]]
        if counts[node] == 0:
            touched[n_touched] = node
            n_touched += 1
        counts[node] += 1
        for order in range(2, min(max_order, n - p) + 1):
            token = local[tokens[start + p + order - 1]]
            key = np.int64(node) * n_local + token
            slot = _slot(keys, key)
            if keys[slot] == _EMPTY:
                keys[slot] = key
                values[slot] = n_nodes
                order_of[n_nodes] = order
                if sum_weights:
                    weight[n_nodes] = weight[node] + token_weight[token]
                else:
                    weight[n_nodes] = token_weight[token]
                n_nodes += 1
            node = values[slot]
            if counts[node] == 0:
                touched[n_touched] = node
                n_touched += 1
            counts[node] += 1
    return n_touched, n_nodes


@njit(cache=True, nogil=True)
def _order_major(touched, n_touched, order_of, max_order, out):
    """``touched[:n_touched]`` reordered orders ascending, stable within an
    order (Counter's order); returns how many (all of them)."""
    n = 0
    for order in range(1, max_order + 1):
        for t in range(n_touched):
            if order_of[touched[t]] == order:
                out[n] = touched[t]
                n += 1
    return n


@njit(cache=True, nogil=True)
def wnm_subset_statistics(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    max_order,
    masks,
    token_weights,
    group_rows,
    sum_weights,
):
    """``[match_p, hyp_weight, match_r, ref_weight]`` of every hypothesis
    against every reference subset: ``(H, S, 4)`` float64.

    ``token_weights[group_rows[g], token]``: the weight of a (global) token
    id in group g (its document's salience, or 1 unweighted);
    ``sum_weights``: an n-gram weighs the sum of its words' weights (else
    its last word's).
    """
    n_hyps = hyp_offsets.size - 1
    n_subsets = masks.size
    out = np.zeros((n_hyps, n_subsets, 4), dtype=np.float64)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        h0, h1 = group_hyps[g], group_hyps[g + 1]
        n_refs = r1 - r0
        ref_start, ref_stop = ref_offsets[r0], ref_offsets[r1]
        hyp_start, hyp_stop = hyp_offsets[h0], hyp_offsets[h1]
        global_of = np.empty(ref_stop - ref_start + hyp_stop - hyp_start, np.int64)
        n_local = _extend_local_ids(
            ref_tokens, ref_start, ref_stop, local, 0, global_of
        )
        n_local = _extend_local_ids(
            hyp_tokens, hyp_start, hyp_stop, local, n_local, global_of
        )
        capacity = (
            n_local
            + _ngram_capacity(ref_offsets, r0, r1, max_order)
            + _ngram_capacity(hyp_offsets, h0, h1, max_order)
        )
        size = 1
        while size < 2 * capacity:
            size *= 2
        keys = np.full(size, _EMPTY, dtype=np.int64)
        values = np.empty(size, dtype=np.int32)
        order_of = np.ones(max(capacity, 1), dtype=np.int32)
        weight = np.zeros(max(capacity, 1), dtype=np.float64)
        row = group_rows[g]
        token_weight = np.empty(max(n_local, 1), dtype=np.float64)
        for u in range(n_local):
            token_weight[u] = token_weights[row, global_of[u]]
            weight[u] = token_weight[u]
        n_nodes = n_local
        ref_counts = np.zeros((max(n_refs, 1), max(capacity, 1)), dtype=np.int32)
        in_a_reference = np.zeros(max(capacity, 1), dtype=np.bool_)
        ref_sums = np.zeros(max(n_refs, 1), dtype=np.float64)
        touched = np.empty(max(capacity, 1), dtype=np.int32)
        ordered = np.empty(max(capacity, 1), dtype=np.int32)
        for k in range(n_refs):
            n_touched, n_nodes = _walk(
                ref_tokens, ref_offsets[r0 + k], ref_offsets[r0 + k + 1], local,
                max_order, n_local, keys, values, order_of, weight, token_weight,
                sum_weights, n_nodes, ref_counts[k], touched,
            )  # fmt: skip
            n = _order_major(touched, n_touched, order_of, max_order, ordered)
            total = 0.0
            for t in range(n):
                node = ordered[t]
                in_a_reference[node] = True
                total += np.float64(ref_counts[k, node]) * weight[node]
            ref_sums[k] = total
        hyp_counts = np.zeros(max(capacity, 1), dtype=np.int32)
        values_h = np.empty(max(capacity, 1), dtype=np.float64)
        for h in range(h0, h1):
            n_touched, n_nodes = _walk(
                hyp_tokens, hyp_offsets[h], hyp_offsets[h + 1], local,
                max_order, n_local, keys, values, order_of, weight, token_weight,
                sum_weights, n_nodes, hyp_counts, touched,
            )  # fmt: skip
            n = _order_major(touched, n_touched, order_of, max_order, ordered)
            hyp_weight = 0.0
            for t in range(n):
                node = ordered[t]
                values_h[t] = np.float64(hyp_counts[node]) * weight[node]
                hyp_weight += values_h[t]
            for s in range(n_subsets):
                mask = masks[s]
                match_p = 0.0
                for t in range(n):
                    node = ordered[t]
                    if not in_a_reference[node]:
                        continue
                    found = False
                    best = 0.0
                    for k in range(n_refs):
                        if (mask >> k) & 1 and ref_counts[k, node] > 0:
                            value = np.float64(ref_counts[k, node]) * weight[node]
                            if not found or value > best:
                                best = value
                                found = True
                    if found:
                        match_p += values_h[t] if not best < values_h[t] else best
                match_r = 0.0
                ref_weight = 0.0
                for k in range(n_refs):
                    if not (mask >> k) & 1:
                        continue
                    ref_weight += ref_sums[k]
                    for t in range(n):
                        node = ordered[t]
                        if ref_counts[k, node] > 0:
                            value = np.float64(ref_counts[k, node]) * weight[node]
                            match_r += values_h[t] if not value < values_h[t] else value
                out[h, s, 0] = match_p
                out[h, s, 1] = hyp_weight
                out[h, s, 2] = match_r
                out[h, s, 3] = ref_weight
            for t in range(n_touched):
                hyp_counts[touched[t]] = 0
        clear_local_ids(ref_tokens, ref_start, ref_stop, local)
        clear_local_ids(hyp_tokens, hyp_start, hyp_stop, local)
    return out
