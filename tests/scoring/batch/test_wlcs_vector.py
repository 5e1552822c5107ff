"""The vector weighted-LCS rows equal the scalar kernel's bit for bit.

:func:`scoring.batch.kernels_wlcs_vector.wlcs_rows_vector` fills the table
of 16 lanes with LLVM vector code; each half of its lanes must hold exactly
what :func:`scoring.batch.kernels_lcs._wlcs_rows` computes for those eight
hypotheses (the same operations per lane). The grid-level agreement with
the per-pair WLCS is in ``test_wlcs_all_weights.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.batch.exact_math import python_powers
from scoring.batch.kernels_lcs import LANES, _wlcs_rows
from scoring.batch.kernels_wlcs_vector import VECTOR_LANES, wlcs_rows_vector


def _tables(lanes: np.ndarray, reference: np.ndarray, weight: float, vector: bool):
    n_max, width = lanes.shape
    local = np.arange(reference.max(initial=0) + 1, dtype=np.int32)
    power = python_powers(max(n_max, reference.size) + 2, weight)
    scratch = (
        np.full((n_max + 1, width), 7.0),  # garbage the kernels must overwrite
        np.full((n_max + 1, width), 7.0),
        np.full((n_max + 1, width), 9, dtype=np.int32),
        np.full((n_max + 1, width), 9, dtype=np.int32),
    )
    table = (reference, 0, reference.size, local, lanes, n_max, power)
    if vector:
        return wlcs_rows_vector(*table, scratch).copy()
    moves = np.zeros((1, 1, LANES), dtype=np.uint8)
    return _wlcs_rows(*table, *scratch, moves, False).copy()


def _assert_halves_equal(lanes: np.ndarray, reference: np.ndarray, weight: float):
    vector = _tables(lanes, reference, weight, vector=True)
    for first in range(0, VECTOR_LANES, LANES):
        half = np.ascontiguousarray(lanes[:, first : first + LANES])
        scalar = _tables(half, reference, weight, vector=False)
        assert np.array_equal(vector[:, first : first + LANES], scalar)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weight", [1.2, 1.5, 2.0])
def test_random_tables_equal_the_scalar_kernel(seed, weight):
    rng = np.random.default_rng(seed)
    m, n = rng.integers(1, 70, size=2)
    vocabulary = int(rng.integers(2, 40))  # small: long runs of matches
    reference = rng.integers(0, vocabulary, m).astype(np.int32)
    lanes = rng.integers(-2, vocabulary, (n, VECTOR_LANES)).astype(np.int32)
    _assert_halves_equal(lanes, reference, weight)


def test_hypotheses_equal_to_the_reference_reach_the_longest_run():
    reference = np.arange(45, dtype=np.int32)
    lanes = np.repeat(reference[:, None], VECTOR_LANES, axis=1).astype(np.int32)
    lanes[:, 1::2] = -2  # padding lanes never match
    _assert_halves_equal(lanes, reference, 1.2)
    table = _tables(lanes, reference, 1.2, vector=True)
    # One run of 45, summed step by step: 45 ** 1.2 up to rounding.
    assert table[45, 0] == pytest.approx(45**1.2, rel=1e-12)
    assert not table[:, 1::2].any()


def test_non_contiguous_arrays_are_refused():
    lanes = np.zeros((4, 2 * VECTOR_LANES), dtype=np.int32)[:, ::2]
    with pytest.raises(Exception, match="C-contiguous"):
        _tables(lanes, np.zeros(3, dtype=np.int32), 1.2, vector=True)
