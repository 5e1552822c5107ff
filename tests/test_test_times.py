"""--record-times (tests/support/test_times.py): a test's wall and CPU,
its subprocesses' included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from tests.support.test_times import TimesRecorder, descendants_cpu

BURN = (
    "import time\n"
    "end = time.process_time() + {seconds}\n"
    "while time.process_time() < end: pass\n"
)


def burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_tests_cpu_counts_its_children_ended_and_running(tmp_path):
    path = tmp_path / "times.jsonl"
    recorder = TimesRecorder(str(path))
    recorder.pytest_runtest_logstart("tests/x.py::t", ("tests/x.py", 1, "t"))
    burn(0.2)
    # One child waited for, one still running at the end (as a session's
    # browser would be).
    subprocess.run([sys.executable, "-c", BURN.format(seconds=0.3)], check=True)
    running = subprocess.Popen(
        [sys.executable, "-c", BURN.format(seconds=0.3) + "time.sleep(60)\n"]
    )
    try:
        deadline = time.monotonic() + 30
        while descendants_cpu(os.getpid()) < 0.3 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # waiting costs wall time, not CPU
        recorder.pytest_runtest_logfinish("tests/x.py::t", ("tests/x.py", 1, "t"))
    finally:
        running.kill()
        running.wait()
    (line,) = path.read_text().splitlines()
    record = json.loads(line)
    assert record["test"] == "tests/x.py::t"
    # 0.2 s here, 0.3 s in the child that ended, 0.3 s in the running one
    # (and the children's start-up).
    assert record["cpu"] >= 0.8
    assert record["wall"] >= 0.2 + 0.3 + 0.3 + 0.5
