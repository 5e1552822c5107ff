"""Bit-parallel edit distance for references longer than 64 words (TER).

The shift search costs each candidate with the unpruned distance first
(:mod:`scoring.batch.kernels_ter_shifts`); for references that do not fit
one 64-bit word the column is kept in ``blocks`` words, and Myers' (1999)
column update runs block by block from the top, each block handing the
horizontal difference of its last row (+1, 0, -1) to the next, as in
Hyyrö (2003) and edlib's ``calculateBlock``. Row 0 grows by one per
column (D[0][j] = j), so the first block receives +1.

Shapes: ``masks[k, word, block]`` uint64, bit i of block b set where
reference k holds ``word`` at position 64 b + i; ``columns[0 or 1, j, b]``
the plus / minus vertical differences of column j.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_four_refs import popcount
from scoring.batch.kernels_ter_align import without_refcounts

WORD = 64
_ONE = np.uint64(1)
_ALL = ~np.uint64(0)


@njit(cache=True, nogil=True)
def block_count(m):
    """64-bit words holding a column of ``m`` rows (at least one)."""
    return max((m + WORD - 1) // WORD, 1)


@without_refcounts
def fill_block_masks(ref, m, masks, k):
    """``masks[k, word, :]`` for the local ids ``ref[:m]`` (zeroed first)."""
    for p in range(m):
        for b in range(masks.shape[2]):
            masks[k, ref[p], b] = np.uint64(0)
    for p in range(m):
        masks[k, ref[p], p // WORD] |= _ONE << np.uint64(p % WORD)


@without_refcounts
def _advance(plus, minus, masks, k, word, m, blocks):
    """Move ``plus``/``minus`` (``(blocks,)``, in place) to the next column
    for hypothesis word ``word``; returns D[m] of the new column minus
    D[m] of the old one."""
    carry = 1  # horizontal difference entering the block's first row
    for b in range(blocks):
        rows = min(m - b * WORD, WORD)
        full = _ALL if rows == WORD else (_ONE << np.uint64(rows)) - _ONE
        top = _ONE << np.uint64(rows - 1)
        equal = masks[k, word, b] if word >= 0 else np.uint64(0)
        p_v = plus[b]
        m_v = minus[b]
        vertical = equal | m_v
        if carry < 0:
            equal |= _ONE
        horizontal = (((equal & p_v) + p_v) ^ p_v) | equal
        h_plus = m_v | (full & ~(horizontal | p_v))
        h_minus = p_v & horizontal
        out = 1 if h_plus & top else (-1 if h_minus & top else 0)
        h_plus = (h_plus << _ONE) & full
        h_minus = (h_minus << _ONE) & full
        if carry < 0:
            h_minus |= _ONE
        elif carry > 0:
            h_plus |= _ONE
        plus[b] = h_minus | (full & ~(vertical | h_plus))
        minus[b] = h_plus & vertical
        carry = out
    return carry


@without_refcounts
def _bottom(plus, minus, j, blocks):
    """D[m][j] from column j's vertical differences (bits past row m are
    never set)."""
    cost = j
    for b in range(blocks):
        cost += popcount(plus[b]) - popcount(minus[b])
    return cost


@without_refcounts
def block_columns(cur, n, masks, k, m, columns):
    """Every column of ``cur[:n]`` against reference k (``m`` > 64 words)
    into ``columns[:, :n + 1, :blocks]``; returns the distance D[m][n]."""
    blocks = block_count(m)
    plus = columns[0, 0]
    minus = columns[1, 0]
    for b in range(blocks):
        rows = min(m - b * WORD, WORD)
        plus[b] = _ALL if rows == WORD else (_ONE << np.uint64(rows)) - _ONE
        minus[b] = np.uint64(0)
    score = m
    for j in range(n):
        plus = columns[0, j + 1]
        minus = columns[1, j + 1]
        for b in range(blocks):
            plus[b] = columns[0, j, b]
            minus[b] = columns[1, j, b]
        score += _advance(plus, minus, masks, k, cur[j], m, blocks)
    return score


@without_refcounts
def block_distance_from(shifted, first, n, masks, k, m, columns, work):
    """Unpruned distance of ``shifted[:n]`` to reference k, resumed at column
    ``first`` of ``columns`` (``shifted[:first]`` equals the sequence whose
    columns they are). ``work``: uint64 scratch ``(2, blocks)``."""
    blocks = block_count(m)
    plus = work[0]
    minus = work[1]
    for b in range(blocks):
        plus[b] = columns[0, first, b]
        minus[b] = columns[1, first, b]
    score = _bottom(plus, minus, first, blocks)
    for t in range(first, n):
        score += _advance(plus, minus, masks, k, shifted[t], m, blocks)
    return score
