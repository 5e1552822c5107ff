"""Compiled METEOR alignment search: :mod:`scoring.metrics.meteor.align` on
int arrays, step for step (same beam, same stable order, same quirks).

A stage's candidates are rows ``[ref_start, ref_len, hyp_start, hyp_len,
module]`` of an ``(C, 5)`` int64 array, listed per reference start in the
order METEOR files them (``order``: candidate indices grouped by reference
start, ``starts``: ``(m + 1,)`` offsets of each group). An alignment is kept
per reference position: ``alignment[j] = [ref_len, hyp_start, hyp_len,
module]`` of the match starting at reference word j (``ref_len`` 0: none).

A path is one int64 row: weighted matches (both sides, truncated as Java
does), chunks, distance, next reference index, last hypothesis end, the
node of its newest chosen match, then the used-word bit sets of the
hypothesis and the reference (``words`` 64-bit words each). Paths are
ordered by one int64 key (more weight, fewer chunks, smaller distance),
sorted stably; a pair whose key fields overflow their bits is reported
(``-1``) and scored by the Python code instead.

Numba's on-disk cache of :mod:`scoring.batch.kernels_meteor` holds these
functions compiled into its own kernels and would not notice by itself
when this file changes: :mod:`scoring.batch.kernel_cache` keys the cache
directory by every kernel module's source.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BEAM_SIZE = 40
_WEIGHT, _CHUNKS, _DISTANCE, _IDX, _LAST_END, _NODE, _BITS = 0, 1, 2, 3, 4, 5, 6
# Key layout: (65535 - weight) << 47 | chunks << 32 | distance.
_MAX_WEIGHT = 65535
_MAX_CHUNKS = (1 << 15) - 1
_MAX_DISTANCE = (1 << 32) - 1


@njit(cache=True, nogil=True)
def _bit(paths, p, base, position):
    return (paths[p, base + (position >> 6)] >> np.int64(position & 63)) & 1


@njit(cache=True, nogil=True)
def _set_bits(paths, p, base, start, length):
    for position in range(start, start + length):
        paths[p, base + (position >> 6)] |= np.int64(1) << np.int64(position & 63)


@njit(cache=True, nogil=True)
def _any_bit(paths, p, base, start, length):
    for position in range(start, start + length):
        if _bit(paths, p, base, position):
            return True
    return False


@njit(cache=True, nogil=True)
def _key(paths, p):
    """The sort key of a path, or -1 when a field overflows its bits."""
    weight, chunks, distance = paths[p, _WEIGHT], paths[p, _CHUNKS], paths[p, _DISTANCE]
    if weight > _MAX_WEIGHT or chunks > _MAX_CHUNKS or distance > _MAX_DISTANCE:
        return np.int64(-1)
    return (
        (np.int64(_MAX_WEIGHT) - weight) << np.int64(47)
        | chunks << np.int64(32)
        | distance
    )


@njit(cache=True, nogil=True)
def _stable_top(keys, n, limit, top, top_keys):
    """The first ``limit`` of a stable ascending sort of ``keys[:n]``:
    their indices in ``top``, returns how many. (Only the beam is ever
    read, so later entries are dropped as soon as ``limit`` smaller or
    equal earlier ones are known.)"""
    count = 0
    for i in range(n):
        key = keys[i]
        if count == limit:
            if key >= top_keys[limit - 1]:
                continue  # an equal key stays behind the earlier entries
            j = limit - 1  # the last one falls out of the beam
        else:
            j = count
            count += 1
        while j > 0 and top_keys[j - 1] > key:
            top[j] = top[j - 1]
            top_keys[j] = top_keys[j - 1]
            j -= 1
        top[j] = i
        top_keys[j] = key
    return count


@njit(cache=True, nogil=True)
def _add_match(paths, p, ref_start, ref_len, hyp_start, hyp_len, half):
    # Java: int matches += length * weight, truncated after each addition.
    if half:
        paths[p, _WEIGHT] += hyp_len // 2 + ref_len // 2
    else:
        paths[p, _WEIGHT] += hyp_len + ref_len
    if paths[p, _LAST_END] != -1 and hyp_start != paths[p, _LAST_END]:
        paths[p, _CHUNKS] += 1
    paths[p, _IDX] = ref_start + ref_len
    paths[p, _LAST_END] = hyp_start + hyp_len


@njit(cache=True, nogil=True)
def resolve_stage(
    candidates, order, starts, hyp_cov, ref_cov, n, m, half, alignment, work
):
    """Align one stage: ``alignment`` holds the matches fixed by earlier
    stages on entry and the whole alignment on return. ``work`` is scratch
    space (int64, any size, reused across calls). Returns ``(status,
    work)``: status 0, or -1 when a key overflowed (the caller then uses the
    Python code); ``work`` grown if it was too small."""
    words = max(1, (max(n, m) + 63) // 64)
    width = _BITS + 2 * words
    hyp_base, ref_base = _BITS, _BITS + words
    start = np.zeros((1, width), dtype=np.int64)
    start[0, _LAST_END] = -1
    start[0, _NODE] = -1
    fixed = alignment.copy()
    for j in range(m):
        if fixed[j, 0] > 0:
            _set_bits(start, 0, ref_base, j, fixed[j, 0])
            _set_bits(start, 0, hyp_base, fixed[j, 1], fixed[j, 2])
    # A lone candidate (the only one at its start, no other covering its
    # words) is fixed in advance.
    most = 0
    for j in range(m):
        count = starts[j + 1] - starts[j]
        most = max(most, count)
        if count != 1 or _bit(start, 0, ref_base, j):
            continue
        c = order[starts[j]]
        rs, rl = candidates[c, 0], candidates[c, 1]
        hs, hl = candidates[c, 2], candidates[c, 3]
        lone = True
        for k in range(rl):
            lone = lone and ref_cov[rs + k] == 1
        for k in range(hl):
            lone = lone and hyp_cov[hs + k] == 1
        if lone and not (
            _any_bit(start, 0, ref_base, rs, rl) or _any_bit(start, 0, hyp_base, hs, hl)
        ):
            fixed[j, 0], fixed[j, 1], fixed[j, 2] = rl, hs, hl
            fixed[j, 3] = candidates[c, 4]
            _set_bits(start, 0, ref_base, rs, rl)
            _set_bits(start, 0, hyp_base, hs, hl)
    # Paths live in a pool; ``following`` lists pool rows. A path that goes
    # on unchanged keeps its row; each extension takes a new row.
    capacity = BEAM_SIZE * (most + 1) + 1
    n_rows = BEAM_SIZE * len(order) + 1
    need = n_rows * (width + 2) + 4 * capacity + BEAM_SIZE
    if work.size < need:  # reused scratch: no large allocation per pair
        work = np.empty(max(need, 2 * work.size), dtype=np.int64)
    pool = work[: n_rows * width].reshape((n_rows, width))
    at = n_rows * width
    node_candidate = work[at : at + n_rows]
    node_previous = work[at + n_rows : at + 2 * n_rows]
    at += 2 * n_rows
    following = work[at : at + capacity]
    keys = work[at + capacity : at + 2 * capacity]
    top = work[at + 2 * capacity : at + 2 * capacity + BEAM_SIZE]
    top_keys = work[at + 3 * capacity : at + 3 * capacity + BEAM_SIZE]
    beam = work[at + 4 * capacity : at + 4 * capacity + BEAM_SIZE]
    for k in range(width):
        pool[0, k] = start[0, k]
    n_pool = 1
    following[0] = 0
    n_following = 1
    n_nodes = 0
    for current in range(m + 1):
        for i in range(n_following):
            keys[i] = _key(pool, following[i])
            if keys[i] < 0:
                return -1, work
        n_beam = _stable_top(keys, n_following, BEAM_SIZE, top, top_keys)
        for b in range(n_beam):
            beam[b] = following[top[b]]
        n_following = 0
        for b in range(n_beam):
            p = beam[b]
            if current == m:
                if pool[p, _LAST_END] != -1:
                    pool[p, _CHUNKS] += 1
                following[n_following] = p
                n_following += 1
                continue
            if _bit(pool, p, ref_base, current):
                idx = pool[p, _IDX]
                if current < idx:
                    following[n_following] = p
                    n_following += 1
                elif idx < m and fixed[idx, 0] > 0:
                    _add_match(pool, p, idx, fixed[idx, 0], fixed[idx, 1],
                               fixed[idx, 2], half[fixed[idx, 3]])  # fmt: skip
                    pool[p, _DISTANCE] += abs(idx - fixed[idx, 1])
                    following[n_following] = p
                    n_following += 1
                continue
            for s in range(starts[current], starts[current + 1]):
                c = order[s]
                rs, rl = candidates[c, 0], candidates[c, 1]
                hs, hl = candidates[c, 2], candidates[c, 3]
                if _any_bit(pool, p, ref_base, rs, rl) or _any_bit(
                    pool, p, hyp_base, hs, hl
                ):
                    continue
                q = n_pool
                n_pool += 1
                for k in range(width):
                    pool[q, k] = pool[p, k]
                following[n_following] = q
                n_following += 1
                _set_bits(pool, q, ref_base, rs, rl)
                _set_bits(pool, q, hyp_base, hs, hl)
                node_candidate[n_nodes] = c
                node_previous[n_nodes] = pool[p, _NODE]
                pool[q, _NODE] = n_nodes
                n_nodes += 1
                _add_match(pool, q, rs, rl, hs, hl, half[candidates[c, 4]])
                # METEOR's quirk: the distance goes to the path extended from.
                pool[p, _DISTANCE] += abs(rs - hs)
            if pool[p, _LAST_END] != -1:
                pool[p, _CHUNKS] += 1
                pool[p, _LAST_END] = -1
            pool[p, _IDX] += 1
            following[n_following] = p
            n_following += 1
        if n_following == 0:  # METEOR: "unexpected conditions", keep the best
            # (unchanged: only paths that are kept get changed)
            following[0] = beam[0]
            n_following = 1
    best = following[0]
    best_key = _key(pool, best)
    for i in range(n_following):
        key = _key(pool, following[i])
        if key < 0:
            return -1, work
        if key < best_key:
            best, best_key = following[i], key
    # Element by element: see kernels_meteor_paraphrase._grow.
    for j in range(fixed.shape[0]):
        for k in range(fixed.shape[1]):
            alignment[j, k] = fixed[j, k]
    node = pool[best, _NODE]
    while node >= 0:
        c = node_candidate[node]
        j = candidates[c, 0]
        alignment[j, 0], alignment[j, 1] = candidates[c, 1], candidates[c, 2]
        alignment[j, 2], alignment[j, 3] = candidates[c, 3], candidates[c, 4]
        node = node_previous[node]
    return 0, work


@njit(cache=True, nogil=True)
def count_chunks(alignment, m):
    """METEOR's recount in reference order: a chunk ends at an unmatched
    reference word or where the hypothesis positions jump."""
    chunks, last_end, position = 0, -1, 0
    for j in range(m):
        if alignment[j, 0] == 0:
            continue
        if j > position and last_end != -1:
            chunks += 1
            last_end = -1
        if last_end != -1 and alignment[j, 1] != last_end:
            chunks += 1
        position = j + alignment[j, 0]
        last_end = alignment[j, 1] + alignment[j, 2]
    return chunks + (1 if last_end != -1 else 0)
