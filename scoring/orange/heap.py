"""Handing freed C-heap memory back to the system (glibc ``malloc_trim``).

Reading a large n-best list allocates and frees many blocks of a few MB on
two threads (the file's bytes, the scanner's scratch arrays); glibc keeps
most of that memory in its per-thread arenas, so the process looks hundreds
of MB larger than what it holds (Table 7's list: about 300 MB on a quarter
of it). :func:`release_free_memory` returns it; a no-op where the C
library has no ``malloc_trim``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache


@cache
def _malloc_trim():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


def release_free_memory() -> None:
    """Return the C heap's free pages to the system, where possible."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
