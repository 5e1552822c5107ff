"""Which batch kernels Numba compiled while some code ran, and how long each took.

Numba compiles a kernel the first time it is called with new argument types
(one *specialisation* per distinct set of types), unless its on-disk cache
(``NUMBA_CACHE_DIR``) already holds it, in which case it only loads it (a few
milliseconds). Numba announces each real compilation as a ``numba:compile``
event (cache loads are not announced); :func:`recording_compiles` listens to
them. A kernel that calls another compiles the callee inside its own
compilation, so each kernel is charged only its *own* time: the callee's is
taken out of the caller's. Compilations are serialised by Numba's global
compiler lock, so one stack serves every thread.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from numba.core import event


@dataclass(frozen=True)
class KernelCompile:
    """One kernel's compilations: its own seconds and its specialisations."""

    name: str  # module.function, e.g. kernels_lcs.lcs_grid
    seconds: float
    specialisations: int


@dataclass
class CompileLog:
    """What :func:`recording_compiles` saw; filled in as compilations end."""

    _seconds: defaultdict[str, float] = field(
        default_factory=lambda: defaultdict(float)
    )
    _counts: Counter[str] = field(default_factory=Counter)

    @property
    def kernels(self) -> list[KernelCompile]:
        """Every function compiled, slowest first. Names outside the project
        (``arrayobj.impl``, ...) are NumPy functions Numba compiles for the
        kernels that use them."""
        return sorted(
            (
                KernelCompile(name, seconds, self._counts[name])
                for name, seconds in self._seconds.items()
            ),
            key=lambda kernel: (-kernel.seconds, kernel.name),
        )

    @property
    def seconds(self) -> float:
        """Seconds spent compiling in all (every kernel's own time, summed)."""
        return sum(self._seconds.values())

    @property
    def specialisations(self) -> int:
        return sum(self._counts.values())

    def _add(self, name: str, seconds: float) -> None:
        self._seconds[name] += seconds
        self._counts[name] += 1


def kernel_name(dispatcher) -> str:
    """``module.function`` of a Numba dispatcher (the module's last part)."""
    function = dispatcher.py_func
    return f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}"


class _Listener(event.Listener):
    def __init__(self, log: CompileLog) -> None:
        self._log = log
        # [started, seconds spent in nested compilations] per open compilation
        self._open: list[list[float]] = []

    def on_start(self, ev: event.Event) -> None:
        self._open.append([time.perf_counter(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        started, nested = self._open.pop()
        spent = time.perf_counter() - started
        if self._open:
            self._open[-1][1] += spent
        self._log._add(kernel_name(ev.data["dispatcher"]), spent - nested)


@contextmanager
def recording_compiles() -> Iterator[CompileLog]:
    """Record the kernels compiled (not loaded from the cache) inside the
    ``with`` block, by any thread of this process."""
    log = CompileLog()
    with event.install_listener("numba:compile", _Listener(log)):
        yield log


def format_compile_log(log: CompileLog, *, limit: int = 30) -> str:
    """One line per kernel, slowest first (at most ``limit``), and the sum."""
    kernels = log.kernels
    lines = [
        f"  {kernel.seconds:6.2f} s  x{kernel.specialisations}  {kernel.name}"
        for kernel in kernels[:limit]
    ]
    if len(kernels) > limit:
        rest = sum(kernel.seconds for kernel in kernels[limit:])
        lines.append(f"  {rest:6.2f} s  ... {len(kernels) - limit} more")
    lines.append(
        f"  {log.seconds:6.2f} s compiling in all: {len(kernels)} functions, "
        f"{log.specialisations} specialisations"
    )
    return "\n".join(lines)


__all__ = [
    "CompileLog",
    "KernelCompile",
    "format_compile_log",
    "kernel_name",
    "recording_compiles",
]
