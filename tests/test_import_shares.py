"""tests/support/import_shares.py: the shares of the test files that a
parallel run's processes import first."""

from __future__ import annotations

from pathlib import Path

from tests.support.import_shares import share

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def test_the_shares_are_contiguous_and_cover_every_file_once(tmp_path):
    # Sizes 100, 100, 100, 300, 100, 100 bytes: 800 in all.
    files = []
    for index, size in enumerate([100, 100, 100, 300, 100, 100]):
        path = tmp_path / f"test_{index}.py"
        path.write_text("#" * size)
        files.append(path)
    shares = [share(files, index, 3) for index in range(3)]
    assert [[path.name for path in part] for part in shares] == [
        ["test_0.py", "test_1.py", "test_2.py"],  # starts at 0, 100, 200 < 266.7
        ["test_3.py"],  # starts at 300 < 533.3
        ["test_4.py", "test_5.py"],  # starts at 600, 700
    ]


def test_one_process_imports_everything():
    files = sorted((PROJECT_ROOT / "tests").rglob("test_*.py"))
    assert share(files, 0, 1) == files
