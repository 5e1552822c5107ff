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
    # short modules in collected order, each pile filled until the piles so
    # far hold the tests xdist first sends (40 per process here), the other
    # piles' first ones before their long modules, to run beside the timed
    # tests (0.4 s expected here: one module covers it).
    assert first == ["timed.py", "slow_cpu.py", "a.py"]
    assert second == ["b.py", "slower.py"]
    assert third == ["c.py", "slow_wait.py"]
    assert schedule.pile_counts(120, 3) == [40, 40, 40]
    assert schedule.pile_counts(10, 3) == [3, 3, 4]
    arranged = schedule.arrange(COLLECTION, 3, SECONDS)
    assert modules_in_order(arranged) == first + second + third


def test_no_process_gets_the_next_piles_first_module_at_the_end_of_its_queue():
    """xdist sends each process a slice of equal count; a pile shorter than
    its slice would put the next pile's head, its longest module, at that
    process's end. Long modules holding most tests, as in a real run."""
    collection = (
        items_of("long_a.py", 50)
        + items_of("short_1.py", 7)
        + items_of("long_b.py", 10)
        + items_of("short_2.py", 11)
        + items_of("long_c.py", 2)
        + items_of("short_3.py", 13)
        + items_of("short_4.py", 5)
        + items_of("short_5.py", 9)
        + items_of("short_6.py", 20)
        + items_of("short_7.py", 30)
    )
    seconds = {"long_a.py": 40.0, "long_b.py": 90.0, "long_c.py": 95.0}
    for workers in (2, 3, 4):
        arranged = schedule.arrange(collection, workers, seconds)
        modules: dict[str, list] = {}
        for item in collection:
            modules.setdefault(item.nodeid.split("::")[0], []).append(item)
        piles = schedule.piles(modules, workers, seconds)
        sizes = [sum(len(modules[name]) for name in pile) for pile in piles]
        slices = schedule.pile_counts(len(arranged), workers)
        for k in range(1, workers):
            assert sum(sizes[:k]) >= sum(slices[:k]), (workers, sizes, slices)


def test_one_process_keeps_the_collected_order():
    assert schedule.arrange(COLLECTION, 0, SECONDS) == COLLECTION
    assert schedule.arrange(COLLECTION, 1, SECONDS) == COLLECTION


def test_the_committed_table_names_existing_modules():
    from tests.support.data_selection import PROJECT_ROOT

    missing = [
        name for name in schedule.module_seconds() if not (PROJECT_ROOT / name).exists()
    ]
    assert missing == []


def test_the_table_is_made_from_recorded_times(tmp_path):
    times = tmp_path / "times.jsonl"
    times.write_text(
        '{"test": "tests/web/test_pages.py::a", "wall": 3.5, "cpu": 1.0}\n'
        '{"test": "tests/web/test_pages.py::TestForms::c", "wall": 1.5, "cpu": 1.5}\n'
        '{"test": "tests/test_quick.py::d", "wall": 0.2, "cpu": 0.2}\n'
    )
    more = tmp_path / "more.jsonl"
    more.write_text('{"test": "tests/web/test_pages.py::b", "wall": 2.0, "cpu": 0.5}\n')
    # Modules under 5 s are left out: they get the default estimate.
    assert schedule.table_from_times(times, more) == {"tests/web/test_pages.py": 7.0}
