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

While the timed tests run in their one process, the machine's other core
would stand idle. So when the selection holds timed tests, the tests of
:data:`BESIDE_TIMED` leave the parallel run too and are listed in
``<file>.beside``: ``bin/test`` runs them in a second process, beside the
timed one, at the lowest CPU priority. They are library tests that compute
in one thread and wait for nothing (no database, server, browser or clock),
so the timed process keeps a core to itself: measured, the timed tests took
36.5 s beside them and 36.9 s alone, each call within a few hundredths of
a second of its time alone, and the two modules took 36.4 s beside them.
"""

from __future__ import annotations

import os

from tests.support.wall_clock import MARKER

OPTION = "--defer-timed"
BESIDE_SUFFIX = ".beside"
# About as long together, on one core, as the timed tests (see above).
BESIDE_TIMED = (
    "tests/scoring/properties/test_metric_properties.py",
    "tests/scoring/tokenizers/test_zh_and_char.py",
)


def add_option(parser) -> None:
    parser.addoption(
        OPTION,
        metavar="FILE",
        default="",
        help="leave the tests marked wall_clock out and list their ids in FILE "
        "(bin/test runs them afterwards, alone)",
    )


def runs_beside_timed(item) -> bool:
    return item.nodeid.split("::", 1)[0] in BESIDE_TIMED


def defer(config, items: list) -> None:
    """Take the timed tests, and when there are some the tests to run beside
    them, out of ``items`` and list them in the file that ``--defer-timed``
    names and in its ``.beside`` file (every process of a parallel run
    collects the same tests, and writes the same lists)."""
    target = config.getoption(OPTION)
    if not target:
        return
    timed = [item for item in items if item.get_closest_marker(MARKER)]
    beside = [
        item
        for item in items
        if timed and runs_beside_timed(item) and not item.get_closest_marker(MARKER)
    ]
    if timed:
        taken = {id(item) for item in timed + beside}
        config.hook.pytest_deselected(items=timed + beside)
        items[:] = [item for item in items if id(item) not in taken]
    _write_listing(target, timed)
    _write_listing(target + BESIDE_SUFFIX, beside)


def _write_listing(target: str, items: list) -> None:
    # Written whole, then renamed: the processes write at about the same time.
    partial = f"{target}.{os.getpid()}"
    with open(partial, "w", encoding="utf-8") as listing:
        listing.writelines(f"{item.nodeid}\n" for item in items)
    os.replace(partial, target)
