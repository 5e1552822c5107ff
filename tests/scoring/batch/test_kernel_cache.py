"""The kernels' Numba cache is keyed by the source of every kernel module:
Numba itself checks only a kernel's own file, so a change to a helper module
it compiles in would otherwise leave the old machine code cached."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from scoring.batch import kernel_cache
from scoring.batch.kernel_cache import PREFIX, kernel_sources_digest, keyed_cache_dir

PACKAGE = Path(kernel_cache.__file__).resolve().parent


def copy_of_package(tmp_path: Path) -> Path:
    copy = tmp_path / "batch"
    copy.mkdir()
    for path in PACKAGE.glob("*.py"):
        shutil.copy(path, copy / path.name)
    return copy


def test_a_change_to_any_kernel_module_changes_the_key(tmp_path):
    copy = copy_of_package(tmp_path)
    before = kernel_sources_digest(copy)
    assert before == kernel_sources_digest(PACKAGE)
    # A helper the TER search compiles in, not the search's own module.
    shifts = copy / "kernels_ter_shifts.py"
    shifts.write_text(shifts.read_text() + "\n# changed\n")
    assert kernel_sources_digest(copy) != before


def test_a_module_without_numba_does_not_change_the_key(tmp_path):
    copy = copy_of_package(tmp_path)
    before = kernel_sources_digest(copy)
    family = copy / "ter_family.py"
    assert b"numba" not in family.read_bytes()
    family.write_text(family.read_text() + "\n# changed\n")
    assert kernel_sources_digest(copy) == before


def test_an_inherited_keyed_directory_is_replaced_not_nested():
    keyed = keyed_cache_dir("/data/numba-cache", "abc")
    assert keyed == f"/data/numba-cache/{PREFIX}abc"
    assert keyed_cache_dir(keyed, "def") == f"/data/numba-cache/{PREFIX}def"


def test_numba_caches_under_the_keyed_directory(tmp_path):
    """In a fresh process: Numba's cache directory is the keyed one, whether
    Numba was imported before the kernels or not, and a compiled kernel's
    files land there."""
    script = (
        "import sys\n"
        "if sys.argv[1] == 'numba-first':\n"
        "    import numba\n"
        "import numpy as np, numba, os\n"
        "from scoring.batch.kernels_lcs import local_ids\n"
        "print(numba.config.CACHE_DIR)\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    expected = str(tmp_path / "cache" / f"{PREFIX}{kernel_sources_digest()}")
    for order in ("numba-first", "kernels-first"):
        printed = subprocess.run(
            [sys.executable, "-c", script, order],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert printed == [expected]


SHARED_CACHE_PROCESS = (
    "from scoring.batch.compile_log import recording_compiles\n"
    "import numpy as np, scoring\n"
    "from scoring.batch.kernels_lcs import local_ids\n"
    "with recording_compiles() as log:\n"
    "    local_ids(np.arange(3, dtype=np.int64), 0, 3, np.full(3, -1, np.int64))\n"
    "print(scoring.__file__)\n"
    "print(','.join(kernel.name for kernel in log.kernels))\n"
)


def _checkout(tmp_path: Path, name: str) -> Path:
    """A copy of the scoring package, as a second clone would hold it."""
    root = tmp_path / name
    shutil.copytree(
        PACKAGE.parent, root / "scoring", ignore=shutil.ignore_patterns("__pycache__")
    )
    return root


def _compiled_in(root: Path, cache: Path) -> list[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(root)}
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)  # as a fresh shell has it
    printed = subprocess.run(
        [sys.executable, "-c", SHARED_CACHE_PROCESS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    ).stdout.splitlines()
    assert printed[0] == str(root / "scoring" / "__init__.py")  # that checkout's
    return [name for name in printed[1].split(",") if name]


def test_a_second_checkout_loads_the_kernels_the_first_compiled(tmp_path):
    """The cache is found by the kernels' content: another checkout of the
    same sources (other paths, other modification times) compiles nothing;
    one whose kernel module differs compiles again."""
    cache = tmp_path / "cache"
    first, second = _checkout(tmp_path, "first"), _checkout(tmp_path, "second")
    os.utime(second / "scoring" / "batch" / "kernels_lcs.py", (0, 0))
    assert _compiled_in(first, cache) == ["kernels_lcs.local_ids"]
    assert _compiled_in(second, cache) == []
    changed = _checkout(tmp_path, "changed")
    module = changed / "scoring" / "batch" / "kernels_lcs.py"
    module.write_text(module.read_text() + "\n# changed\n")
    assert _compiled_in(changed, cache) == ["kernels_lcs.local_ids"]
