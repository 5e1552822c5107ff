"""Reading many rows at once as plain tuples.

A page that computes from tens of thousands of stored scores or judgments
builds as many small tuples; each allocation burst can start a full pass of
Python's cycle collector over the whole process heap, which doubled some
pages' times at random. Row tuples hold no cycles, so the collector is
paused while they are read and taken apart (``collector_paused``, shared
with the metric library's table readers).
"""

from __future__ import annotations

from django.db.models import QuerySet

from scoring import collector_paused

CHUNK_ROWS = 20_000


def value_columns(rows: QuerySet, width: int) -> tuple[tuple, ...]:
    """The ``values_list`` query's rows as ``width`` columns (tuples of equal
    length; empty tuples for no rows), read in chunks, collector paused."""
    with collector_paused():
        table = list(rows.iterator(chunk_size=CHUNK_ROWS))
        return tuple(zip(*table)) if table else ((),) * width
