"""``python -m scoring.bench.peak_child REPORT ARGS...``: run the command line
``python -m scoring ARGS...`` and write its own peak memory to REPORT.

A child's ``ru_maxrss`` on Linux starts from its parent's resident size at
the fork (the mark survives ``exec``), so a benchmark that has generated a
large corpus would see it in every child. ``VmHWM`` in ``/proc/self/status``
belongs to the new program alone; it is read at exit, whatever the outcome.
"""

from __future__ import annotations

import atexit
import runpy
import sys
from pathlib import Path


def _write_peak(report: str) -> None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                Path(report).write_text(line.split()[1])  # KiB
                return
    except OSError:
        pass


def main() -> None:
    report, arguments = sys.argv[1], sys.argv[2:]
    atexit.register(_write_peak, report)
    # Exactly ``python -m scoring ARGS`` (run by name: the benchmark sits
    # below the command line in the package's layers).
    sys.argv = ["scoring", *arguments]
    runpy.run_module("scoring", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
