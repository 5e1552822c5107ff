"""Each kernel compiles once per cache, not once per process.

Processes that share a Numba cache (``NUMBA_CACHE_DIR``: the dashboard's
workers, its start-up precompile and ``python -m scoring`` runs on one data
folder; a test run's processes and the commands they start) often reach a
new kernel within seconds of each other on a fresh install, and each then
compiled it (METEOR's takes about 25 s of CPU). :func:`install` makes every
compilation of a cached kernel take a lock file named after the kernel, in
the cache directory: a process that finds it taken waits, and then Numba's
own ``compile`` finds the kernel in the cache the other process just wrote
and loads it. The compiled code is the same either way.

Locks follow the call graph (a kernel's compilation takes its callees'
locks inside its own, never the reverse), so two processes cannot wait on
each other; inside a process, Numba's compiler lock is taken before the
file.

Numba runs :func:`install` itself, before the first compilation of any
kernel in a process: it is the project's ``numba_extensions`` entry point
(``pyproject.toml``), so a process that never calls a kernel never imports
Numba for it.
"""

from __future__ import annotations

import fcntl
from pathlib import Path

LOCK_FOLDER = "compile-locks"


def _lock_path(dispatcher, cache_dir: str) -> Path:
    function = dispatcher.py_func
    name = f"{function.__module__}.{function.__qualname__}"
    folder = Path(cache_dir) / LOCK_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (name.replace("<", "_").replace(">", "_") + ".lock")


def install() -> None:
    """Wrap Numba's ``Dispatcher.compile`` (once per process). Only kernels
    cached in ``NUMBA_CACHE_DIR`` are locked: without it Numba caches beside
    each module, and an uncached kernel has nothing to share."""
    from numba.core import config
    from numba.core.caching import NullCache
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.dispatcher import Dispatcher

    compile_here = Dispatcher.compile
    if getattr(compile_here, "locked_across_processes", False):
        return

    def compile_once(self, sig):
        cache_dir = config.CACHE_DIR
        if not cache_dir or isinstance(self._cache, NullCache):
            return compile_here(self, sig)
        # This process's compiler lock first (Numba's compile takes it again:
        # it is reentrant): a thread waiting for the file never holds a lock
        # a thread of this process holding the file needs.
        with global_compiler_lock, open(_lock_path(self, cache_dir), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                return compile_here(self, sig)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    compile_once.locked_across_processes = True
    Dispatcher.compile = compile_once
