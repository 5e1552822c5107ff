"""Timed tests after the others: ``bin/test`` runs the suite in parallel
processes without the tests marked ``wall_clock``, then those alone, in one
process.

A timed test asserts how long something takes, which only means something
when nothing else runs beside it. Inside the parallel run the run-wide lock
(:mod:`tests.support.wall_clock`) gives each timed call the machine, but
getting it cost more than the call: a waiting timed test stops new test
phases starting until every running one has ended, so while a phase beside
it slept (a worker's lease running out, the 60 s database outage) both cores
of a 2-core machine stood idle, 20–25 s at a time, several times a run.

With ``--defer-timed=<file>``, collection leaves the timed tests out
(pytest reports them as deselected) and writes their ids to ``<file>``, one
per line, for ``bin/test`` to run next. Without it (plain ``pytest``,
``pytest -n N``) nothing changes: the lock still keeps timed calls alone.
It is an option, not an environment variable, so that the pytest runs some
tests start in a subprocess (``tests/test_data_selection.py``) do not
inherit it and overwrite the list.
"""

from __future__ import annotations

import os

from tests.support.wall_clock import MARKER

OPTION = "--defer-timed"


def add_option(parser) -> None:
    parser.addoption(
        OPTION,
        metavar="FILE",
        default="",
        help="leave the tests marked wall_clock out and list their ids in FILE "
        "(bin/test runs them afterwards, alone)",
    )


def defer(config, items: list) -> None:
    """Take the timed tests out of ``items`` and list them in the file that
    ``--defer-timed`` names (every process of a parallel run collects the
    same tests, and writes the same list)."""
    target = config.getoption(OPTION)
    if not target:
        return
    timed = [item for item in items if item.get_closest_marker(MARKER)]
    if timed:
        config.hook.pytest_deselected(items=timed)
        items[:] = [item for item in items if not item.get_closest_marker(MARKER)]
    # Written whole, then renamed: the processes write at about the same time.
    partial = f"{target}.{os.getpid()}"
    with open(partial, "w", encoding="utf-8") as listing:
        listing.writelines(f"{item.nodeid}\n" for item in timed)
    os.replace(partial, target)
