"""Each kernel compiles once per run, not once per test process.

On a fresh clone the Numba cache is empty and the run's processes start
together, so two of them often reached the same kernel within seconds and
both compiled it (METEOR's takes about 25 s of CPU): a third of the run's
compile time was such duplicates. :func:`install` makes every compilation
of a cached kernel take a lock file named after the kernel, in the cache
directory: a process that finds it taken waits, and then Numba's own
``compile`` finds the kernel in the cache the other process just wrote and
loads it. The compiled code is the same either way.

Locks follow the call graph (a kernel's compilation takes its callees'
locks inside its own, never the reverse), so two processes cannot wait on
each other; inside a process, Numba's compiler lock is taken before the
file.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_FOLDER = "compile-locks"


def _lock_path(dispatcher) -> Path:
    function = dispatcher.py_func
    name = f"{function.__module__}.{function.__qualname__}"
    folder = Path(os.environ["NUMBA_CACHE_DIR"]) / LOCK_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (name.replace("<", "_").replace(">", "_") + ".lock")


def install() -> None:
    """Wrap Numba's ``Dispatcher.compile`` (once per process; only where
    ``NUMBA_CACHE_DIR`` is set, as ``bin/test`` sets it)."""
    if not os.environ.get("NUMBA_CACHE_DIR"):
        return
    from numba.core.caching import NullCache
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.dispatcher import Dispatcher

    compile_here = Dispatcher.compile
    if getattr(compile_here, "locked_across_processes", False):
        return

    def compile_once(self, sig):
        if isinstance(self._cache, NullCache):  # not cached: nothing to share
            return compile_here(self, sig)
        # This process's compiler lock first (Numba's compile takes it again:
        # it is reentrant): a thread waiting for the file never holds a lock
        # a thread of this process holding the file needs.
        with global_compiler_lock, open(_lock_path(self), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                return compile_here(self, sig)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    compile_once.locked_across_processes = True
    Dispatcher.compile = compile_once
