"""Each process of a parallel run imports its own share of the test modules
before collecting.

Every process of a parallel run collects the whole suite. On a fresh clone
nothing is compiled yet, and the processes start together and import the
modules in the same order, so each would compile every test module (pytest
rewrites their asserts: about 9 s of CPU for the suite) and every library
they import: measured, a cold collection took 26 s of CPU against 7 s warm,
three times over at the start of every run. Here each process first
imports one contiguous share of the test files (by size), so the shares
touch different modules and libraries at first; the cached bytecode each
writes is what the others then load when their collection reaches it.

Importing early changes nothing else: the module is the one collection
then finds in ``sys.modules``. One that fails to import is left for
collection to import again and report.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from tests.support.data_selection import module_name

TEST_FILE_PATTERN = "test_*.py"


def test_files(config) -> list[Path]:
    """The test files below the paths this run was given, sorted."""
    found: set[Path] = set()
    for argument in config.args:
        path = Path(config.invocation_params.dir, str(argument).split("::", 1)[0])
        if path.is_dir():
            found.update(path.rglob(TEST_FILE_PATTERN))
        elif path.is_file() and path.match(TEST_FILE_PATTERN):
            found.add(path)
    return sorted(path.resolve() for path in found)


def share(files: list[Path], index: int, count: int) -> list[Path]:
    """The ``index``-th of ``count`` contiguous runs of ``files`` holding
    about equal bytes."""
    sizes = [path.stat().st_size for path in files]
    total = sum(sizes) or 1
    start_at, end_at = total * index / count, total * (index + 1) / count
    chosen, passed = [], 0
    for path, size in zip(files, sizes):
        if start_at <= passed < end_at:
            chosen.append(path)
        passed += size
    return chosen


def import_share(config) -> None:
    """In a parallel run's process, import its share (see above)."""
    worker = getattr(config, "workerinput", None)
    if not worker or worker.get("workercount", 0) < 2:
        return
    index = int(worker["workerid"].removeprefix("gw"))
    for path in share(test_files(config), index, worker["workercount"]):
        name = module_name(path)
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: B036 (a module-level skip is one too)
            # Collection imports it again and reports why it fails.
            sys.modules.pop(name, None)
