"""Where Numba caches a kernel of this package, found by content, not by path.

Numba's own locator for ``NUMBA_CACHE_DIR`` files a kernel under a hash of
its source file's absolute path and checks it against that file's
modification time and size. A second checkout of the project (a fresh
clone, a worktree, a reinstalled package) therefore compiles every kernel
again (about a minute of CPU for all of them) although its sources are the
same bytes. This locator files each kernel under the package-relative
directory of its module and checks it against a SHA-256 of the module's
source, so every checkout with the same kernels shares one cache.

The directory above is already keyed by every kernel module's source and
by the versions that shape the machine code (:mod:`scoring.batch.kernel_cache`);
Numba keys each entry by the CPU it was compiled for and the Python version.
Functions outside this package keep Numba's usual locators.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

_PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # the scoring package


def _relative_folder(py_file: str) -> Path | None:
    try:
        return Path(py_file).resolve().parent.relative_to(_PACKAGE_ROOT)
    except ValueError:
        return None


class SourceContentLocator(UserProvidedCacheLocator):
    """A kernel of the scoring package cached in
    ``NUMBA_CACHE_DIR/scoring/<folder>``, valid while its module's bytes are
    unchanged."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        folder = _relative_folder(py_file) or Path()
        self._cache_path = os.path.join(config.CACHE_DIR, "scoring", *folder.parts)

    def get_source_stamp(self):
        return hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR or _relative_folder(py_file) is None:
            return None
        return super().from_function(py_func, py_file)
