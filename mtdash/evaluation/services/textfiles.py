"""Reading uploaded plain-text files: UTF-8, one segment per line.

Every problem is reported as an ``UploadProblem`` naming the file, the line
(1-based) and what is wrong, so a researcher can fix the file directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import InputFileError
from scoring.textfiles import decode_segments


@dataclass(frozen=True)
class UploadProblem(Exception):
    """A reason to refuse an upload; ``line`` is 1-based, None for the whole file."""

    file_name: str
    line: int | None
    problem: str

    def __str__(self) -> str:
        where = f"{self.file_name}, line {self.line}" if self.line else self.file_name
        return f"{where}: {self.problem}"


def read_segments(data: bytes, file_name: str) -> list[str]:
    """Decode ``data`` and split it into segments, one per line.

    Decoding and line splitting are those of the ``scoring`` CLI (LF or CRLF,
    a final newline adds no segment), plus what an upload must also pass: a
    byte-order mark is dropped, and a file without text, a bare carriage
    return or a NUL character is refused. Empty lines are kept (an empty
    hypothesis is a legitimate, if poor, translation).
    """
    if not data.strip():
        raise UploadProblem(file_name, None, "the file is empty")
    try:
        lines = decode_segments(data, file_name, strip_byte_order_mark=True)
    except InputFileError as error:
        problem = str(error).removeprefix(f"{file_name}: line {error.line}: ")
        raise UploadProblem(file_name, error.line, f"{problem}; save the file as UTF-8") from None
    for number, line in enumerate(lines, start=1):
        if "\r" in line:
            raise UploadProblem(
                file_name, number, "contains a bare carriage return (old Mac line end?)"
            )
        if "\x00" in line:
            raise UploadProblem(file_name, number, "contains a NUL character")
    return list(lines)


def check_same_length(
    lines: list[str], file_name: str, expected: int, expected_from: str
) -> None:
    """Refuse a file whose number of lines differs from ``expected``."""
    if len(lines) < expected:
        raise UploadProblem(
            file_name,
            len(lines) + 1,
            f"the file ends after {len(lines)} lines, but {expected_from} has "
            f"{expected}; every line must be the translation of the same line there",
        )
    if len(lines) > expected:
        raise UploadProblem(
            file_name,
            expected + 1,
            f"extra line: {expected_from} has only {expected} lines",
        )
