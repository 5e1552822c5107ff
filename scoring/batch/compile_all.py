"""Compile every batch kernel into Numba's on-disk cache, in parallel, once.

A run compiles the kernels it calls as it first calls them, so nobody has to
compile them all. Where every kernel is wanted (the benchmark loads them all
before it times anything; a machine image can carry a filled cache), one
process compiling them takes about a minute. Here the two
:data:`~scoring.batch.warmup.WARM_UP_PARTS` compile in two processes at
once: about half the wall time on two cores.

A complete compile leaves a marker in the keyed cache directory
(:mod:`scoring.batch.kernel_cache`) named after this interpreter and CPU, so
the next call returns at once without importing Numba. The marker only
saves time: a kernel missing from the cache for any reason is compiled by
whatever calls it, as always.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import ScoringError

_MARKER_PREFIX = "all-compiled-"


@dataclass(frozen=True)
class CompileAll:
    """What :func:`compile_all_kernels` did."""

    cache_dir: str | None  # the keyed cache directory; None: Numba's default
    already_compiled: bool  # the marker was there: nothing was done
    processes: int
    seconds: float
    specialisations: int  # compiled now (0: every kernel came from the cache)


def _machine_tag() -> str:
    """Numba's cached code is valid for one Python and one CPU: the marker
    names both (CPU model and feature flags, read without importing Numba)."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "flags")):
                cpu += line
            if line.strip() == "":
                break  # the first CPU's block is enough
    except OSError:
        cpu = platform.processor()
    tag = f"{sys.version}|{platform.machine()}|{cpu}"
    return hashlib.sha256(tag.encode()).hexdigest()[:16]


def marker_path() -> Path | None:
    """The marker of a complete compile for this machine, or None when no
    ``NUMBA_CACHE_DIR`` is set (Numba then caches beside each module: no
    directory of our own to mark). Importing :mod:`scoring` has already
    pointed the variable at the keyed directory."""
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    if not cache_dir:
        return None
    return Path(cache_dir) / f"{_MARKER_PREFIX}{_machine_tag()}"


def _compile_parts_in_processes(count: int) -> int:
    """Specialisations the parts' processes compiled, in all."""
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "scoring.batch.compile_all", str(index)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for index in range(count)
    ]
    failures = []
    compiled = 0
    for index, child in enumerate(children):
        output, errors = child.communicate()
        if child.returncode == 0:
            compiled += int(output.split()[-1])
        else:
            tail = errors.decode(errors="replace").strip().splitlines()[-5:]
            failures.append(
                f"part {index} exited with {child.returncode}: " + " | ".join(tail)
            )
    if failures:
        raise ScoringError("compiling the kernels failed: " + "; ".join(failures))
    return compiled


def compile_all_kernels(*, force: bool = False) -> CompileAll:
    """Compile (or load) every batch kernel into the cache, the parts in
    processes of their own where this machine has more than one CPU; does
    nothing when the marker says it was done (unless ``force``)."""
    marker = marker_path()
    cache_dir = os.environ.get("NUMBA_CACHE_DIR") or None
    if marker is not None and marker.exists() and not force:
        return CompileAll(cache_dir, True, 0, 0.0, 0)
    from scoring.batch.warmup import WARM_UP_PARTS  # imports Numba

    started = time.perf_counter()
    processes = min(len(WARM_UP_PARTS), os.cpu_count() or 1)
    if processes > 1:
        compiled = _compile_parts_in_processes(len(WARM_UP_PARTS))
    else:
        compiled = _compile_parts(range(len(WARM_UP_PARTS)))
    if marker is not None:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(f"{time.strftime('%Y-%m-%d %H:%M:%S')}\n", encoding="utf-8")
    seconds = time.perf_counter() - started
    return CompileAll(cache_dir, False, processes, seconds, compiled)


def _compile_parts(indices) -> int:
    """Make the parts ``indices`` ready here; the specialisations compiled."""
    from scoring.batch.compile_log import recording_compiles
    from scoring.batch.warmup import WARM_UP_PARTS, warm_up

    with recording_compiles() as log:
        warm_up([WARM_UP_PARTS[index] for index in indices])
    return log.specialisations


if __name__ == "__main__":  # one part, in a process of its own
    print(_compile_parts([int(sys.argv[1])]))
