"""NIST mteval SGML: ``<srcset>``, ``<refset>``, ``<tstset>`` of ``<doc>`` s.

The format of NIST OpenMT and of WMT up to 2020::

    <refset setid="newstest2019" srclang="de" trglang="en" refid="A">
    <doc docid="abc.123" sysid="A">
    <p>
    <seg id="1">Text &amp; more text</seg>
    </p>
    </doc>
    </refset>

Read as mteval-v13a.pl reads it, and as tolerantly:

* element and attribute names in any case (``<DOC>``), attribute values in
  double, single or no quotes; ``<p>``, ``<hl>``, ``<mteval>``, comments,
  ``<?xml ...?>`` and ``<!DOCTYPE ...>`` (never fetched or expanded) are
  passed over;
* a segment is everything between ``<seg ...>`` and the next ``</seg>``; a
  segment written over several lines is joined with single spaces (see
  :func:`scoring.formats.text.join_segment_lines`); the entities ``&quot;
  &amp; &lt; &gt;`` are replaced, others kept (see :mod:`scoring.formats.
  text` for why that is mteval's reading);
* a file may hold several sets, and a set documents of several systems
  (``sysid`` of each ``<doc>``); a reference is labelled by its documents'
  ``sysid`` (else the set's ``refid``, else ``ref``), a system by its
  documents' ``sysid`` (else the set's ``sysid``, else the file name);
* segments are matched across streams by document id and segment id
  (:mod:`scoring.formats.align`); a duplicated segment id, a document given
  twice, or a document or segment in one stream but not another is refused
  naming the line.

``srclang``/``trglang`` give the languages (``any`` counts as not stated),
``setid`` the set id. What the format cannot hold: a line break inside a
segment (it is read as a space).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from scoring.formats.model import (
    REFERENCE,
    SOURCE,
    SYSTEM,
    CorpusFormatError,
    ParsedCorpus,
    ReadFile,
    Segment,
    Stream,
)
from scoring.formats.text import (
    LineIndex,
    document_runs,
    escape_markup,
    first_element_name,
    join_segment_lines,
    unescape_sgml,
)

_SETS = {"srcset": SOURCE, "refset": REFERENCE, "tstset": SYSTEM}
# A tag, "<!--", or another declaration (<?xml ...?>, <!DOCTYPE ...>). No "<"
# inside a tag or a quoted value: a tag left open then fails at the next
# "<" instead of scanning to the end of the file from every "<" (quadratic).
_MARKUP = re.compile(
    r"<(/?)([A-Za-z][\w.:-]*)((?:[^<>\"']|\"[^<>\"]*\"|'[^<>']*')*)>|<!--|<[!?][^<>]*>"
)
_ATTRIBUTE = re.compile(
    r"([A-Za-z_][\w.:-]*)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+))"
)
_SEG_END = re.compile(r"</seg\s*>", re.IGNORECASE)
_SEG_START = re.compile(r"<seg[\s>]", re.IGNORECASE)
_UNSTATED = {"", "any"}


def looks_like_sgml(head: str) -> bool:
    """True when the first element of ``head`` is a NIST set (or ``<mteval>``)."""
    name = first_element_name(head)
    return name is not None and name.lower() in (*_SETS, "mteval")


def attributes(text: str) -> dict[str, str]:
    """Attribute names (lower-cased) -> values, entities replaced."""
    found = {}
    for match in _ATTRIBUTE.finditer(text):
        value = next(group for group in match.groups()[1:] if group is not None)
        found[match.group(1).lower()] = unescape_sgml(value)
    return found


class _Reader:
    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.lines = LineIndex(text)
        self.read = ReadFile("sgml", file, [])
        self.streams: dict[tuple[str, str | None], Stream] = {}
        self.document_seen: dict[tuple[str, str | None, str], int] = {}
        self.set: tuple[str, dict[str, str], int] | None = None  # name, attrs, line
        self.document: tuple[Stream, str, int] | None = None  # stream, id, line

    def error(self, offset: int, problem: str) -> CorpusFormatError:
        return CorpusFormatError(self.file, self.lines.line(offset), problem)

    def parse(self) -> ReadFile:
        position = 0
        while True:
            match = _MARKUP.search(self.text, position)
            if match is None:
                break
            position = match.end()
            if match.group() == "<!--":
                end = self.text.find("-->", position)
                if end < 0:
                    raise self.error(match.start(), "a comment (<!--) is never closed")
                position = end + 3
                continue
            name = (match.group(2) or "").lower()
            if not name:
                continue
            closing = bool(match.group(1))
            if name in _SETS:
                self.set_tag(name, closing, match)
            elif name == "doc":
                self.doc_tag(closing, match)
            elif name == "seg" and not closing:
                position = self.segment(match)
            elif name == "seg":
                raise self.error(match.start(), "</seg> without an opening <seg>")
        if self.document is not None:
            _, docid, line = self.document
            raise CorpusFormatError(
                self.file, line, f"document {docid!r} is never closed with </doc>"
            )
        if self.set is not None:
            name, _, line = self.set
            raise CorpusFormatError(
                self.file, line, f"the <{name}> is never closed with </{name}>"
            )
        if not self.streams:
            raise CorpusFormatError(
                self.file, None, "no <seg> found in a <srcset>, <refset> or <tstset>"
            )
        self.read.streams = list(self.streams.values())
        return self.read

    def set_tag(self, name: str, closing: bool, match: re.Match[str]) -> None:
        if closing:
            if self.set is None or self.set[0] != name:
                raise self.error(
                    match.start(), f"</{name}> without an opening <{name}>"
                )
            if self.document is not None:
                _, docid, line = self.document
                raise self.error(
                    match.start(),
                    f"</{name}> closes the set, but document {docid!r} (line "
                    f"{line}) is still open",
                )
            self.set = None
            return
        if self.set is not None:
            raise self.error(
                match.start(),
                f"<{name}> inside the <{self.set[0]}> opened at line {self.set[2]}",
            )
        attrs = attributes(match.group(3))
        line = self.lines.line(match.start())
        self.set = (name, attrs, line)
        if self.read.set_id is None and attrs.get("setid"):
            self.read.set_id = attrs["setid"]
        for attribute, field in (("srclang", "source"), ("trglang", "target")):
            value = attrs.get(attribute, "")
            if value.lower() in _UNSTATED:
                continue
            current = getattr(self.read, f"{field}_language")
            if current is None:
                setattr(self.read, f"{field}_language", value)
                self.read.language_lines[field] = line
            elif current != value:
                raise CorpusFormatError(
                    self.file,
                    line,
                    f"{attribute}={value!r} differs from {current!r} at line "
                    f"{self.read.language_lines[field]}",
                )

    def doc_tag(self, closing: bool, match: re.Match[str]) -> None:
        if closing:
            if self.document is None:
                raise self.error(match.start(), "</doc> without an opening <doc>")
            self.document = None
            return
        if self.set is None:
            raise self.error(
                match.start(), "<doc> outside a <srcset>, <refset> or <tstset>"
            )
        if self.document is not None:
            _, docid, line = self.document
            raise self.error(
                match.start(),
                f"<doc> inside document {docid!r} (line {line}), which has no </doc>",
            )
        set_name, set_attrs, _ = self.set
        attrs = attributes(match.group(3))
        docid = attrs.get("docid")
        if not docid:
            raise self.error(match.start(), "<doc> without a docid")
        role = _SETS[set_name]
        label = self.label(role, attrs, set_attrs)
        stream = self.streams.get((role, label))
        if stream is None:
            stream = self.streams[(role, label)] = Stream(role, label, self.file)
        line = self.lines.line(match.start())
        first = self.document_seen.setdefault((role, label, docid), line)
        if first != line:
            raise CorpusFormatError(
                self.file,
                line,
                f"document {docid!r} appears twice in {stream.describe()} "
                f"(first at line {first})",
            )
        stream.document_lines[docid] = line
        self.document = (stream, docid, line)

    def label(
        self, role: str, doc: dict[str, str], set_attrs: dict[str, str]
    ) -> str | None:
        if role == SOURCE:
            return None
        if role == REFERENCE:
            return doc.get("sysid") or set_attrs.get("refid") or "ref"
        stem = PurePosixPath(self.file).name.split(".")[0]
        return doc.get("sysid") or set_attrs.get("sysid") or stem

    def segment(self, match: re.Match[str]) -> int:
        if self.document is None:
            raise self.error(match.start(), "<seg> outside a <doc>")
        end = _SEG_END.search(self.text, match.end())
        nested = _SEG_START.search(self.text, match.end())
        if end is None or (nested is not None and nested.start() < end.start()):
            raise self.error(match.start(), "<seg> is not closed with </seg>")
        attrs = attributes(match.group(3))
        seg_id = attrs.get("id")
        if not seg_id:
            raise self.error(match.start(), "<seg> without an id")
        stream, docid, _ = self.document
        content = self.text[match.end() : end.start()]
        text = unescape_sgml(join_segment_lines(content))
        stream.segments.append(
            Segment(text, self.lines.line(match.start()), docid, seg_id)
        )
        return end.end()


def read_sgml(text: str, file: str) -> ReadFile:
    """The streams of an SGML file (already decoded, LF line ends)."""
    return _Reader(text, file).parse()


def write_sgml(corpus: ParsedCorpus, streams: Iterable[str] | None = None) -> bytes:
    """``corpus`` as NIST SGML: one set per stream, in one file.

    ``streams`` picks streams by column name (``source``, ``ref:A``,
    ``system:X``; default: all); for mteval's three files, write the source,
    the references and each system separately. Documents come from
    ``corpus.document_ids`` (one document ``doc1`` when there are none) and
    must be contiguous; segments are numbered from 1 in each document.
    """
    chosen = corpus.streams()
    names = list(chosen) if streams is None else list(streams)
    documents = document_runs(corpus.document_ids, corpus.n_segments)
    setid = _quote(corpus.set_id or "mtdash")
    srclang = _quote(corpus.source_language or "any")
    trglang = _quote(corpus.target_language or "any")
    out: list[str] = []
    for name in names:
        segments = chosen[name]
        role, _, label = name.partition(":")
        if role == SOURCE:
            out.append(f'<srcset setid="{setid}" srclang="{srclang}">')
            tag, sysid = "srcset", "src"
        elif role == "ref":
            out.append(
                f'<refset setid="{setid}" srclang="{srclang}" trglang="{trglang}" '
                f'refid="{_quote(label)}">'
            )
            tag, sysid = "refset", label
        else:
            out.append(
                f'<tstset setid="{setid}" srclang="{srclang}" trglang="{trglang}" '
                f'sysid="{_quote(label)}">'
            )
            tag, sysid = "tstset", label
        for docid, start, stop in documents:
            out.append(f'<doc docid="{_quote(docid)}" sysid="{_quote(sysid)}">')
            for number, index in enumerate(range(start, stop), start=1):
                text = _one_line(segments[index], name, index)
                out.append(f'<seg id="{number}">{escape_markup(text)}</seg>')
            out.append("</doc>")
        out.append(f"</{tag}>")
    return "".join(f"{line}\n" for line in out).encode("utf-8")


def _quote(value: str) -> str:
    return escape_markup(value).replace('"', "&quot;")


def _one_line(text: str, stream: str, index: int) -> str:
    if "\n" in text or "\r" in text:
        raise ValueError(
            f"{stream}, segment {index + 1}: a line break cannot be written "
            "inside a segment"
        )
    return text
