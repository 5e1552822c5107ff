"""Reading plain-text segment files: UTF-8, one segment per line.

Lines are split on ``"\\n"`` only (a ``"\\r"`` before it is dropped, for files
written on Windows). ``str.splitlines()`` is deliberately not used: it would
also split on U+2028, U+0085 and other characters that real MT data contains
inside segments, silently shifting every following segment.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from scoring.errors import InputFileError


def read_segments(path: str | os.PathLike[str]) -> tuple[str, ...]:
    """Return the segments of a UTF-8 text file, one per line.

    A final newline does not start an extra (empty) segment; an empty file has
    no segments. Raises :class:`InputFileError` naming the file (and, for bad
    UTF-8, the line and column) when the file cannot be read or decoded.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as error:
        message = f"{name}: cannot read file: {error.strerror}"
        raise InputFileError(message, name) from None
    return decode_segments(data, name)


def decode_segments(
    data: bytes, name: str, *, strip_byte_order_mark: bool = False
) -> tuple[str, ...]:
    """Decode UTF-8 ``data`` (the contents of file ``name``) into segments.

    Same rules as :func:`read_segments`. A leading byte-order mark is kept as
    text unless ``strip_byte_order_mark`` (sacreBLEU keeps it too; the web
    upload strips it, since editors add it without asking).
    """
    try:
        text = data.decode("utf-8-sig" if strip_byte_order_mark else "utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputFileError(
            f"{name}: line {line}: invalid UTF-8 (byte 0x{data[error.start]:02x} "
            f"at byte {column} of the line)",
            name,
            line,
        ) from None
    if not text:
        return ()
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it adds no segment
    return tuple(line[:-1] if line.endswith("\r") else line for line in lines)


def check_same_length(
    expected_path: str,
    expected_segments: Sequence[str],
    path: str,
    segments: Sequence[str],
) -> None:
    """Raise :class:`InputFileError` unless ``path`` has as many lines as
    ``expected_path``.

    The message names both files and the first line without a counterpart.
    """
    if len(segments) == len(expected_segments):
        return
    if len(segments) < len(expected_segments):
        shorter, longer = path, expected_path
    else:
        shorter, longer = expected_path, path
    first_unmatched = min(len(segments), len(expected_segments)) + 1
    raise InputFileError(
        f"{path} has {len(segments)} lines but {expected_path} has "
        f"{len(expected_segments)}: line {first_unmatched} of {longer} has no "
        f"counterpart in {shorter}",
        path,
        first_unmatched,
    )
