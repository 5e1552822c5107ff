"""gzip and ZIP: unpacked in memory, within limits, refusing hostile archives.

A gzip file holds one corpus file. A ZIP archive holds several (a WMT
folder: ``src.de``, ``ref.A.en``, ``sys/<name>.en``, or SGML/XML/TSV
files), read by :mod:`scoring.formats.reader` and merged into one corpus.

What is refused, before anything is unpacked: more than
``max_members`` entries; a member whose path leaves the archive (``..``,
an absolute path, a drive letter); a symbolic link (Unix mode in the
external attributes); an encrypted member; two members of one name; and
archives whose headers declare more than ``max_total_bytes``. Headers can
lie, so sizes are also counted while unpacking: a member that expands to
more than ``max_ratio`` times its compressed size (beyond a
``ratio_allowance``, so small files of repeated lines pass), or a total
beyond ``max_total_bytes``, stops the unpacking at once (zip bombs). An
archive inside an archive is not read. macOS and Windows extras
(``__MACOSX/``, ``._*``, ``.DS_Store``, ``Thumbs.db``) and folders are
passed over.
"""

from __future__ import annotations

import io
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from scoring.formats.model import CorpusFormatError

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")  # an archive; an empty archive
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class ArchiveLimits:
    """How much an archive may hold (bytes are uncompressed bytes)."""

    #: Entries in a ZIP archive (a WMT pair folder has about 30).
    max_members: int = 1000
    #: Everything unpacked from one upload: far above a test set with 100
    #: systems (WMT21 en-de: 24 files, 7 MB), far below the server's memory.
    max_total_bytes: int = 256 * 1024 * 1024
    #: Text deflates about 3-5 times; a bomb of zeros about 1000 times.
    max_ratio: int = 100
    #: Bytes a member may expand to whatever its ratio.
    ratio_allowance: int = 1024 * 1024


DEFAULT_LIMITS = ArchiveLimits()


@dataclass(frozen=True)
class Member:
    """One file unpacked from an archive."""

    name: str  # path inside the archive, "/" separated
    data: bytes


class Budget:
    """Counts unpacked bytes against the limits, member by member."""

    def __init__(self, archive: str, limits: ArchiveLimits) -> None:
        self.archive = archive
        self.limits = limits
        self.total = 0

    def add(self, member: str, produced: int, compressed: int, size: int) -> None:
        """``size`` more bytes of ``member``; ``produced`` so far in all."""
        self.total += size
        limits = self.limits
        if self.total > limits.max_total_bytes:
            raise CorpusFormatError(
                self.archive,
                None,
                f"unpacks to more than {limits.max_total_bytes:,} bytes (the limit); "
                "refused as a possible zip bomb",
            )
        if produced > limits.max_ratio * compressed + limits.ratio_allowance:
            raise CorpusFormatError(
                self.archive,
                None,
                f"{member} expands to more than {limits.max_ratio} times its "
                f"compressed size ({produced:,} bytes from {compressed:,}); "
                "refused as a possible zip bomb",
            )


def gunzip(
    data: bytes,
    name: str,
    limits: ArchiveLimits = DEFAULT_LIMITS,
    budget: Budget | None = None,
) -> bytes:
    """The contents of gzip ``data`` (several concatenated members allowed)."""
    budget = budget or Budget(name, limits)
    out = bytearray()
    remaining = data
    while remaining:
        decompressor = zlib.decompressobj(wbits=31)
        pending = remaining
        try:
            while not decompressor.eof:
                chunk = decompressor.decompress(pending, _CHUNK)
                pending = decompressor.unconsumed_tail
                if not chunk and not pending:
                    break
                out += chunk
                budget.add(name, len(out), len(data), len(chunk))
        except zlib.error as error:
            raise CorpusFormatError(
                name, None, f"damaged gzip data ({error})"
            ) from None
        if not decompressor.eof:
            raise CorpusFormatError(name, None, "the gzip data is cut short")
        remaining = decompressor.unused_data.lstrip(b"\x00")  # padding after members
    return bytes(out)


def unzip(
    data: bytes, name: str, limits: ArchiveLimits = DEFAULT_LIMITS
) -> tuple[list[Member], list[tuple[str, str]]]:
    """The members of ZIP ``data`` worth reading, and those passed over (with why)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise CorpusFormatError(
            name, None, f"not a readable ZIP archive ({error})"
        ) from None
    with archive:
        entries = archive.infolist()
        if len(entries) > limits.max_members:
            raise CorpusFormatError(
                name,
                None,
                f"the archive has {len(entries):,} entries; at most "
                f"{limits.max_members:,} are read",
            )
        chosen, skipped = _check_entries(entries, name, limits)
        budget = Budget(name, limits)
        members = []
        for entry, path in chosen:
            member_data = _read_entry(archive, entry, path, len(data), budget)
            members.append(Member(path, member_data))
    return members, skipped


def _check_entries(
    entries: list[zipfile.ZipInfo], name: str, limits: ArchiveLimits
) -> tuple[list[tuple[zipfile.ZipInfo, str]], list[tuple[str, str]]]:
    chosen: list[tuple[zipfile.ZipInfo, str]] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()
    declared = 0
    for entry in entries:
        path = entry.filename.replace("\\", "/")
        parts = PurePosixPath(path).parts
        if path.startswith("/") or (len(path) > 1 and path[1] == ":") or ".." in parts:
            raise CorpusFormatError(
                name,
                None,
                f"member {entry.filename!r} has a path outside the archive (absolute "
                "or with '..'); refused",
            )
        mode = entry.external_attr >> 16
        if entry.create_system == 3 and stat.S_ISLNK(mode):
            raise CorpusFormatError(
                name,
                None,
                f"member {entry.filename!r} is a symbolic link; an archive may hold "
                "only files and folders",
            )
        if entry.flag_bits & 0x1:
            raise CorpusFormatError(
                name, None, f"member {entry.filename!r} is encrypted; refused"
            )
        if path in seen:
            raise CorpusFormatError(
                name, None, f"member {entry.filename!r} appears twice; refused"
            )
        seen.add(path)
        if entry.is_dir() or path.endswith("/"):
            continue
        base = PurePosixPath(path).name
        if (
            "__MACOSX" in parts
            or base.startswith("._")
            or base in (".DS_Store", "Thumbs.db", "desktop.ini")
        ):
            skipped.append((path, "operating-system metadata"))
            continue
        declared += entry.file_size
        chosen.append((entry, path))
    if declared > limits.max_total_bytes:
        raise CorpusFormatError(
            name,
            None,
            f"the archive declares {declared:,} bytes unpacked; the limit is "
            f"{limits.max_total_bytes:,}",
        )
    return chosen, skipped


def _read_entry(
    archive: zipfile.ZipFile,
    entry: zipfile.ZipInfo,
    path: str,
    archive_size: int,
    budget: Budget,
) -> bytes:
    # The compressed size comes from the header too; it cannot exceed the
    # archive, so the ratio is checked against the smaller of the two.
    compressed = max(1, min(entry.compress_size, archive_size))
    out = bytearray()
    try:
        with archive.open(entry) as handle:
            while chunk := handle.read(_CHUNK):
                out += chunk
                budget.add(path, len(out), compressed, len(chunk))
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise CorpusFormatError(
            budget.archive, None, f"member {path!r} is damaged ({error})"
        ) from None
    except NotImplementedError as error:
        raise CorpusFormatError(
            budget.archive, None, f"member {path!r} cannot be unpacked ({error})"
        ) from None
    return bytes(out)
