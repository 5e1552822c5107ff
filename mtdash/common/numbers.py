"""Numbers on their way to JSON or a database column: NaN and ±infinity become
``None``.

JSON has no NaN or infinity (``json.dumps`` writes ``NaN``, which browsers
and ``JSON.parse`` refuse), PostgreSQL refuses them in a ``jsonb`` field and
SQLite stores a NaN float as NULL anyway; so every value that may be
undefined (a correlation of constant scores, an interval without a
bootstrap, a mean of nothing) goes through :func:`finite` first, and is
shown as missing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any


def finite(value: float | None) -> float | None:
    """``value`` as a Python float, or ``None`` when it is None, NaN or ±inf
    (NumPy scalars too).

    >>> finite(0.5), finite(float("nan")), finite(float("-inf")), finite(None)
    (0.5, None, None, None)
    """
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def finite_list(values: Iterable[float | None]) -> list[float | None]:
    """:func:`finite` of each value (a NumPy array too)."""
    return [finite(value) for value in values]


def json_safe(value: Any) -> Any:
    """``value`` with every float inside dicts, lists and tuples through
    :func:`finite` (tuples become lists); anything else unchanged.

    >>> json_safe({"a": [1, float("nan")], "b": (float("inf"), "x")})
    {'a': [1, None], 'b': [None, 'x']}
    """
    if isinstance(value, float):
        return finite(value)
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value
