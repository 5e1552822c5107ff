"""Compiled paraphrase-table lookups of METEOR's paraphrase stage.

The table comes as int arrays (:meth:`scoring.metrics.meteor.paraphrase_table.ParaphraseTable.kernel_tuple`):
``slot_keys`` hashes its phrases (phrase id per slot, -1 empty; FNV-1a over
the phrase's word ids, linear probing), ``para_offsets`` / ``para_phrases``
list each phrase's paraphrases in file order, ``phrase_offsets`` /
``phrase_tokens`` give every phrase's word ids. Words are the table's word
ids (-1: a word the table never uses).

:func:`_phrase_paths` walks a sentence as METEOR's transducer does (starts
ascending, shortest phrase first, paraphrases in file order) and
:func:`_occurrences` finds each paraphrase in the other sentence, giving the
candidate matches in the jar's order.

As with :mod:`scoring.batch.kernels_meteor_align`: the cache of
:mod:`scoring.batch.kernels_meteor` is keyed by this module's source too
(:mod:`scoring.batch.kernel_cache`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@njit(cache=True, nogil=True)
def _hash_step(state, word):
    return (state ^ np.uint64(word + 1)) * _FNV_PRIME


@njit(cache=True, nogil=True)
def build_phrase_hash(phrase_offsets, phrase_tokens, keys, n_slots):
    """Open-addressing table of the phrases ``keys`` (phrase ids):
    ``(n_slots,)`` int64 phrase id per slot, -1 empty; n_slots a power of 2."""
    slot_keys = np.full(n_slots, -1, dtype=np.int64)
    mask = np.uint64(n_slots - 1)
    for key in keys:
        state = _FNV_OFFSET
        for t in range(phrase_offsets[key], phrase_offsets[key + 1]):
            state = _hash_step(state, phrase_tokens[t])
        slot = np.int64(state & mask)
        while slot_keys[slot] != -1:
            slot = (slot + 1) & (n_slots - 1)
        slot_keys[slot] = key
    return slot_keys


@njit(cache=True, nogil=True)
def _lookup(state, words, start, length, slot_keys, phrase_offsets, phrase_tokens):
    """The phrase id of ``words[start:start+length]`` in the table, or -1."""
    n_slots = slot_keys.size
    slot = np.int64(state & np.uint64(n_slots - 1))
    while True:
        key = slot_keys[slot]
        if key == -1:
            return -1
        first = phrase_offsets[key]
        if phrase_offsets[key + 1] - first == length:
            same = True
            for k in range(length):
                if phrase_tokens[first + k] != words[start + k]:
                    same = False
                    break
            if same:
                return key
        slot = (slot + 1) & (n_slots - 1)


@njit(cache=True, nogil=True)
def _grow(rows, need):
    if need <= rows.shape[0]:
        return rows
    bigger = np.empty((max(need, 2 * rows.shape[0]), rows.shape[1]), dtype=rows.dtype)
    # Element by element: ``bigger[: len(rows)] = rows`` would compile NumPy's
    # shape-mismatch error message (about 3 s of compiling string formatting,
    # a sixth of METEOR's kernel) for a mismatch that cannot happen.
    for i in range(rows.shape[0]):
        for j in range(rows.shape[1]):
            bigger[i, j] = rows[i, j]
    return bigger


@njit(cache=True, nogil=True)
def _usable_paraphrases(first, last, start, length, table, usable, marker, out,
                        n_out):  # fmt: skip
    """Rows of :func:`_phrase_paths` for paraphrases ``first..last-1`` of
    one phrase (``out`` has room for them)."""
    para_phrases, phrase_offsets, phrase_tokens = table[2], table[3], table[4]
    for p in range(first, last):
        phrase = para_phrases[p]
        p0, p1 = phrase_offsets[phrase], phrase_offsets[phrase + 1]
        usable_phrase = True
        for t in range(p0, p1):
            if usable[phrase_tokens[t]] != marker:
                usable_phrase = False
                break
        if usable_phrase:
            out[n_out, 0], out[n_out, 1], out[n_out, 2] = start, length, phrase
            out[n_out, 3], out[n_out, 4] = phrase_tokens[p0], p1 - p0
            n_out += 1
    return n_out


@njit(cache=True, nogil=True)
def _phrase_paths(words, n, table, usable, marker, out, n_out):
    """Append ``(start, length, paraphrase id, its first word, its length)``
    for every table phrase in ``words`` (table word ids) whose paraphrase
    uses only words with ``usable[w] == marker`` (the others cannot match):
    starts ascending, shortest first, then the table's order (METEOR's
    walk). Returns the rows and their count."""
    (slot_keys, para_offsets, para_phrases, phrase_offsets, phrase_tokens,
     max_len) = table  # fmt: skip
    for start in range(n):
        state = _FNV_OFFSET
        for length in range(1, min(max_len, n - start) + 1):
            word = words[start + length - 1]
            if word < 0:  # a word the table never uses: no longer phrase either
                break
            state = _hash_step(state, word)
            key = _lookup(
                state, words, start, length, slot_keys, phrase_offsets, phrase_tokens
            )
            if key < 0:
                continue
            first, last = para_offsets[key], para_offsets[key + 1]
            out = _grow(out, n_out + last - first)
            n_out = _usable_paraphrases(
                first, last, start, length, table, usable, marker, out, n_out
            )
    return out, n_out


@njit(cache=True, nogil=True)
def _occurrences(paths, first, last, scan, scan_n, present, marker, table,
                 candidates, n_cand, forward, module):  # fmt: skip
    """Candidates where a paraphrase of a phrase in one sentence occurs in
    ``scan`` (the other sentence, table word ids; ``present[w] == marker``
    for its words)."""
    phrase_offsets, phrase_tokens = table[3], table[4]
    # Room for every occurrence first (growing inside the loop is slow).
    passing = 0
    for e in range(first, last):
        if present[paths[e, 3]] == marker:
            passing += 1
    candidates = _grow(candidates, n_cand + passing * scan_n)
    for e in range(first, last):
        if present[paths[e, 3]] != marker:
            continue
        p0, size = phrase_offsets[paths[e, 2]], paths[e, 4]
        for i in range(scan_n - size + 1):
            same = True
            for k in range(size):
                if scan[i + k] != phrase_tokens[p0 + k]:
                    same = False
                    break
            if not same:
                continue
            if forward:  # the phrase is in the reference, found in the hypothesis
                candidates[n_cand, 0], candidates[n_cand, 1] = paths[e, 0], paths[e, 1]
                candidates[n_cand, 2], candidates[n_cand, 3] = i, size
            else:
                candidates[n_cand, 0], candidates[n_cand, 1] = i, size
                candidates[n_cand, 2], candidates[n_cand, 3] = paths[e, 0], paths[e, 1]
            candidates[n_cand, 4] = module
            n_cand += 1
    return candidates, n_cand


def hash_example() -> None:
    """Compile :func:`build_phrase_hash` on a tiny table (warm-up)."""
    offsets = np.array([0, 1, 3], dtype=np.int64)
    build_phrase_hash(offsets, np.array([0, 1, 2], dtype=np.int64), offsets[:2], 16)
