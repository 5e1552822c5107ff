"""``python -m scoring.bench.peak_child REPORT ARGS...``: run the command line
``python -m scoring ARGS...`` and write its own peak memory to REPORT.

A child's ``ru_maxrss`` on Linux starts from its parent's resident size at
the fork (the mark survives ``exec``), so a benchmark that has generated a
large corpus would see it in every child. ``VmHWM`` in ``/proc/self/status``
belongs to the new program alone; it is read at exit, whatever the outcome.
"""

from __future__ import annotations

import atexit
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


def main() -> int:
    report, arguments = sys.argv[1], sys.argv[2:]
    atexit.register(_write_peak, report)
    from scoring.cli.main import main as command_line

    return command_line(arguments)


if __name__ == "__main__":
    sys.exit(main())
