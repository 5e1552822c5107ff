"""Compiled TERCOM shift search: one step of
:func:`scoring.metrics.ter.shifts._best_shift` on local int32 word ids.

How the per-pair code's pieces map here:

- its table of reference n-gram start positions becomes, for each
  hypothesis position s, the reference positions p holding the word
  ``cur[s]`` (ascending, from a linked list built once per reference) with
  ``run``: how many words (at most ``MAX_SHIFT_SIZE``) ``cur[s:]`` and
  ``ref[p:]`` share from there. A block ``cur[s:s+L]`` occurs at p exactly
  when ``run >= L``, and the positions come in the table's (ascending) order;
- its buckets of candidates by block length are not built: for each length,
  longest first, the candidates of that length are generated in the order
  they were appended (start, then reference position, then offset), after
  one pass per start has found how long a block the bucket-filling loop
  reaches before it stops (``reach[s]``);
- the edit cost of a shifted hypothesis: the unpruned distance first,
  bit-parallel (in several words past 64 reference words,
  :mod:`scoring.batch.kernels_ter_blocks`) and resumed from the current
  hypothesis's column where the shifted one starts to differ, then the
  pruned programme only when a candidate could be kept and the distance
  does not prove the pruning harmless, as
  :class:`~scoring.metrics.ter.alignment.BeamEditCost` does.
"""

from __future__ import annotations

import numpy as np

from scoring.batch.kernels_four_refs import popcount
from scoring.batch.kernels_ter_align import (
    cell_cost,
    pruned_cost,
    without_refcounts,
)
from scoring.batch.kernels_ter_blocks import block_columns, block_distance_from

MAX_SHIFT_SIZE = 10  # scoring.metrics.ter.shifts.MAX_SHIFT_SIZE
MAX_SHIFT_DIST = 50  # scoring.metrics.ter.shifts.MAX_SHIFT_DIST
WORD = 64  # longest reference the bit-parallel distance takes
_ONE = np.uint64(1)


@without_refcounts
def link_reference(ref, m, first_of, next_of):
    """``first_of[word]``: first position of each word of ``ref[:m]``;
    ``next_of[p]``: the next position holding ``ref[p]`` (-1: none).
    ``first_of`` must be -1 for these words (:func:`unlink_reference`)."""
    for p in range(m - 1, -1, -1):
        word = ref[p]
        next_of[p] = first_of[word]
        first_of[word] = p


@without_refcounts
def unlink_reference(ref, m, first_of):
    for p in range(m):
        first_of[ref[p]] = -1


@without_refcounts
def _occurrences(cur, n, ref, m, first_of, next_of, starts, positions, runs):
    """For each s: ``positions[starts[s]:starts[s + 1]]``, the reference
    positions of ``cur[s]`` ascending, and ``runs``, the words shared from
    there (capped at MAX_SHIFT_SIZE)."""
    count = 0
    for s in range(n):
        starts[s] = count
        word = cur[s]
        p = first_of[word] if word >= 0 else -1
        while p >= 0:
            run = 1
            while (
                run < MAX_SHIFT_SIZE
                and s + run < n
                and p + run < m
                and cur[s + run] == ref[p + run]
            ):
                run += 1
            positions[count] = p
            runs[count] = run
            count += 1
            p = next_of[p]
    starts[n] = count


@without_refcounts
def _far(target, start, end):
    """True when the hypothesis position ``target`` (aligned with a reference
    occurrence of the block ``start..end``) is no destination for it."""
    return (
        target == start
        or (start <= target and target <= end)
        or target - start > MAX_SHIFT_DIST
        or start - target > MAX_SHIFT_DIST
    )


@without_refcounts
def _reaches(
    n, starts, positions, runs, ref_to_hyp, hyp_errors_before, reach, reaching
):
    """``reach[s]``: the longest block from s whose candidates the per-pair
    ``candidate_shifts`` loop considers before it stops (0: none). Returns
    how many starts reach a block, listed ascending in ``reaching``, and the
    longest reach: the search visits only those starts and sizes."""
    count = 0
    longest = 0
    for s in range(n):
        reach[s] = 0
        legal_first = False
        for index in range(starts[s], starts[s + 1]):
            target = ref_to_hyp[positions[index]]
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
            for index in range(starts[s], starts[s + 1]):
                if runs[index] >= size:
                    occurs = True
                    if not _far(ref_to_hyp[positions[index]], s, end):
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
        if reach[s] > 0:
            reaching[count] = s
            count += 1
            longest = max(longest, reach[s])
    return count, longest


