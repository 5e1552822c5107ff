"""Numba's on-disk cache of the kernels, keyed by every kernel module's source.

Numba checks a cached kernel against its own file only (modification time
and size). A kernel compiled together with helpers from other modules (the
TER search inlines ``kernels_ter_shifts`` and ``kernels_ter_align``, METEOR's
uses ``kernels_meteor_beam``) stays cached when only a helper changes, so
after an update a run would silently use the old machine code. The cache
therefore lives in a subdirectory of ``NUMBA_CACHE_DIR`` named after a
digest of the source of every kernel module here and of the versions of
Numba, llvmlite and NumPy: any change starts an empty cache, and each
kernel compiles again once, on its first call.

Within that directory each kernel is found by its module's content, not its
path (:mod:`scoring.batch.kernel_locator`), so other checkouts of the same
sources share the compiled kernels.

Without ``NUMBA_CACHE_DIR`` Numba keeps its default (``__pycache__`` beside
each module), which is not keyed; ``bin/run``, ``bin/test`` and the
dashboard's settings always set it.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PREFIX = "kernels-"
# Spelled here, not imported: the locator's module imports Numba, which this
# one must not (it runs before Numba reads its environment).
LOCATOR_CLASSES = ",".join(
    (
        "scoring.batch.kernel_locator.SourceContentLocator",
        "UserProvidedCacheLocator",
        "InTreeCacheLocator",
        "UserWideCacheLocator",
        "IPythonCacheLocator",
        "ZipCacheLocator",
    )
)
_PACKAGE = Path(__file__).resolve().parent


def kernel_sources_digest(package: Path = _PACKAGE) -> str:
    """16 hex digits over the source of every kernel module of ``package``
    (``kernels_*.py``, and any other that mentions Numba: some kernel modules
    take their decorator from another and never name it), and the versions
    of Numba, llvmlite and NumPy (one cache may serve several checkouts and
    environments: :mod:`scoring.batch.kernel_locator`)."""
    digest = hashlib.sha256()
    for package_name in ("numba", "llvmlite", "numpy"):
        try:
            digest.update(package_name.encode() + b"=" + version(package_name).encode())
        except PackageNotFoundError:  # pragma: no cover - pinned dependencies
            pass
    for path in sorted(package.glob("*.py")):
        source = path.read_bytes()
        if path.name.startswith("kernels_") or b"numba" in source:
            digest.update(path.name.encode() + b"\0" + source + b"\0")
    return digest.hexdigest()[:16]


def keyed_cache_dir(base: str, digest: str) -> str:
    """``base/kernels-<digest>``; a ``base`` that is already such a
    directory (inherited by a child process) is replaced, not nested."""
    if Path(base).name.startswith(PREFIX):
        base = str(Path(base).parent)
    return str(Path(base) / f"{PREFIX}{digest}")


def key_cache_by_source() -> None:
    """Point Numba's cache at the keyed subdirectory of ``NUMBA_CACHE_DIR``
    and let the kernels be found there by their source's content, not their
    file's path (before any kernel is compiled or loaded: the package
    imports this first). Numba reads the variables when it is imported; if
    it already was, its configuration is set directly."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        return
    keyed = keyed_cache_dir(base, kernel_sources_digest())
    os.environ["NUMBA_CACHE_DIR"] = keyed
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = LOCATOR_CLASSES
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.config.CACHE_DIR = keyed
        numba.config.CACHE_LOCATOR_CLASSES = LOCATOR_CLASSES
