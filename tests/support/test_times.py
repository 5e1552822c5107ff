"""``--record-times=FILE``: each test's wall time and CPU time, one JSON line
per test: the table the parallel run's order is made from
(tests/support/schedule.py) sums the wall times by module, and the CPU
times say where a run's CPU goes.

A test's CPU is what its process spent plus what the processes it started
spent while it ran: the children it waited for (``RUSAGE_CHILDREN``) and
the descendants still running, read from ``/proc`` (a session's browser or
worker works for whichever test is running). Reading ``/proc`` twice a test
costs a few milliseconds: only when asked.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

OPTION = "--record-times"
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def add_option(parser) -> None:
    parser.addoption(
        OPTION,
        default=None,
        metavar="FILE",
        help="append each test's wall and CPU seconds to FILE (JSON lines)",
    )


def descendants_cpu(root: int) -> float:
    """CPU seconds of the running processes below ``root`` (Linux /proc)."""
    parents: dict[int, int] = {}
    seconds: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        seconds[pid] = (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, pending = 0.0, list(children.get(root, []))
    while pending:
        pid = pending.pop()
        total += seconds[pid]
        pending.extend(children.get(pid, []))
    return total


def cpu_now() -> float:
    """This process's CPU, its waited-for children's, and its descendants'."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        own.ru_utime
        + own.ru_stime
        + waited.ru_utime
        + waited.ru_stime
        + descendants_cpu(os.getpid())
    )


class TimesRecorder:
    """A pytest plugin writing ``{"test", "process", "start", "wall", "cpu"}``
    lines to a file (opened for appending: every process of a parallel run
    adds its own). ``start`` is the Unix time the test began, so that a
    run's processes can be laid side by side."""

    def __init__(self, path: str):
        self.path = path
        self.started: dict[str, tuple[float, float]] = {}

    def pytest_runtest_logstart(self, nodeid, location):
        self.started[nodeid] = (time.monotonic(), cpu_now(), time.time())

    def pytest_runtest_logfinish(self, nodeid, location):
        wall, cpu, start = self.started.pop(nodeid, (None, None, None))
        if wall is None:
            return
        line = {
            "test": nodeid,
            "process": os.environ.get("PYTEST_XDIST_WORKER", "main"),
            "start": round(start, 3),
            "wall": round(time.monotonic() - wall, 3),
            # A descendant that ended mid-test and was not waited for takes
            # its CPU with it: never below zero.
            "cpu": round(max(cpu_now() - cpu, 0.0), 3),
        }
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")


def runs_tests(config) -> bool:
    """False in a parallel run's controller: it hears of every test's start
    and end but runs none, and every test process is its descendant, so it
    would count each test a second time with all the run's CPU meanwhile."""
    return hasattr(config, "workerinput") or not config.getoption(
        "numprocesses", default=None
    )


def install(config) -> None:
    path = config.getoption(OPTION)
    if path and runs_tests(config):
        config.pluginmanager.register(TimesRecorder(path), "mtdash-test-times")
