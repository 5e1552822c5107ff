"""``read_corpus``: any supported file or archive in, one corpus out.

The format is told from the content, not the name: gzip and ZIP by their
first bytes; then, on the decoded text, WMT XML (first element
``<dataset>``), NIST SGML (first element ``<srcset>``, ``<refset>``,
``<tstset>`` or ``<mteval>``), TSV (a header of stream names, see
:mod:`scoring.formats.tsv`), else plain text. ``fmt`` forces one. The
corpus says what was found (``ParsedCorpus.format`` and ``.detected``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import PurePosixPath

from scoring.formats.align import assemble
from scoring.formats.archives import (
    DEFAULT_LIMITS,
    GZIP_MAGIC,
    ZIP_MAGICS,
    ArchiveLimits,
    Budget,
    gunzip,
    unzip,
)
from scoring.formats.model import CorpusFormatError, ParsedCorpus, ReadFile
from scoring.formats.plain import default_role, read_plain, role_from_name
from scoring.formats.sgml import looks_like_sgml, read_sgml
from scoring.formats.text import decode_text
from scoring.formats.tsv import looks_like_tsv, read_tsv
from scoring.formats.wmt_xml import looks_like_wmt_xml, read_wmt_xml

#: Formats ``read_corpus`` accepts for ``fmt``.
FORMATS = ("auto", "plain", "sgml", "wmt-xml", "tsv")
FORMAT_NAMES = {
    "plain": "plain text",
    "sgml": "NIST SGML",
    "wmt-xml": "WMT XML",
    "tsv": "TSV",
}
_NOT_READ = (
    (b"\xfd7zXZ\x00", "an xz-compressed file"),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file"),
    (b"BZh", "a bzip2-compressed file"),
)


def read_corpus(
    data: bytes,
    filename: str,
    fmt: str = "auto",
    *,
    limits: ArchiveLimits = DEFAULT_LIMITS,
) -> ParsedCorpus:
    """Read a corpus file (plain, SGML, WMT XML, TSV; gzip; or a ZIP of them).

    Args:
        data: the file's bytes.
        filename: its name, used in messages and, for plain text, to tell
            the source, references and systems apart
            (:mod:`scoring.formats.plain`).
        fmt: ``auto`` (detect) or one of ``plain``, ``sgml``, ``wmt-xml``,
            ``tsv``; in a ZIP archive it applies to every member.
        limits: what an archive may unpack to.

    Raises:
        CorpusFormatError: naming the file (``archive.zip/member``), the line
            and the problem; ValueError for an unknown ``fmt``.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if data.startswith(ZIP_MAGICS):
        return _read_zip(data, filename, fmt, limits)
    compressed = data.startswith(GZIP_MAGIC)
    name = filename
    if compressed:
        data = gunzip(data, filename, limits)
        name = filename[:-3] if filename.lower().endswith(".gz") else filename
        if data.startswith(ZIP_MAGICS) or data.startswith(GZIP_MAGIC):
            raise CorpusFormatError(
                filename, None, "an archive inside gzip; upload the inner file"
            )
    read = _read_file(data, filename, fmt, role_name=name, in_archive=False)
    assert read is not None
    prefix = "gzip-compressed " if compressed else ""
    corpus = assemble([read], format=read.format, detected="")
    detected = (
        f"{prefix}{FORMAT_NAMES[read.format]} ({corpus.kind}): {_summary(corpus)}"
    )
    return _with_detected(corpus, detected)


def _read_zip(
    data: bytes, filename: str, fmt: str, limits: ArchiveLimits
) -> ParsedCorpus:
    members, skipped = unzip(data, filename, limits)
    budget = Budget(filename, limits)
    reads: list[ReadFile] = []
    for member in members:
        label = f"{filename}/{member.name}"
        member_data = member.data
        if member_data.startswith(ZIP_MAGICS):
            skipped.append((member.name, "an archive inside the archive is not read"))
            continue
        if member_data.startswith(GZIP_MAGIC):
            member_data = gunzip(member_data, label, limits, budget)
        role_name = member.name.removesuffix(".gz")
        read = _read_file(member_data, label, fmt, role_name=role_name, in_archive=True)
        if read is None:
            skipped.append(
                (
                    member.name,
                    "not named as a source, reference, system output or document "
                    "ids (src.*, ref.*, sys/*, docids), nor SGML, WMT XML or TSV",
                )
            )
            continue
        reads.append(read)
    if not reads:
        raise CorpusFormatError(
            filename,
            None,
            "no corpus file in the archive (expected src.*, ref.*, sys/*, SGML, "
            "WMT XML or TSV files)",
        )
    corpus = assemble(reads, format="zip", detected="", skipped=skipped)
    counts = Counter(FORMAT_NAMES[read.format] for read in reads)
    kinds = ", ".join(f"{kind} ×{n}" for kind, n in counts.items())
    detected = f"ZIP archive of {len(reads)} files ({kinds}): {_summary(corpus)}"
    if skipped:
        detected += f"; {len(skipped)} other members passed over"
    return _with_detected(corpus, detected)


def _read_file(
    data: bytes, label: str, fmt: str, *, role_name: str, in_archive: bool
) -> ReadFile | None:
    """One file's streams; None for an archive member that is no corpus file."""
    for magic, kind in _NOT_READ:
        if data.startswith(magic):
            raise CorpusFormatError(
                label,
                None,
                f"this is {kind}; corpus files are read as text, gzip or zip",
            )
    named = role_from_name(role_name)
    try:
        text = decode_text(data, label)
    except CorpusFormatError:
        if in_archive and named is None and not _markup_name(role_name):
            return None  # e.g. a PDF next to the test set in a WMT folder
        raise
    chosen = fmt if fmt != "auto" else detect_format(text)
    if chosen == "sgml":
        return read_sgml(text, label)
    if chosen == "wmt-xml":
        return read_wmt_xml(text, label)
    if chosen == "tsv":
        return read_tsv(text, label)
    if in_archive:
        if named is None:
            return None
        return read_plain(text, label, named)
    return read_plain(text, label, default_role(role_name))


def detect_format(text: str) -> str:
    """``wmt-xml``, ``sgml``, ``tsv`` or ``plain`` for decoded ``text``."""
    head = text[:8192]
    if looks_like_wmt_xml(head):
        return "wmt-xml"
    if looks_like_sgml(head):
        return "sgml"
    if looks_like_tsv(text.split("\n", 1)[0]):
        return "tsv"
    return "plain"


def _markup_name(name: str) -> bool:
    return PurePosixPath(name).suffix.lower() in (".sgm", ".sgml", ".xml", ".tsv")


def _summary(corpus: ParsedCorpus) -> str:
    parts = []
    if corpus.source is not None:
        parts.append("source")
    for what, streams in (("reference", corpus.references), ("system", corpus.systems)):
        if streams:
            parts.append(f"{len(streams)} {what}{'s' if len(streams) != 1 else ''}")
    summary = ", ".join(parts) + f", {corpus.n_segments:,} segments"
    if corpus.document_ids is not None:
        documents = len(dict.fromkeys(corpus.document_ids))
        summary += f" in {documents:,} document{'s' if documents != 1 else ''}"
    return summary


def _with_detected(corpus: ParsedCorpus, detected: str) -> ParsedCorpus:
    return replace(corpus, detected=detected)
