"""The lock that lets ``wall_clock`` tests run alone in a parallel run
(tests/support/wall_clock.py), checked with real processes: a timed test
waits for the ordinary tests running now, and no ordinary test starts
until it has ended, however many keep arriving."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from tests.support.wall_clock import RunLock, run_folder

pytestmark = pytest.mark.timeout(60)


def hold(folder: str, alone: bool, seconds: float, log: str, name: str) -> None:
    lock = RunLock(Path(folder))
    with lock.held(alone=alone):
        with open(log, "a") as out:
            out.write(f"{time.monotonic()} start {name}\n")
        time.sleep(seconds)
        with open(log, "a") as out:
            out.write(f"{time.monotonic()} end {name}\n")
    lock.close()


def spans(log: Path) -> dict[str, tuple[float, float]]:
    starts, ends = {}, {}
    for line in log.read_text().splitlines():
        moment, what, name = line.split()
        (starts if what == "start" else ends)[name] = float(moment)
    return {name: (starts[name], ends[name]) for name in starts}


def test_a_timed_test_runs_while_nothing_else_runs(tmp_path):
    log = tmp_path / "log"
    context = multiprocessing.get_context("spawn")

    def start(name: str, alone: bool, seconds: float):
        process = context.Process(
            target=hold, args=(str(tmp_path), alone, seconds, str(log), name)
        )
        process.start()
        return process

    processes = [start("ordinary-1", False, 2.0)]
    time.sleep(0.5)  # ordinary-1 holds the lock
    processes.append(start("timed", True, 1.0))
    time.sleep(0.5)  # the timed test waits; ordinary ones keep arriving
    processes += [start(f"ordinary-{k}", False, 0.3) for k in (2, 3, 4)]
    for process in processes:
        process.join(30)
        assert process.exitcode == 0
    held = spans(log)
    timed_start, timed_end = held.pop("timed")
    assert held["ordinary-1"][1] <= timed_start  # waited for the running one
    for name, (start_at, end_at) in held.items():
        assert end_at <= timed_start or start_at >= timed_end, name
    # and the later ones did not overtake it
    assert all(held[f"ordinary-{k}"][0] >= timed_end for k in (2, 3, 4))


def test_ordinary_tests_share_the_lock(tmp_path):
    log = tmp_path / "log"
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(
            target=hold, args=(str(tmp_path), False, 1.0, str(log), f"o{k}")
        )
        for k in range(3)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(30)
    held = spans(log)
    assert max(start for start, _ in held.values()) < min(
        end for _, end in held.values()
    )


def test_the_run_folder_is_shared_by_the_parallel_processes(tmp_path):
    assert run_folder(tmp_path / "pytest-7" / "popen-gw3") == tmp_path / "pytest-7"
    assert run_folder(tmp_path / "pytest-7") == tmp_path / "pytest-7"
