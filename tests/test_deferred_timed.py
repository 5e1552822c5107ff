"""tests/support/deferred_timed.py: with --defer-timed=FILE, the timed
tests leave the parallel run (deselected) and are listed for bin/test."""

from __future__ import annotations

import os
from types import SimpleNamespace

from tests.support import deferred_timed


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
    assert list(tmp_path.iterdir()) == [listing]  # no partial file left


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


def test_a_pytest_run_started_by_a_test_does_not_inherit_the_option():
    """The nested runs of tests/test_data_selection.py, for one, start
    ``pytest`` with the environment of this one: an environment variable
    reached them, and their empty lists replaced the real one."""
    assert deferred_timed.OPTION.startswith("--")
    assert not any("DEFER" in name for name in os.environ)
