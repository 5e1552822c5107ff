"""tests/support/deferred_timed.py: with MTDASH_DEFER_TIMED set, the timed
tests leave the parallel run (deselected) and are listed for bin/test."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.support import deferred_timed


class FakeItem:
    def __init__(self, nodeid: str, timed: bool):
        self.nodeid, self.timed = nodeid, timed

    def get_closest_marker(self, name):
        return object() if self.timed and name == "wall_clock" else None


def fake_config(deselected: list):
    hook = SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items))
    return SimpleNamespace(hook=hook)


ITEMS = [
    ("tests/a.py::test_fast", False),
    ("tests/b_speed.py::test_page_within_300_ms", True),
    ("tests/c.py::test_it[x-1]", False),
    ("tests/d_speed.py::test_import[100000 rows]", True),
]


def test_timed_tests_are_deselected_and_listed_in_order(tmp_path, monkeypatch):
    listing = tmp_path / "timed"
    monkeypatch.setenv(deferred_timed.ENV, str(listing))
    items = [FakeItem(nodeid, timed) for nodeid, timed in ITEMS]
    deselected: list = []
    deferred_timed.defer(fake_config(deselected), items)
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


def test_a_run_without_timed_tests_writes_an_empty_list(tmp_path, monkeypatch):
    listing = tmp_path / "timed"
    listing.write_text("tests/old.py::test_stale\n", encoding="utf-8")
    monkeypatch.setenv(deferred_timed.ENV, str(listing))
    items = [FakeItem("tests/a.py::test_fast", False)]
    deferred_timed.defer(fake_config([]), items)
    assert len(items) == 1 and listing.read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("value", [None, ""])
def test_without_the_variable_nothing_changes(tmp_path, monkeypatch, value):
    if value is None:
        monkeypatch.delenv(deferred_timed.ENV, raising=False)
    else:
        monkeypatch.setenv(deferred_timed.ENV, value)
    items = [FakeItem(nodeid, timed) for nodeid, timed in ITEMS]
    deselected: list = []
    deferred_timed.defer(fake_config(deselected), items)
    assert len(items) == 4 and deselected == []
