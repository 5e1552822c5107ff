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
- each pile's long modules are then put in the order that leaves the
  fewest cores idle, judged by the CPU each module used per second of wall
  time in that run: a module that mostly waits (a database outage of a
  minute, workers' leases running out, a browser's poll) should run while
  the other processes compute, not while they wait too (a whole run once
  kept about 1.4 of 2 cores busy for a minute that way);
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
import os
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

SECONDS_FILE = Path(__file__).with_name("module_seconds.json")
# Modules at least this long are dealt first; shorter ones fill the piles.
LONG_MODULE_SECONDS = 15.0
# A module missing from the table: about what a typical short test takes.
DEFAULT_TEST_SECONDS = 0.2
# CPU per second of wall time of a module missing from the table, and of the
# short modules after the long ones: they mostly compute (measured: 0.7 of
# a core each, three processes on two cores).
DEFAULT_CPU_SHARE = 0.7
TIMED_MARKER = "wall_clock"


def module_seconds(path: Path = SECONDS_FILE) -> dict[str, float]:
    """Each module's wall seconds in the run the table was measured from."""
    return {name: times["seconds"] for name, times in _table(path).items()}


def module_cpu(path: Path = SECONDS_FILE) -> dict[str, float]:
    """Each module's CPU seconds (with its subprocesses') in that run."""
    return {name: times["cpu"] for name, times in _table(path).items()}


def _table(path: Path) -> dict[str, dict[str, float]]:
    return json.loads(path.read_text(encoding="utf-8"))


def cores() -> int:
    return len(os.sched_getaffinity(0))


def _module(item) -> str:
    return item.nodeid.split("::", 1)[0]


def pile_counts(total: int, workers: int) -> list[int]:
    """How many tests xdist's worksteal first sends each process."""
    counts = []
    for remaining in range(workers, 0, -1):
        counts.append(total // remaining)
        total -= counts[-1]
    return counts


def arrange(
    items: list,
    workers: int,
    seconds: dict[str, float],
    cpu: dict[str, float] | None = None,
    n_cores: int = 2,
) -> list:
    """``items`` in the order described above, for ``workers`` processes
    sharing ``n_cores`` cores (``cpu``: each module's CPU seconds; without
    it long modules keep the order they were dealt in)."""
    if workers < 2 or not items:
        return list(items)
    modules: dict[str, list] = defaultdict(list)
    for item in items:
        modules[_module(item)].append(item)
    return [
        item
        for names in piles(modules, workers, seconds, cpu, n_cores)
        for name in names
        for item in modules[name]
    ]


def piles(
    modules: dict[str, list],
    workers: int,
    seconds: dict[str, float],
    cpu: dict[str, float] | None = None,
    n_cores: int = 2,
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
    dealt: list[list[str]] = [[] for _ in range(workers)]
    timed_seconds = sum(estimate(name) for name in timed)
    load = [timed_seconds] + [0.0] * (workers - 1)
    count = [sum(len(modules[name]) for name in timed)] + [0] * (workers - 1)
    for name in long:
        pile = min(range(workers), key=lambda k: (load[k], k))
        dealt[pile].append(name)
        load[pile] += estimate(name)
        count[pile] += len(modules[name])
    if cpu is not None:
        dealt = least_idle_order(
            dealt,
            estimate,
            lambda name: (
                min(cpu[name] / estimate(name), 1.0)
                if name in cpu
                else DEFAULT_CPU_SHARE
            ),
            n_cores,
        )
    result = [list(timed) + dealt[0]] + dealt[1:]
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


def idle_core_seconds(
    piles: list[list[str]],
    seconds: Callable[[str], float],
    share: Callable[[str], float],
    n_cores: int,
    step: float = 1.0,
) -> float:
    """The core-seconds left idle while the piles' modules run side by side:
    a rough model, enough to tell an order that lines up the waiting modules
    from one that spreads them. ``share(module)`` is the CPU per second of
    wall time it used in a run of as many processes on as many cores; as all
    of them competed for the cores then, a process asks for up to
    ``processes / n_cores`` times that, at most a whole core. A process whose
    pile is done runs short modules (:data:`DEFAULT_CPU_SHARE`)."""
    scale = len(piles) / n_cores
    timelines = []
    for pile in piles:
        t, spans = 0.0, []
        for name in pile:
            spans.append((t, t + seconds(name), min(share(name) * scale, 1.0)))
            t += seconds(name)
        timelines.append(spans)
    horizon = max((spans[-1][1] for spans in timelines if spans), default=0.0)
    after = min(DEFAULT_CPU_SHARE * scale, 1.0)
    idle, t = 0.0, 0.0
    while t < horizon:
        asked = sum(
            next((d for start, end, d in spans if start <= t < end), after)
            for spans in timelines
        )
        idle += max(n_cores - asked, 0.0) * step
        t += step
    return idle


def least_idle_order(
    piles: list[list[str]],
    seconds: Callable[[str], float],
    share: Callable[[str], float],
    n_cores: int,
) -> list[list[str]]:
    """Each pile's modules reordered (the piles keep their modules) by
    swapping two modules of a pile while that leaves fewer cores idle
    (:func:`idle_core_seconds`); deterministic, as every process must
    compute the same order."""
    piles = [list(pile) for pile in piles]
    best = idle_core_seconds(piles, seconds, share, n_cores)
    for _ in range(4):
        improved = False
        for pile in piles:
            for i in range(len(pile)):
                for j in range(i + 1, len(pile)):
                    pile[i], pile[j] = pile[j], pile[i]
                    idle = idle_core_seconds(piles, seconds, share, n_cores)
                    if idle < best - 1e-9:
                        best, improved = idle, True
                    else:
                        pile[i], pile[j] = pile[j], pile[i]
        if not improved:
            break
    return piles


def table_from_times(*paths: Path) -> dict[str, dict[str, float]]:
    """Wall and CPU seconds per test module (those of at least 5 s of wall
    time) from the lines ``--record-times`` wrote."""
    totals: dict[str, dict[str, float]] = defaultdict(
        lambda: {"seconds": 0.0, "cpu": 0.0}
    )
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            module = totals[record["test"].split("::", 1)[0]]
            module["seconds"] += record["wall"]
            module["cpu"] += record["cpu"]
    return {
        name: {key: round(value, 1) for key, value in times.items()}
        for name, times in sorted(totals.items())
        if times["seconds"] >= 5.0
    }


def format_table(table: dict[str, dict[str, float]]) -> str:
    """The table as JSON, one module a line."""
    lines = [
        f"  {json.dumps(name)}: {json.dumps(times)}" for name, times in table.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    sys.stdout.write(format_table(table_from_times(*map(Path, sys.argv[1:]))))
