"""What every corpus reader produces: streams of segments, then one corpus.

A reader turns a file into :class:`Stream` objects (the source, each
reference, each system output, or document ids), each segment remembering
its document, its segment id and its line, so that errors can name them.
:mod:`scoring.formats.align` then lines the streams up into one
:class:`ParsedCorpus`.

Streams are named as the columns of the TSV format: ``source``,
``ref:<label>``, ``system:<name>`` and ``docid``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import InputFileError

SOURCE = "source"
REFERENCE = "reference"
SYSTEM = "system"
DOCIDS = "docid"

#: What kind of NIST set a file (or a stream) is.
SET_KINDS = {SOURCE: "srcset", REFERENCE: "refset", SYSTEM: "tstset"}


class CorpusFormatError(InputFileError):
    """A corpus file that cannot be read: names the file, the line, the problem.

    ``str(error)`` is ``"<file>, line <n>: <problem>"`` (or ``"<file>:
    <problem>"`` when no single line is at fault), the style of the web
    upload messages; ``path``, ``line`` and ``problem`` hold the parts.
    Members of an archive are named ``archive.zip/member``.
    """

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        where = f"{path}, line {line}" if line else path
        super().__init__(f"{where}: {problem}", path, line)
        self.problem = problem


@dataclass(frozen=True)
class Segment:
    """One segment as read: its text, where it is, and its key if any."""

    text: str
    line: int  # 1-based line of the file where the segment starts
    document: str | None = None  # document id (SGML, WMT XML, TSV docid column)
    seg_id: str | None = None  # the id of <seg id=...>, as written


@dataclass
class Stream:
    """The segments of one role read from one file, in file order.

    ``role`` is ``source``, ``reference``, ``system`` or ``docid``;
    ``label`` names a reference (translator) or a system. ``document_lines``
    holds the line of each document's opening tag (SGML, XML), for messages.
    """

    role: str
    label: str | None
    file: str
    segments: list[Segment] = field(default_factory=list)
    document_lines: dict[str, int] = field(default_factory=dict)

    @property
    def keyed(self) -> bool:
        """True when segments carry (document, segment id) keys (SGML, XML)."""
        return bool(self.segments) and self.segments[0].seg_id is not None

    @property
    def name(self) -> str:
        """The stream's column name: ``source``, ``ref:A``, ``system:X``."""
        return stream_name(self.role, self.label)

    def describe(self) -> str:
        """For messages: ``the source``, ``reference 'A'``, ``system 'X'``."""
        if self.role == SOURCE:
            return "the source"
        if self.role == DOCIDS:
            return "the document ids"
        return f"{self.role} {self.label!r}"


def stream_name(role: str, label: str | None) -> str:
    """Column name of a stream (see the module docstring)."""
    if role == REFERENCE:
        return f"ref:{label}"
    if role == SYSTEM:
        return f"system:{label}"
    return role


@dataclass(frozen=True)
class ParsedCorpus:
    """Everything a corpus file (or archive) holds, lined up segment by segment.

    Attributes:
        format: what was read: ``plain``, ``sgml``, ``wmt-xml``, ``tsv`` or
            ``zip`` (an archive of several files).
        detected: a sentence saying what was found, e.g. ``"gzip-compressed
            NIST SGML (tstset), 1 system, 2,001 segments in 62 documents"``.
        kind: ``srcset``, ``refset`` or ``tstset`` when every stream is of one
            role, ``mixed`` otherwise (WMT XML, TSV, archives).
        source: the source segments, or None.
        references: label -> segments, in the order read.
        systems: system name -> segments, in the order read.
        document_ids: the document of each segment, or None when no file
            named them (plain text).
        source_language, target_language: as the file states them (SGML
            ``srclang``/``trglang``, WMT XML ``lang``); None otherwise. The
            SGML placeholder ``any`` counts as not stated.
        set_id: SGML ``setid`` or WMT XML ``<dataset id>``, when stated.
        files: the files (archive members) read, in order.
        skipped: archive members not read, each with the reason.
    """

    format: str
    detected: str
    kind: str
    source: tuple[str, ...] | None
    references: Mapping[str, tuple[str, ...]]
    systems: Mapping[str, tuple[str, ...]]
    document_ids: tuple[str, ...] | None
    source_language: str | None = None
    target_language: str | None = None
    set_id: str | None = None
    files: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()

    @property
    def n_segments(self) -> int:
        """Segments per stream (every stream has the same number)."""
        for stream in self.streams().values():
            return len(stream)
        return 0

    def streams(self) -> dict[str, tuple[str, ...]]:
        """Every stream by column name: ``source``, ``ref:A``, ``system:X``."""
        streams: dict[str, tuple[str, ...]] = {}
        if self.source is not None:
            streams[SOURCE] = self.source
        for label, segments in self.references.items():
            streams[stream_name(REFERENCE, label)] = segments
        for name, segments in self.systems.items():
            streams[stream_name(SYSTEM, name)] = segments
        return streams

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of every field."""
        return {
            "format": self.format,
            "detected": self.detected,
            "kind": self.kind,
            "source": None if self.source is None else list(self.source),
            "references": {k: list(v) for k, v in self.references.items()},
            "systems": {k: list(v) for k, v in self.systems.items()},
            "document_ids": (
                None if self.document_ids is None else list(self.document_ids)
            ),
            "source_language": self.source_language,
            "target_language": self.target_language,
            "set_id": self.set_id,
            "files": list(self.files),
            "skipped": [list(pair) for pair in self.skipped],
        }


@dataclass
class ReadFile:
    """What one reader found in one file, before the streams are lined up."""

    format: str
    file: str
    streams: list[Stream]
    source_language: str | None = None
    target_language: str | None = None
    set_id: str | None = None
    # "source"/"target" -> line where that language is stated, for messages.
    language_lines: dict[str, int] = field(default_factory=dict)
