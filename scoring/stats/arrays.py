"""Read-only arrays for frozen result objects."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np


def freeze_arrays(instance: Any) -> None:
    """Replace every NumPy array field of a frozen dataclass by a read-only copy.

    Called from ``__post_init__``: a frozen result must not change behind
    its holder's back through a shared array.
    """
    for field in fields(instance):
        value = getattr(instance, field.name)
        if isinstance(value, np.ndarray):
            array = np.array(value, copy=True)
            array.setflags(write=False)
            object.__setattr__(instance, field.name, array)
