"""Reading uploaded corpus files of any format into segments for a test set
or for system outputs, with the checks an upload must pass.

A file comes in a *slot*: the source (which may also be one file holding
everything: WMT XML, TSV, a ZIP of a WMT folder), a reference (with the
label the user gave it), the document ids, or a system output (with the name
the user gave it). Plain text keeps the upload checks and messages of
:mod:`mtdash.common.upload_checks`; every other format is read by
:func:`scoring.formats.read_corpus`. Every refusal is an ``UploadProblem``
naming the file, the line where known, and the problem; nothing is stored
here (``uploads`` stores, in one transaction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from django.conf import settings

from mtdash.common.upload_checks import (
    UploadProblem,
    check_document_ids,
    check_same_length,
    max_segment_chars,
    read_segments,
)
from mtdash.evaluation.models import ReferenceSet, Segment, System, TestSet
from scoring.formats import (
    FORMATS,
    CorpusFormatError,
    ParsedCorpus,
    detect_format,
    read_corpus,
)
from scoring.language_defaults import (
    IDENTICAL_TO_SOURCE_WARNING_FRACTION,
    identical_to_source_fraction,
)

SOURCE, REFERENCE, DOCIDS, SYSTEM = "source", "reference", "docids", "system"
_ARCHIVE_MAGICS = (b"\x1f\x8b", b"PK\x03\x04", b"PK\x05\x06")

#: Choices of the upload forms' format select.
FORMAT_CHOICES = [
    ("auto", "Detect from the content"),
    ("plain", "Plain text, one segment per line"),
    ("sgml", "NIST SGML (srcset, refset, tstset)"),
    ("wmt-xml", "WMT XML (dataset, src, ref, hyp)"),
    ("tsv", "TSV with a header (source, ref:A, system:X, docid)"),
]
assert [code for code, _ in FORMAT_CHOICES] == list(FORMATS)


@dataclass(frozen=True)
class CorpusFile:
    """One uploaded file, the slot it came in and the label given to it
    (a reference's translator label or a system's name; may be empty)."""

    name: str
    data: bytes
    role: str
    label: str = ""


@dataclass
class CorpusUpload:
    """The segments gathered from the files of one upload."""

    source: list[str] | None = None
    references: dict[str, list[str]] = field(default_factory=dict)
    systems: dict[str, list[str]] = field(default_factory=dict)
    document_ids: list[str] | None = None
    source_language: str | None = None
    target_language: str | None = None
    detected: list[str] = field(default_factory=list)  # one sentence per file
    origin: dict[str, str] = field(default_factory=dict)  # stream -> file name


def system_name_from_file(file_name: str) -> str:
    """A plain output's default system name: the file name without folders,
    ``.gz`` and its last extension (``sys/Facebook-AI.en`` -> ``Facebook-AI``)."""
    name = PurePosixPath(file_name.replace("\\", "/")).name.removesuffix(".gz")
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    return stem or name


def read_test_set_files(files: Sequence[CorpusFile], fmt: str = "auto") -> CorpusUpload:
    """Source, references, document ids (and any system outputs) of a test
    set upload, checked to line up; raise ``UploadProblem``."""
    upload = CorpusUpload()
    for file in files:
        _add(upload, file, _read(file, fmt))
    if upload.source is None:
        raise UploadProblem(
            files[0].name if files else "the upload",
            None,
            "no source text: upload the source file, or one file holding it "
            "(WMT XML, TSV, NIST SGML srcset, a ZIP of a WMT folder)",
        )
    if not upload.references:
        raise UploadProblem(
            upload.origin[SOURCE],
            None,
            "no reference translation: upload at least one reference file "
            "(or a file or archive holding the references)",
        )
    limit = settings.MTDASH_MAX_REFERENCES
    if len(upload.references) > limit:
        raise UploadProblem(
            upload.origin[SOURCE],
            None,
            f"{len(upload.references)} references; at most {limit} are accepted "
            "in one test set",
        )
    expected_from = f"the source file {upload.origin[SOURCE]}"
    n = len(upload.source)
    for label, lines in upload.references.items():
        _check_label(upload.origin[f"ref:{label}"], label, ReferenceSet, "label")
        check_same_length(expected_from, n, upload.origin[f"ref:{label}"], lines)
    for name, lines in upload.systems.items():
        _check_label(upload.origin[f"system:{name}"], name, System, "name")
        check_same_length(expected_from, n, upload.origin[f"system:{name}"], lines)
    if upload.document_ids is not None:
        origin = upload.origin[DOCIDS]
        check_same_length(expected_from, n, origin, upload.document_ids)
        check_document_ids(origin, upload.document_ids)
        _check_document_id_length(origin, upload.document_ids)
    return upload


def read_output_files(
    test_set: TestSet, files: Sequence[CorpusFile], fmt: str = "auto"
) -> dict[str, list[str]]:
    """System name -> hypotheses of every output in ``files``, checked
    against the test set (segment count, document ids); raise
    ``UploadProblem``. Sources and references in a file are not read."""
    outputs: dict[str, list[str]] = {}
    origin: dict[str, str] = {}
    expected = test_set.segments.count()
    document_ids = list(
        test_set.segments.order_by("index").values_list("document_id", flat=True)
    )
    for file in files:
        read = _read(file, fmt)
        if isinstance(read, list):
            found = {file.label or system_name_from_file(file.name): read}
        else:
            found = {name: list(lines) for name, lines in read.systems.items()}
            if not found:
                raise UploadProblem(
                    file.name, None, f"no system output in this file ({read.detected})"
                )
            if file.label and len(found) == 1:
                found = {file.label: next(iter(found.values()))}
            if read.document_ids is not None and any(document_ids):
                _check_same_documents(file.name, document_ids, read.document_ids)
        for name, lines in found.items():
            name = name.strip()
            if name in outputs:
                raise UploadProblem(
                    file.name,
                    None,
                    f"a second output named “{name}” (the first is in "
                    f"{origin[name]}); give each system its own name",
                )
            _check_label(file.name, name, System, "name")
            check_same_length("the test set", expected, file.name, lines)
            outputs[name], origin[name] = lines, file.name
    if not outputs:
        raise UploadProblem("the upload", None, "no system output file was sent")
    return outputs


def identical_to_source_warnings(
    sources: Sequence[str], outputs: Mapping[str, Sequence[str]]
) -> list[str]:
    """A warning for each output equal to the source on more than
    ``IDENTICAL_TO_SOURCE_WARNING_FRACTION`` of the segments."""
    warnings = []
    for name, hypotheses in outputs.items():
        if len(hypotheses) != len(sources):
            continue
        share = identical_to_source_fraction(sources, hypotheses)
        if share > IDENTICAL_TO_SOURCE_WARNING_FRACTION:
            same = round(share * len(sources))
            warnings.append(
                f"“{name}” is identical to the source on {same:,} of "
                f"{len(sources):,} segments ({share:.0%}): is it an untranslated "
                "copy of the input?"
            )
    return warnings


def _read(file: CorpusFile, fmt: str) -> list[str] | ParsedCorpus:
    """Plain text as a list of lines (the upload checks of plain files), any
    other format as a ParsedCorpus with its segments checked."""
    if _is_plain(file.data, fmt):
        return read_segments(file.data, file.name)
    try:
        corpus = read_corpus(file.data, file.name, fmt)
    except CorpusFormatError as error:
        problem = error.problem
        if data_is_zip(file.data) and problem.startswith("no corpus file"):
            problem += (
                "; a .docx, .xlsx or .odt document is a ZIP archive too: upload "
                "the text itself, UTF-8, one segment per line"
            )
        raise UploadProblem(error.path, error.line, problem) from None
    for stream, segments in corpus.streams().items():
        _check_segments(file.name, stream, segments)
    if corpus.format == "plain":  # gzip-compressed plain text: one stream
        streams = list(corpus.streams().values())
        lines = list(streams[0]) if streams else list(corpus.document_ids or ())
        return lines
    return corpus


def data_is_zip(data: bytes) -> bool:
    return data.startswith(_ARCHIVE_MAGICS[1:])


def _is_plain(data: bytes, fmt: str) -> bool:
    if fmt != "auto":
        return fmt == "plain" and not data.startswith(_ARCHIVE_MAGICS)
    if data.startswith(_ARCHIVE_MAGICS):
        return False
    head = data[:65536].decode("utf-8", "replace").lstrip("\ufeff")
    return detect_format(head) == "plain"


def _check_segments(file_name: str, stream: str, segments: Sequence[str]) -> None:
    limit = max_segment_chars()
    for number, text in enumerate(segments, start=1):
        where = f"segment {number} of {stream}"
        if "\x00" in text:
            raise UploadProblem(file_name, None, f"{where} contains a NUL character")
        if len(text) > limit:
            raise UploadProblem(
                file_name,
                None,
                f"{where} is {len(text):,} characters long; a segment may have "
                f"at most {limit:,}",
            )


def _add(
    upload: CorpusUpload, file: CorpusFile, read: list[str] | ParsedCorpus
) -> None:
    if isinstance(read, list):
        if file.role == SOURCE:
            _set_source(upload, file.name, read)
        elif file.role == REFERENCE:
            _add_reference(upload, file.name, file.label.strip(), read)
        elif file.role == DOCIDS:
            ids = [line.split("\t", 1)[0].strip() for line in read]
            _set_document_ids(upload, file.name, ids)
        else:
            name = file.label.strip() or system_name_from_file(file.name)
            _add_system(upload, file.name, name, read)
        return
    upload.detected.append(read.detected)
    if read.source is not None:
        _set_source(upload, file.name, list(read.source))
    relabel = file.label.strip() if len(read.references) == 1 else ""
    for label, lines in read.references.items():
        _add_reference(upload, file.name, relabel or label, list(lines))
    rename = file.label.strip() if len(read.systems) == 1 else ""
    for name, lines in read.systems.items():
        _add_system(upload, file.name, rename or name, list(lines))
    if read.document_ids is not None:
        if upload.document_ids is None:
            _set_document_ids(upload, file.name, list(read.document_ids))
        else:
            _check_same_documents(file.name, upload.document_ids, read.document_ids)
    upload.source_language = upload.source_language or read.source_language
    upload.target_language = upload.target_language or read.target_language


def _set_source(upload: CorpusUpload, file_name: str, lines: list[str]) -> None:
    if upload.source is not None:
        raise UploadProblem(
            file_name,
            None,
            f"a second source text (the first is in {upload.origin[SOURCE]}); "
            "send the source once",
        )
    upload.source, upload.origin[SOURCE] = lines, file_name


def _add_reference(
    upload: CorpusUpload, file_name: str, label: str, lines: list[str]
) -> None:
    if not label:
        used = set(upload.references)
        label = next(c for c in (chr(ord("A") + i) for i in range(26)) if c not in used)
    if label in upload.references:
        raise UploadProblem(
            file_name,
            None,
            f"a second reference labelled “{label}” (the first is in "
            f"{upload.origin[f'ref:{label}']}); give each reference its own label",
        )
    upload.references[label], upload.origin[f"ref:{label}"] = lines, file_name


def _add_system(
    upload: CorpusUpload, file_name: str, name: str, lines: list[str]
) -> None:
    if name in upload.systems:
        raise UploadProblem(
            file_name, None, f"a second output named “{name}”; give each its own name"
        )
    upload.systems[name], upload.origin[f"system:{name}"] = lines, file_name


def _set_document_ids(upload: CorpusUpload, file_name: str, ids: list[str]) -> None:
    if upload.document_ids is not None:
        _check_same_documents(file_name, upload.document_ids, ids)
        return
    upload.document_ids, upload.origin[DOCIDS] = ids, file_name


def _check_same_documents(
    file_name: str, expected: Sequence[str], found: Sequence[str]
) -> None:
    for number, (want, got) in enumerate(zip(expected, found, strict=False), start=1):
        if want != got:
            raise UploadProblem(
                file_name,
                None,
                f"segment {number} is in document “{got}”, but the test set has "
                f"it in “{want}”; the segments must be in the test set's order",
            )


def _check_label(file_name: str, label: str, model, field_name: str) -> None:
    longest = model._meta.get_field(field_name).max_length
    what = "reference label" if model is ReferenceSet else "system name"
    if not label:
        raise UploadProblem(file_name, None, f"the {what} is empty")
    if len(label) > longest:
        raise UploadProblem(
            file_name,
            None,
            f"the {what} “{label[:40]}…” is {len(label)} characters long; "
            f"at most {longest} are allowed",
        )


def _check_document_id_length(file_name: str, document_ids: Sequence[str]) -> None:
    longest = Segment._meta.get_field("document_id").max_length
    for number, document_id in enumerate(document_ids, start=1):
        if len(document_id) > longest:
            raise UploadProblem(
                file_name,
                number,
                f"the document id is {len(document_id)} characters long; "
                f"at most {longest} are allowed",
            )
