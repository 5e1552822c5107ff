"""Compiled n-gram kernels: BLEU/NIST clipping against reference subsets and
ROUGE-N clipping against single references.

Per group the references' n-grams (orders 1..N) go into a trie whose nodes
are exact n-gram ids: a unigram's id is its local token id (0..V-1), an
n-gram's id is found from its (n-1)-gram prefix's id and its last token, so
ids are exact (no hash collisions) and a hypothesis n-gram whose prefix is
in no reference is given up at once. ``counts[k, node]`` is the n-gram's count in
reference k.

A hypothesis walks its n-grams start by start (orders ascending), counting
the ids it meets; the order in which ids are first met is, within each
order, the order in which ``collections.Counter`` first sees those n-grams
in :func:`scoring.metrics.common.ngrams.ngram_counts`, so NIST's information can be summed
in exactly the reference code's order.

Reference subsets (the jackknife's "all but k", or all) are bit masks over a
group's references: bit k set = the k-th reference of the group is in.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids

# 16 MB of int32: a group of four 40-word references needs about 50,000.
_LARGEST_CHILD_TABLE = 1 << 22


@njit(cache=True, nogil=True)
def _child(first_child, next_sibling, node_token, node, token):
    """Id of the child of ``node`` reached by ``token``, or -1."""
    child = first_child[node]
    while child >= 0:
        if node_token[child] == token:
            return child
        child = next_sibling[child]
    return -1


@njit(cache=True, nogil=True)
def build_trie(ref_tokens, ref_offsets, r0, r1, local, n_local, max_order):
    """The n-gram trie of references r0..r1-1 (local ids must be set).

    Returns ``(n_nodes, counts (K, capacity) int32, parent, order, first_child,
    next_sibling, node_token)``; node arrays have ``capacity`` entries.
    """
    capacity = n_local
    for r in range(r0, r1):
        m = ref_offsets[r + 1] - ref_offsets[r]
        for order in range(2, max_order + 1):
            capacity += max(m - order + 1, 0)
    capacity = max(capacity, 1)
    counts = np.zeros((r1 - r0, capacity), dtype=np.int32)
    parent = np.full(capacity, -1, dtype=np.int32)
    order_of = np.ones(capacity, dtype=np.int32)
    first_child = np.full(capacity, -1, dtype=np.int32)
    next_sibling = np.full(capacity, -1, dtype=np.int32)
    node_token = np.arange(capacity).astype(np.int32)
    n_nodes = n_local
    for r in range(r0, r1):
        start = ref_offsets[r]
        m = ref_offsets[r + 1] - start
        for p in range(m):
            # int64 as in _walk_hypothesis: one specialisation of _child
            node = np.int64(local[ref_tokens[start + p]])
            counts[r - r0, node] += 1
            for order in range(2, min(max_order, m - p) + 1):
                token = local[ref_tokens[start + p + order - 1]]
                child = _child(first_child, next_sibling, node_token, node, token)
                if child < 0:
                    child = n_nodes
                    n_nodes += 1
                    parent[child] = node
                    order_of[child] = order
                    node_token[child] = token
                    next_sibling[child] = first_child[node]
                    first_child[node] = child
                node = child
                counts[r - r0, node] += 1
    return n_nodes, counts, parent, order_of, first_child, next_sibling, node_token


@njit(cache=True, nogil=True)
def _walk_hypothesis(
    hyp_tokens,
    h0,
    h1,
    local,
    max_order,
    first_child,
    next_sibling,
    node_token,
    hyp_counts,
    touched,
):
    """Count the hypothesis n-grams found in the trie into ``hyp_counts``;
    ``touched`` gets each id once, in first-seen order. Returns how many."""
    n_touched = 0
    n = h1 - h0
    for p in range(n):
        node = np.int64(local[hyp_tokens[h0 + p]])  # as in build_trie
        if node < 0:
            continue
        if hyp_counts[node] == 0:
            touched[n_touched] = node
            n_touched += 1
        hyp_counts[node] += 1
        for order in range(2, min(max_order, n - p) + 1):
            token = local[hyp_tokens[h0 + p + order - 1]]
            if token < 0:
                break
            node = _child(first_child, next_sibling, node_token, node, token)
            if node < 0:
                break
            if hyp_counts[node] == 0:
                touched[n_touched] = node
                n_touched += 1
            hyp_counts[node] += 1
    return n_touched


@njit(cache=True, nogil=True)
def _subset_limits(counts, n_nodes, n_refs, masks):
    """``limits[s, node]``: the largest count of the n-gram in any single
    reference of subset s (BLEU's clipping); ``(S, n_nodes)`` int32."""
    limits = np.zeros((masks.size, max(n_nodes, 1)), dtype=np.int32)
    for s in range(masks.size):
        for k in range(n_refs):
            if (masks[s] >> k) & 1:
                for node in range(n_nodes):
                    if counts[k, node] > limits[s, node]:
                        limits[s, node] = counts[k, node]
    return limits


@njit(cache=True, nogil=True)
def _child_table(parent, node_token, n_nodes, n_local):
    """``children[node * V + token]``: the trie's child of ``node`` by
    ``token``, or -1, in one load instead of a walk along the siblings
    (BLEU's clipping on Table 7's corpus: 0.092 -> 0.080 s for 6 x 16,384
    candidates). Empty past _LARGEST_CHILD_TABLE entries (long
    references): the siblings are walked then."""
    if n_nodes * n_local > _LARGEST_CHILD_TABLE:
        return np.empty(0, dtype=np.int32)
    children = np.full(n_nodes * n_local, -1, dtype=np.int32)
    for node in range(n_local, n_nodes):  # unigrams (ids < V) have no parent
        children[parent[node] * n_local + node_token[node]] = node
    return children


@njit(cache=True, nogil=True)
def _clip_hypothesis(
    hyp_tokens, h0, h1, local, max_order, trie, children, n_local,
    limits, hyp_counts, found, out, h,
):  # fmt: skip
    """BLEU's clipped matches of one hypothesis into ``out[h, s, n - 1]``:
    an n-gram's c-th occurrence matches in subset s while c <= its limit
    there, so the sum is min(count, limit) with no branch on the counts
    (the trie walk's own tests remain). ``hyp_counts`` (zeros) and
    ``found`` are scratch; ``hyp_counts`` is left zero. A child is found in
    ``children`` (:func:`_child_table`), or by the sibling walk of ``trie``
    (first_child, next_sibling, node_token) when that table is empty."""
    n_found = 0
    n = h1 - h0
    dense = children.size > 0
    n_subsets = limits.shape[0]
    for p in range(n):
        node = np.int64(local[hyp_tokens[h0 + p]])
        if node < 0:
            continue
        for order in range(1, min(max_order, n - p) + 1):
            if order > 1:
                token = local[hyp_tokens[h0 + p + order - 1]]
                if token < 0:
                    break
                if dense:
                    node = np.int64(children[node * n_local + token])
                else:
                    node = _child(trie[0], trie[1], trie[2], node, token)
                if node < 0:
                    break
            occurrence = hyp_counts[node] + 1
            hyp_counts[node] = occurrence
            found[n_found] = node
            n_found += 1
            for s in range(n_subsets):
                out[h, s, order - 1] += occurrence <= limits[s, node]
    for i in range(n_found):
        hyp_counts[found[i]] = 0


@njit(cache=True, nogil=True)
def clipped_subset_matches(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    max_order,
    masks,
):
    """BLEU's clipped matches of every hypothesis against every reference
    subset: ``(H, S, N)`` int32, ``[h, s, n - 1]`` = order-n matches clipped
    by the largest count in any single reference of subset ``masks[s]``."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, masks.size, max_order), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    found = np.empty(longest * max_order, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        n_nodes, counts, parent, order_of, first_child, next_sibling, node_token = (
            build_trie(ref_tokens, ref_offsets, r0, r1, local, n_local, max_order)
        )
        limits = _subset_limits(counts, n_nodes, r1 - r0, masks)
        children = _child_table(parent, node_token, n_nodes, n_local)
        hyp_counts = np.zeros(max(n_nodes, 1), dtype=np.int32)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            _clip_hypothesis(
                hyp_tokens, hyp_offsets[h], hyp_offsets[h + 1], local, max_order,
                (first_child, next_sibling, node_token), children, n_local,
                limits, hyp_counts, found, out, h,
            )  # fmt: skip
        clear_local_ids(ref_tokens, start, stop, local)
    return out


@njit(cache=True, nogil=True)
def clipped_pair_matches(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    order,
):
    """ROUGE-N's clipped matches of order-``order`` n-grams of every pair:
    ``(H, K)`` int32 (min of the two counts, summed over n-grams)."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs)), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        n_nodes, counts, parent, order_of, first_child, next_sibling, node_token = (
            build_trie(ref_tokens, ref_offsets, r0, r1, local, n_local, order)
        )
        hyp_counts = np.zeros(max(n_nodes, 1), dtype=np.int32)
        touched = np.empty(max(n_nodes, 1), dtype=np.int32)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            n_touched = _walk_hypothesis(
                hyp_tokens,
                hyp_offsets[h],
                hyp_offsets[h + 1],
                local,
                order,
                first_child,
                next_sibling,
                node_token,
                hyp_counts,
                touched,
            )
            for t in range(n_touched):
                node = touched[t]
                if order_of[node] == order:
                    for k in range(r1 - r0):
                        out[h, k] += min(hyp_counts[node], counts[k, node])
                hyp_counts[node] = 0
        clear_local_ids(ref_tokens, start, stop, local)
    return out


