"""``python -m mtdash.demo.precompile``: compile the demo ORANGE job's kernels.

``bin/run`` starts this in the background as soon as ``NUMBA_CACHE_DIR`` is
set, so Numba compiles the kernels of the demo's Table 7 metrics into the
cache while the database is migrated and the static files collected; the
demo's ORANGE chunks then load them in milliseconds. Nothing waits for it:
a chunk that runs first compiles what it needs itself. Prints what it
compiled (nothing on a warm cache).
"""

from __future__ import annotations

import sys

from mtdash.demo.nbest import DEMO_ORANGE_METRICS
from scoring import prepare_orange_kernels


def main() -> int:
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
