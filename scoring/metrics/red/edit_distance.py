"""Word-level edit distances of many sequence pairs at once, in NumPy (for RED).

Two distances between sequences of integer token ids:

- Levenshtein: insertions, deletions and substitutions, each costing 1;
- with ``swap=True``, also the swap of two adjacent words for 1 (the
  "optimal string alignment" distance: a swapped pair is not edited again).

Pairs are sorted by length and processed in chunks; within a chunk the
dynamic programme runs one row (one word of the first sequence) at a time
for every pair and every column together. A row is

    tmp[j]  = min(D[i-1][j] + 1, D[i-1][j-1] + cost(i, j), D[i-2][j-2] + 1 if swap)
    D[i][j] = min over k <= j of tmp[k] + (j - k)      (the insertion chain)

and the second line is one ``np.minimum.accumulate``. Padding never matches
(first sequences are padded with -1, second ones with -2), and the padded
columns lie right of every pair's own end, so they cannot change its cells.

>>> a, b = [np.array([0, 1, 2])], [np.array([1, 0, 2])]
>>> int(edit_distances(a, b)[0]), int(edit_distances(a, b, swap=True)[0])
(2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_CHUNK = 512  # pairs per chunk: large enough for NumPy, small enough to pad little


def edit_distances(
    firsts: Sequence[np.ndarray], seconds: Sequence[np.ndarray], swap: bool = False
) -> np.ndarray:
    """Edit distance of every pair ``(firsts[p], seconds[p])``: ``(n_pairs,)`` ints.

    Each sequence is a 1-D array of non-negative token ids.
    """
    return edit_distances_by_swap(firsts, seconds, (swap,))[0]


def edit_distances_by_swap(
    firsts: Sequence[np.ndarray], seconds: Sequence[np.ndarray], swaps: Sequence[bool]
) -> np.ndarray:
    """Distances without and/or with the swap operator in one pass over the
    pairs: ``(len(swaps), n_pairs)`` ints, row ``k`` with ``swap=swaps[k]``."""
    if len(firsts) != len(seconds):
        raise ValueError("firsts and seconds must have the same number of sequences")
    n_pairs = len(firsts)
    result = np.zeros((len(swaps), n_pairs), dtype=np.int64)
    if n_pairs == 0:
        return result
    first_lengths = np.array([len(sequence) for sequence in firsts], dtype=np.int64)
    second_lengths = np.array([len(sequence) for sequence in seconds], dtype=np.int64)
    order = np.lexsort((second_lengths, first_lengths))
    for start in range(0, n_pairs, _CHUNK):
        chunk = order[start : start + _CHUNK]
        result[:, chunk] = _chunk_distances(
            [firsts[p] for p in chunk],
            [seconds[p] for p in chunk],
            first_lengths[chunk],
            second_lengths[chunk],
            tuple(swaps),
        )
    return result


def _padded(sequences: list[np.ndarray], width: int, pad: int) -> np.ndarray:
    table = np.full((len(sequences), max(width, 1)), pad, dtype=np.int64)
    for row, sequence in enumerate(sequences):
        table[row, : len(sequence)] = sequence
    return table


def _chunk_distances(
    firsts: list[np.ndarray],
    seconds: list[np.ndarray],
    first_lengths: np.ndarray,
    second_lengths: np.ndarray,
    swaps: tuple[bool, ...],
) -> np.ndarray:
    """Distances of one chunk of pairs: ``(len(swaps), n_chunk_pairs)``."""
    n_pairs = len(firsts)
    rows, columns = int(first_lengths.max()), int(second_lengths.max())
    first = _padded(firsts, rows, -1)  # (P, rows)
    second = _padded(seconds, columns, -2)[:, :columns]  # (P, columns)
    offsets = np.arange(columns + 1, dtype=np.int64)
    row_zero = np.broadcast_to(offsets, (n_pairs, columns + 1)).copy()
    # Per variant: rows i - 1 and i - 2 of its table.
    previous = [row_zero for _ in swaps]
    before_previous = [row_zero for _ in swaps]
    pair_index = np.arange(n_pairs)
    # A pair with an empty first sequence needs as many insertions as words.
    result = np.tile(second_lengths, (len(swaps), 1))
    for i in range(1, rows + 1):
        word = first[:, i - 1 : i]  # (P, 1)
        mismatch = word != second  # (P, columns)
        swapped = None
        if any(swaps) and i >= 2 and columns >= 2:
            swapped = (word == second[:, :-1]) & (
                first[:, i - 2 : i - 1] == second[:, 1:]
            )
        done = first_lengths == i
        for k, swap in enumerate(swaps):
            above = previous[k]
            tmp = np.empty_like(above)
            tmp[:, 0] = i
            tmp[:, 1:] = np.minimum(above[:, 1:] + 1, above[:, :-1] + mismatch)
            if swap and swapped is not None:
                through_swap = np.where(
                    swapped, before_previous[k][:, :-2] + 1, tmp[:, 2:]
                )
                tmp[:, 2:] = np.minimum(tmp[:, 2:], through_swap)
            row = np.minimum.accumulate(tmp - offsets, axis=1) + offsets
            if done.any():
                result[k, done] = row[pair_index[done], second_lengths[done]]
            before_previous[k], previous[k] = above, row
    return result
