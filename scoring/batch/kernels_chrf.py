"""Compiled kernels of chrF / chrF++: texts to character and word ids, and
the clipped n-gram matches of every hypothesis/reference pair, for every
order 1..N at once.

:func:`spell_characters` turns each text (a token of the grid) into
character ids, leaving whitespace out unless chrF reads it;
:func:`word_table` splits texts into chrF++'s words and interns them
exactly. In :func:`pair_order_matches` the symbols are whatever the caller interned: characters for chrF's
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


# Word keys and slots are computed in unsigned 64-bit arithmetic, which
# wraps modulo 2**64 by definition. In signed int64 arithmetic that
# overflowed, the machine code Numba loaded from its cache did not wrap as
# the freshly compiled code did: the key of every word over three code
# points saturated at 2**63 - 1, all of them probed one run of the table,
# and chrF++'s word table took 10 s instead of 0.03 s (ORANGE of chrF++ at
# paper scale 163 s). The results were right all along: a hit is confirmed
# by comparing the code points.
@njit(cache=True, nogil=True)
def _word_key(code_points, start, stop):
    """A hash key of the word ``code_points[start:stop]`` (and its length)."""
    key = np.uint64(stop - start)
    for c in range(start, stop):
        key = key * np.uint64(1000003) + np.uint64(code_points[c])
    return key


@njit(cache=True, nogil=True)
def _slot(key, mask):
    """The first slot of ``key`` in a table of ``mask + 1`` slots."""
    mixed = key * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((mixed ^ (mixed >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True, nogil=True)
def _grown(array, size):
    grown = np.empty(size, dtype=array.dtype)
    grown[: array.size] = array
    return grown


@njit(cache=True, nogil=True)
def _rehashed(slot_word, slot_hash, capacity):
    new_words = np.full(capacity, -1, dtype=np.int32)
    new_hashes = np.empty(capacity, dtype=np.uint64)
    mask = capacity - 1
    for old in range(slot_word.size):
        if slot_word[old] >= 0:
            slot = _slot(slot_hash[old], mask)
            while new_words[slot] >= 0:
                slot = (slot + 1) & mask
            new_words[slot] = slot_word[old]
            new_hashes[slot] = slot_hash[old]
    return new_words, new_hashes


@njit(cache=True, nogil=True)
def _intern_entries(
    entries,
    first_entry,
    entry_start,
    entry_length,
    code_points,
    code_point_is_space,
    code_point_is_punctuation,
    word_start,
    word_length,
    word_ids,
    n_out,
    slot_word,
    slot_hash,
    known,
    spelling,
    n_words,
):
    """The words of entries ``first_entry...`` into ``word_ids``, until one
    more entry could overfill the table or the word store (the caller grows
    them: arrays reassigned inside this loop would slow it fourfold).
    Returns ``(next entry index, n_out, n_words)``."""
    capacity = slot_word.size
    mask = capacity - 1
    for index in range(first_entry, entries.size):
        e = entries[index]
        position = entry_start[e]
        end = position + entry_length[e]
        # an entry adds at most entry_length words and code points
        room = min(capacity // 2 - n_words, known.size - 1 - n_words)
        if room <= entry_length[e] or spelling.size - known[n_words] < entry_length[e]:
            return index, n_out, n_words
        word_start[e] = n_out
        while position < end:
            if code_point_is_space[code_points[position]]:
                position += 1
                continue
            run_end = position
            while run_end < end and not code_point_is_space[code_points[run_end]]:
                run_end += 1
            cut = run_end  # the run splits into [position, cut) and [cut, run_end)
            if run_end - position > 1:
                if code_point_is_punctuation[code_points[run_end - 1]]:
                    cut = run_end - 1
                elif code_point_is_punctuation[code_points[position]]:
                    cut = position + 1
            piece_start = position
            for part in range(2):
                piece_end = cut if part == 0 else run_end
                length = piece_end - piece_start
                if length == 0:
                    continue
                key = _word_key(code_points, piece_start, piece_end)
                slot = _slot(key, mask)
                found = -1
                while slot_word[slot] >= 0:
                    if slot_hash[slot] == key:
                        w = slot_word[slot]
                        first = known[w]
                        same = known[w + 1] - first == length
                        c = 0
                        while same and c < length:
                            same = spelling[first + c] == code_points[piece_start + c]
                            c += 1
                        if same:
                            found = w
                            break
                    slot = (slot + 1) & mask
                if found < 0:
                    found = n_words
                    first = known[found]
                    for c in range(length):
                        spelling[first + c] = code_points[piece_start + c]
                    n_words += 1
                    known[n_words] = first + length
                    slot_word[slot] = found
                    slot_hash[slot] = key
                word_ids[n_out] = found
                n_out += 1
                piece_start = piece_end
            position = run_end
        word_length[e] = n_out - word_start[e]
    return entries.size, n_out, n_words


@njit(cache=True, nogil=True)
def word_table(
    entries,
    entry_start,
    entry_length,
    code_points,
    code_point_is_space,
    code_point_is_punctuation,
):
    """chrF++'s words of each vocabulary entry, interned exactly.

    Words are the maximal runs of non-whitespace code points of an entry; a
    run longer than one code point loses its last code point as a word of
    its own when that is ASCII punctuation, or else its first
    (:func:`~scoring.metrics.chrf.statistics.chrf_words`). Words are
    interned by a hash table of their code points; a hit is confirmed by
    comparing the code points in full with the word's stored copy, so
    equal ids mean equal words.

    ``entries``: the used entry ids; entry e spans
    ``code_points[entry_start[e]:][:entry_length[e]]``; the two flag tables
    are indexed by code point (``(0x110000,)`` bool). Returns
    ``(word_start (V,) int64, word_length (V,) int64, word_ids int32,
    number of distinct words)``.
    """
    n_entries = entry_start.size
    word_start = np.zeros(n_entries, dtype=np.int64)
    word_length = np.zeros(n_entries, dtype=np.int64)
    word_ids = np.empty(code_points.size, dtype=np.int32)
    slot_word = np.full(1 << 12, -1, dtype=np.int32)
    slot_hash = np.empty(1 << 12, dtype=np.uint64)
    # The distinct words' code points, contiguous (compact, so the
    # confirming comparison stays in cache); word w is
    # spelling[known[w]:known[w + 1]].
    spelling = np.empty(1 << 14, dtype=code_points.dtype)
    known = np.zeros(1 << 12, dtype=np.int64)
    next_entry = n_out = n_words = 0
    while next_entry < entries.size:
        next_entry, n_out, n_words = _intern_entries(
            entries,
            next_entry,
            entry_start,
            entry_length,
            code_points,
            code_point_is_space,
            code_point_is_punctuation,
            word_start,
            word_length,
            word_ids,
            n_out,
            slot_word,
            slot_hash,
            known,
            spelling,
            n_words,
        )
        if next_entry < entries.size:  # grow what the next entry could overfill
            need = entry_length[entries[next_entry]] + 1
            if 2 * (n_words + need) >= slot_word.size:
                capacity = 2 * slot_word.size
                while 2 * (n_words + need) >= capacity:
                    capacity *= 2
                slot_word, slot_hash = _rehashed(slot_word, slot_hash, capacity)
            if known.size - 1 - n_words <= need:
                known = _grown(known, 2 * known.size + need)
            if spelling.size - known[n_words] < need:
                spelling = _grown(spelling, 2 * spelling.size + need)
    return word_start, word_length, word_ids[:n_out], n_words
