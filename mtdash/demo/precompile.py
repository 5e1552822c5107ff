"""``python -m mtdash.demo.precompile``: compile the demo ORANGE job's kernels.

``bin/run`` starts this in the background as soon as ``NUMBA_CACHE_DIR`` is
set, so Numba compiles the kernels of the demo's Table 7 metrics into the
cache while the database is migrated and the static files collected; the
demo's ORANGE chunks then load them in milliseconds. Nothing waits for it:
a chunk that runs first compiles what it needs itself. Prints what it
compiled (nothing on a warm cache). On Linux it stops when its parent
(``bin/run``, by then the supervisor) stops, so it never outlives the
server; Numba writes each cache file whole, so stopping it loses nothing.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # prctl(2): a signal for this process when its parent dies


def stop_with_parent() -> None:
    """Ask Linux for SIGTERM when the parent process ends (elsewhere: nothing)."""
    if sys.platform != "linux":
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def parent_has_gone(argv: list[str]) -> bool:
    """``--parent PID`` (bin/run passes its own): the process this one was
    started by. It may end while Numba and the project are imported (a
    second or more on a busy machine), before the death signal is asked
    for; this process then has another parent."""
    if len(argv) == 2 and argv[0] == "--parent":
        return os.getppid() != int(argv[1])
    return False


def main(argv: list[str] | None = None) -> int:
    stop_with_parent()
    if parent_has_gone(sys.argv[1:] if argv is None else argv):
        return 0
    from mtdash.demo.nbest import DEMO_ORANGE_METRICS
    from scoring import prepare_orange_kernels

    done = prepare_orange_kernels(DEMO_ORANGE_METRICS)
    names = [kernel.name for kernel in done.compiles.kernels]
    print(
        f"demo ORANGE kernels ({', '.join(done.specs)}) ready in "
        f"{done.seconds:.1f} s: {done.compiles.seconds:.1f} s compiling "
        f"{len(names)} functions, the rest from Numba's cache"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
