"""Reading many rows at once as plain tuples.

A page that computes from tens of thousands of stored scores or judgments
builds as many small tuples; each allocation burst can start a full pass of
Python's cycle collector over the whole process heap, which doubled some
pages' times at random. Row tuples hold no cycles, so the collector is
paused while they are read and taken apart.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from django.db.models import QuerySet

CHUNK_ROWS = 20_000


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


def value_columns(rows: QuerySet, width: int) -> tuple[tuple, ...]:
    """The ``values_list`` query's rows as ``width`` columns (tuples of equal
    length; empty tuples for no rows), read in chunks, collector paused."""
    with collector_paused():
        table = list(rows.iterator(chunk_size=CHUNK_ROWS))
        return tuple(zip(*table)) if table else ((),) * width