@without_refcounts
def _cumulative(flags, length, out):
    """``out[i]`` = number of set flags before position i (``length + 1``)."""
    out[0] = 0
    for i in range(length):
        out[i + 1] = out[i] + flags[i]


@without_refcounts
def perform_shift(words, n, start, end, destination, out):
    """``out[:n]`` = ``words[:n]`` with ``words[start..end]`` moved right after
    ``words[destination]`` (-1: to the front), as
    :func:`scoring.metrics.ter.shifts.perform_shift` (a destination inside the
    block moves it right by ``destination - start`` words)."""
    at = 0
    if destination < start:
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
        out[at] = words[p]
        at += 1
    for p in range(end + 1, stop + 1):
        out[at] = words[p]
        at += 1
    for p in range(start, end + 1):
        out[at] = words[p]
        at += 1
    for p in range(max(stop + 1, end + 1), n):
        out[at] = words[p]
        at += 1


@without_refcounts
def _column_step(word, masks, k, full, last, plus, minus):
    """Myers' (1999) update of the column ``plus``/``minus`` (vertical
    differences) for the hypothesis word ``word``, as
    :func:`scoring.batch.kernels_edit._myers`: the next column and the change
    of its bottom cell."""
    # Branch-free: a word absent from the reference (-1) matches no row.
    known = np.uint64(0) - np.uint64(word >= 0)
    equal = masks[k, max(word, 0)] & known
    vertical = equal | minus
    horizontal = (((equal & plus) + plus) ^ plus) | equal
    h_plus = minus | (full & ~(horizontal | plus))
    h_minus = plus & horizontal
    change = np.int64((h_plus & last) != 0) - np.int64((h_minus & last) != 0)
    h_plus = ((h_plus << _ONE) | _ONE) & full
    h_minus = (h_minus << _ONE) & full
    return h_minus | (full & ~(vertical | h_plus)), h_plus & vertical, change


@without_refcounts
def _shifted_distance(
    cur, n, start, end, destination, masks, k, m, bit_columns, current, below
):
    """Unpruned edit distance of ``cur[:n]`` shifted as :func:`perform_shift`
    would (to a reference of at most 64 words), without writing the shifted
    words out: after ``cur[:first]``, whose column (``bit_columns``: the
    current hypothesis's columns) is where the programme resumes, the
    shifted hypothesis is two runs of ``cur`` (the block and the words it
    passes, in one order or the other) and then ``cur``'s own tail.

    In the tail the shifted hypothesis's words are the current one's at the
    same positions: once a column equals the current one's column there,
    every later column does too, and the distance is the current one's
    (``current``). Before that, the distance is at least ``current`` minus
    how far the column falls below the current one's in any row, at most
    the sum of the rows' drops in vertical difference; once that bound
    reaches ``below`` the bound is returned. So the result is exact when
    below ``below``, else some number >= ``below``, as ``best_shift`` needs."""
    plus_of, minus_of = bit_columns[0], bit_columns[1]
    if destination < start:
        first = destination + 1
        runs = (start, end + 1, destination + 1, start)
        tail = end + 1
    else:
        stop = destination if destination > end else end + destination - start
        stop = min(stop, n - 1)
        first = start
        runs = (end + 1, stop + 1, start, end + 1)
        tail = max(stop + 1, end + 1)
    full = ~np.uint64(0) if m == WORD else (_ONE << np.uint64(m)) - _ONE
    last = _ONE << np.uint64(m - 1)
    plus, minus = plus_of[first], minus_of[first]
    score = cell_cost(plus, minus, first, m)
    for t in range(runs[0], runs[1]):
        plus, minus, change = _column_step(cur[t], masks, k, full, last, plus, minus)
        score += change
    for t in range(runs[2], runs[3]):
        plus, minus, change = _column_step(cur[t], masks, k, full, last, plus, minus)
        score += change
    for t in range(tail, n):
        plus_here, minus_here = plus_of[t], minus_of[t]
        if plus == plus_here and minus == minus_here:
            return current
        # D[i] - D_current[i] sums the rows' differences above i, each at
        # least -(the current's +1 lost) - (a -1 gained).
        drop = popcount(plus_here & ~plus) + popcount(minus & ~minus_here)
        if current - drop >= below:
            return current - drop
        plus, minus, change = _column_step(cur[t], masks, k, full, last, plus, minus)
        score += change
    return score


