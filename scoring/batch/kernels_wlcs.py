"""Weighted LCS for all ROUGE-W weights in one table walk (the paper's c(m, n)).

:func:`scoring.batch.kernels_lcs.wlcs_grid` fills one table per weight. The
tables of different weights share everything but their values: whether a
cell matches and the run length k of consecutive matches ending there
depend only on the tokens. This kernel walks the table once per
(reference, LANES hypotheses) and updates the W value tables side by side:

- which lanes match a cell is one byte (``lane_bits``, a bit per lane,
  built once per LANES hypotheses), and the run bookkeeping is done once
  per matched lane, not W times;
- a cell where no lane matches (about 86% of the cells on the benchmark
  corpus) takes ``max(up, left)`` for all W x LANES values in one vector
  loop, without looking up the ``f(k)`` powers;
- the matched cells' diagonal values read only the previous row, so they
  are computed before the row's scan; the scan then only selects, and never
  reloads values just written by scalar stores (which stalls the chain of
  ``left`` values along the row);
- rows are indexed, never sliced: a row view per cell costs reference
  counting, which cost more than the arithmetic.

Each value is computed with the operations of
:func:`scoring.metrics.rouge.lcs.wlcs_table` in the same order
(``(c(i-1, j-1) + f(k+1)) - f(k)`` on a match, else the larger of up and left
with ties going up), so results are bit-identical to the per-pair code and to
``wlcs_grid(..., rouge155=False)``. ROUGE-1.5.5's traced hits
(``rouge155=True``) keep one back-trace per weight and stay in
:mod:`scoring.batch.kernels_lcs`.

Measured on the benchmark corpus (20 sentences x 1024 candidates x 4
references of 20-40 tokens, one core, the paper's 10 weights, a machine
shared with other jobs): 0.33 s against 0.64 s for ``wlcs_grid``'s walk per
weight (about 4 us per pair for all ten, 0.4 us per pair and weight against
0.8). Sixteen lanes instead of eight measured the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scoring.batch.kernels_lcs import (
    LANES,
    _max_refs,
    clear_local_ids,
    local_ids,
)


@njit(cache=True, nogil=True)
def _larger_of_up_and_left(previous, current, j, width):
    """A cell where no lane matches, for every weight and lane at once:
    ``current[j, x] = max(previous[j, x], current[j - 1, x])``, ties going
    up (ROUGE-1.5.5's ``>=``). Rows are indexed here, not sliced: a row view
    per cell costs reference counting."""
    for x in range(width):
        up = previous[j, x]
        left = current[j - 1, x]
        current[j, x] = up if up >= left else left


@njit(cache=True, nogil=True)
def _diagonal_or_larger(matched_lanes, bits, diagonal, previous, current, j, width):
    """A cell where the lanes set in ``bits`` match
    (``matched_lanes[bits, x]``, x = w * LANES + lane):
    their diagonal values ``diagonal[j, x]``, the larger of up and left
    elsewhere."""
    for x in range(width):
        up = previous[j, x]
        left = current[j - 1, x]
        best = up if up >= left else left
        current[j, x] = diagonal[j, x] if matched_lanes[bits, x] else best


@njit(cache=True, nogil=True)
def _all_weights_rows(
    reference,
    start,
    m,
    local,
    lane_bits,
    n_max,
    powers,
    previous,
    current,
    runs,
    run_rows,
    diagonal,
    matched_lanes,
):
    """Fill the weighted-LCS tables of one reference against LANES
    hypotheses for every weight; on return ``previous[j, w * LANES + lane]``
    holds row m of weight w's table.

    ``lane_bits[v, j]``: bit ``lane`` set where that lane's hypothesis has
    local token v at position j (:func:`_mark_lanes`).
    ``previous``/``current``: ``(n_max + 1, W * LANES)`` float64 scratch, a
    cell's W x LANES values contiguous so the no-match step is one vector
    loop. ``runs``/``run_rows``: ``(2, n_max + 1, LANES)`` int32 scratch,
    by row parity: the run length k of consecutive matches ending in a
    matched cell and the row it was written in; a cell not written in the
    previous row did not match, so its run is 0 (no writes for the many
    cells that do not match).
    """
    n_weights = powers.shape[0]
    width = n_weights * LANES
    previous[: n_max + 1, :] = 0.0
    current[0, :] = 0.0
    run_rows[:, : n_max + 1, :] = -1
    for i in range(1, m + 1):
        token_bits = lane_bits[local[reference[start + i - 1]]]
        old, new = (i - 1) & 1, i & 1
        # First the matched cells' diagonal values (they read only the
        # previous row), so the scan below never waits on scalar stores.
        for j in range(1, n_max + 1):
            bits = token_bits[j - 1]
            if bits == 0:
                continue
            for lane in range(LANES):
                if (bits >> lane) & 1 == 0:
                    continue
                if run_rows[old, j - 1, lane] == i - 1:
                    k = runs[old, j - 1, lane]
                else:
                    k = 0
                runs[new, j, lane] = k + 1
                run_rows[new, j, lane] = i
                for w in range(n_weights):
                    x = w * LANES + lane
                    # (c + f(k+1)) - f(k), in this order, as the reference code.
                    diagonal[j, x] = (previous[j - 1, x] + powers[w, k + 1]) - powers[
                        w, k
                    ]
        for j in range(1, n_max + 1):
            bits = token_bits[j - 1]
            if bits == 0:
                _larger_of_up_and_left(previous, current, j, width)
            else:
                _diagonal_or_larger(
                    matched_lanes, bits, diagonal, previous, current, j, width
                )
        previous, current = current, previous
    return previous


@njit(cache=True, nogil=True)
def _mark_lanes(hyp_tokens, hyp_offsets, b0, b1, local, lane_bits, lengths, set_bits):
    """Set (``set_bits``) or clear the lane bits of hypotheses b0..b1-1 in
    ``lane_bits[v, j]`` (tokens no reference has are skipped); fills
    ``lengths`` and returns the longest length."""
    lengths[:] = 0
    longest = 0
    for h in range(b0, b1):
        lane = h - b0
        n = hyp_offsets[h + 1] - hyp_offsets[h]
        lengths[lane] = n
        longest = max(longest, n)
        for j in range(n):
            v = local[hyp_tokens[hyp_offsets[h] + j]]
            if v >= 0:
                if set_bits:
                    lane_bits[v, j] |= np.uint8(1 << lane)
                else:
                    lane_bits[v, j] = 0
    return longest


@njit(cache=True, nogil=True)
def wlcs_grid_all_weights(
    hyp_tokens,
    hyp_offsets,
    ref_tokens,
    ref_offsets,
    group_hyps,
    group_refs,
    vocabulary_size,
    powers,
):
    """The paper's weighted-LCS hits c(m, n) of every pair for W weights:
    ``(H, K, W)`` float64, equal to ``wlcs_grid(..., powers, False)``.

    ``powers`` is ``(W, L)``, ``powers[w, k] = float(k) ** weight_w`` (by
    Python) for k up to the longest sequence + 1.
    """
    n_hyps = hyp_offsets.size - 1
    n_weights = powers.shape[0]
    out = np.zeros((n_hyps, _max_refs(group_refs), n_weights), dtype=np.float64)
    local = np.full(vocabulary_size, -1, dtype=np.int32)
    longest = 1
    for h in range(n_hyps):
        longest = max(longest, hyp_offsets[h + 1] - hyp_offsets[h])
    n_local_max = 1
    for g in range(group_refs.size - 1):
        n_local_max = max(
            n_local_max, ref_offsets[group_refs[g + 1]] - ref_offsets[group_refs[g]]
        )
    lane_bits = np.zeros((n_local_max, longest), dtype=np.uint8)
    lengths = np.zeros(LANES, dtype=np.int64)
    previous = np.zeros((longest + 1, n_weights * LANES))
    current = np.zeros((longest + 1, n_weights * LANES))
    runs = np.zeros((2, longest + 1, LANES), dtype=np.int32)
    run_rows = np.zeros((2, longest + 1, LANES), dtype=np.int32)
    diagonal = np.zeros((longest + 1, n_weights * LANES))
    # matched_lanes[bits, x]: lane x % LANES is set in bits.
    matched_lanes = np.zeros((1 << LANES, n_weights * LANES), dtype=np.bool_)
    for bits in range(1 << LANES):
        for x in range(n_weights * LANES):
            matched_lanes[bits, x] = (bits >> (x % LANES)) & 1 == 1
    for g in range(group_hyps.size - 1):
        r0, r1 = group_refs[g], group_refs[g + 1]
        start, stop = ref_offsets[r0], ref_offsets[r1]
        local_ids(ref_tokens, start, stop, local)
        for b0 in range(group_hyps[g], group_hyps[g + 1], LANES):
            b1 = min(b0 + LANES, group_hyps[g + 1])
            n_max = _mark_lanes(
                hyp_tokens, hyp_offsets, b0, b1, local, lane_bits, lengths, True
            )
            for r in range(r0, r1):
                m = ref_offsets[r + 1] - ref_offsets[r]
                if m == 0 or n_max == 0:
                    continue  # no common subsequence: hits stay 0
                last_row = _all_weights_rows(
                    ref_tokens,
                    ref_offsets[r],
                    m,
                    local,
                    lane_bits,
                    n_max,
                    powers,
                    previous,
                    current,
                    runs,
                    run_rows,
                    diagonal,
                    matched_lanes,
                )
                for h in range(b0, b1):
                    n = lengths[h - b0]
                    if n == 0:
                        continue
                    for w in range(n_weights):
                        out[h, r - r0, w] = last_row[n, w * LANES + h - b0]
            _mark_lanes(
                hyp_tokens, hyp_offsets, b0, b1, local, lane_bits, lengths, False
            )
        clear_local_ids(ref_tokens, start, stop, local)
    return out
