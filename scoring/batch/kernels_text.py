"""Compiled scanning of Moses n-best text: lines, fields, words, interning.

:func:`scan_nbest_block` reads a block of UTF-8 bytes made of whole lines
``id ||| hypothesis ||| features ||| score [||| more]`` and returns, per
candidate line, its sentence id, the byte range of its hypothesis (stripped)
and its words (whitespace-separated) as ids of a block-local vocabulary, so
that Python never creates one string per token. It is the *fast path* of the
n-best reader (:mod:`scoring.orange.nbest_stream`): it accepts only lines it
can read exactly as :func:`scoring.orange.nbest.iter_nbest` reads them and
stops at the first other line, which the caller then reads with the exact
Python code (so every refusal keeps its message and line).

What the fast path accepts, per line (after dropping trailing ``"\\r"``):
a blank line (ASCII whitespace only), or an ASCII-digit id of at most 18
digits, at least three ``|||`` separators, and an empty score or one of
the form ``[-+]?(d+[.d*] | .d+)([eE][-+]?d{1,2})?`` (always a finite
float). A line holding any non-ASCII Unicode whitespace (U+0085, U+00A0,
U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000) is left to
Python, so splitting and stripping at ASCII whitespace (space, TAB, LF, VT,
FF, CR and U+001C-U+001F) is exactly Python's ``str.split()``/``strip()``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# scan_nbest_block's answer when its hash table is too small.
TABLE_FULL = -2
_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)
# Fibonacci hashing: the top bits of key * 2**64 / golden ratio.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# Words of up to this many bytes are their own key (bytes and length packed
# in 64 bits), compared without reading the block again.
_PACKED_BYTES = 7


@njit(cache=True, nogil=True)
def _is_space(byte):
    """ASCII whitespace as ``str.isspace()`` sees it."""
    return byte == 32 or (9 <= byte <= 13) or (28 <= byte <= 31)


@njit(cache=True, nogil=True)
def _unicode_space_at(buf, i, stop):
    """True when a multi-byte Unicode whitespace character starts at ``i``."""
    b = buf[i]
    if b == 0xC2 and i + 1 < stop:
        return buf[i + 1] == 0x85 or buf[i + 1] == 0xA0
    if b == 0xE1 and i + 2 < stop:
        return buf[i + 1] == 0x9A and buf[i + 2] == 0x80
    if b == 0xE2 and i + 2 < stop:
        c, d = buf[i + 1], buf[i + 2]
        if c == 0x80:
            return d <= 0x8A or d == 0xA8 or d == 0xA9 or d == 0xAF
        return c == 0x81 and d == 0x9F
    if b == 0xE3 and i + 2 < stop:
        return buf[i + 1] == 0x80 and buf[i + 2] == 0x80
    return False


@njit(cache=True, nogil=True)
def _find_separator(buf, start, stop):
    """Index of the first ``|||`` in ``buf[start:stop]``, or -1."""
    for i in range(start, stop - 2):
        if buf[i] == 124 and buf[i + 1] == 124 and buf[i + 2] == 124:
            return i
    return -1


@njit(cache=True, nogil=True)
def _strip(buf, start, stop):
    while start < stop and _is_space(buf[start]):
        start += 1
    while stop > start and _is_space(buf[stop - 1]):
        stop -= 1
    return start, stop


@njit(cache=True, nogil=True)
def _digits(buf, start, stop):
    """Digits ``[start, stop)`` as a number, or -1 if not 1-18 ASCII digits."""
    if stop <= start or stop - start > 18:
        return -1
    value = 0
    for i in range(start, stop):
        b = buf[i]
        if b < 48 or b > 57:
            return -1
        value = value * 10 + (b - 48)
    return value


@njit(cache=True, nogil=True)
def _run_of_digits(buf, i, stop):
    while i < stop and 48 <= buf[i] <= 57:
        i += 1
    return i


@njit(cache=True, nogil=True)
def _plain_float(buf, start, stop):
    """True for ``[-+]?(d+[.d*]|.d+)([eE][-+]?d{1,2})?`` (finite by form)."""
    i = start
    if i < stop and (buf[i] == 43 or buf[i] == 45):
        i += 1
    digits_end = _run_of_digits(buf, i, stop)
    whole = digits_end > i
    i = digits_end
    fraction = False
    if i < stop and buf[i] == 46:
        i += 1
        digits_end = _run_of_digits(buf, i, stop)
        fraction = digits_end > i
        i = digits_end
    if not (whole or fraction):
        return False
    if i < stop and (buf[i] == 101 or buf[i] == 69):
        i += 1
        if i < stop and (buf[i] == 43 or buf[i] == 45):
            i += 1
        digits_end = _run_of_digits(buf, i, stop)
        if digits_end == i or digits_end - i > 2:
            return False
        i = digits_end
    return i == stop


@njit(cache=True, nogil=True)
def _same_bytes(a, a_start, b, b_start, length):
    """``a[a_start:a_start + length] == b[b_start:b_start + length]``."""
    for j in range(length):
        if a[a_start + j] != b[b_start + j]:
            return False
    return True


@njit(cache=True, nogil=True)
def _bytes_hash(data, start, stop):
    """FNV-1a of ``data[start:stop]``."""
    h = _FNV_OFFSET
    for i in range(start, stop):
        h = (h ^ np.uint64(data[i])) * _FNV_PRIME
    return h


@njit(cache=True, nogil=True)
def _long_word_key(buf, start, stop):
    """The key of a word longer than _PACKED_BYTES: its hash with the top
    byte 255, which no packed key has (a word of up to _PACKED_BYTES bytes
    is its bytes and length packed in 64 bits, built as the scanner reads
    it). Equal packed keys are equal words; equal hashed keys still need a
    byte comparison."""
    h = _bytes_hash(buf, start, stop)
    return (h >> np.uint64(8)) | (np.uint64(255) << np.uint64(56))


@njit(cache=True, nogil=True)
def _table_shift(table):
    """64 - log2(table.size), for Fibonacci hashing into ``table``."""
    bits = 0
    while (1 << bits) < table.size:
        bits += 1
    return np.uint64(64 - bits)


@njit(cache=True, nogil=True)
def _intern(
    key, buf, start, stop, table, keys, shift, vocab_start, vocab_stop, n_vocab
):
    """Id of the word ``buf[start:stop]`` of key ``key`` in the block
    vocabulary (open addressing, exact); returns ``(id, new n_vocab)``.
    Measured on Table 7's list, packed keys made the scanner about a fifth
    cheaper than hashing every word and comparing its bytes."""
    mask = table.size - 1
    slot = np.int64((key * _GOLDEN) >> shift)
    length = stop - start
    while True:
        found = table[slot]
        if found < 0:
            table[slot] = n_vocab
            keys[slot] = key
            vocab_start[n_vocab] = start
            vocab_stop[n_vocab] = stop
            return n_vocab, n_vocab + 1
        if keys[slot] == key:
            if length <= _PACKED_BYTES:
                return found, n_vocab
            other = vocab_start[found]
            if vocab_stop[found] - other == length and _same_bytes(
                buf, other, buf, start, length
            ):
                return found, n_vocab
        slot = (slot + 1) & mask


@njit(cache=True, nogil=True)
def scan_nbest_block(
    buf,
    sentence_ids,
    line_indices,
    hyp_starts,
    hyp_stops,
    word_counts,
    words,
    vocab_start,
    vocab_stop,
    table,
    keys,
):
    """Scan whole lines of ``buf`` (uint8, ends with ``\\n``).

    Output arrays, filled for the candidates found (C of them) and sized
    by the caller for the worst case: ``sentence_ids`` (C,) int64,
    ``line_indices`` (C,) int64 (0-based line within the block),
    ``hyp_starts``/``hyp_stops`` (C,) int64 byte range of the stripped
    hypothesis, ``word_counts`` (C,) int64, ``words`` (W,) int32 block-local
    word ids, ``vocab_start``/``vocab_stop`` (V,) int64 first occurrence of
    each word; ``table`` (power of two > 2 V) int32 filled with -1 and
    ``keys`` (as large, uint64) its slots' word keys.

    Returns ``(C, W, V, slow_line)``: ``slow_line`` is the block-relative
    index of the first line the fast path does not accept (-1 if none);
    the counts then cover only the lines before it. ``slow_line`` is
    :data:`TABLE_FULL` when the block has more distinct words than half the
    table: call again with a larger one.
    """
    n = buf.size
    n_candidates = 0
    n_words = 0
    # int64, not the literal 0: Numba would compile _strip, _find_separator
    # and _intern once more for a Literal[int](0) argument (about 1 s).
    n_vocab = np.int64(0)
    shift = _table_shift(table)
    line = 0
    start = np.int64(0)
    while start < n:
        end = start
        while buf[end] != 10:
            end += 1
        stop = end
        while stop > start and buf[stop - 1] == 13:
            stop -= 1
        for i in range(start, stop):
            if buf[i] >= 0xC2 and _unicode_space_at(buf, i, stop):
                return n_candidates, n_words, n_vocab, line
        first, last = _strip(buf, start, stop)
        if first == last:  # blank line: skipped, as iter_nbest does
            line += 1
            start = end + 1
            continue
        s1 = _find_separator(buf, start, stop)
        s2 = _find_separator(buf, s1 + 3, stop) if s1 >= 0 else -1
        s3 = _find_separator(buf, s2 + 3, stop) if s2 >= 0 else -1
        if s3 < 0:
            return n_candidates, n_words, n_vocab, line
        id_start, id_stop = _strip(buf, start, s1)
        sentence = _digits(buf, id_start, id_stop)
        s4 = _find_separator(buf, s3 + 3, stop)
        score_start, score_stop = _strip(buf, s3 + 3, s4 if s4 >= 0 else stop)
        if sentence < 0 or (
            score_stop > score_start and not _plain_float(buf, score_start, score_stop)
        ):
            return n_candidates, n_words, n_vocab, line
        hyp_start, hyp_stop = _strip(buf, s1 + 3, s2)
        sentence_ids[n_candidates] = sentence
        line_indices[n_candidates] = line
        hyp_starts[n_candidates] = hyp_start
        hyp_stops[n_candidates] = hyp_stop
        count = 0
        i = hyp_start
        # One pass per word: its end and its packed key together (every
        # ASCII space is <= 32, so most bytes take one comparison). Table
        # 7's list: the kernel 64 -> 48 ms per 8 MB block.
        while i < hyp_stop:
            if buf[i] <= 32 and _is_space(buf[i]):
                i += 1
                continue
            word_start = i
            key = np.uint64(0)
            while i < hyp_stop:
                byte = buf[i]
                if byte <= 32 and _is_space(byte):
                    break
                if i - word_start < _PACKED_BYTES:
                    key |= np.uint64(byte) << np.uint64(8 * (i - word_start))
                i += 1
            if i - word_start <= _PACKED_BYTES:
                key |= np.uint64(i - word_start) << np.uint64(56)
            else:
                key = _long_word_key(buf, word_start, i)
            if 2 * n_vocab >= table.size:
                return n_candidates, n_words, n_vocab, TABLE_FULL
            word, n_vocab = _intern(
                key, buf, word_start, i, table, keys, shift,
                vocab_start, vocab_stop, n_vocab,
            )  # fmt: skip
            words[n_words] = word
            n_words += 1
            count += 1
        word_counts[n_candidates] = count
        n_candidates += 1
        line += 1
        start = end + 1
    return n_candidates, n_words, n_vocab, -1


def scan_example() -> int:
    """Run :func:`scan_nbest_block` on two lines (compiles or loads it);
    returns the candidates found (2)."""
    data = b"0 ||| a b a ||| f ||| -1.5\n1 ||| c ||| f ||| 2\n"
    buf = np.frombuffer(data, dtype=np.uint8)
    lines = np.empty(2, dtype=np.int64)
    ids, starts, stops, counts = (np.empty(2, dtype=np.int64) for _ in range(4))
    words = np.empty(8, dtype=np.int32)
    vocab_start, vocab_stop = np.empty(8, dtype=np.int32), np.empty(8, dtype=np.int32)
    table = np.full(32, -1, dtype=np.int32)
    keys = np.empty(32, dtype=np.uint64)
    found, _, _, _ = scan_nbest_block(
        buf,
        ids,
        lines,
        starts,
        stops,
        counts,
        words,
        vocab_start,
        vocab_stop,
        table,
        keys,
    )
    return int(found)


@njit(cache=True, nogil=True)
def merge_vocabulary(
    data, starts, stops, mapping, table, hashes, arena, offsets, n_words
):
    """Give each word ``data[starts[v]:stops[v]]`` of a block's vocabulary
    its id in a vocabulary shared by every block (``mapping[v]``); a word
    not seen before gets the next id, ``n_words`` onwards, in ``v`` order.

    The shared vocabulary is word ``g``'s bytes at
    ``arena[offsets[g]:offsets[g + 1]]`` and its hash ``hashes[g]``, found
    through ``table`` (open addressing, -1 for a free slot). The caller
    makes room beforehand (:func:`rehash_vocabulary`): ``table`` more than
    twice the words after the merge, ``arena``/``offsets``/``hashes`` for
    every word of the block being new. Returns the new ``n_words``."""
    mask = table.size - 1
    used = offsets[n_words]
    for v in range(starts.size):
        start, stop = starts[v], stops[v]
        length = stop - start
        h = _bytes_hash(data, start, stop)
        slot = np.int64(h & np.uint64(mask))
        while True:
            found = table[slot]
            if found < 0:
                table[slot] = n_words
                hashes[n_words] = h
                for j in range(length):
                    arena[used + j] = data[start + j]
                used += length
                offsets[n_words + 1] = used
                mapping[v] = n_words
                n_words += 1
                break
            if (
                hashes[found] == h
                and offsets[found + 1] - offsets[found] == length
                and _same_bytes(arena, offsets[found], data, start, length)
            ):
                mapping[v] = found
                break
            slot = (slot + 1) & mask
    return n_words


@njit(cache=True, nogil=True)
def rehash_vocabulary(table, hashes, n_words):
    """Fill an empty ``table`` (all -1) with words ``0..n_words-1`` by
    their ``hashes`` (after the caller grew it)."""
    mask = table.size - 1
    for g in range(n_words):
        slot = np.int64(hashes[g] & np.uint64(mask))
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = g


@njit(cache=True, nogil=True)
def map_words(mapping, local_ids, out, at):
    """``out[at:at + n] = mapping[local_ids]`` without holding the GIL."""
    for i in range(local_ids.size):
        out[at + i] = mapping[local_ids[i]]


def vocabulary_example() -> int:
    """Run the shared-vocabulary kernels on two words (compiles or loads
    them); returns the words in the vocabulary (2)."""
    data = np.frombuffer(b"a bc", dtype=np.uint8)
    starts = np.array([0, 2], dtype=np.int64)
    stops = np.array([1, 4], dtype=np.int64)
    table = np.full(8, -1, dtype=np.int32)
    hashes = np.empty(2, dtype=np.uint64)
    offsets = np.zeros(3, dtype=np.int64)
    mapping = np.empty(2, dtype=np.int32)
    arena = np.empty(3, dtype=np.uint8)
    size = merge_vocabulary(
        data, starts, stops, mapping, table, hashes, arena, offsets, 0
    )
    rehash_vocabulary(np.full(16, -1, dtype=np.int32), hashes, size)
    out = np.empty(2, dtype=np.int32)
    map_words(mapping, np.array([1, 0], dtype=np.int32), out, 0)
    return int(size)
