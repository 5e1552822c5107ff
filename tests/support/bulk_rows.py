"""Inserting the hundreds of thousands of rows a speed test measures on.

``bulk_create`` builds a model instance per row and prepares every field of
every row through the ORM: for the span tests' 200,000 annotations and
360,000 spans that was over 100 s of CPU, most of a test's cost, for rows
the import code (what those tests time or read) never sees being written.
Here rows are plain tuples written with the database driver's
``executemany``, in the test's transaction, under the model's own table and
column names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models import Model

BATCH = 20_000


def insert_rows(
    model: type[Model], fields: Sequence[str], rows: Iterable[Sequence]
) -> int:
    """Insert ``rows`` (tuples in the order of ``fields``, model field names;
    a foreign key as its ``<name>_id`` value) into ``model``'s table; returns
    the number of rows."""
    meta = model._meta
    columns = [meta.get_field(name).column for name in fields]
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(meta.db_table)} "
        f"({', '.join(quote(column) for column in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    count = 0
    batch: list[Sequence] = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append(row)
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count
