"""Pausing Python's cycle collector while many small objects are built.

Reading a large table (METEOR's paraphrases, tens of thousands of stored
scores) allocates millions of tuples and lists that hold no cycles; each
allocation burst can start a full pass of the cycle collector over the whole
heap, for nothing. The dashboard's row readers use the same helper.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector in the block (unless it was off already)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
