"""Compiled kernel of chrF / chrF++: clipped n-gram matches of every
hypothesis/reference pair, for every order 1..N at once.

The symbols are whatever the caller interned: characters for chrF's
character n-grams, words for chrF++'s word n-grams. Per group the
references' n-grams go into the exact n-gram trie of
:mod:`scoring.batch.kernels_ngram` (no hashing, so no collisions); each
hypothesis walks it once, and every n-gram it shares with the group adds
``min(count in hypothesis, count in reference k)`` to pair (h, k) at its
order, as ``match_statistics`` sums them in
:mod:`scoring.metrics.chrf.statistics`.

Characters make short, bushy tries (a letter is followed by dozens of
others), where the trie's sibling lists are slow to search; so the bigram
level is also indexed by a dense ``first x second`` table (about 30% of the
time saved at order 6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids
from scoring.batch.kernels_ngram import _child, build_trie

# Largest dense bigram table (entries, int32) per group; past it (thousands
# of distinct reference symbols in one group) the sibling lists are used.
_DENSE_BIGRAMS = 1 << 20


@njit(cache=True, nogil=True)
def _bigram_table(n_local, n_nodes, parent, order_of, node_symbol):
    """``table[first * n_local + second]`` = the bigram's node or -1;
    an empty table when it would be too large."""
    if n_local * n_local > _DENSE_BIGRAMS:
        return np.full(0, -1, dtype=np.int32)
    table = np.full(max(n_local * n_local, 1), -1, dtype=np.int32)
    for node in range(n_local, n_nodes):
        if order_of[node] == 2:
            table[parent[node] * n_local + node_symbol[node]] = node
    return table


@njit(cache=True, nogil=True)
def pair_order_matches(
    hyp_symbols,
    hyp_offsets,
    ref_symbols,
    ref_offsets,
    group_hyps,
    group_refs,
    alphabet_size,
    max_order,
):
    """Clipped matches of every pair at every order: ``(H, K, max_order)``
    int32, ``[h, k, n - 1]`` = sum over order-n n-grams of the smaller of
    their counts in hypothesis h and in the k-th reference of its group
    (0 in columns past the group's own references).

    ``hyp_symbols``/``ref_symbols``: int32 ids in ``[0, alphabet_size)``;
    offsets and groups as in :class:`~scoring.batch.grid.PairGrid`.
    """
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs), max_order), dtype=np.int32)
    if max_order == 0:
        return out
    local = np.full(max(alphabet_size, 1), -1, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_symbols, start, stop, local)
        n_nodes, counts, parent, order_of, first_child, next_sibling, node_symbol = (
            build_trie(ref_symbols, ref_offsets, r0, r1, local, n_local, max_order)
        )
        bigrams = _bigram_table(n_local, n_nodes, parent, order_of, node_symbol)
        dense = bigrams.size > 0
        # node-major: the K counts of one n-gram share a cache line
        node_counts = np.ascontiguousarray(counts[:, :n_nodes].T)
        hyp_counts = np.zeros(max(n_nodes, 1), dtype=np.int32)
        touched = np.empty(max(n_nodes, 1), dtype=np.int32)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0 = hyp_offsets[h]
            n = hyp_offsets[h + 1] - h0
            n_touched = 0
            # Count the hypothesis n-grams found in the trie, start by start.
            for p in range(n):
                node = local[hyp_symbols[h0 + p]]
                if node < 0:
                    continue
                if hyp_counts[node] == 0:
                    touched[n_touched] = node
                    n_touched += 1
                hyp_counts[node] += 1
                for order in range(2, min(max_order, n - p) + 1):
                    symbol = local[hyp_symbols[h0 + p + order - 1]]
                    if symbol < 0:
                        break
                    if order == 2 and dense:
                        node = bigrams[node * n_local + symbol]
                    else:
                        node = _child(
                            first_child, next_sibling, node_symbol, node, symbol
                        )
                    if node < 0:
                        break
                    if hyp_counts[node] == 0:
                        touched[n_touched] = node
                        n_touched += 1
                    hyp_counts[node] += 1
            for t in range(n_touched):
                node = touched[t]
                count = hyp_counts[node]
                order_index = order_of[node] - 1
                for k in range(r1 - r0):
                    out[h, k, order_index] += min(count, node_counts[node, k])
                hyp_counts[node] = 0
        clear_local_ids(ref_symbols, start, stop, local)
    return out


@njit(cache=True, nogil=True)
def spell_characters(
    tokens, offsets, entry_start, entry_length, code_points, symbol_of
):
    """Each token sequence as one sequence of character ids.

    Token t stands for ``code_points[entry_start[t]:][:entry_length[t]]``;
    each code point c becomes ``symbol_of[c]``, or is left out where that is
    -1 (whitespace, when chrF ignores it). ``tokens`` (T,) int32 with
    ``offsets`` (N + 1,) int64 -> ``(symbols int32, offsets (N + 1,) int64)``.
    """
    n_sequences = offsets.size - 1
    new_offsets = np.zeros(n_sequences + 1, dtype=np.int64)
    kept = np.full(entry_start.size, -1, dtype=np.int64)  # per entry, lazily
    for s in range(n_sequences):
        total = 0
        for position in range(offsets[s], offsets[s + 1]):
            t = tokens[position]
            if kept[t] < 0:
                count = 0
                for c in range(entry_start[t], entry_start[t] + entry_length[t]):
                    if symbol_of[code_points[c]] >= 0:
                        count += 1
                kept[t] = count
            total += kept[t]
        new_offsets[s + 1] = new_offsets[s] + total
    symbols = np.empty(new_offsets[n_sequences], dtype=np.int32)
    out = 0
    for position in range(offsets[0], offsets[n_sequences]):
        t = tokens[position]
        for c in range(entry_start[t], entry_start[t] + entry_length[t]):
            symbol = symbol_of[code_points[c]]
            if symbol >= 0:
                symbols[out] = symbol
                out += 1
    return symbols, new_offsets
