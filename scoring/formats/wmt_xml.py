"""WMT XML, the test-set format of WMT 2021 onwards (``wmttest2022.*.xml``).

One file carries the source, several references and several systems::

    <dataset id="wmttest2022">
      <collection id="general">
        <doc id="doc-1" origlang="de">
          <src lang="de"><p><seg id="1">Quelle</seg></p></src>
          <ref lang="en" translator="A"><p><seg id="1">Source</seg></p></ref>
          <hyp lang="en" system="sys-1"><p><seg id="1">A source</seg></p></hyp>
        </doc>
      </collection>
    </dataset>

A reference is labelled by its ``translator`` (else the ``translator`` of
the document's ``<src>``, as in WMT21's dev sets, else ``ref``), a system by
``system`` (required). Documents marked ``testsuite`` (WMT's "all" files)
are not part of the test set and are passed over, as sacreBLEU does.
Segments are matched by document and segment id
(:mod:`scoring.formats.align`); every reference and system must cover every
document of the source.

Parsed with the standard library's expat, safely: a ``<!DOCTYPE`` or
``<!ENTITY`` declaration is refused before anything is expanded (no
external entities, no entity bombs), and an XML declaration naming an
encoding other than UTF-8 is refused. Segment text is XML text (all
entities and character references are replaced); what it cannot hold:
control characters other than TAB, and line breaks (a segment written over
several lines is joined with spaces).
"""

from __future__ import annotations

import re
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

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
    document_runs,
    first_element_name,
    join_segment_lines,
)

_ROLES = {"src": SOURCE, "ref": REFERENCE, "hyp": SYSTEM}
_DECLARATION = re.compile(r"<!(DOCTYPE|ENTITY)\b", re.IGNORECASE)
_ENCODING = re.compile(r"<\?xml[^>]*\bencoding\s*=\s*[\"']([^\"']+)[\"']")
# XML 1.0 characters: TAB, LF, CR, and U+0020 up (no surrogates, no FFFE/FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def looks_like_wmt_xml(head: str) -> bool:
    """True when the first element of ``head`` is ``<dataset>``."""
    return first_element_name(head) == "dataset"


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.parser = expat.ParserCreate("utf-8")
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.characters
        self.parser.StartDoctypeDeclHandler = self.refuse_doctype
        self.parser.EntityDeclHandler = self.refuse_entity
        self.read = ReadFile("wmt-xml", file, [])
        self.streams: dict[tuple[str, str | None], Stream] = {}
        self.document: tuple[str, int, dict[str, str]] | None = None
        self.skipping = 0  # depth inside a testsuite document
        self.stream: Stream | None = None
        self.seen_in_document: dict[tuple[str, str | None], int] = {}
        self.documents: dict[str, int] = {}
        self.seg: tuple[str, int] | None = None  # id, line
        self.seg_text: list[str] = []
        self.source_translator: str | None = None

    @property
    def line(self) -> int:
        return self.parser.CurrentLineNumber

    def error(self, problem: str, line: int | None = None) -> CorpusFormatError:
        return CorpusFormatError(self.file, line or self.line, problem)

    def refuse_doctype(self, *_: object) -> None:
        raise self.error(
            "a <!DOCTYPE> declaration; WMT XML needs none, and DTDs and "
            "entities are not read (they could fetch files or expand without end)"
        )

    def refuse_entity(self, *_: object) -> None:
        raise self.error("an <!ENTITY> declaration; entities are not read")

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if self.skipping:
            self.skipping += 1
            return
        if name == "dataset" and self.read.set_id is None:
            self.read.set_id = attrs.get("id") or None
        elif name == "doc":
            self.start_document(attrs)
        elif name in _ROLES:
            self.start_stream(name, attrs)
        elif name == "seg":
            if self.stream is None:
                raise self.error("<seg> outside <src>, <ref> or <hyp>")
            if self.seg is not None:
                raise self.error(
                    f"<seg> inside segment {self.seg[0]} (line {self.seg[1]})"
                )
            seg_id = attrs.get("id")
            if not seg_id:
                raise self.error("<seg> without an id")
            self.seg = (seg_id, self.line)
            self.seg_text = []
        elif self.seg is not None:
            raise self.error(f"<{name}> inside a <seg>; segments hold text only")

    def start_document(self, attrs: dict[str, str]) -> None:
        if "testsuite" in attrs:
            self.skipping = 1
            return
        docid = attrs.get("id")
        if not docid:
            raise self.error("<doc> without an id")
        first = self.documents.setdefault(docid, self.line)
        if first != self.line:
            raise self.error(
                f"document {docid!r} appears twice (first at line {first})"
            )
        self.document = (docid, self.line, attrs)
        self.seen_in_document = {}
        self.source_translator = None

    def start_stream(self, name: str, attrs: dict[str, str]) -> None:
        if self.document is None:
            raise self.error(f"<{name}> outside a <doc>")
        docid, _, _ = self.document
        role = _ROLES[name]
        if role == SOURCE:
            label = None
            self.source_translator = attrs.get("translator")
        elif role == REFERENCE:
            label = attrs.get("translator") or self.source_translator or "ref"
        else:
            label = attrs.get("system")
            if not label:
                raise self.error("<hyp> without a system name (system=...)")
        language = attrs.get("lang")
        if language:
            field = "source" if role == SOURCE else "target"
            current = getattr(self.read, f"{field}_language")
            if current is None:
                setattr(self.read, f"{field}_language", language)
                self.read.language_lines[field] = self.line
            elif current != language:
                raise self.error(
                    f"lang={language!r} differs from {current!r} at line "
                    f"{self.read.language_lines[field]}"
                )
        stream = self.streams.get((role, label))
        if stream is None:
            stream = self.streams[(role, label)] = Stream(role, label, self.file)
        first = self.seen_in_document.setdefault((role, label), self.line)
        if first != self.line:
            raise self.error(
                f"{stream.describe()} appears twice in document {docid!r} (first "
                f"at line {first})"
            )
        stream.document_lines[docid] = self.line
        self.stream = stream

    def end(self, name: str) -> None:
        if self.skipping:
            self.skipping -= 1
            return
        if name == "seg" and self.seg is not None and self.stream is not None:
            seg_id, line = self.seg
            text = join_segment_lines("".join(self.seg_text))
            docid = self.document[0] if self.document else None
            self.stream.segments.append(Segment(text, line, docid, seg_id))
            self.seg = None
        elif name in _ROLES:
            self.stream = None
        elif name == "doc":
            self.document = None

    def characters(self, data: str) -> None:
        if self.seg is not None and not self.skipping:
            self.seg_text.append(data)

    def parse(self, text: str) -> ReadFile:
        declaration = _DECLARATION.search(text)
        if declaration is not None:
            line = text.count("\n", 0, declaration.start()) + 1
            if declaration.group(1).upper() == "DOCTYPE":
                self.refuse_doctype_at(line)
            raise self.error("an <!ENTITY> declaration; entities are not read", line)
        encoding = _ENCODING.search(text[:200])
        if encoding is not None and encoding.group(1).lower().replace("_", "-") not in (
            "utf-8",
            "utf8",
        ):
            raise self.error(
                f"the XML declaration says encoding {encoding.group(1)!r}; "
                'save the file as UTF-8 and say encoding="utf-8"',
                1,
            )
        try:
            self.parser.Parse(text.encode("utf-8"), True)
        except expat.ExpatError as error:
            problem = expat.ErrorString(error.code)
            raise self.error(f"not well-formed XML: {problem}", error.lineno) from None
        if not any(stream.segments for stream in self.streams.values()):
            raise self.error("no <seg> found in a <src>, <ref> or <hyp>", 1)
        self.read.streams = [s for s in self.streams.values() if s.segments]
        return self.read

    def refuse_doctype_at(self, line: int) -> None:
        raise self.error(
            "a <!DOCTYPE> declaration; WMT XML needs none, and DTDs and "
            "entities are not read (they could fetch files or expand without end)",
            line,
        )


