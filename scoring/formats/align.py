"""Lining up the streams of one or more files into one corpus.

Segments that carry keys (SGML, WMT XML: a document id and a segment id) are
matched by key, never by position: the corpus takes the documents in the
order of the *base* stream (the source if there is one, else the first
reference, else the first system), and within a document the segments by
their id (numerically when every id is a whole number, else in file order).
Every other keyed stream must hold exactly the same documents and segment
ids; the error names the file and line of the first difference. Streams
without keys (plain text, TSV columns) are matched by position and must have
as many segments as the base.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.formats.model import (
    DOCIDS,
    REFERENCE,
    SET_KINDS,
    SOURCE,
    SYSTEM,
    CorpusFormatError,
    ParsedCorpus,
    ReadFile,
    Segment,
    Stream,
)

_ROLE_ORDER = {SOURCE: 0, REFERENCE: 1, SYSTEM: 2, DOCIDS: 3}


def assemble(
    read_files: Sequence[ReadFile],
    *,
    format: str,
    detected: str,
    skipped: Sequence[tuple[str, str]] = (),
) -> ParsedCorpus:
    """One :class:`ParsedCorpus` from the streams of ``read_files``."""
    streams = [stream for read in read_files for stream in read.streams]
    _refuse_duplicate_streams(streams)
    text_streams = sorted(
        (s for s in streams if s.role != DOCIDS), key=lambda s: _ROLE_ORDER[s.role]
    )
    docid_streams = [s for s in streams if s.role == DOCIDS]
    if not text_streams:
        where = read_files[0].file if read_files else "the archive"
        problem = "no segments found"
        if docid_streams:
            problem = "only document ids; no source, reference or system segments"
        raise CorpusFormatError(where, None, problem)
    base = text_streams[0]
    base_order = _ordered(base)
    for stream in text_streams[1:]:
        if stream.keyed and base.keyed:
            _check_same_keys(base, stream)
    texts: dict[str, tuple[str, ...]] = {}
    documents: tuple[str, ...] | None = None
    keys = [(segment.document, segment.seg_id) for segment in base_order]
    for stream in text_streams:
        if stream.keyed and base.keyed:
            by_key = {(s.document, s.seg_id): s for s in stream.segments}
            ordered = [by_key[key] for key in keys]
        else:
            ordered = _ordered(stream)
            _check_same_length(base, len(base_order), stream, ordered)
        texts[stream.name] = tuple(segment.text for segment in ordered)
        if documents is None and stream.keyed:
            documents = tuple(segment.document or "" for segment in ordered)
    for stream in docid_streams:
        _check_same_length(base, len(base_order), stream, stream.segments)
        ids = tuple(segment.text for segment in stream.segments)
        if documents is not None and ids != documents:
            _refuse_other_documents(stream, documents, base)
        documents = ids
    source_language, target_language = _languages(read_files)
    roles = {stream.role for stream in text_streams}
    return ParsedCorpus(
        format=format,
        detected=detected,
        kind=SET_KINDS[roles.pop()] if len(roles) == 1 else "mixed",
        source=texts.get(SOURCE),
        references={
            s.label or "": texts[s.name] for s in text_streams if s.role == REFERENCE
        },
        systems={
            s.label or "": texts[s.name] for s in text_streams if s.role == SYSTEM
        },
        document_ids=documents,
        source_language=source_language,
        target_language=target_language,
        set_id=next((read.set_id for read in read_files if read.set_id), None),
        files=tuple(read.file for read in read_files),
        skipped=tuple(skipped),
    )


def _refuse_duplicate_streams(streams: Sequence[Stream]) -> None:
    seen: dict[str, Stream] = {}
    for stream in streams:
        first = seen.setdefault(stream.name, stream)
        if first is stream:
            continue
        line = stream.segments[0].line if stream.segments else None
        elsewhere = "" if first.file == stream.file else f" in {first.file}"
        raise CorpusFormatError(
            stream.file,
            line,
            f"{stream.describe()} is already read{elsewhere}; give each "
            "reference and system its own name",
        )


def _ordered(stream: Stream) -> list[Segment]:
    """Documents in file order, segments by id within each (see module doc)."""
    if not stream.keyed:
        return list(stream.segments)
    documents: dict[str | None, list[Segment]] = {}
    seen: dict[tuple[str | None, str | None], Segment] = {}
    for segment in stream.segments:
        key = (segment.document, segment.seg_id)
        first = seen.setdefault(key, segment)
        if first is not segment:
            raise CorpusFormatError(
                stream.file,
                segment.line,
                f"segment id {segment.seg_id} appears twice in document "
                f"{segment.document!r} of {stream.describe()} (first at line "
                f"{first.line})",
            )
        documents.setdefault(segment.document, []).append(segment)
    ordered: list[Segment] = []
    for segments in documents.values():
        if all(_is_number(s.seg_id) for s in segments):
            segments = sorted(segments, key=lambda s: int(s.seg_id or 0))
        ordered.extend(segments)
    return ordered


def _is_number(seg_id: str | None) -> bool:
    return seg_id is not None and seg_id.isascii() and seg_id.isdigit()


def _label(stream: Stream, base: Stream) -> str:
    """``system 'X'``, with its file when that is not the base's file."""
    if stream.file == base.file:
        return stream.describe()
    return f"{stream.describe()} ({stream.file})"


