"""Plain text: one segment per line; what the file is comes from its name.

A plain file holds one stream. Its role is read from the file name, as WMT
names its files (``wmt21/<pair>/`` and the ``txt/`` releases), the name
split at dots:

* ``docids`` (or a ``docids`` part): document ids, the first TAB-separated
  field of each line (``ru-en/docids`` has ``docid<TAB>seg_in_doc``);
* a ``src`` or ``source`` part: the source (``src.de``,
  ``newstest2021.de-en.src.de``, ``test.src``);
* a ``ref`` or ``reference`` part: a reference, labelled by the parts
  between it and the last part (``ref.A.en`` -> ``A``,
  ``newstest2021.en-de.ref.C.de`` -> ``C``), else by the parts before it
  (``test.ref`` -> ``test``), else ``ref``;
* in a ``sys/``, ``hyp/``, ``systems/`` or ``system-outputs/`` folder, or
  with a ``hyp``, ``sys``, ``tst`` or ``output`` part: a system output,
  named by the file name without its last part (``sys/Facebook-AI.de`` ->
  ``Facebook-AI``) or by the parts between ``hyp`` and the last part.

A file read on its own whose name says none of this is a system output
named after the file; in an archive it is skipped (and listed as skipped),
since an archive of a WMT folder also holds scores and human judgements.

The language of ``src.<xx>``, ``ref.<X>.<xx>`` and ``sys/<name>.<xx>`` is
taken from the name when ``xx`` is two or three lower-case letters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from scoring.formats.model import (
    DOCIDS,
    REFERENCE,
    SOURCE,
    SYSTEM,
    ReadFile,
    Segment,
    Stream,
)
from scoring.formats.text import decode_text

_SYSTEM_FOLDERS = {"sys", "hyp", "hyps", "systems", "system-outputs", "outputs"}
_SYSTEM_PARTS = {"hyp", "sys", "tst", "output", "hypothesis"}
_NOT_LANGUAGES = {"txt", "tsv", "sgm", "xml", "gz", "zip", "out", "hyp", "ref", "src"}
_LANGUAGE = re.compile("[a-z]{2,3}")


@dataclass(frozen=True)
class NamedRole:
    """What a file name says a plain file is."""

    role: str
    label: str | None
    language: str | None = None


def role_from_name(path: str) -> NamedRole | None:
    """The role a WMT-style file name gives, or None (see module docstring)."""
    pure = PurePosixPath(path)
    parts = pure.name.split(".")
    lowered = [part.lower() for part in parts]
    language = lowered[-1] if len(parts) > 1 else None
    if language is not None and (
        not _LANGUAGE.fullmatch(language) or language in _NOT_LANGUAGES
    ):
        language = None
    if "docids" in lowered:
        return NamedRole(DOCIDS, None)
    if pure.parent.name.lower() in _SYSTEM_FOLDERS:
        name = ".".join(parts[:-1]) if len(parts) > 1 else parts[0]
        return NamedRole(SYSTEM, name, language)
    for words, role in (
        (("src", "source"), SOURCE),
        (("ref", "reference"), REFERENCE),
        (_SYSTEM_PARTS, SYSTEM),
    ):
        index = next((i for i, part in enumerate(lowered) if part in words), None)
        if index is None:
            continue
        if role == SOURCE:
            return NamedRole(
                SOURCE, None, language if index == len(parts) - 2 else None
            )
        label = ".".join(parts[index + 1 : -1]) or ".".join(parts[:index])
        named_language = language if index < len(parts) - 1 else None
        return NamedRole(role, label or parts[index], named_language)
    return None


def default_role(path: str) -> NamedRole:
    """A file read on its own: its named role, else a system named after it."""
    named = role_from_name(path)
    if named is not None:
        return named
    name = PurePosixPath(path).name
    return NamedRole(SYSTEM, name.rsplit(".", 1)[0] if "." in name[1:] else name)


def read_plain(text: str, file: str, named: NamedRole) -> ReadFile:
    """The one stream of a plain file (already decoded, LF line ends)."""
    lines = text.split("\n")
    if named.role == DOCIDS:
        lines = [line.split("\t", 1)[0] for line in lines]
    stream = Stream(
        named.role,
        named.label,
        file,
        [Segment(line, number) for number, line in enumerate(lines, start=1)],
    )
    read = ReadFile("plain", file, [stream])
    if named.language is not None and named.role == SOURCE:
        read.source_language = named.language
    elif named.language is not None and named.role in (REFERENCE, SYSTEM):
        read.target_language = named.language
    return read


def decode_plain(data: bytes, file: str, named: NamedRole) -> ReadFile:
    """Decode ``data`` and read it as plain text."""
    return read_plain(decode_text(data, file), file, named)


def write_plain(segments: tuple[str, ...] | list[str]) -> bytes:
    """One segment per line, UTF-8, a final newline."""
    return "".join(f"{segment}\n" for segment in segments).encode("utf-8")
