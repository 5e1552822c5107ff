"""Reading uploaded plain-text files: UTF-8, one segment per line.

Every problem is reported as an ``UploadProblem`` naming the file, the line
(1-based) and what is wrong, so a researcher can fix the file directly.
"""

from __future__ import annotations

from dataclasses import dataclass


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

    Accepts LF and CRLF line endings and a UTF-8 byte-order mark; a final
    newline does not start another segment. Empty lines are kept (an empty
    hypothesis is a legitimate, if poor, translation); a file with no text at
    all is refused.
    """
    if not data.strip():
        raise UploadProblem(file_name, None, "the file is empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise UploadProblem(
            file_name,
            line,
            f"not valid UTF-8 (byte 0x{data[error.start]:02x} at column {column}); "
            "save the file as UTF-8",
        ) from None
    text = text.replace("\r\n", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    # str.splitlines() would also split on U+2028, form feeds and the like,
    # which other MT tools treat as ordinary characters: only "\n" ends a line.
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if "\r" in line:
            raise UploadProblem(
                file_name, number, "contains a bare carriage return (old Mac line end?)"
            )
        if "\x00" in line:
            raise UploadProblem(file_name, number, "contains a NUL character")
    return lines


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
