"""``python -m mtdash.demo.precompile``, which ``bin/run`` starts in the
background: it prints what it compiled, and it never outlives its parent."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def alive(pid: int) -> bool:
    """Running (a zombie, already stopped and waiting to be reaped, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize(
    "parent_seconds", ["0", "3"], ids=["before-it-imports", "while-it-compiles"]
)
def test_it_stops_when_its_parent_stops(tmp_path, parent_seconds):
    """On an empty cache it would compile for many seconds; its parent (as
    bin/run, a shell that then becomes the supervisor) ends at once, before
    the child has imported enough to ask for the death signal, or later."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    parent = subprocess.run(
        [
            "bash",
            "-c",
            f"{sys.executable} -m mtdash.demo.precompile --parent $$ >/dev/null 2>&1 &"
            f" echo $!; exec sleep {parent_seconds}",
        ],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    pid = int(parent.stdout.split()[0])
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    still = alive(pid)
    if still:
        os.kill(pid, 9)
    assert not still, "the precompile outlived its parent"


def test_it_prints_the_demo_metrics_and_what_it_compiled():
    completed = subprocess.run(
        [sys.executable, "-m", "mtdash.demo.precompile"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    line = completed.stdout.strip()
    assert line.startswith(
        "demo ORANGE kernels (bleu, per, wer, rouge-l, rouge-w:w=1.2, "
        "rouge-s:d=4) ready in "
    ), line
    assert "s compiling" in line
