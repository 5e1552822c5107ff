"""ICC(A,1) and ICC(A,k) of McGraw & Wong (1996), written out from the
two-way ANOVA so tests compare the library with the formula, not with
itself."""

from __future__ import annotations

import numpy as np


def icc_by_formula(matrix) -> tuple[float, float]:
    """(ICC(A,1), ICC(A,k)) of an items x raters matrix."""
    x = np.asarray(matrix, dtype=float)
    n, k = x.shape
    grand = x.mean()
    msr = k * ((x.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((x.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    sse = ((x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + grand) ** 2).sum()
    mse = sse / ((n - 1) * (k - 1))
    single = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
    average = (msr - mse) / (msr + (msc - mse) / n)
    return single, average
