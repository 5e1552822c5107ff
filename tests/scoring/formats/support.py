"""Corpus files for the format tests: WMT21 folders as ZIP archives, small
hand-written files in each format, and archives with hostile members."""

from __future__ import annotations

import io
import stat
import zipfile

from tests.scoring.support.realdata import WMT21_DIR, read_lines

# The WMT21 files of the fixtures mirror (a subset of the full folders).
WMT21_FILES = {
    "de-en": ("src.de", ["A", "B"], ["Facebook-AI", "Online-W", "VolcTrans-AT"]),
    "en-de": ("src.en", ["A", "C", "D"], ["Facebook-AI", "Online-W", "UEdin"]),
    "ru-en": ("src.ru", ["A", "B"], ["Facebook-AI", "Online-Y"]),
}


def wmt21_streams(pair: str) -> dict[str, list[str]]:
    """Column name -> lines of the pair's plain files (as on disk)."""
    source, references, systems = WMT21_FILES[pair]
    target = pair.split("-")[1]
    folder = WMT21_DIR / pair
    streams = {"source": read_lines(folder / source)}
    for label in references:
        streams[f"ref:{label}"] = read_lines(folder / f"ref.{label}.{target}")
    for name in systems:
        streams[f"system:{name}"] = read_lines(folder / "sys" / f"{name}.{target}")
    return streams


def wmt21_zip(pair: str, *, extra: dict[str, bytes] | None = None) -> bytes:
    """The pair's folder as WMT lays it out (``<pair>/src.de``,
    ``<pair>/ref.A.en``, ``<pair>/sys/<name>.en``, ``docids``), zipped."""
    source, references, systems = WMT21_FILES[pair]
    target = pair.split("-")[1]
    folder = WMT21_DIR / pair
    names = [source, *(f"ref.{label}.{target}" for label in references)]
    names += [f"sys/{name}.{target}" for name in systems]
    if (folder / "docids").is_file():
        names.append("docids")
    files = {f"{pair}/{name}": (folder / name).read_bytes() for name in names}
    files.update(extra or {})
    return make_zip(files)


def make_zip(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def symlink_zip(name: str, target: str) -> bytes:
    """A ZIP whose member ``name`` is a Unix symbolic link to ``target``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo(name)
        info.create_system = 3  # Unix: the mode bits are in external_attr
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, target)
        archive.writestr("ref.A.en", "one\n")
    return buffer.getvalue()
