"""Compiled NIST kernel with information weights fixed from a reference corpus.

:func:`scoring.batch.kernels_ngram.nist_subset_information` counts the
weights of each reference subset from that subset alone (what the per-pair
code does for a NIST metric without bound weights). A NIST metric bound to
a test set's weights (:meth:`scoring.metrics.ngram.nist.NIST.with_reference_corpus`)
instead looks every n-gram up in one fixed table; the kernel here gets that
table already resolved per reference position (``ref_ngram_weights[t, n - 1]``
= the weight of the order-n n-gram starting at reference token t), so it
needs no strings and no hashing: each node of a group's n-gram trie takes
the weight of any of its occurrences (all occurrences of an n-gram carry
the same weight).

Clipping and summation are those of ``nist_subset_information``: per
subset, the largest count in any single reference of the subset; the
hypothesis n-grams summed in first-seen order within each order, which is
the reference code's (``collections.Counter``) order, so the results are
bit for bit the per-pair code's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import clear_local_ids, local_ids
from scoring.batch.kernels_ngram import (
    _child,
    _subset_limits,
    _walk_hypothesis,
    build_trie,
)


@njit(cache=True, nogil=True)
def _node_weights(
    ref_tokens,
    ref_offsets,
    r0,
    r1,
    local,
    max_order,
    first_child,
    next_sibling,
    node_token,
    n_nodes,
    ref_ngram_weights,
):
    """Weight of every trie node of references r0..r1-1, read at the
    node's occurrences: ``(n_nodes,)`` float64."""
    weights = np.zeros(max(n_nodes, 1), dtype=np.float64)
    for r in range(r0, r1):
        start = ref_offsets[r]
        m = ref_offsets[r + 1] - start
        for p in range(m):
            node = local[ref_tokens[start + p]]
            weights[node] = ref_ngram_weights[start + p, 0]
            for order in range(2, min(max_order, m - p) + 1):
                token = local[ref_tokens[start + p + order - 1]]
                node = _child(first_child, next_sibling, node_token, node, token)
                weights[node] = ref_ngram_weights[start + p, order - 1]
    return weights


@njit(cache=True, nogil=True)
def nist_fixed_information(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    max_order,
    masks,
    ref_ngram_weights,
):
    """NIST's information-weighted clipped matches of every hypothesis
    against every reference subset, with fixed weights: ``(H, S, N)``
    float64, ``[h, s, n - 1]`` = sum over the order-n n-grams of h of
    weight x min(count in h, largest count in one reference of subset s).

    ``ref_ngram_weights``: ``(len(ref_tokens), N)`` float64, the weight (bits)
    of the n-gram of order n starting at each reference token (any value
    where the n-gram would run past its reference's end).
    """
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, masks.size, max_order), dtype=np.float64)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        n_nodes, counts, parent, order_of, first_child, next_sibling, node_token = (
            build_trie(ref_tokens, ref_offsets, r0, r1, local, n_local, max_order)
        )
        limits = _subset_limits(counts, n_nodes, r1 - r0, masks)
        weights = _node_weights(
            ref_tokens,
            ref_offsets,
            r0,
            r1,
            local,
            max_order,
            first_child,
            next_sibling,
            node_token,
            n_nodes,
            ref_ngram_weights,
        )
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
            for t in range(n_touched):
                node = touched[t]
                count = hyp_counts[node]
                order_index = order_of[node] - 1
                for s in range(masks.size):
                    limit = limits[s, node]
                    if limit > 0:
                        out[h, s, order_index] += weights[node] * min(count, limit)
                hyp_counts[node] = 0
        clear_local_ids(ref_tokens, start, stop, local)
    return out