def _check_same_keys(base: Stream, other: Stream) -> None:
    base_docs = _segments_by_document(base)
    other_docs = _segments_by_document(other)
    for document, segments in other_docs.items():
        if document not in base_docs:
            raise CorpusFormatError(
                other.file,
                other.document_lines.get(document or "", segments[0].line),
                f"document {document!r} of {other.describe()} is not in "
                f"{_label(base, other)}",
            )
    for document, segments in base_docs.items():
        if document not in other_docs:
            line = base.document_lines.get(document or "", segments[0].line)
            place = "line" if base.file == other.file else f"{base.file}, line"
            raise CorpusFormatError(
                other.file,
                None,
                f"{other.describe()} has no document {document!r}; "
                f"{base.describe()} has it at {place} {line}",
            )
        theirs = {s.seg_id: s for s in other_docs[document]}
        ours = {s.seg_id: s for s in segments}
        for seg_id, segment in theirs.items():
            if seg_id not in ours:
                raise CorpusFormatError(
                    other.file,
                    segment.line,
                    f"segment {seg_id} of document {document!r} of "
                    f"{other.describe()} is not in {_label(base, other)}",
                )
        for seg_id, segment in ours.items():
            if seg_id not in theirs:
                doc_line = other.document_lines.get(document or "")
                place = "line" if base.file == other.file else f"{base.file}, line"
                raise CorpusFormatError(
                    other.file,
                    doc_line,
                    f"document {document!r} of {other.describe()} has no segment "
                    f"{seg_id}; {base.describe()} has it at {place} {segment.line}",
                )


def _segments_by_document(stream: Stream) -> dict[str | None, list[Segment]]:
    documents: dict[str | None, list[Segment]] = {}
    for segment in _ordered(stream):
        documents.setdefault(segment.document, []).append(segment)
    return documents


def _check_same_length(
    base: Stream, n: int, other: Stream, segments: Sequence[Segment]
) -> None:
    if len(segments) == n:
        return
    unit = "lines" if not other.keyed else "segments"
    if len(segments) < n:
        line = segments[-1].line + 1 if segments else 1
        advice = (
            "give every segment a document id"
            if other.role == DOCIDS
            else "every line must be the translation of the same line there"
        )
        raise CorpusFormatError(
            other.file,
            line,
            f"the file ends after {len(segments)} {unit}, but "
            f"{_label(base, other)} has {n}; {advice}",
        )
    raise CorpusFormatError(
        other.file,
        segments[n].line,
        f"extra segment: {_label(base, other)} has only {n}",
    )


def _refuse_other_documents(
    stream: Stream, documents: tuple[str, ...], base: Stream
) -> None:
    for segment, document in zip(stream.segments, documents, strict=True):
        if segment.text != document:
            raise CorpusFormatError(
                stream.file,
                segment.line,
                f"document id {segment.text!r} differs from {document!r}, the "
                f"document of this segment in {_label(base, stream)}",
            )


def _languages(read_files: Sequence[ReadFile]) -> tuple[str | None, str | None]:
    chosen: dict[str, tuple[str, ReadFile]] = {}
    for read in read_files:
        for attribute, value in (
            ("source", read.source_language),
            ("target", read.target_language),
        ):
            if value is None:
                continue
            first = chosen.setdefault(attribute, (value, read))
            if first[0] != value:
                raise CorpusFormatError(
                    read.file,
                    read.language_lines.get(attribute),
                    f"the {attribute} language is {value!r}, but "
                    f"{first[1].file} says {first[0]!r}",
                )
    return (
        chosen["source"][0] if "source" in chosen else None,
        chosen["target"][0] if "target" in chosen else None,
    )
