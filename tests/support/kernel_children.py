"""Python children with a kernel cache of their own: what a process compiles
or loads is seen from a fresh interpreter, whose ``NUMBA_CACHE_DIR`` the
test chooses (empty, or a copy of the run's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def run_python(
    cache: Path, *arguments: str, timeout: float = 600
) -> subprocess.CompletedProcess:
    """``python ARGUMENTS`` in the project folder with ``NUMBA_CACHE_DIR``
    set to ``cache``; fails the test with the child's error output when it
    exits with a failure."""
    completed = subprocess.run(
        [sys.executable, *arguments],
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed
