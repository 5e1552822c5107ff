"""Checking uploaded files: size, UTF-8 text with one segment per line, and
line counts that match.

Every problem is reported as an ``UploadProblem`` naming the file, the line
(1-based) and what is wrong, so a researcher can fix the file directly.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from scoring import InputFileError, decode_text_file


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
    a final newline adds no segment; UTF-16, compressed files and documents
    are named as such), plus what an upload must also pass: a byte-order mark
    is dropped, and a file without text, a bare carriage return, a NUL
    character or a line longer than ``MTDASH_MAX_SEGMENT_CHARS`` is refused.
    Empty lines are kept (an empty hypothesis is a legitimate, if poor,
    translation).
    """
    try:
        lines = decode_text_file(data, file_name)
    except InputFileError as error:
        raise UploadProblem(file_name, error.line, error.problem) from None
    if not any(line.strip() for line in lines):
        lines_text = (
            "1 line, blank" if len(lines) == 1 else f"{len(lines)} lines, all blank"
        )
        raise UploadProblem(file_name, None, f"the file is empty: {lines_text}")
    limit = max_segment_chars()
    for number, line in enumerate(lines, start=1):
        if "\r" in line:
            raise UploadProblem(
                file_name, number, "contains a bare carriage return (old Mac line end?)"
            )
        if "\x00" in line:
            raise UploadProblem(
                file_name,
                number,
                f"contains a NUL character (character {line.index(chr(0)) + 1})",
            )
        if len(line) > limit:
            raise UploadProblem(
                file_name,
                number,
                f"the line is {len(line):,} characters long; a segment may have "
                f"at most {limit:,} (one segment per line: are line ends missing?)",
            )
    return list(lines)


def max_segment_chars() -> int:
    """The longest line an upload may have (``MTDASH_MAX_SEGMENT_CHARS``)."""
    return getattr(settings, "MTDASH_MAX_SEGMENT_CHARS", MAX_SEGMENT_CHARS)


# Characters in a line: ten times the longest segment of WMT's document-level
# test sets, far below what makes a metric slow on one segment.
MAX_SEGMENT_CHARS = 100_000


_INVISIBLE = {"Cc", "Cf"}  # controls; format characters (zero-width, bidi)


def check_document_ids(file_name: str, ids: Sequence[str]) -> None:
    """Refuse document ids that are blank on some lines only, or that hold an
    invisible character (control, zero-width, bidirectional override): ids are
    compared exactly, so two ids that look the same would name different
    documents."""
    blank = next((n for n, doc in enumerate(ids, start=1) if not doc), None)
    if blank is not None and any(ids):
        raise UploadProblem(
            file_name,
            blank,
            "no document id; give every line an id, or upload no document ids",
        )
    for number, doc in enumerate(ids, start=1):
        hidden = next((c for c in doc if unicodedata.category(c) in _INVISIBLE), None)
        if hidden is not None:
            name = unicodedata.name(hidden, "a control character")
            raise UploadProblem(
                file_name,
                number,
                f"the document id contains U+{ord(hidden):04X} ({name}), an "
                "invisible character; ids that look alike would name different "
                "documents",
            )


def check_size(uploaded: UploadedFile) -> None:
    """Refuse a file over ``MTDASH_MAX_UPLOAD_BYTES`` before reading it."""
    limit = settings.MTDASH_MAX_UPLOAD_BYTES
    if uploaded.size > limit:
        raise UploadProblem(
            uploaded.name,
            None,
            f"the file is {uploaded.size:,} bytes; the limit is {limit:,}",
        )


def check_same_length(
    expected_from: str, expected: int, file_name: str, lines: Sequence[str]
) -> None:
    """Refuse ``file_name`` unless its ``lines`` are as many as the ``expected``
    lines of ``expected_from`` (e.g. "the test set").

    The arguments come in the order of ``scoring.textfiles.check_same_length``
    (what is expected first, then the file checked against it); here the
    expected side is a count, since a test set's segments are not re-read.
    """
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