@without_refcounts
def best_shift(
    cur, n, ref, m, edits, floor, masks, long_masks, k, unknown, beam_width, work
):
    """The shift TERCOM keeps next (``scoring.metrics.ter.shifts._best_shift``):
    its edit cost and the shifted hypothesis in ``best``; -1 when none.

    ``work`` is :func:`scoring.batch.kernels_ter.scratch`'s tuple, with the
    current alignment (error flags, reference-to-hypothesis positions) and,
    for references of up to 64 words, the current hypothesis's bit columns.
    ``masks[k]`` / ``long_masks[k]``: the reference's bit masks when it has
    up to 64 words / more (:mod:`scoring.batch.kernels_ter_blocks`).

    ``floor``: no permutation of the hypothesis costs less (max(n, m) minus
    the words matched regardless of order). A candidate is kept only
    when it costs less than the best so far, so once the best reaches the
    floor no later candidate can be kept and the search can stop: the same
    shift is returned as if every remaining candidate had been costed.
    """
    if edits <= floor:
        return -1
    words, alignment, prefix, reach = work[0], work[1], work[2], work[3]
    starts, positions, runs = work[4], work[5], work[6]
    columns, bit_columns, first_of, next_of = work[7], work[8], work[9], work[10]
    shifted, best = words[1], words[2]
    hyp_error, ref_error, ref_to_hyp = alignment[0], alignment[1], alignment[2]
    hyp_errors_before, ref_errors_before = prefix[0], prefix[1]
    _occurrences(cur, n, ref, m, first_of, next_of, starts, positions, runs)
    _cumulative(hyp_error, n, hyp_errors_before)
    _cumulative(ref_error, m, ref_errors_before)
    reaching = work[16]
    n_reaching, longest = _reaches(
        n, starts, positions, runs, ref_to_hyp, hyp_errors_before, reach, reaching
    )
    long_columns, long_work = work[13], work[14]
    if m > WORD:
        block_columns(cur, n, long_masks, k, m, long_columns)
        current = 0
    else:  # the current hypothesis's unpruned distance
        current = cell_cost(bit_columns[0, n], bit_columns[1, n], n, m)
    best_edits = edits
    shift_cost = 0  # cost of the kept shift: 0 until one is kept
    # Block sizes longest first; a block of `size` words fixes at most
    # 2 * size errors, so the search stops once the kept shift gains that
    # much. (The per-pair code also visits an always empty bucket of
    # MAX_SHIFT_SIZE + 1 words first; its stop test cannot fire there.)
    # (Sizes past the longest reach have no candidate, and the stop test
    # cannot fire before a shift is kept.)
    for size in range(longest, 0, -1):
        most_fixable = 2 * size
        fixed = edits - (shift_cost + best_edits)
        if fixed > most_fixable or (shift_cost == 1 and fixed == most_fixable):
            break
        for listed in range(n_reaching):
            start = reaching[listed]
            if reach[start] < size:
                continue
            end = start + size - 1
            if hyp_errors_before[end + 1] - hyp_errors_before[start] == 0:
                continue  # a block of correct words only is no candidate
            for index in range(starts[start], starts[start + 1]):
                if runs[index] < size:
                    continue
                moveto = positions[index]
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
                    # The cost, exact when below best_edits (else some number
                    # >= best_edits), as BeamEditCost(shifted, below=...).
                    if m <= WORD:
                        cost = _shifted_distance(
                            cur, n, start, end, destination, masks, k, m,
                            bit_columns, current, best_edits,
                        )  # fmt: skip
                    else:
                        perform_shift(cur, n, start, end, destination, shifted)
                        # shifted[:first] is cur[:first]: resume from its column.
                        first = min(start, destination + 1)
                        cost = block_distance_from(
                            shifted, first, n, long_masks, k, m, long_columns,
                            long_work,
                        )  # fmt: skip
                    if cost < best_edits and cost - unknown > beam_width:
                        perform_shift(cur, n, start, end, destination, shifted)
                        cost = pruned_cost(
                            shifted, n, ref, m, beam_width, columns[0], columns[1]
                        )
                    # Kept when its gain is positive, or zero before any
                    # shift is kept: exactly when it costs less than the best.
                    if cost < best_edits:
                        perform_shift(cur, n, start, end, destination, best)
                        best_edits = cost
                        shift_cost = 1
                        if best_edits <= floor:
                            return best_edits
    return best_edits if shift_cost == 1 else -1
