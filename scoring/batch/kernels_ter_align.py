"""Compiled TERCOM beam-pruned edit cost and alignment, on local int32 word ids.

These are :mod:`scoring.metrics.ter.beam`'s ``advance``/``finish`` and
``pruned_alignment`` written for Numba, cell by cell in TERCOM's order (so
the pruning and the tie-breaking of the trace are the same), plus the
reading of a trace into the error flags the shift search needs
(:func:`scoring.metrics.ter.shifts._alignment_errors`).

Words are local ids (see :func:`scoring.batch.kernels_lcs.local_ids`): a
reference word has an id >= 0, a hypothesis word absent from the group's
references is -1, which equals no reference word. Scratch arrays are passed
in by the caller so that one allocation serves millions of pairs.

The per-pair code only runs the pruned programme when it cannot prove that
the unpruned (bit-parallel) one gives the same cost and trace
(:mod:`scoring.metrics.ter.alignment`); running the pruned programme always
gives, by that proof, the same numbers. The cost-only search
(:func:`pruned_cost`) is used after the unpruned distance when that proof
does not apply, exactly where :class:`~scoring.metrics.ter.alignment.BeamEditCost`
uses it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_four_refs import popcount

# TERCOM's "infinity" for the best cost of an empty column, and an unset cell.
_INFINITY = 999999
_UNSET = -1
# Moves of the trace (moves[j, i] for hypothesis column j, reference row i).
MATCH, SUBSTITUTION, INSERTION, DELETION = 1, 2, 3, 4
_WORD = 64
_ONE = np.uint64(1)

# The search's kernels allocate nothing: their callers own every array. Compiled
# without reference counting, they skip the atomic increments and decrements
# Numba otherwise emits for each array (and each view of a scratch tuple) on
# every call, which took a fifth of TER's time (4 steps a pair, each unpacking
# about 30 arrays).
without_refcounts = njit(cache=True, nogil=True, _nrt=False)


@without_refcounts
def pruned_cost(hyp, n, ref, m, beam_width, column, following):
    """TERCOM's beam-pruned edit cost of ``hyp[:n]`` against ``ref[:m]``.

    ``column`` and ``following``: int32 scratch of at least ``m + 1`` cells.
    Mirrors :func:`scoring.metrics.ter.beam.advance` for every column but
    the last and :func:`~scoring.metrics.ter.beam.finish` for the last.
    """
    column[0] = 0
    for i in range(1, m + 1):
        column[i] = _UNSET
    last_best = _INFINITY
    first_good = 0
    last_good = 0
    for j in range(n):
        word = hyp[j]
        for i in range(m + 1):
            following[i] = _UNSET
        best = _INFINITY
        next_first_good = -1
        next_last_good = -1
        limit = last_best + beam_width
        i = first_good
        while i <= last_good and i <= m:
            score = column[i]
            if 0 <= score <= limit:
                if next_first_good < 0:
                    next_first_good = i
                next_last_good = i + 1
                step = score + 1
                if i < m:
                    # The diagonal move is always the first write into its cell.
                    cost = score if ref[i] == word else step
                    following[i + 1] = cost
                    if cost < best:
                        best = cost
                    below = column[i + 1]
                    if below < 0 or below > step:
                        column[i + 1] = step
                        if i >= last_good:
                            last_good = i + 1
                right = following[i]
                if right < 0 or right > step:
                    following[i] = step
            i += 1
        column, following = following, column
        last_best = best
        first_good = next_first_good
        last_good = next_last_good
    # The last column: no beam, deletions only.
    i = first_good
    while i <= last_good and i < m:
        score = column[i]
        if score >= 0:
            below = column[i + 1]
            if below < 0 or below > score + 1:
                column[i + 1] = score + 1
                if i >= last_good:
                    last_good = i + 1
        i += 1
    return column[m]


@without_refcounts
def _pruned_moves(hyp, n, ref, m, beam_width, column, following, moves):
    """The pruned programme keeping, in ``moves[j, i]`` (int8, at least
    ``(n + 1, m + 1)``), the move that last set cell (i, j); returns the
    cost. Same order of writes as
    :func:`scoring.metrics.ter.beam.pruned_alignment`."""
    column[0] = 0
    for i in range(1, m + 1):
        column[i] = _UNSET
    for i in range(m + 1):
        moves[0, i] = 0
    last_best = _INFINITY
    first_good = 0
    last_good = 0
    for j in range(n):
        word = hyp[j]
        for i in range(m + 1):
            following[i] = _UNSET
            moves[j + 1, i] = 0
        best = _INFINITY
        next_first_good = -1
        next_last_good = -1
        limit = last_best + beam_width
        i = first_good
        while i <= last_good and i <= m:
            score = column[i]
            if 0 <= score <= limit:
                if next_first_good < 0:
                    next_first_good = i
                next_last_good = i + 1
                step = score + 1
                if i < m:
                    if ref[i] == word:
                        cost = score
                        moves[j + 1, i + 1] = MATCH
                    else:
                        cost = step
                        moves[j + 1, i + 1] = SUBSTITUTION
                    following[i + 1] = cost
                    if cost < best:
                        best = cost
                    below = column[i + 1]
                    if below < 0 or below > step:
                        column[i + 1] = step
                        moves[j, i + 1] = DELETION
                        if i >= last_good:
                            last_good = i + 1
                right = following[i]
                if right < 0 or right > step:
                    following[i] = step
                    moves[j + 1, i] = INSERTION
            i += 1
        column, following = following, column
        last_best = best
        first_good = next_first_good
        last_good = next_last_good
    i = first_good
    while i <= last_good and i < m:
        score = column[i]
        if score >= 0:
            below = column[i + 1]
            if below < 0 or below > score + 1:
                column[i + 1] = score + 1
                moves[n, i + 1] = DELETION
                if i >= last_good:
                    last_good = i + 1
        i += 1
    return column[m]


@without_refcounts
def pruned_alignment_errors(
    hyp,
    n,
    ref,
    m,
    beam_width,
    column,
    following,
    moves,
    trace,
    hyp_error,
    ref_error,
    ref_to_hyp,
):
    """Cost of TERCOM's pruned alignment of ``hyp[:n]`` to ``ref[:m]``, and
    what the shift search reads from its trace:

    - ``hyp_error[h]`` (int32, n): 1 when hypothesis word h is inserted or
      substituted;
    - ``ref_error[r]`` (int32, m): 1 when reference word r is deleted or
      substituted;
    - ``ref_to_hyp[r]`` (int32, m): the hypothesis position aligned with
      reference word r (after a deletion: the hypothesis word before it,
      -1 at the start).

    ``trace``: int8 scratch of at least ``n + m`` moves.
    """
    cost = _pruned_moves(hyp, n, ref, m, beam_width, column, following, moves)
    # Walk back from (m, n); the moves come out in reverse order.
    length = 0
    i = m
    j = n
    while i > 0 or j > 0:
        move = moves[j, i]
        trace[length] = move
        length += 1
        if move == DELETION:
            i -= 1
        elif move == INSERTION:
            j -= 1
        else:
            i -= 1
            j -= 1
    _read_trace(trace, length, hyp_error, ref_error, ref_to_hyp)
    return cost


@without_refcounts
def _read_trace(trace, length, hyp_error, ref_error, ref_to_hyp):
    """Error flags and alignment from a trace stored last move first
    (:func:`scoring.metrics.ter.shifts._alignment_errors`)."""
    h = -1
    r = -1
    for step in range(length - 1, -1, -1):
        move = trace[step]
        if move == INSERTION:
            h += 1
            hyp_error[h] = 1
        elif move == DELETION:
            r += 1
            ref_error[r] = 1
            ref_to_hyp[r] = h
        else:
            h += 1
            r += 1
            wrong = 1 if move == SUBSTITUTION else 0
            hyp_error[h] = wrong
            ref_error[r] = wrong
            ref_to_hyp[r] = h


@without_refcounts
def cell_cost(plus, minus, j, i):
    """D[i][j] of the unpruned programme from column j's vertical
    differences (D[0][j] = j), as ``alignment._column_cost``."""
    if i == 0:
        return j
    below = ~np.uint64(0) if i == _WORD else (np.uint64(1) << np.uint64(i)) - _ONE
    return j + popcount(plus & below) - popcount(minus & below)


@without_refcounts
def bit_alignment_errors(
    hyp,
    n,
    ref,
    m,
    masks,
    k,
    unknown,
    beam_width,
    pruned_scratch,
    bit_columns,
    trace,
    hyp_error,
    ref_error,
    ref_to_hyp,
):
    """:func:`pruned_alignment_errors` for a reference of at most 64 words,
    as :func:`scoring.metrics.ter.alignment.beam_alignment` computes it: the
    unpruned programme bit-parallel (``masks[k]``, as
    :func:`scoring.batch.kernels_edit._myers`) and its trace read back with
    TERCOM's tie-breaking when the distance proves the pruning harmless
    (distance - ``unknown`` <= beam_width - 1), the pruned programme
    otherwise.

    ``pruned_scratch``: (column, following, moves) of
    :func:`pruned_alignment_errors`; ``bit_columns``: uint64 ``(2, n + 1)``.
    """
    full = ~np.uint64(0) if m == _WORD else (np.uint64(1) << np.uint64(m)) - _ONE
    plus_of = bit_columns[0]
    minus_of = bit_columns[1]
    plus = full
    minus = np.uint64(0)
    plus_of[0] = plus
    minus_of[0] = minus
    for j in range(n):
        word = hyp[j]
        # Branch-free: a word absent from the reference (-1) matches no row.
        equal = masks[k, max(word, 0)] & (np.uint64(0) - np.uint64(word >= 0))
        vertical = equal | minus
        horizontal = (((equal & plus) + plus) ^ plus) | equal
        h_plus = ((minus | (full & ~(horizontal | plus))) << _ONE | _ONE) & full
        h_minus = ((plus & horizontal) << _ONE) & full
        plus = h_minus | (full & ~(vertical | h_plus))
        minus = h_plus & vertical
        plus_of[j + 1] = plus
        minus_of[j + 1] = minus
    distance = cell_cost(plus, minus, n, m)
    if distance - unknown > beam_width - 1:
        column, following, moves = pruned_scratch
        return pruned_alignment_errors(
            hyp, n, ref, m, beam_width, column, following, moves, trace,
            hyp_error, ref_error, ref_to_hyp,
        )  # fmt: skip
    # Trace back from (m, n): diagonal first, then insertion, then deletion.
    cost = distance
    length = 0
    i = m
    j = n
    while i > 0 or j > 0:
        diagonal = 0
        if i == 0:
            move = INSERTION
        elif j > 0:
            diagonal = cell_cost(plus_of[j - 1], minus_of[j - 1], j - 1, i - 1)
            if ref[i - 1] == hyp[j - 1] and diagonal == cost:
                move = MATCH
            elif ref[i - 1] != hyp[j - 1] and diagonal + 1 == cost:
                move = SUBSTITUTION
            elif cell_cost(plus_of[j - 1], minus_of[j - 1], j - 1, i) + 1 == cost:
                move = INSERTION
            else:
                move = DELETION
        else:
            move = DELETION
        trace[length] = move
        length += 1
        if move == INSERTION:
            j -= 1
            cost -= 1
        elif move == DELETION:
            i -= 1
            cost -= 1
        else:
            i -= 1
            j -= 1
            cost = diagonal
    _read_trace(trace, length, hyp_error, ref_error, ref_to_hyp)
    return distance
