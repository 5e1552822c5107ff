"""Fast, exact stand-ins for TERCOM's pruned edit distance and alignment.

:mod:`scoring.metrics.ter.beam` reproduces TERCOM's beam-pruned dynamic programme
cell by cell, which is slow in Python. Most of the time the pruning provably
changes nothing, and then the unpruned programme, computed bit-parallel
(:mod:`scoring.metrics.common.edit_distance`), gives the same cost and, read back with
TERCOM's tie-breaking, the same trace. The proof: let u be the number of
hypothesis words that occur nowhere in the reference and u_j those among
the first j. Every hypothesis word not in the reference costs at least one
edit, so the cheapest diagonal move into column j (the beam's reference
point) costs at least u_j, while a cell (i, j) on an optimal path costs at
most F - (u - u_j), F the unpruned distance. If F - u <= beam_width, every
cell of an optimal path is inside the beam and the pruned search finds F;
if F - u <= beam_width - 1, so is every neighbour that could win a tie on
the traced path, and the traces agree too. Otherwise the slow programme
runs.

>>> beam_alignment(("a", "b", "c", "d"), ("a", "c", "d"))
(1, ' I  ')
>>> BeamEditCost(("a", "c", "d"))(("a", "b", "c", "d"))
1
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from scoring.metrics.common.edit_distance import levenshtein_with_masks, reference_masks
from scoring.metrics.ter.beam import (
    BEAM_WIDTH,
    ColumnState,
    advance,
    finish,
    initial_state,
    pruned_alignment,
)

# Number of cached columns after which a BeamEditCost stops caching, so that
# pathological segments cannot use unbounded memory (results stay exact).
_MAX_CACHED_COLUMNS = 200_000


class BeamEditCost:
    """TERCOM's pruned edit cost of hypotheses against one reference.

    Fast path: the unpruned distance F, bit-parallel. The beam cannot have
    changed it when F - u <= beam_width, where u counts the hypothesis words
    that occur nowhere in the reference. Proof sketch: every cell (i, j) on an
    optimal path costs at most F - (u - u_j) (each of the u - u_j unknown
    words after column j costs at least 1), while the cheapest diagonal move
    into column j, the beam's reference point, costs at least u_j (u_j =
    unknown words among the first j); so the path's cells stay inside the
    beam and the pruned search finds F too. All hypotheses passed to one
    instance must be permutations of each other (shifted versions of one
    hypothesis), so u is computed once.

    Slow path: the pruned programme itself. The columns computed for a
    hypothesis prefix are kept in a trie keyed by word ids, so a shifted
    hypothesis only recomputes the columns after the first position where it
    differs from a hypothesis seen before.
    """

    def __init__(self, ref: Sequence[Hashable], beam_width: int = BEAM_WIDTH) -> None:
        self._ref = tuple(ref)
        self._beam_width = beam_width
        self._masks = reference_masks(self._ref)
        self._unknown: int | None = None
        # A trie node is (children by word id, state of the next column).
        self._root: tuple[dict, ColumnState] = ({}, initial_state(len(ref)))
        self._cached = 0

    def __call__(self, hyp: Sequence[Hashable], below: int | None = None) -> int:
        """Edit cost (insertions + deletions + substitutions) of ``hyp``.

        With ``below``, the exact cost is only guaranteed when it is less
        than ``below``; otherwise some number >= ``below`` is returned. The
        shift search only needs to know whether a candidate beats the best
        cost so far, and the pruned cost is never less than the unpruned one.
        """
        if self._unknown is None:
            self._unknown = sum(1 for word in hyp if word not in self._masks)
        distance = levenshtein_with_masks(hyp, self._masks, len(self._ref))
        if below is not None and distance >= below:
            return distance
        if distance - self._unknown <= self._beam_width:
            return distance
        return self._pruned(hyp)

    def _pruned(self, hyp: Sequence[Hashable]) -> int:
        ref, beam_width = self._ref, self._beam_width
        children, state = self._root
        position = 0
        length = len(hyp)
        while position < length:
            node = children.get(hyp[position])
            if node is None:
                break
            children, state = node
            position += 1
        caching = self._cached < _MAX_CACHED_COLUMNS
        for word in hyp[position:]:
            state = advance(state, word, ref, beam_width)
            if caching:
                node = ({}, state)
                children[word] = node
                children = node[0]
                self._cached += 1
        return finish(state, len(ref))


def beam_alignment(
    hyp: Sequence[Hashable], ref: Sequence[Hashable], beam_width: int = BEAM_WIDTH
) -> tuple[int, str]:
    """Cost and trace of TERCOM's pruned alignment of ``hyp`` to ``ref``.

    Fast path: when the unpruned distance F satisfies F - u <= beam_width - 1
    (u as in :class:`BeamEditCost`), every cell on the traced path and every
    neighbour that could win a tie there costs at most u_j + beam_width, so
    it lies inside TERCOM's beam with its true cost: the pruned trace is the
    unpruned one with TERCOM's tie-breaking, read back from the bit-parallel
    columns. Otherwise the pruned programme runs cell by cell.
    Returns ``(cost, trace)``; the trace uses ``" "``, ``"S"``, ``"I"``,
    ``"D"``.
    """
    masks = reference_masks(ref)
    columns = _bit_columns(hyp, masks, len(ref))
    distance = _column_cost(columns[-1], len(hyp), len(ref))
    unknown = sum(1 for word in hyp if word not in masks)
    if distance - unknown <= beam_width - 1:
        return distance, _bit_trace(hyp, ref, columns, distance)
    return pruned_alignment(hyp, ref, beam_width)


def _bit_columns(
    hyp: Sequence[Hashable], masks: dict[Hashable, int], ref_length: int
) -> list[tuple[int, int]]:
    """Vertical differences of every column of the unpruned programme:
    ``columns[j] = (plus, minus)``, bit k set when D[k+1][j] - D[k][j] is
    +1 (plus) or -1 (minus)."""
    full = (1 << ref_length) - 1
    plus, minus = full, 0
    columns = [(plus, minus)]
    for word in hyp:
        equal = masks.get(word, 0)
        vertical = equal | minus
        horizontal = (((equal & plus) + plus) ^ plus) | equal
        h_plus = ((minus | (full & ~(horizontal | plus))) << 1 | 1) & full
        h_minus = ((plus & horizontal) << 1) & full
        plus = h_minus | (full & ~(vertical | h_plus))
        minus = h_plus & vertical
        columns.append((plus, minus))
    return columns


def _column_cost(column: tuple[int, int], j: int, i: int) -> int:
    """D[i][j] from column j's differences (D[0][j] = j)."""
    below = (1 << i) - 1
    return j + (column[0] & below).bit_count() - (column[1] & below).bit_count()


def _bit_trace(
    hyp: Sequence[Hashable],
    ref: Sequence[Hashable],
    columns: list[tuple[int, int]],
    cost: int,
) -> str:
    """Trace back from (m, n), preferring diagonal, then insertion, then
    deletion, as TERCOM's order of writes does."""
    trace: list[str] = []
    i, j = len(ref), len(hyp)
    while i > 0 or j > 0:
        if i == 0:
            trace.append("I")
            j -= 1
            cost -= 1
            continue
        if j > 0:
            same = ref[i - 1] == hyp[j - 1]
            diagonal = _column_cost(columns[j - 1], j - 1, i - 1)
            if diagonal + (0 if same else 1) == cost:
                trace.append(" " if same else "S")
                i -= 1
                j -= 1
                cost = diagonal
                continue
            if _column_cost(columns[j - 1], j - 1, i) + 1 == cost:
                trace.append("I")
                j -= 1
                cost -= 1
                continue
        trace.append("D")
        i -= 1
        cost -= 1
    return "".join(reversed(trace))
