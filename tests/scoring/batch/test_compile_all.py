"""``python -m scoring compile-kernels`` (scoring/batch/compile_all.py): the
warm-up's parts compile every kernel, in processes of their own, and a
complete compile is marked so that the next call does nothing.

The children use a copy of this run's kernel cache (bin/test fills it), so
they load the kernels instead of spending a minute of CPU compiling them;
the content-keyed locator (scoring/batch/kernel_locator.py) finds a copy's
entries as it finds the original's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from scoring.batch.compile_all import _MARKER_PREFIX, marker_path
from tests.support.kernel_children import run_python

# Prints, as JSON, the kernels with no compiled signature after warm_up(),
# whether all came from the cache, and what the compiles recorded.
WARM_UP_CHILD = r"""
import json
from scoring.batch.compile_log import recording_compiles
from scoring.batch.warmup import KERNELS, warm_up, warm_up_from_cache
with recording_compiles() as log:
    warm_up()
print(json.dumps({
    "without_signature": [k.py_func.__qualname__ for k in KERNELS if not k.signatures],
    "from_cache": warm_up_from_cache(),
    "compiled": [kernel.name for kernel in log.kernels],
}))
"""

MARKED_CHILD = r"""
import json, sys
from scoring.batch.compile_all import compile_all_kernels
done = compile_all_kernels()
print(json.dumps({"already": done.already_compiled, "numba": "numba" in sys.modules}))
"""


# The kernel whose cached code the copy leaves out: small, so compiling it
# again takes about a second.
DROPPED = "kernels_nist.nist_fixed_information"


def copied_cache(tmp_path: Path) -> Path:
    """A NUMBA_CACHE_DIR holding a copy of this run's keyed kernel cache
    without NIST's fixed-weights kernel (and without markers or locks)."""
    base = tmp_path / "numba-cache"
    keyed = os.environ.get("NUMBA_CACHE_DIR")
    if keyed and Path(keyed).is_dir():
        shutil.copytree(
            keyed,
            base / Path(keyed).name,
            ignore=shutil.ignore_patterns(
                f"{_MARKER_PREFIX}*", "compile-locks", f"{DROPPED}-*"
            ),
        )
    base.mkdir(exist_ok=True)
    return base


def test_the_parts_compile_every_kernel_and_the_next_call_does_nothing(tmp_path):
    cache = copied_cache(tmp_path)

    first = run_python(cache, "-m", "scoring", "compile-kernels")
    second = run_python(cache, "-m", "scoring", "compile-kernels")
    marked = json.loads(run_python(cache, "-c", MARKED_CHILD).stdout)
    after = json.loads(run_python(cache, "-c", WARM_UP_CHILD).stdout)
    forced = run_python(cache, "-m", "scoring", "compile-kernels", "--force")

    # The dropped kernel was compiled again (with whatever else the copy
    # lacked: all of them when this run had no cache to copy).
    found = re.fullmatch(
        r"compiled every batch kernel in [\d.]+ s \((\d+) specialisations, "
        r"(\d) process(?:es)?\) into (.+)/kernels-[0-9a-f]{16}\n",
        first.stdout,
    )
    assert found, first.stdout
    assert int(found[1]) >= 1
    # Two parts, in two processes where the machine has two CPUs.
    assert int(found[2]) == min(2, os.cpu_count() or 1)
    assert found[3] == str(cache)
    assert second.stdout.startswith("every batch kernel is already compiled")
    assert marked == {"already": True, "numba": False}
    # What the parts left in the cache is every kernel, loaded, not compiled.
    assert after == {"without_signature": [], "from_cache": True, "compiled": []}
    # Forced, the parts find every kernel in the cache and say so.
    assert forced.stdout.startswith(
        f"every batch kernel was already in {cache}/kernels-"
    )


def test_the_marker_names_the_interpreter_and_cpu_in_the_keyed_directory(
    monkeypatch, tmp_path
):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kernels-0123"))
    marker = marker_path()

    assert marker.parent == tmp_path / "kernels-0123"
    assert marker.name.startswith(_MARKER_PREFIX)
    assert len(marker.name) == len(_MARKER_PREFIX) + 16
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert marker_path() is None
