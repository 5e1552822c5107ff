"""Per-segment sufficient statistics as bytes in the database.

A metric's statistics are ``(n_segments, n_stats)`` (counts, mostly small
integers); they are stored as a NumPy ``.npy`` payload compressed with zlib,
which keeps integer counts of 3,000 segments to a few kilobytes and reads
back bit for bit, so intervals computed from stored statistics equal those
``python -m scoring compare`` computes from the files.
"""

from __future__ import annotations

import io
import zlib

import numpy as np


def pack_statistics(statistics: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(statistics), allow_pickle=False)
    return zlib.compress(buffer.getvalue(), level=6)


def unpack_statistics(payload: bytes | memoryview) -> np.ndarray | None:
    """The array, or None when nothing was stored (an older score)."""
    if not payload:
        return None
    data = zlib.decompress(bytes(payload))
    return np.load(io.BytesIO(data), allow_pickle=False)