def read_wmt_xml(text: str, file: str) -> ReadFile:
    """The streams of a WMT XML file (already decoded)."""
    return _Reader(file).parse(text)


def write_wmt_xml(corpus: ParsedCorpus, collection: str = "general") -> bytes:
    """``corpus`` as WMT XML: every stream in one file.

    Documents come from ``corpus.document_ids`` (one document ``doc1`` when
    there are none) and must be contiguous; segments are numbered from 1 in
    each document. ``origlang`` is the source language when known. Raises
    ValueError for text XML cannot hold (see the module docstring).
    """
    runs = document_runs(corpus.document_ids, corpus.n_segments)
    source_language = corpus.source_language
    target_language = corpus.target_language
    out = ["<?xml version='1.0' encoding='utf-8'?>"]
    out.append(f"<dataset id={quoteattr(corpus.set_id or 'mtdash')}>")
    out.append(f"  <collection id={quoteattr(collection)}>")
    for docid, start, stop in runs:
        origlang = f" origlang={quoteattr(source_language)}" if source_language else ""
        out.append(f"    <doc id={quoteattr(docid)}{origlang}>")
        for name, segments in corpus.streams().items():
            role, _, label = name.partition(":")
            if role == SOURCE:
                attrs = _lang(source_language)
                tag = "src"
            elif role == "ref":
                attrs = f"{_lang(target_language)} translator={quoteattr(label)}"
                tag = "ref"
            else:
                attrs = f"{_lang(target_language)} system={quoteattr(label)}"
                tag = "hyp"
            out.append(f"      <{tag}{attrs}>")
            out.append("        <p>")
            for number, index in enumerate(range(start, stop), start=1):
                text = _xml_text(segments[index], name, index)
                out.append(f'          <seg id="{number}">{text}</seg>')
            out.append("        </p>")
            out.append(f"      </{tag}>")
        out.append("    </doc>")
    out.append("  </collection>")
    out.append("</dataset>")
    return "".join(f"{line}\n" for line in out).encode("utf-8")


def _lang(language: str | None) -> str:
    return f" lang={quoteattr(language)}" if language else ""


def _xml_text(text: str, stream: str, index: int) -> str:
    bad = _NOT_XML.search(text) or re.search("[\r\n]", text)
    if bad is not None:
        raise ValueError(
            f"{stream}, segment {index + 1}: U+{ord(bad.group()):04X} cannot be "
            "written in WMT XML"
        )
    return escape(text)
