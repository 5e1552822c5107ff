"""Inserting many rows whose ids nobody reads back.

``bulk_create`` builds a model instance per row and prepares every field of
every row through the ORM: for an import of 100,000 MQM rows (90,000 spans
and 60,000 judgments) that was most of the import's time. Here rows are
plain tuples written in the caller's transaction: with the driver's
``executemany`` (SQLite), or ``COPY`` (PostgreSQL). Database errors come back
as Django's (an ``IntegrityError`` stays one).

Values are given as the database stores them: numbers, strings, ``None``
and a foreign key as its id. A field left out gets its default, prepared
once for all rows; a field with no default (and not nullable) must be given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

BATCH = 20_000


def insert_rows(
    model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (tuples in the order of ``fields``, model field
    names) into ``model``'s table; returns the number of rows."""
    meta = model._meta
    given = [meta.get_field(name) for name in fields]
    defaults = []
    for field in meta.concrete_fields:
        if field in given or field.primary_key:
            continue
        # What a model instance not given the field would hold.
        value = field.get_default()
        if value is None and not field.null:
            raise ValueError(f"{model.__name__}.{field.name} has no default")
        defaults.append((field, field.get_db_prep_save(value, connection)))
    columns = [field.column for field in given] + [f.column for f, _ in defaults]
    tail = tuple(value for _, value in defaults)
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    names = ", ".join(quote(column) for column in columns)
    if connection.vendor == "postgresql":
        # COPY: executemany sends one INSERT per row, and the server's work
        # per statement made it slower than bulk_create's multi-row INSERTs.
        count = 0
        with connection.cursor() as cursor, connection.wrap_database_errors:
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row((*row, *tail))
                    count += 1
        return count
    sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"
    count = 0
    batch: list[tuple] = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append((*row, *tail))
            if len(batch) == BATCH:
                cursor.executemany(sql, batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count
