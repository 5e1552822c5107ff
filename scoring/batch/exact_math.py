"""Arithmetic that must equal the per-pair Python code to the last bit.

NumPy's vectorised ``power`` (SIMD, e.g. AVX-512 SVML) may differ from
Python's ``float ** float`` (libm's ``pow``) in the last bit, so the ROUGE-W
ratios x ** (1 / w) are computed by a compiled loop that calls libm's
``pow`` like Python does. ROUGE-1.5.5's 5-decimal rounding
(``float(f"{x:.5f}")``) is vectorised with a fallback to Python's formatting
for values within 1e-6 of a rounding tie.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _power(values, exponent, out):
    for i in range(values.size):
        out[i] = values[i] ** exponent


def libm_power(values: np.ndarray, exponent: float) -> np.ndarray:
    """``values ** exponent`` element by element, as Python floats compute it
    (any shape, float64)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty_like(values)
    _power(values.reshape(-1), float(exponent), out.reshape(-1))
    return out


def python_powers(lengths: int, exponent: float) -> np.ndarray:
    """``[float(k) ** exponent for k in range(lengths)]`` as an array."""
    return np.array([float(k) ** exponent for k in range(lengths)], dtype=np.float64)


def round5(values: np.ndarray) -> np.ndarray:
    """Perl's ``sprintf("%7.5f", x)`` read back, element-wise (any shape).

    ``rint(x * 1e5) / 1e5`` is the correctly rounded result except where
    x * 1e5 lies within rounding error of a half-way point; those few values
    are formatted by Python, exactly as :func:`scoring.metrics.rouge.stats.round5`.
    """
    values = np.asarray(values, dtype=np.float64)
    scaled = values * 1e5
    rounded = np.rint(scaled) / 1e5
    near_tie = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    if near_tie.any():
        flat = rounded.reshape(-1)
        source = values.reshape(-1)
        for index in np.flatnonzero(near_tie.reshape(-1)):
            flat[index] = float(f"{source[index]:.5f}")
    return rounded
