"""METEOR's alignment beam search for short sentences (at most 63 words a
side): :func:`scoring.batch.kernels_meteor_align.resolve_stage` step for
step, on a leaner path.

The general search keeps each path as a row of weight, chunks, distance,
position fields and multi-word bit sets, and builds the sort key from the
first three at every step; it costs about 25 ns per path and step, which is
almost all of METEOR's time per pair (a 33-word pair keeps about 1,400
paths over its 34 steps). Here a sentence's used words fit one int64 bit
set per side, and a path carries its sort key itself instead of weight,
chunks and distance: the key is ``(65535 - weight) << 47 | chunks << 32 |
distance``, and each of METEOR's updates (weight up, one chunk more, some
distance more) is one addition to it. That is exact as long as no field
outgrows its bits, which the caller's bounds guarantee (at most 126
weighted words, 128 chunks, and a distance below ``2 ** 32`` because each
of the ``C + m`` matches a path meets adds less than 64). Every candidate's
masks, weight and distance are computed once per stage instead of at every
path that tries it.

Same beam, same stable order, same quirks (distance credited to the path
extended from, paths over a covered position dropped when no fixed match
starts at their next index); the equality tests compare both searches.

Numba's cache of :mod:`scoring.batch.kernels_meteor` would not notice
edits here by itself: :mod:`scoring.batch.kernel_cache` keys the cache
directory by every kernel module's source.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_meteor_align import BEAM_SIZE, resolve_stage

NARROW_WORDS = 63  # a side's bit set in one int64, shifts below the sign bit
_ONE = np.int64(1)
# Key: (127 - weight) << 40 | chunks << 32 | distance (weight <= 126, chunks
# <= 2 (m + 1) < 256, distance < 2 ** 32): METEOR's order in 47 bits, so
# that a path's place in the step's list fits below it (16 bits, see
# _stable_top).
_WEIGHT_UNIT = np.int64(1) << np.int64(40)
_CHUNK_UNIT = np.int64(1) << np.int64(32)
_START_KEY = np.int64(127) << np.int64(40)
_MAX_DISTANCE = (1 << 32) - 1
_PLACE_BITS = 16
_PLACE_MASK = (1 << _PLACE_BITS) - 1


@njit(cache=True, nogil=True)
def narrow_fits(n, m, n_cand):
    """Whether :func:`resolve_narrow` can align this stage exactly."""
    return n <= NARROW_WORDS and m <= NARROW_WORDS and (n_cand + m) * 64 < _MAX_DISTANCE


@njit(cache=True, nogil=True)
def _mask(start, length):
    return ((_ONE << np.int64(length)) - _ONE) << np.int64(start)


@njit(cache=True, nogil=True)
def _stable_top(keys, n, limit):
    """Puts the ``limit`` smallest of ``keys[:n]`` (each ``key << 16 | its
    place``, all distinct, so that any order of them is the stable order of
    the keys) ascending at the front; returns how many."""
    count = 0
    for i in range(n):
        key = keys[i]
        if count == limit:
            if key > keys[limit - 1]:
                continue
            j = limit - 1
        else:
            j = count
            count += 1
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = key
    return count


@njit(cache=True, nogil=True)
def resolve_narrow(candidates, order, starts, hyp_cov, ref_cov, n, m, half,
                   alignment, work):  # fmt: skip
    """:func:`~scoring.batch.kernels_meteor_align.resolve_stage` for a stage
    that :func:`narrow_fits`. Returns ``(0, work)`` (``work`` grown if it
    was too small)."""
    n_cand = order.size
    most = 0
    for j in range(m):
        most = max(most, starts[j + 1] - starts[j])
    capacity = BEAM_SIZE * (most + 1) + 1
    if capacity > _PLACE_MASK + 1:  # places would not fit below the keys
        return resolve_stage(candidates, order, starts, hyp_cov, ref_cov, n, m,
                             half, alignment, work)  # fmt: skip
    n_rows = BEAM_SIZE * n_cand + 1
    need = 8 * n_rows + 8 * n_cand + 4 * m + 2 * capacity + BEAM_SIZE
    if work.size < need:
        work = np.empty(max(need, 2 * work.size), dtype=np.int64)
    # Paths (pool rows), the matches they chose (nodes), then per candidate
    # in search order its masks, weight, distance and fields, then the
    # fixed matches and the step's lists.
    key = work[0:n_rows]
    idx = work[n_rows : 2 * n_rows]
    last_end = work[2 * n_rows : 3 * n_rows]
    node = work[3 * n_rows : 4 * n_rows]
    hyp_bits = work[4 * n_rows : 5 * n_rows]
    ref_bits = work[5 * n_rows : 6 * n_rows]
    node_slot = work[6 * n_rows : 7 * n_rows]
    node_previous = work[7 * n_rows : 8 * n_rows]
    at = 8 * n_rows
    c_ref_mask = work[at : at + n_cand]
    c_hyp_mask = work[at + n_cand : at + 2 * n_cand]
    c_weight = work[at + 2 * n_cand : at + 3 * n_cand]
    c_distance = work[at + 3 * n_cand : at + 4 * n_cand]
    c_ref_end = work[at + 4 * n_cand : at + 5 * n_cand]
    c_hyp_start = work[at + 5 * n_cand : at + 6 * n_cand]
    c_hyp_end = work[at + 6 * n_cand : at + 7 * n_cand]
    at += 8 * n_cand
    fixed = work[at : at + 4 * m].reshape((m, 4))
    at += 4 * m
    following = work[at : at + capacity]
    keys = work[at + capacity : at + 2 * capacity]
    at += 2 * capacity
    beam = work[at : at + BEAM_SIZE]

    for s in range(n_cand):
        c = order[s]
        rs, rl = candidates[c, 0], candidates[c, 1]
        hs, hl = candidates[c, 2], candidates[c, 3]
        c_ref_mask[s] = _mask(rs, rl)
        c_hyp_mask[s] = _mask(hs, hl)
        # Java: int matches += length * weight, truncated after each addition.
        if half[candidates[c, 4]]:
            c_weight[s] = (hl // 2 + rl // 2) * _WEIGHT_UNIT
        else:
            c_weight[s] = (hl + rl) * _WEIGHT_UNIT
        c_distance[s] = abs(rs - hs)
        c_ref_end[s] = rs + rl
        c_hyp_start[s] = hs
        c_hyp_end[s] = hs + hl

    start_hyp = start_ref = np.int64(0)
    for j in range(m):
        for k in range(4):
            fixed[j, k] = alignment[j, k]
        if fixed[j, 0] > 0:
            start_ref |= _mask(j, fixed[j, 0])
            start_hyp |= _mask(fixed[j, 1], fixed[j, 2])
    # A lone candidate (the only one at its start, no other covering its
    # words) is fixed in advance.
    for j in range(m):
        if starts[j + 1] - starts[j] != 1 or (start_ref >> np.int64(j)) & _ONE:
            continue
        s = starts[j]
        c = order[s]
        rs, rl = candidates[c, 0], candidates[c, 1]
        hs, hl = candidates[c, 2], candidates[c, 3]
        lone = True
        for k in range(rl):
            lone = lone and ref_cov[rs + k] == 1
        for k in range(hl):
            lone = lone and hyp_cov[hs + k] == 1
        if (
            lone
            and (start_ref & c_ref_mask[s]) == 0
            and (start_hyp & c_hyp_mask[s]) == 0
        ):
            fixed[j, 0], fixed[j, 1], fixed[j, 2] = rl, hs, hl
            fixed[j, 3] = candidates[c, 4]
            start_ref |= c_ref_mask[s]
            start_hyp |= c_hyp_mask[s]

    key[0], idx[0], last_end[0], node[0] = _START_KEY, 0, -1, -1
    hyp_bits[0], ref_bits[0] = start_hyp, start_ref
    n_pool = 1
    following[0] = 0
    n_following = 1
    n_nodes = 0
    for current in range(m + 1):
        for i in range(n_following):
            keys[i] = key[following[i]] << _PLACE_BITS | i
        n_beam = _stable_top(keys, n_following, BEAM_SIZE)
        for b in range(n_beam):
            beam[b] = following[keys[b] & _PLACE_MASK]
        n_following = 0
        if current == m:
            for b in range(n_beam):
                p = beam[b]
                if last_end[p] != -1:
                    key[p] += _CHUNK_UNIT
                following[n_following] = p
                n_following += 1
            break
        bit = _ONE << np.int64(current)
        s0, s1 = starts[current], starts[current + 1]
        for b in range(n_beam):
            p = beam[b]
            if ref_bits[p] & bit:
                at_idx = idx[p]
                if current < at_idx:
                    following[n_following] = p
                    n_following += 1
                elif at_idx < m and fixed[at_idx, 0] > 0:
                    hs, hl = fixed[at_idx, 1], fixed[at_idx, 2]
                    rl = fixed[at_idx, 0]
                    if half[fixed[at_idx, 3]]:
                        key[p] -= (hl // 2 + rl // 2) * _WEIGHT_UNIT
                    else:
                        key[p] -= (hl + rl) * _WEIGHT_UNIT
                    if last_end[p] != -1 and hs != last_end[p]:
                        key[p] += _CHUNK_UNIT
                    idx[p] = at_idx + rl
                    last_end[p] = hs + hl
                    key[p] += abs(at_idx - hs)
                    following[n_following] = p
                    n_following += 1
                continue
            p_ref, p_hyp = ref_bits[p], hyp_bits[p]
            p_end, p_node = last_end[p], node[p]
            for s in range(s0, s1):
                if (p_ref & c_ref_mask[s]) != 0 or (p_hyp & c_hyp_mask[s]) != 0:
                    continue
                q = n_pool
                n_pool += 1
                following[n_following] = q
                n_following += 1
                new_key = key[p] - c_weight[s]
                if p_end != -1 and c_hyp_start[s] != p_end:
                    new_key += _CHUNK_UNIT
                key[q] = new_key
                idx[q] = c_ref_end[s]
                last_end[q] = c_hyp_end[s]
                ref_bits[q] = p_ref | c_ref_mask[s]
                hyp_bits[q] = p_hyp | c_hyp_mask[s]
                node_slot[n_nodes] = s
                node_previous[n_nodes] = p_node
                node[q] = n_nodes
                n_nodes += 1
                # METEOR's quirk: the distance goes to the path extended from.
                key[p] += c_distance[s]
            if p_end != -1:
                key[p] += _CHUNK_UNIT
                last_end[p] = -1
            idx[p] += 1
            following[n_following] = p
            n_following += 1
        if n_following == 0:  # METEOR: "unexpected conditions", keep the best
            following[0] = beam[0]
            n_following = 1
    best = following[0]
    best_key = key[best]
    for i in range(n_following):
        if key[following[i]] < best_key:
            best, best_key = following[i], key[following[i]]
    for j in range(m):
        for k in range(4):
            alignment[j, k] = fixed[j, k]
    at_node = node[best]
    while at_node >= 0:
        c = order[node_slot[at_node]]
        j = candidates[c, 0]
        alignment[j, 0], alignment[j, 1] = candidates[c, 1], candidates[c, 2]
        alignment[j, 2], alignment[j, 3] = candidates[c, 3], candidates[c, 4]
        at_node = node_previous[at_node]
    return 0, work
