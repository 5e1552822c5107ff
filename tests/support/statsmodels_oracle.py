"""statsmodels' ``multipletests``, the oracle of the p-value corrections,
without its cost in a test process's heap.

Its Holm branch calls ``gc.collect()`` on every call: a full pass of the
cycle collector over everything the test process holds (its collection,
the modules of the whole suite, earlier tests' module fixtures), 0.3–0.5 s
a call late in a run, for a few arrays of floats. The process's objects are
moved out of the collector's reach (``gc.freeze``) for the call and back
after it: the collector then scans only what the call made, and the
corrected p-values are the same numbers.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest


def multipletests(p_values: np.ndarray, method: str) -> np.ndarray:
    """The p-values corrected by statsmodels (skips the test without it)."""
    # Imported by the test that asks, not at collection: statsmodels takes
    # about a second to import.
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    gc.freeze()
    try:
        _reject, corrected, _sidak, _bonferroni = multitest.multipletests(
            p_values, method=method
        )
    finally:
        gc.unfreeze()
    return corrected
