"""The order a parallel run hands its tests to its processes.

pytest-xdist's ``worksteal`` gives each of N processes an equal count of
consecutive tests from the collected order, then lets a process that runs
dry take half of the last tests still queued elsewhere. pytest-django sorts
the collection so that every test using ``transactional_db`` or a live
server comes after the others: the integration and browser tests, which
mostly wait (on workers' leases, a database outage, a browser), then ran at
the end of the run, together, while the CPU stood half idle; and a timed
(``wall_clock``) test, which waits for every running test phase to end,
sometimes waited behind a phase that sleeps for a minute.

:func:`arrange` orders the collection instead as N piles, one per process,
each an equal count of tests:

- every module that holds a timed test goes first in the first pile, and
  the other piles start with short tests for as long as the timed modules
  are expected to take: a timed test waits for the phases running beside
  it to end and holds the others back meanwhile, so it should only ever
  wait for short ones;
- the other long modules (by the seconds in ``module_seconds.json``,
  measured from a whole run) are dealt to the pile with the least time so
  far, longest first, so each process runs its share of long work early
  and waiting tests overlap with computing ones;
- the remaining short modules fill the piles in turn, in their collected
  order, each until the piles so far hold at least the count xdist first
  sends their processes (so that no process gets the next pile's long
  modules at the end of its queue), last: that is what a process that
  runs dry takes from another.

A module's tests stay together and in their order (module fixtures, such
as a shared worker, are set up once). Every process computes the same
order from the same collection, as xdist requires.

``python -m tests.support.schedule TIMES.jsonl`` prints the table of module
times from a whole run's ``--record-times=TIMES.jsonl``
(tests/support/test_times.py): ``bash bin/test --record-times=$PWD/t.jsonl``.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

SECONDS_FILE = Path(__file__).with_name("module_seconds.json")
# Modules at least this long are dealt first; shorter ones fill the piles.
LONG_MODULE_SECONDS = 15.0
# A module missing from the table: about what a typical short test takes.
DEFAULT_TEST_SECONDS = 0.2
TIMED_MARKER = "wall_clock"


def module_seconds(path: Path = SECONDS_FILE) -> dict[str, float]:
    """Each module's wall seconds in the run the table was measured from."""
    return json.loads(path.read_text(encoding="utf-8"))


def _module(item) -> str:
    return item.nodeid.split("::", 1)[0]


def pile_counts(total: int, workers: int) -> list[int]:
    """How many tests xdist's worksteal first sends each process."""
    counts = []
    for remaining in range(workers, 0, -1):
        counts.append(total // remaining)
        total -= counts[-1]
    return counts


def arrange(items: list, workers: int, seconds: dict[str, float]) -> list:
    """``items`` in the order described above, for ``workers`` processes."""
    if workers < 2 or not items:
        return list(items)
    modules: dict[str, list] = defaultdict(list)
    for item in items:
        modules[_module(item)].append(item)
    return [
        item
        for names in piles(modules, workers, seconds)
        for name in names
        for item in modules[name]
    ]


def piles(
    modules: dict[str, list], workers: int, seconds: dict[str, float]
) -> list[list[str]]:
    """The module names of each process's pile, in running order."""

    def estimate(module: str) -> float:
        return seconds.get(module, DEFAULT_TEST_SECONDS * len(modules[module]))

    timed = [
        name
        for name, tests in modules.items()
        if any(test.get_closest_marker(TIMED_MARKER) for test in tests)
    ]
    long = sorted(
        (
            name
            for name in modules
            if name not in timed and estimate(name) >= LONG_MODULE_SECONDS
        ),
        key=lambda name: (-estimate(name), name),
    )
    result: list[list[str]] = [list(timed)] + [[] for _ in range(workers - 1)]
    timed_seconds = sum(estimate(name) for name in timed)
    load = [timed_seconds] + [0.0] * (workers - 1)
    count = [sum(len(modules[name]) for name in timed)] + [0] * (workers - 1)
    for name in long:
        pile = min(range(workers), key=lambda k: (load[k], k))
        result[pile].append(name)
        load[pile] += estimate(name)
        count[pile] += len(modules[name])
    # Short modules fill the piles in order, each until the piles so far
    # hold at least the tests xdist first sends their processes. A pile
    # left short would have its process take the next pile's first tests,
    # its longest module, at the end of its queue (a fresh clone's run
    # idled a minute at its end behind a database outage test sent that
    # way); a pile that overruns only sends its last short modules ahead
    # of the next pile's long ones.
    targets = pile_counts(sum(len(tests) for tests in modules.values()), workers)
    short: list[list[str]] = [[] for _ in range(workers)]
    pile, boundary = 0, targets[0]
    for name in modules:
        if name in timed or name in long:
            continue
        while pile < workers - 1 and sum(count[: pile + 1]) >= boundary:
            pile += 1
            boundary += targets[pile]
        short[pile].append(name)
        count[pile] += len(modules[name])
    # While the first pile's timed tests run, the other piles run short
    # tests: a timed test waits for every running phase to end, and stops
    # the others starting new ones, so a long phase beside it idles the CPU.
    result[0] += short[0]
    for pile in range(1, workers):
        lead, covered = 0, 0.0
        while lead < len(short[pile]) and covered < timed_seconds:
            covered += estimate(short[pile][lead])
            lead += 1
        result[pile] = short[pile][:lead] + result[pile] + short[pile][lead:]
    return result


def table_from_times(*paths: Path) -> dict[str, float]:
    """Wall seconds per test module (those of at least 5 s) from the lines
    ``--record-times`` wrote."""
    totals: dict[str, float] = defaultdict(float)
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            totals[record["test"].split("::", 1)[0]] += record["wall"]
    return {
        name: round(total, 1) for name, total in sorted(totals.items()) if total >= 5.0
    }


if __name__ == "__main__":
    print(json.dumps(table_from_times(*map(Path, sys.argv[1:])), indent=1))
