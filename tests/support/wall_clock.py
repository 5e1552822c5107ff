"""Tests that time themselves against a wall-clock target run alone.

``bin/test`` runs the suite in parallel processes (pytest-xdist). A test
marked ``wall_clock`` asserts how long something takes, which only means
something when nothing else of the suite runs beside it. Every phase of every
test (set-up, call, teardown) holds a lock on a file shared by the processes
of one run: shared, except a ``wall_clock`` test's call, which holds it
exclusively, so a timed call waits for the phases running now to end and
nothing else starts until it has ended. A timed test's own set-up (building
the large data it measures on) stays parallel with the other tests. A second lock (a turnstile) keeps a waiting timed test from being
overtaken for ever by ordinary tests that keep starting.

In one process (``-n 0``) the locks are never contended and cost nothing
measurable.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MARKER = "wall_clock"


class RunLock:
    """The shared/exclusive lock of one test run (files in ``folder``)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._turnstile = os.open(
            folder / "wall-clock.turnstile", os.O_CREAT | os.O_RDWR
        )
        self._room = os.open(folder / "wall-clock.lock", os.O_CREAT | os.O_RDWR)

    @contextmanager
    def held(self, *, alone: bool) -> Iterator[None]:
        fcntl.flock(self._turnstile, fcntl.LOCK_EX)
        try:
            fcntl.flock(self._room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(self._turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(self._room, fcntl.LOCK_UN)

    def close(self) -> None:
        os.close(self._turnstile)
        os.close(self._room)


def run_folder(basetemp: Path) -> Path:
    """A folder every process of this run shares: xdist gives each worker
    ``<run root>/popen-gwN`` as its base temporary folder."""
    return basetemp.parent if basetemp.name.startswith("popen-gw") else basetemp
