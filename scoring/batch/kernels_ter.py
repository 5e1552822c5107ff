"""Compiled TER: TERCOM 0.7.25's greedy shift search over a PairGrid.

:func:`ter_edits_grid` gives, for every (hypothesis, reference) pair of a
:class:`~scoring.batch.grid.PairGrid`, the number of edits
:func:`scoring.metrics.ter.shifts.ter_edits` counts (shifts included): the same
candidate shifts in the same order, the same early stops, the same beam-pruned
costs and traces (:mod:`scoring.batch.kernels_ter_align`), so the same shift is
kept at every step.

How the per-pair code's pieces map here:

- its table of reference n-gram start positions becomes ``common[s, p]``,
  the number of words (at most ``MAX_SHIFT_SIZE``) that the current
  hypothesis from position s and the reference from position p share: a
  block ``cur[s:s+L]`` occurs at reference position p exactly when
  ``common[s, p] >= L``, and scanning p upwards visits the positions in the
  table's (ascending) order;
- its buckets of candidates by block length are not built: for each length,
  longest first, the candidates of that length are generated in the order
  they were appended (start, then reference position, then offset), after
  one pass per start has found how long a block the bucket-filling loop
  reaches before it stops (``reach[s]``);
- the edit cost of a shifted hypothesis: the unpruned distance first
  (bit-parallel, references of up to 64 words), and the pruned programme
  only when a candidate could be kept and the unpruned distance does not
  prove the pruning harmless, as
  :class:`~scoring.metrics.ter.alignment.BeamEditCost` does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_edit import _myers
from scoring.batch.kernels_lcs import _max_refs, clear_local_ids, local_ids
from scoring.batch.kernels_ter_align import (
    bit_alignment_errors,
    pruned_alignment_errors,
    pruned_cost,
)

MAX_SHIFT_SIZE = 10  # scoring.metrics.ter.shifts.MAX_SHIFT_SIZE
MAX_SHIFT_DIST = 50  # scoring.metrics.ter.shifts.MAX_SHIFT_DIST
_WORD = 64  # longest reference the bit-parallel distance takes


@njit(cache=True, nogil=True)
def _shift_cost(shifted, n, ref, m, masks, k, unknown, below, beam_width, scratch):
    """Edit cost of ``shifted``, exact when below ``below`` (otherwise some
    number >= ``below``), as ``BeamEditCost.__call__``."""
    if m <= _WORD:
        distance = _myers(shifted, n, masks, k, m)
        if distance >= below or distance - unknown <= beam_width:
            return distance
    return pruned_cost(shifted, n, ref, m, beam_width, scratch[0], scratch[1])


@njit(cache=True, nogil=True)
def _perform_shift(words, n, start, end, destination, out):
    """``out[:n]`` = ``words[:n]`` with ``words[start..end]`` moved right after
    ``words[destination]`` (-1: to the front), as
    :func:`scoring.metrics.ter.shifts.perform_shift` (a destination inside the
    block moves it right by ``destination - start`` words)."""
    if destination < start:
        at = 0
        for p in range(destination + 1):
            out[at] = words[p]
            at += 1
        for p in range(start, end + 1):
            out[at] = words[p]
            at += 1
        for p in range(destination + 1, start):
            out[at] = words[p]
            at += 1
        for p in range(end + 1, n):
            out[at] = words[p]
            at += 1
        return
    stop = destination if destination > end else end + destination - start
    stop = min(stop, n - 1)
    for p in range(start):
        out[p] = words[p]
    at = start
    for p in range(end + 1, stop + 1):
        out[at] = words[p]
        at += 1
    for p in range(start, end + 1):
        out[at] = words[p]
        at += 1
    for p in range(max(stop + 1, end + 1), n):
        out[at] = words[p]
        at += 1


@njit(cache=True, nogil=True)
def _common_prefixes(cur, n, ref, m, common):
    """``common[s, p]``: words shared by ``cur[s:]`` and ``ref[p:]`` from the
    start, capped at MAX_SHIFT_SIZE (int8, at least ``(n + 1, m + 1)``)."""
    for p in range(m + 1):
        common[n, p] = 0
    for s in range(n - 1, -1, -1):
        common[s, m] = 0
        word = cur[s]
        for p in range(m - 1, -1, -1):
            if word == ref[p]:
                common[s, p] = min(common[s + 1, p + 1] + 1, MAX_SHIFT_SIZE)
            else:
                common[s, p] = 0


@njit(cache=True, nogil=True)
def _far(target, start, end):
    """True when reference position aligned with hypothesis ``target`` is no
    destination for the block ``start..end`` (inside it, or too far)."""
    return (
        target == start
        or (start <= target and target <= end)
        or target - start > MAX_SHIFT_DIST
        or start - target > MAX_SHIFT_DIST
    )


@njit(cache=True, nogil=True)
def _reaches(n, m, common, ref_to_hyp, hyp_errors_before, reach):
    """``reach[s]``: the longest block from s whose candidates the per-pair
    ``candidate_shifts`` loop considers before it stops (0: none)."""
    for s in range(n):
        reach[s] = 0
        legal_first = False
        for p in range(m):
            if common[s, p] >= 1:
                target = ref_to_hyp[p]
                if (
                    target != s
                    and target - s <= MAX_SHIFT_DIST
                    and s - target - 1 <= MAX_SHIFT_DIST
                ):
                    legal_first = True
                    break
        if not legal_first:
            continue
        size = 1
        while size <= MAX_SHIFT_SIZE and s + size <= n:
            end = s + size - 1
            occurs = False
            extended = False
            for p in range(m):
                if common[s, p] >= size:
                    occurs = True
                    if not _far(ref_to_hyp[p], s, end):
                        extended = True
                        break
            if not occurs:
                break
            reach[s] = size
            if hyp_errors_before[end + 1] - hyp_errors_before[s] == 0:
                size += 1  # only correct words so far: try a longer block
                continue
            if not extended:
                break
            size += 1


@njit(cache=True, nogil=True)
def _cumulative(flags, length, out):
    """``out[i]`` = number of set flags before position i (``length + 1``)."""
    out[0] = 0
    for i in range(length):
        out[i + 1] = out[i] + flags[i]


@njit(cache=True, nogil=True)
def _best_shift(
    cur,
    n,
    ref,
    m,
    edits,
    masks,
    k,
    unknown,
    beam_width,
    alignment,
    prefix,
    reach,
    common,
    shifted,
    best,
    columns,
):
    """The shift TERCOM keeps next (``scoring.metrics.ter.shifts._best_shift``):
    its edit cost, the shifted hypothesis in ``best[:n]``; -1 when none.

    ``alignment`` rows: hypothesis errors (n), reference errors (m), the
    hypothesis position of each reference word (m), from the current trace.
    """
    hyp_error, ref_error, ref_to_hyp = alignment[0], alignment[1], alignment[2]
    hyp_errors_before, ref_errors_before = prefix[0], prefix[1]
    _common_prefixes(cur, n, ref, m, common)
    _cumulative(hyp_error, n, hyp_errors_before)
    _cumulative(ref_error, m, ref_errors_before)
    _reaches(n, m, common, ref_to_hyp, hyp_errors_before, reach)
    best_edits = edits
    shift_cost = 0  # cost of the kept shift: 0 until one is kept
    # Block sizes longest first; a block of `size` words fixes at most
    # 2 * size errors, so the search stops once the kept shift gains that
    # much. (The per-pair code also visits an always empty bucket of
    # MAX_SHIFT_SIZE + 1 words first; its stop test cannot fire there.)
    for size in range(MAX_SHIFT_SIZE, 0, -1):
        most_fixable = 2 * size
        fixed = edits - (shift_cost + best_edits)
        if fixed > most_fixable or (shift_cost == 1 and fixed == most_fixable):
            break
        for start in range(n):
            if reach[start] < size:
                continue
            end = start + size - 1
            if hyp_errors_before[end + 1] - hyp_errors_before[start] == 0:
                continue  # a block of correct words only is no candidate
            for moveto in range(m):
                if common[start, moveto] < size:
                    continue
                anchor = ref_to_hyp[moveto]
                if _far(anchor, start, end):
                    continue
                if ref_errors_before[moveto + size] - ref_errors_before[moveto] == 0:
                    continue  # would move onto correct reference words only
                for offset in range(-1, size):
                    if offset == -1 and moveto == 0:
                        destination = -1
                    else:
                        destination = ref_to_hyp[moveto + offset]
                        if destination == start or (
                            offset != 0 and destination == anchor
                        ):
                            continue
                    fixed = edits - (shift_cost + best_edits)
                    if fixed > most_fixable or (
                        shift_cost == 1 and fixed == most_fixable
                    ):
                        # Smaller blocks cannot do better either.
                        return best_edits if shift_cost == 1 else -1
                    _perform_shift(cur, n, start, end, destination, shifted)
                    cost = _shift_cost(
                        shifted, n, ref, m, masks, k, unknown, best_edits,
                        beam_width, columns,
                    )  # fmt: skip
                    # Kept when its gain is positive, or zero before any
                    # shift is kept: exactly when it costs less than the best.
                    if cost < best_edits:
                        for p in range(n):
                            best[p] = shifted[p]
                        best_edits = cost
                        shift_cost = 1
    return best_edits if shift_cost == 1 else -1


@njit(cache=True, nogil=True)
def _align(cur, n, ref, m, masks, k, unknown, beam_width, scratch):
    """Cost of ``cur``'s alignment; its error flags into ``scratch[1]``, as
    :func:`scoring.metrics.ter.alignment.beam_alignment`."""
    alignment, moves, trace, columns, bit_columns = (
        scratch[1], scratch[5], scratch[6], scratch[7], scratch[8]
    )  # fmt: skip
    if m <= _WORD:
        return bit_alignment_errors(
            cur, n, ref, m, masks, k, unknown, beam_width,
            (columns[0], columns[1], moves), bit_columns, trace,
            alignment[0], alignment[1], alignment[2],
        )  # fmt: skip
    return pruned_alignment_errors(
        cur, n, ref, m, beam_width, columns[0], columns[1], moves, trace,
        alignment[0], alignment[1], alignment[2],
    )  # fmt: skip


@njit(cache=True, nogil=True)
def ter_pair_edits(hyp, n, ref, m, masks, k, beam_width, scratch):
    """TERCOM's edits (shifts included) turning ``hyp[:n]`` into ``ref[:m]``
    (local ids; ``masks[k]`` the reference's bit masks when m <= 64).

    ``scratch`` is :func:`_scratch`'s tuple, sized for n and m.
    """
    if n == 0 or m == 0:
        return n + m
    words, alignment, prefix, reach, common = scratch[:5]
    columns = scratch[7]
    cur, shifted, best = words[0], words[1], words[2]
    unknown = 0
    if m <= _WORD:
        for p in range(n):
            if hyp[p] < 0 or masks[k, hyp[p]] == 0:
                unknown += 1
    for p in range(n):
        cur[p] = hyp[p]
    edits = _align(cur, n, ref, m, masks, k, unknown, beam_width, scratch)
    shifts = 0
    while True:
        found = _best_shift(
            cur, n, ref, m, edits, masks, k, unknown, beam_width, alignment,
            prefix, reach, common, shifted, best, columns,
        )  # fmt: skip
        if found < 0:
            return edits + shifts
        for p in range(n):
            cur[p] = best[p]
        edits = found
        shifts += 1
        _align(cur, n, ref, m, masks, k, unknown, beam_width, scratch)


@njit(cache=True, nogil=True)
def _scratch(longest_hyp, longest_ref):
    """Work arrays of :func:`ter_pair_edits` for sentences up to these lengths."""
    n = max(longest_hyp, 1)
    m = max(longest_ref, 1)
    width = max(n, m) + 1
    return (
        np.zeros((3, n), dtype=np.int32),  # current, shifted, best hypothesis
        np.zeros((3, width), dtype=np.int32),  # errors and alignment
        np.zeros((2, width + 1), dtype=np.int32),  # errors before each position
        np.zeros(n, dtype=np.int32),  # reach of each block start
        np.zeros((n + 1, m + 1), dtype=np.int8),  # common prefix lengths
        np.zeros((n + 1, m + 1), dtype=np.int8),  # moves of the alignment
        np.zeros(n + m, dtype=np.int8),  # trace
        np.zeros((2, m + 1), dtype=np.int32),  # two columns of the programme
        np.zeros((2, n + 1), dtype=np.uint64),  # bit-parallel columns
    )


@njit(cache=True, nogil=True)
def ter_edits_grid(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    beam_width,
):
    """TER edits of every (hypothesis, reference) pair: ``(H, K)`` int32,
    equal to :func:`scoring.metrics.ter.shifts.ter_edits` on the same words."""
    n_hyps = hyp_offsets.size - 1
    out = np.zeros((n_hyps, _max_refs(group_refs)), dtype=np.int32)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    longest_ref = 1
    for r in range(ref_offsets.size - 1):
        longest_ref = max(longest_ref, ref_offsets[r + 1] - ref_offsets[r])
    scratch = _scratch(longest, longest_ref)
    hyp_local = np.empty(longest, dtype=np.int32)
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        n_local = local_ids(ref_tokens, start, stop, local)
        ref_local = np.empty(max(stop - start, 1), dtype=np.int32)
        for position in range(start, stop):
            ref_local[position - start] = local[ref_tokens[position]]
        masks = np.zeros((max(r1 - r0, 1), max(n_local, 1)), dtype=np.uint64)
        for r in range(r0, r1):
            m = ref_offsets[r + 1] - ref_offsets[r]
            if m <= _WORD:
                for i in range(m):
                    v = local[ref_tokens[ref_offsets[r] + i]]
                    masks[r - r0, v] |= np.uint64(1) << np.uint64(i)
        for h in range(group_hyps[g], group_hyps[g + 1]):
            h0 = hyp_offsets[h]
            n = hyp_offsets[h + 1] - h0
            for p in range(n):
                hyp_local[p] = local[hyp_tokens[h0 + p]]
            for r in range(r0, r1):
                first = ref_offsets[r] - start
                m = ref_offsets[r + 1] - ref_offsets[r]
                out[h, r - r0] = ter_pair_edits(
                    hyp_local,
                    n,
                    ref_local[first : first + m],
                    m,
                    masks,
                    r - r0,
                    beam_width,
                    scratch,
                )
        clear_local_ids(ref_tokens, start, stop, local)
    return out
