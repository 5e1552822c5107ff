"""Peak memory of a stretch of work, for the benchmark (Linux first).

``ru_maxrss`` is a high-water mark for the whole process life, so it
includes generating the corpus. Linux can reset the mark
(``/proc/self/clear_refs``, value 5); :class:`PeakMemory` does so at the
start, then reads ``VmHWM`` at the end, giving the peak of the work alone
(with whatever was already resident, e.g. the corpus). Elsewhere it falls
back to ``ru_maxrss``. Child processes are counted too (``RUSAGE_CHILDREN``),
though the engine uses threads.

Generating the 16384-best corpus leaves about 1 GB of freed memory in the
C heap that glibc keeps (RSS 2.0 GB, 1.0 GB after ``malloc_trim``);
:func:`release_free_memory` hands it back first, so the figure is not
inflated by garbage of the corpus generator.
"""

from __future__ import annotations

import resource
import sys
from pathlib import Path

from scoring.orange.heap import release_free_memory

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def _kib_to_mib(kib: float) -> float:
    return kib / 1024.0


def process_peak_mib() -> float:
    """``ru_maxrss`` of this process and of its waited-for children, MiB."""
    scale = 1 / 1024 if sys.platform == "darwin" else 1.0  # bytes on macOS
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale
    return _kib_to_mib(max(own, children))


def _status_kib(field: str) -> float | None:
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return float(line.split()[1])
    except OSError:
        return None
    return None


def resident_mib() -> float:
    """Current resident set size, MiB (NaN where unknown)."""
    kib = _status_kib("VmRSS")
    return float("nan") if kib is None else _kib_to_mib(kib)


class PeakMemory:
    """``with PeakMemory() as peak: ...`` then ``peak.mib`` (the peak),
    ``peak.start_mib`` (resident at the start) and ``peak.method``."""

    def __init__(self) -> None:
        self.mib = float("nan")
        self.start_mib = float("nan")
        self.method = "ru_maxrss"
        self._reset = False

    def __enter__(self) -> PeakMemory:
        release_free_memory()
        self.start_mib = resident_mib()
        try:
            _CLEAR_REFS.write_text("5")
            self._reset = _status_kib("VmHWM") is not None
        except OSError:
            self._reset = False
        return self

    def __exit__(self, *exc_info: object) -> None:
        high_water = _status_kib("VmHWM") if self._reset else None
        if high_water is not None:
            self.mib = _kib_to_mib(high_water)
            self.method = "VmHWM reset at start"
        else:
            self.mib = process_peak_mib()
