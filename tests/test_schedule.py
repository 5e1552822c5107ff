"""The parallel run's order (tests/support/schedule.py) on made-up items."""

from __future__ import annotations

from dataclasses import dataclass

from tests.support import schedule


@dataclass(frozen=True)
class FakeItem:
    nodeid: str
    timed: bool = False

    def get_closest_marker(self, name):
        return object() if self.timed and name == schedule.TIMED_MARKER else None


def items_of(module: str, n: int, timed: bool = False) -> list[FakeItem]:
    return [FakeItem(f"{module}::test_{i}", timed) for i in range(n)]


def modules_in_order(items) -> list[str]:
    names: list[str] = []
    for item in items:
        name = item.nodeid.split("::")[0]
        if not names or names[-1] != name:
            names.append(name)
    return names


COLLECTION = (
    items_of("a.py", 30)
    + items_of("slow_wait.py", 3)
    + items_of("timed.py", 2, timed=True)
    + items_of("b.py", 30)
    + items_of("slow_cpu.py", 20)
    + items_of("c.py", 30)
    + items_of("slower.py", 5)
)
SECONDS = {"slow_wait.py": 90.0, "slow_cpu.py": 60.0, "slower.py": 100.0}


def test_every_item_is_kept_once_and_each_module_stays_together_in_order():
    arranged = schedule.arrange(COLLECTION, 3, SECONDS)
    assert sorted(i.nodeid for i in arranged) == sorted(i.nodeid for i in COLLECTION)
    names = modules_in_order(arranged)
    assert len(names) == len(set(names))
    for name in names:
        in_order = [i for i in COLLECTION if i.nodeid.startswith(name + "::")]
        assert [i for i in arranged if i.nodeid.startswith(name + "::")] == in_order


def test_timed_modules_lead_and_long_modules_are_dealt_to_the_least_loaded_pile():
    modules: dict[str, list] = {}
    for item in COLLECTION:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    first, second, third = schedule.piles(modules, 3, SECONDS)
    # Timed first; the longest module to the emptiest pile, and so on; the
    # short modules where the most tests are missing (40 per pile here),
    # the other piles' first ones before their long modules, to run beside
    # the timed tests (0.4 s expected here: one module covers it).
    assert first == ["timed.py", "slow_cpu.py", "c.py"]
    assert second == ["b.py", "slower.py"]
    assert third == ["a.py", "slow_wait.py"]
    assert schedule.pile_counts(120, 3) == [40, 40, 40]
    assert schedule.pile_counts(10, 3) == [3, 3, 4]
    arranged = schedule.arrange(COLLECTION, 3, SECONDS)
    assert modules_in_order(arranged) == first + second + third


def test_one_process_keeps_the_collected_order():
    assert schedule.arrange(COLLECTION, 0, SECONDS) == COLLECTION
    assert schedule.arrange(COLLECTION, 1, SECONDS) == COLLECTION


def test_the_committed_table_names_existing_modules():
    from tests.support.data_selection import PROJECT_ROOT

    missing = [
        name for name in schedule.module_seconds() if not (PROJECT_ROOT / name).exists()
    ]
    assert missing == []


def test_the_table_is_made_from_a_junit_report(tmp_path):
    report = tmp_path / "report.xml"
    report.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.web.test_pages" name="a" time="3.5"/>'
        '<testcase classname="tests.web.test_pages" name="b" time="2.0"/>'
        '<testcase classname="tests.web.test_pages.TestForms" name="c" time="1.5"/>'
        '<testcase classname="tests.test_quick" name="d" time="0.2"/>'
        "</testsuite></testsuites>"
    )
    # Modules under 5 s are left out: they get the default estimate.
    assert schedule.seconds_from_junit(report) == {"tests/web/test_pages.py": 7.0}
