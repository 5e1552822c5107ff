"""--record-times (tests/support/test_times.py): a test's wall and CPU,
its subprocesses' included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.test_times import runs_tests

PROJECT_ROOT = Path(__file__).resolve().parents[1]

# Runs in a fresh process, so that no other child of a test process (a
# session's browser or worker ending meanwhile) moves the figures.
RECORDED = r"""
import os, subprocess, sys, time
from tests.support.test_times import TimesRecorder, descendants_cpu

BURN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
recorder = TimesRecorder(sys.argv[1])
recorder.pytest_runtest_logstart("tests/x.py::t", ("tests/x.py", 1, "t"))
end = time.process_time() + 0.2
while time.process_time() < end:
    pass
# One child waited for, one still running at the end (as a session's
# browser would be).
subprocess.run([sys.executable, "-c", BURN], check=True)
running = subprocess.Popen([sys.executable, "-c", BURN + "time.sleep(60)\n"])
deadline = time.monotonic() + 30
while descendants_cpu(os.getpid()) < 0.3 and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(0.5)  # waiting costs wall time, not CPU
recorder.pytest_runtest_logfinish("tests/x.py::t", ("tests/x.py", 1, "t"))
running.kill()
running.wait()
"""


def test_a_tests_cpu_counts_its_children_ended_and_running(tmp_path):
    path = tmp_path / "times.jsonl"
    subprocess.run(
        [sys.executable, "-c", RECORDED, str(path)],
        cwd=PROJECT_ROOT,
        check=True,
        timeout=120,
    )
    (line,) = path.read_text().splitlines()
    record = json.loads(line)
    assert record["test"] == "tests/x.py::t"
    # The child inherits this process's name in a parallel run.
    assert record["process"] == os.environ.get("PYTEST_XDIST_WORKER", "main")
    assert record["start"] > 0
    # 0.2 s here, 0.3 s in the child that ended, 0.3 s in the running one
    # (and the children's start-up), less what /proc's 10 ms ticks round
    # away; without the running child it would be about 0.5 s.
    assert record["cpu"] >= 0.7
    assert record["wall"] >= 0.2 + 0.3 + 0.3 + 0.5


class _Config:
    def __init__(self, processes, worker: bool):
        self.processes = processes
        if worker:
            self.workerinput = {"workerid": "gw0"}

    def getoption(self, name, default=None):
        assert name == "numprocesses"
        return self.processes


def test_only_the_processes_that_run_tests_record_them():
    assert runs_tests(_Config(None, worker=False))  # plain pytest
    assert runs_tests(_Config(0, worker=False))  # -n 0
    assert runs_tests(_Config(None, worker=True))  # a parallel run's worker
    assert not runs_tests(_Config(3, worker=False))  # its controller
