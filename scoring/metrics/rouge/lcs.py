"""Longest common subsequence (ROUGE-L) and weighted LCS (ROUGE-W).

Pure functions over token sequences (strings or integer ids: anything
hashable and comparable with ``==``), so the batch engine can reuse them.

- :func:`lcs_length`: bit-parallel LCS length (Allison & Dix 1986; Hyyrö
  2004): one big-integer addition per token of the second sequence instead of
  a row of the dynamic programme.
- :func:`wlcs_table`: the weighted-LCS dynamic programme of Lin & Och (2004,
  section 3.2), with f(k) = k ** weight, returning c(m, n) and the reference
  positions on the path that ROUGE-1.5.5's back-trace marks.
- :func:`rouge155_wlcs_hits`: ROUGE-1.5.5's WLCS "hit": it does not use c(m, n)
  but re-weights the back-traced path by runs of *consecutive reference
  positions* (``wlcs`` in ROUGE-1.5.5.pl), so matches that are adjacent in
  the reference but not in the hypothesis still count as one run.

Worked example (Lin & Och 2004): X = A B C D E F G, Y1 = A B C D H I K,
Y2 = A H B K C I D, f(k) = k ** 2. WLCS(X, Y1) = 16 (one run of 4), WLCS(X,
Y2) = 4 (four runs of 1), so R = sqrt(16 / 49) = 0.571 and sqrt(4 / 49) =
0.286.

>>> lcs_length("ABCDEFG", "AHBKCID")
4
>>> wlcs_table("ABCDEFG", "ABCDHIK", 2.0)[0], wlcs_table("ABCDEFG", "AHBKCID", 2.0)[0]
(16.0, 4.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

_DIAGONAL, _UP, _LEFT = 0, 1, 2


def lcs_length(first: Sequence[Hashable], second: Sequence[Hashable]) -> int:
    """Length of a longest common subsequence of two token sequences.

    Bit ``i`` of the row vector is 0 where the LCS of ``first[: i + 1]`` and
    the part of ``second`` seen so far grows; the number of zero bits at the
    end is the LCS length. ``O(len(second))`` big-integer operations of
    ``len(first)`` bits.
    """
    if not first or not second:
        return 0
    masks: dict[Hashable, int] = {}
    for position, token in enumerate(first):
        masks[token] = masks.get(token, 0) | (1 << position)
    all_ones = (1 << len(first)) - 1
    row = all_ones
    for token in second:
        matches = row & masks.get(token, 0)
        row = ((row + matches) | (row - matches)) & all_ones
    return len(first) - row.bit_count()


def wlcs_table(
    reference: Sequence[Hashable], hypothesis: Sequence[Hashable], weight: float
) -> tuple[float, tuple[bool, ...]]:
    """Weighted LCS of ``reference`` (X, length m) and ``hypothesis`` (Y).

    Returns ``(c(m, n), marked)``: the paper's WLCS value, and for each
    reference position whether the back-trace from (m, n) passes through a
    match there. Ties between "up" and "left" go up (ROUGE-1.5.5's ``>=``);
    a match always takes the diagonal, as in the paper's recurrence.
    """
    m, n = len(reference), len(hypothesis)
    if m == 0 or n == 0:
        return 0.0, (False,) * m
    # f(k + 1) - f(k) computed as ROUGE-1.5.5 does, term by term.
    powers = [float(k) ** weight for k in range(min(m, n) + 2)]
    previous_score = [0.0] * (n + 1)
    previous_run = [0] * (n + 1)
    moves: list[bytearray] = [bytearray(n + 1)]
    for i in range(1, m + 1):
        token = reference[i - 1]
        score = [0.0] * (n + 1)
        run = [0] * (n + 1)
        move = bytearray(n + 1)
        for j in range(1, n + 1):
            if token == hypothesis[j - 1]:
                k = previous_run[j - 1]
                score[j] = previous_score[j - 1] + powers[k + 1] - powers[k]
                run[j] = k + 1
                move[j] = _DIAGONAL
            elif previous_score[j] >= score[j - 1]:
                score[j] = previous_score[j]
                move[j] = _UP
            else:
                score[j] = score[j - 1]
                move[j] = _LEFT
        moves.append(move)
        previous_score, previous_run = score, run
    marked = [False] * m
    i, j = m, n
    while i and j:
        step = moves[i][j]
        if step == _DIAGONAL:
            i, j = i - 1, j - 1
            marked[i] = True
        elif step == _UP:
            i -= 1
        else:
            j -= 1
    return previous_score[n], tuple(marked)


def weighted_runs(marked: Sequence[bool], weight: float) -> float:
    """Sum of ``run_length ** weight`` over the runs of consecutive marks,
    added in order (as ROUGE-1.5.5 does).

    >>> weighted_runs([True, True, False, True], 2.0)
    5.0
    """
    total = 0.0
    run = 0
    for is_marked in marked:
        if is_marked:
            run += 1
        elif run:
            total += float(run) ** weight
            run = 0
    if run:
        total += float(run) ** weight
    return total


def rouge155_wlcs_hits(
    reference: Sequence[Hashable], hypothesis: Sequence[Hashable], weight: float
) -> float:
    """ROUGE-1.5.5's weighted-LCS hit for one sentence pair (see module doc).

    >>> rouge155_wlcs_hits("ab", "axb", 2.0), wlcs_table("ab", "axb", 2.0)[0]
    (4.0, 2.0)
    """
    return weighted_runs(wlcs_table(reference, hypothesis, weight)[1], weight)
