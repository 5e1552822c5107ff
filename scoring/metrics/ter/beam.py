"""TERCOM's beam-search edit distance (``MinEditDist`` of TERCOM 0.7.25).

TER's shift search (:mod:`scoring.metrics.ter.shifts`) asks, for many shifted
versions of one hypothesis, how many insertions, deletions and substitutions
turn it into the reference. TERCOM answers with a Levenshtein dynamic
programme that is *pruned*: while it walks the hypothesis word by word (one
column per hypothesis position), a cell is only expanded when its cost is at
most ``beam_width`` (20) above the cheapest diagonal move into that column,
and only rows between the first and the last expanded row of the previous
column (extended downwards by deletions) are visited. The last column is
never pruned. Pruning can make the distance larger than the true Levenshtein
distance on long, very different segments, and it decides which of several
equally cheap paths the trace follows; both change TER, so both are
reproduced exactly here, cell by cell, in TERCOM's order.

Ties between equally cheap moves into a cell are broken as TERCOM does: the
diagonal move (match or substitution) first, then an insertion (a
hypothesis word without a reference word), then a deletion (a reference word
without a hypothesis word).

Words are any hashable tokens. A trace is a string over ``" "`` (match),
``"S"``, ``"I"`` and ``"D"`` in hypothesis order, one character per step.
:mod:`scoring.metrics.ter.alignment` avoids this slow programme whenever it can
prove the pruning changes nothing.

>>> pruned_alignment(("a", "b", "c", "d"), ("a", "c", "d"), BEAM_WIDTH)
(1, ' I  ')
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

# TERCOM 0.7.25 defaults (``-b 20``).
BEAM_WIDTH = 20
# TERCOM's "infinity" for the best cost of an empty column.
_INFINITY = 999999
_UNSET = -1

# One column's state before it is processed: (costs written into the column
# from the previous one, the cheapest diagonal cost into it, the first and the
# last row expanded in the previous column plus one).
ColumnState = tuple[tuple[int, ...], int, int, int]


def initial_state(ref_length: int) -> ColumnState:
    """State of column 0: only D[0][0] = 0 is set, and no beam applies."""
    column = (0,) + (_UNSET,) * ref_length
    return column, _INFINITY, 0, 0


def advance(
    state: ColumnState, word: Hashable, ref: Sequence[Hashable], beam_width: int
) -> ColumnState:
    """Process one non-final column (hypothesis word ``word``); return the
    state of the next column. Mirrors TERCOM's loop body exactly."""
    column_in, last_best, first_good, last_good = state
    column = list(column_in)  # deletions below write into this column
    m = len(ref)
    following = [_UNSET] * (m + 1)
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
    return tuple(following), best, next_first_good, next_last_good


def finish(state: ColumnState, ref_length: int) -> int:
    """Process the last column (no pruning, deletions only); return the cost."""
    column_in, _last_best, first_good, last_good = state
    column = list(column_in)
    i = first_good
    while i <= last_good and i < ref_length:
        score = column[i]
        if score >= 0:
            below = column[i + 1]
            if below < 0 or below > score + 1:
                column[i + 1] = score + 1
                if i >= last_good:
                    last_good = i + 1
        i += 1
    return column[ref_length]


def pruned_alignment(
    hyp: Sequence[Hashable], ref: Sequence[Hashable], beam_width: int
) -> tuple[int, str]:
    """The pruned programme cell by cell (as :func:`advance` and
    :func:`finish`), keeping the move that set each cell for the trace.
    Returns ``(cost, trace)``."""
    m, n = len(ref), len(hyp)
    column = [0] + [_UNSET] * m
    column_moves = [""] * (m + 1)
    moves: list[list[str]] = []  # moves[j][i]
    last_best, first_good, last_good = _INFINITY, 0, 0
    for word in hyp:
        following = [_UNSET] * (m + 1)
        following_moves = [""] * (m + 1)
        best, next_first_good, next_last_good = _INFINITY, -1, -1
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
                        following[i + 1] = cost = score
                        following_moves[i + 1] = " "
                    else:
                        following[i + 1] = cost = step
                        following_moves[i + 1] = "S"
                    if cost < best:
                        best = cost
                    below = column[i + 1]
                    if below < 0 or below > step:
                        column[i + 1] = step
                        column_moves[i + 1] = "D"
                        if i >= last_good:
                            last_good = i + 1
                right = following[i]
                if right < 0 or right > step:
                    following[i] = step
                    following_moves[i] = "I"
            i += 1
        moves.append(column_moves)
        column, column_moves = following, following_moves
        last_best, first_good, last_good = best, next_first_good, next_last_good
    # The last column: no beam, deletions only.
    i = first_good
    while i <= last_good and i < m:
        score = column[i]
        if score >= 0:
            below = column[i + 1]
            if below < 0 or below > score + 1:
                column[i + 1] = score + 1
                column_moves[i + 1] = "D"
                if i >= last_good:
                    last_good = i + 1
        i += 1
    moves.append(column_moves)
    return column[m], _trace(moves, m, n)


def _trace(moves: list[list[str]], m: int, n: int) -> str:
    """Follow the moves back from (m, n); return them in hypothesis order."""
    trace: list[str] = []
    i, j = m, n
    while i > 0 or j > 0:
        move = moves[j][i]
        trace.append(move)
        if move == "D":
            i -= 1
        elif move == "I":
            j -= 1
        else:
            i -= 1
            j -= 1
    return "".join(reversed(trace))
