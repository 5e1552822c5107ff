"""A fixed NIST weight table resolved onto a grid's reference tokens.

:func:`scoring.batch.kernels_nist.nist_fixed_information` reads the weight
of each reference n-gram from an array aligned with the grid's reference
tokens, so the strings are looked up once per reference position here, in
Python (about 0.5 µs per n-gram). ORANGE scores two grids per chunk that
share one reference token array (candidates against references, references
against each other), so the last few results are kept, keyed by that
array's identity and the vocabulary's (the entry holds both, so neither
identity can be reused while the entry lives).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from scoring.batch.grid import PairGrid
from scoring.metrics.ngram.nist_reference_weights import ReferenceWeights

# Enough for the chunks the threads have in hand at once (two grids each).
_RECENT_ENTRIES = 8
# (id of the reference tokens, fingerprint, order) -> (tokens, vocabulary, weights)
_recent: OrderedDict[tuple, tuple[np.ndarray, tuple, np.ndarray]] = OrderedDict()
_lock = threading.Lock()


def _resolve(grid: PairGrid, weights: ReferenceWeights, max_order: int) -> np.ndarray:
    vocabulary = grid.vocabulary
    if grid.ref_tokens.size and not vocabulary:
        raise ValueError("NIST with fixed weights needs the grid's vocabulary")
    table = weights.as_mapping()
    tokens = [vocabulary[i] for i in grid.ref_tokens.tolist()]
    out = np.zeros((len(tokens), max_order), dtype=np.float64)
    offsets = grid.ref_offsets.tolist()
    for start, stop in zip(offsets[:-1], offsets[1:]):
        for position in range(start, stop):
            for order in range(1, min(max_order, stop - position) + 1):
                ngram = tuple(tokens[position : position + order])
                value = table.get(ngram)
                if value is None:
                    value = weights.weight(ngram)  # raises MetricError
                out[position, order - 1] = value
    return out


def reference_ngram_weights(
    grid: PairGrid, weights: ReferenceWeights, max_order: int
) -> np.ndarray:
    """The fixed weight (bits) of the n-gram of each order starting at each
    reference token of ``grid``: ``(len(grid.ref_tokens), max_order)``
    float64, 0 where the n-gram would run past its reference's end.

    Needs ``grid.vocabulary`` (ids back to tokens); raises
    :class:`~scoring.errors.MetricError` for an n-gram the weights' corpus
    lacks, as the per-pair code does.
    """
    key = (id(grid.ref_tokens), weights.fingerprint, max_order)
    with _lock:
        found = _recent.get(key)
        if (
            found is not None
            and found[0] is grid.ref_tokens
            and found[1] is grid.vocabulary
        ):
            _recent.move_to_end(key)
            return found[2]
    resolved = _resolve(grid, weights, max_order)
    with _lock:
        _recent[key] = (grid.ref_tokens, grid.vocabulary, resolved)
        while len(_recent) > _RECENT_ENTRIES:
            _recent.popitem(last=False)
    return resolved
