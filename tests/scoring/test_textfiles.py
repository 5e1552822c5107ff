"""Reading segment files: one segment per line, UTF-8, errors that say where."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.errors import InputFileError
from scoring.textfiles import check_same_length, read_segments


def test_it_reads_one_segment_per_line_and_no_extra_one_after_the_last_newline(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes("one\n\nthree\u2028still three\x85too\r\nfour".encode())
    assert read_segments(path) == ("one", "", "three\u2028still three\x85too", "four")
    path.write_bytes(b"one\n")
    assert read_segments(path) == ("one",)
    path.write_bytes(b"")
    assert read_segments(path) == ()
    path.write_bytes(b"\n")
    assert read_segments(path) == ("",)


def test_it_names_the_line_and_byte_of_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\nab\xc3(\n")
    with pytest.raises(InputFileError) as raised:
        read_segments(path)
    assert (raised.value.path, raised.value.line) == (str(path), 2)
    assert str(raised.value) == (
        f"{path}: line 2: invalid UTF-8 (byte 0xc3 at byte 3 of the line), "
        "perhaps Latin-1 or Windows-1252 ('Ã')"
    )


def test_it_names_the_first_line_without_a_counterpart() -> None:
    with pytest.raises(InputFileError) as raised:
        check_same_length("hyp.txt", ["a", "b", "c"], "ref.txt", ["a"])
    assert str(raised.value) == (
        "ref.txt has 1 lines but hyp.txt has 3: "
        "line 2 of hyp.txt has no counterpart in ref.txt"
    )
    assert raised.value.line == 2
    check_same_length("hyp.txt", ["a"], "ref.txt", ["b"])
