"""Compiled sums over reference subsets (see :mod:`scoring.batch.subsets`).

The NumPy form adds one reference column at a time over the whole
``(H, S)`` array (K temporaries of H x S per call, called three times per
ROUGE metric and chunk); this loop does the same additions, in the same
order, in one pass, so the values are identical.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def subset_sums_kernel(values, member):
    """``0.0 + v_k1 + v_k2 + ...`` over each subset's references in order:
    ``values`` ``(H, K)`` float64, ``member`` ``(H, K, S)`` bool ->
    ``(H, S)`` float64. A reference outside the subset adds 0.0, as the
    NumPy form's ``where(member, v, 0.0)`` does."""
    n_hyps, n_refs, n_subsets = member.shape
    total = np.zeros((n_hyps, n_subsets), dtype=np.float64)
    for h in range(n_hyps):
        for k in range(n_refs):
            value = values[h, k]
            for s in range(n_subsets):
                total[h, s] = total[h, s] + (value if member[h, k, s] else 0.0)
    return total
