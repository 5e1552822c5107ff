"""Reading plain-text segment files: UTF-8, one segment per line.

Lines are split on ``"\\n"`` only (a ``"\\r"`` before it is dropped, for files
written on Windows). ``str.splitlines()`` is deliberately not used: it would
also split on U+2028, U+0085 and other characters that real MT data contains
inside segments, silently shifting every following segment. A leading UTF-8
byte-order mark is dropped, on the command line as in the web uploads.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Sequence

from scoring.errors import InputFileError


def read_segments(path: str | os.PathLike[str]) -> tuple[str, ...]:
    """Return the segments of a UTF-8 text file, one per line.

    A final newline does not start an extra (empty) segment; an empty file has
    no segments; a leading byte-order mark is dropped (:func:`decode_segments`). Raises :class:`InputFileError` naming the file (and, for bad
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
    data: bytes, name: str, *, strip_byte_order_mark: bool = True
) -> tuple[str, ...]:
    """Decode UTF-8 ``data`` (the contents of file ``name``) into segments.

    Same rules as :func:`read_segments`. A leading byte-order mark is dropped:
    editors add it without asking, and kept as text it would be part of the
    first word (sacreBLEU keeps it, so its BLEU of such a file differs). The
    command line and the web read every file through here, so both score the
    same text under the same signature; ``strip_byte_order_mark=False`` keeps
    the mark, for a caller that must reproduce sacreBLEU's reading.

    A file that is not UTF-8 text is refused by what it is when that can be
    told for sure: UTF-16 or UTF-32 (by the byte-order mark, or by every
    second byte being NUL), or a compressed file, document, image or program
    (by its first bytes). Otherwise invalid UTF-8 is refused naming the line
    and the byte, with the character it would be in Windows-1252 when the
    file looks like Latin-1 text.
    """
    what = non_utf8_file(data)
    if what is not None:
        raise InputFileError(f"{name}: {what}", name)
    try:
        text = data.decode("utf-8-sig" if strip_byte_order_mark else "utf-8")
    except UnicodeDecodeError as error:
        # "utf-8-sig" counts positions after the mark it dropped.
        dropped = strip_byte_order_mark and data.startswith(codecs.BOM_UTF8)
        position = error.start + (len(codecs.BOM_UTF8) if dropped else 0)
        line = data.count(b"\n", 0, position) + 1
        column = position - (data.rfind(b"\n", 0, position) + 1) + 1
        raise InputFileError(
            f"{name}: line {line}: invalid UTF-8 (byte 0x{data[position]:02x} "
            f"at byte {column} of the line){_utf8_error_hint(data, position, error.reason)}",
            name,
            line,
        ) from None
    if not text:
        return ()
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it adds no segment
    return tuple(line[:-1] if line.endswith("\r") else line for line in lines)


_SAVE_AS_UTF8 = "save it as UTF-8"
_NOT_TEXT = "not plain text; upload the text itself, UTF-8, one segment per line"

# Byte-order marks, longest first (the UTF-32 LE mark starts with UTF-16 LE's).
_BYTE_ORDER_MARKS = (
    (b"\xff\xfe\x00\x00", "UTF-32 little-endian"),
    (b"\x00\x00\xfe\xff", "UTF-32 big-endian"),
    (b"\xff\xfe", "UTF-16 little-endian"),
    (b"\xfe\xff", "UTF-16 big-endian"),
)

# First bytes of formats people upload by mistake; none can start UTF-8 text
# (each contains a byte that is invalid there, or a NUL).
_MAGIC_NUMBERS = (
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file"),
    (b"PK\x03\x04", "a ZIP archive (or a .docx, .xlsx or .odt document)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Microsoft Office document (.doc or .xls)"),
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\x7fELF", "a program (ELF executable)"),
)


def decode_text_file(data: bytes, name: str) -> tuple[str, ...]:
    """The lines of an uploaded text file, refusing an empty one.

    :func:`decode_segments` with the byte-order mark dropped, plus the two
    ways a file can hold nothing. Every :class:`InputFileError` carries its
    ``problem`` without the place, so callers (the web upload checks, the
    corpus readers) can name the file and line in their own style.
    """
    if not data:
        problem = "the file is empty (0 bytes)"
        raise InputFileError(f"{name}: {problem}", name, None, problem)
    try:
        lines = decode_segments(data, name, strip_byte_order_mark=True)
    except InputFileError as error:
        where = f"{name}: line {error.line}: " if error.line else f"{name}: "
        problem = str(error).removeprefix(where)
        if problem.startswith("invalid UTF-8"):
            problem += "; save the file as UTF-8"
        raise InputFileError(str(error), name, error.line, problem) from None
    if not lines:
        problem = "the file is empty (only a byte-order mark)"
        raise InputFileError(f"{name}: {problem}", name, None, problem)
    return lines


def non_utf8_file(data: bytes) -> str | None:
    """What ``data`` is when it is plainly not UTF-8 text, else None.

    For example ``"the file is UTF-16 little-endian (it starts with the
    byte-order mark FF FE), not UTF-8; save it as UTF-8"``. Only certain
    cases are named: a byte-order mark of UTF-16 or UTF-32, NUL in every
    second (or fourth) byte of the start, or the first bytes of a compressed
    file, an Office or PDF document, an image or a program.
    """
    for mark, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return (
                f"the file is {encoding} (it starts with the byte-order mark "
                f"{mark.hex(' ').upper()}), not UTF-8; {_SAVE_AS_UTF8}"
            )
    for magic, kind in _MAGIC_NUMBERS:
        if data.startswith(magic):
            return f"this is {kind}, {_NOT_TEXT}"
    if b"\x00" in data[:4096]:
        encoding = _utf16_or_32_without_mark(data[:4096])
        if encoding is not None:
            return (
                f"the file looks like {encoding} without a byte-order mark "
                f"(NUL bytes between the letters), not UTF-8; {_SAVE_AS_UTF8}"
            )
    return None


def _utf16_or_32_without_mark(head: bytes) -> str | None:
    """UTF-16/32 of mostly ASCII text: NUL at fixed positions of each unit."""
    head = head[: len(head) - len(head) % 4]
    if len(head) < 4:
        return None
    for width, encoding in ((4, "UTF-32"), (2, "UTF-16")):
        units = len(head) // width
        nul_share = [head[offset::width].count(0) / units for offset in range(width)]
        if width == 4:
            if min(nul_share[1:3]) > 0.9 and nul_share[3] > 0.9:
                return f"{encoding} little-endian"
            if min(nul_share[:3]) > 0.9:
                return f"{encoding} big-endian"
        else:
            if nul_share[1] > 0.9 and nul_share[0] < 0.5:
                return f"{encoding} little-endian"
            if nul_share[0] > 0.9 and nul_share[1] < 0.5:
                return f"{encoding} big-endian"
    return None


def _utf8_error_hint(data: bytes, position: int, reason: str) -> str:
    """A hint after the invalid UTF-8 byte at ``position``: the end of the
    file cuts a character, or the byte reads as a letter or typographic sign
    in Windows-1252 (Latin-1) and is followed by plain ASCII, as in Latin-1
    text."""
    if reason == "unexpected end of data":
        return "; the file ends in the middle of a character"
    following = data[position + 1 : position + 2]
    if following and following[0] >= 0x80:
        return ""
    try:
        character = data[position : position + 1].decode("cp1252")
    except UnicodeDecodeError:
        return ""
    if (
        character.isalpha()
        or character
        in "\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u20ac\xab\xbb\xb0\xa3"
    ):
        return f", perhaps Latin-1 or Windows-1252 ({character!r})"
    return ""


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
