"""scoring/batch/compile_lock.py: processes that reach the same new kernel
together compile it once; the others load it from the cache. The processes
never call ``install()``: Numba runs it, as the project's
``numba_extensions`` entry point."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

KERNEL = textwrap.dedent(
    """
    from numba import njit

    @njit(cache=True)
    def slow_to_compile(values):
        total = 0.0
        for i in range(values.shape[0]):
            for j in range(i, values.shape[0]):
                total += (values[i] * values[j]) ** 0.5 - values[j] % 3.0
        return total
    """
)

PROCESS = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from numba.core import event

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())
    sys.path.insert(0, sys.argv[1])
    import kernel_module

    while time.time() < float(sys.argv[2]):  # start together
        time.sleep(0.001)
    kernel_module.slow_to_compile(np.arange(5.0))
    print(",".join(compiled))
    """
)


def _compiles_of_two_processes(tmp_path: Path) -> list[str]:
    (tmp_path / "kernel_module.py").write_text(KERNEL, encoding="utf-8")
    cache = tmp_path / "cache"
    environment = {
        "NUMBA_CACHE_DIR": str(cache),
        "PATH": "/usr/bin:/bin",
    }
    start_at = str(time.time() + 3.0)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", PROCESS, str(tmp_path), start_at],
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120)[0].strip() for process in processes]
    assert all(process.returncode == 0 for process in processes)
    return [output for output in outputs if output]


def test_two_processes_compile_a_new_kernel_once(tmp_path):
    """Both start the kernel's first call at the same instant; without the
    lock both compile it (checked by removing the entry point)."""
    compiled = _compiles_of_two_processes(tmp_path)
    assert compiled == ["slow_to_compile"]