@njit(cache=True, nogil=True)
def _nist_weights(
    counts,
    n_nodes,
    parent,
    order_of,
    node_token,
    n_refs,
    mask,
    total_words,
    zero_token,
    log_two,
):
    """NIST information weights (bits) of the trie's n-grams for the
    references in ``mask``, as :func:`scoring.metrics.ngram.nist_weights.information_weights`
    computes them: ``-log(count / denominator) / log 2``; 0 where the
    subset lacks the n-gram. ``zero_token`` is the local id of the token
    ``"0"`` (mteval's prefix quirk) or -1."""
    subset_counts = np.zeros(max(n_nodes, 1), dtype=np.int64)
    for k in range(n_refs):
        if (mask >> k) & 1:
            for node in range(n_nodes):
                subset_counts[node] += counts[k, node]
    weights = np.zeros(max(n_nodes, 1), dtype=np.float64)
    for node in range(n_nodes):
        count = subset_counts[node]
        if count == 0:
            continue
        prefix = parent[node]
        if prefix < 0 or (order_of[node] == 2 and node_token[prefix] == zero_token):
            denominator = total_words
        else:
            denominator = subset_counts[prefix]
        weights[node] = -math.log(count / denominator) / log_two
    return weights


@njit(cache=True, nogil=True)
def nist_subset_information(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    max_order,
    masks,
    zero_token_id,
    log_two,
):
    """NIST's information-weighted clipped matches of every hypothesis
    against every reference subset, with the weights of that subset's own
    references: ``(H, S, N)`` float64. ``zero_token_id``: global id of the
    token ``"0"`` or -1."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, masks.size, max_order), dtype=np.float64)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        zero_token = local[zero_token_id] if zero_token_id >= 0 else -1
        n_nodes, counts, parent, order_of, first_child, next_sibling, node_token = (
            build_trie(ref_tokens, ref_offsets, r0, r1, local, n_local, max_order)
        )
        limits = _subset_limits(counts, n_nodes, r1 - r0, masks)
        weights = np.zeros((masks.size, max(n_nodes, 1)), dtype=np.float64)
        for s in range(masks.size):
            total_words = 0
            for k in range(r1 - r0):
                if (masks[s] >> k) & 1:
                    total_words += ref_offsets[r0 + k + 1] - ref_offsets[r0 + k]
            subset_weights = _nist_weights(
                counts,
                n_nodes,
                parent,
                order_of,
                node_token,
                r1 - r0,
                masks[s],
                total_words,
                zero_token,
                log_two,
            )
            # Not ``weights[s] = ...``: see kernels_meteor_paraphrase._grow.
            for node in range(subset_weights.size):
                weights[s, node] = subset_weights[node]
        hyp_counts = np.zeros(max(n_nodes, 1), dtype=np.int32)
        touched = np.empty(max(n_nodes, 1), dtype=np.int32)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            n_touched = _walk_hypothesis(
                hyp_tokens,
                hyp_offsets[h],
                hyp_offsets[h + 1],
                local,
                max_order,
                first_child,
                next_sibling,
                node_token,
                hyp_counts,
                touched,
            )
            # touched is in first-seen order, so within each order the sum
            # runs in the reference code's (Counter) order.
            for t in range(n_touched):
                node = touched[t]
                count = hyp_counts[node]
                order_index = order_of[node] - 1
                for s in range(masks.size):
                    limit = limits[s, node]
                    if limit > 0:
                        out[h, s, order_index] += weights[s, node] * min(count, limit)
                hyp_counts[node] = 0
        clear_local_ids(ref_tokens, start, stop, local)
    return out
