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

from numba import njit

# TERCOM's "infinity" for the best cost of an empty column, and an unset cell.
_INFINITY = 999999
_UNSET = -1
# Moves of the trace (moves[j, i] for hypothesis column j, reference row i).
MATCH, SUBSTITUTION, INSERTION, DELETION = 1, 2, 3, 4


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
    return cost
