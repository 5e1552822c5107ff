"""tests/support/deferred_timed.py: with --defer-timed=FILE, the timed
tests leave the parallel run (deselected) and are listed for bin/test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from tests.support import deferred_timed

PROJECT_ROOT = Path(__file__).resolve().parents[1]


class FakeItem:
    def __init__(self, nodeid: str, timed: bool):
        self.nodeid, self.timed = nodeid, timed

    def get_closest_marker(self, name):
        return object() if self.timed and name == "wall_clock" else None


def fake_config(deselected: list, listing: str):
    hook = SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items))
    options = {deferred_timed.OPTION: listing}
    return SimpleNamespace(hook=hook, getoption=options.__getitem__)


ITEMS = [
    ("tests/a.py::test_fast", False),
    ("tests/b_speed.py::test_page_within_300_ms", True),
    ("tests/c.py::test_it[x-1]", False),
    ("tests/d_speed.py::test_import[100000 rows]", True),
]


def test_timed_tests_are_deselected_and_listed_in_order(tmp_path):
    listing = tmp_path / "timed"
    items = [FakeItem(nodeid, timed) for nodeid, timed in ITEMS]
    deselected: list = []
    deferred_timed.defer(fake_config(deselected, str(listing)), items)
    assert [item.nodeid for item in items] == [
        "tests/a.py::test_fast",
        "tests/c.py::test_it[x-1]",
    ]
    assert [item.nodeid for item in deselected] == [
        "tests/b_speed.py::test_page_within_300_ms",
        "tests/d_speed.py::test_import[100000 rows]",
    ]
    assert listing.read_text(encoding="utf-8").splitlines() == [
        item.nodeid for item in deselected
    ]
    beside = tmp_path / f"timed{deferred_timed.BESIDE_SUFFIX}"
    assert beside.read_text(encoding="utf-8") == ""
    assert sorted(tmp_path.iterdir()) == [listing, beside]  # no partial file


BESIDE = [f"{deferred_timed.BESIDE_TIMED[0]}::test_prop[bleu]", False]


def test_with_timed_tests_the_library_tests_beside_them_leave_too(tmp_path):
    listing = tmp_path / "timed"
    items = [FakeItem(nodeid, timed) for nodeid, timed in ITEMS + [BESIDE]]
    deselected: list = []
    deferred_timed.defer(fake_config(deselected, str(listing)), items)
    assert [item.nodeid for item in items] == [
        "tests/a.py::test_fast",
        "tests/c.py::test_it[x-1]",
    ]
    assert BESIDE[0] in [item.nodeid for item in deselected]
    beside = tmp_path / f"timed{deferred_timed.BESIDE_SUFFIX}"
    assert beside.read_text(encoding="utf-8").splitlines() == [BESIDE[0]]
    assert len(listing.read_text(encoding="utf-8").splitlines()) == 2


def test_without_timed_tests_the_library_tests_stay_in_the_parallel_run(tmp_path):
    listing = tmp_path / "timed"
    items = [FakeItem("tests/a.py::test_fast", False), FakeItem(*BESIDE)]
    deferred_timed.defer(fake_config([], str(listing)), items)
    assert len(items) == 2
    assert (tmp_path / f"timed{deferred_timed.BESIDE_SUFFIX}").read_text() == ""


def test_the_modules_run_beside_the_timed_tests_exist_and_use_no_database():
    for module in deferred_timed.BESIDE_TIMED:
        path = PROJECT_ROOT / module
        # The library's own tests: scoring never imports Django.
        assert path.is_file() and module.startswith("tests/scoring/")
        source = path.read_text(encoding="utf-8")
        for waits in ("django_db", "wall_clock", "live_server", "subprocess"):
            assert waits not in source, (module, waits)


def test_a_run_without_timed_tests_writes_an_empty_list(tmp_path):
    listing = tmp_path / "timed"
    listing.write_text("tests/old.py::test_stale\n", encoding="utf-8")
    items = [FakeItem("tests/a.py::test_fast", False)]
    deferred_timed.defer(fake_config([], str(listing)), items)
    assert len(items) == 1 and listing.read_text(encoding="utf-8") == ""


def test_without_the_option_nothing_changes():
    items = [FakeItem(nodeid, timed) for nodeid, timed in ITEMS]
    deselected: list = []
    deferred_timed.defer(fake_config(deselected, ""), items)
    assert len(items) == 4 and deselected == []


def test_a_real_collection_leaves_the_timed_test_out_and_lists_it(tmp_path):
    """Through pytest's own hooks (the project's conftest): one module with a
    timed test, one without; the listing holds the timed test's id only."""
    listing = tmp_path / "timed"
    timed_module = "tests/web/judgments/test_campaign_speed.py"
    plain_module = "tests/test_schedule.py"
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q",
               "-p", "no:cacheprovider", "-n", "0", f"--defer-timed={listing}",
               timed_module, plain_module]  # fmt: skip
    out = subprocess.run(
        command, capture_output=True, text=True, cwd=PROJECT_ROOT, check=True
    ).stdout
    collected = [line for line in out.splitlines() if "::" in line]
    timed = listing.read_text(encoding="utf-8").splitlines()
    assert len(timed) == 1 and timed[0].startswith(f"{timed_module}::")
    assert timed[0] not in collected
    assert collected and all(line.startswith(plain_module) for line in collected)
