"""gzip and ZIP: WMT21 folders read from real archives, and every hostile
archive refused with its whole message."""

from __future__ import annotations

import gzip
import io
import time
import zipfile

import pytest

from scoring.formats import ArchiveLimits, CorpusFormatError, read_corpus
from tests.scoring.formats.support import (
    make_zip,
    symlink_zip,
    wmt21_streams,
    wmt21_zip,
)
from tests.scoring.support.realdata import WMT21_DIR, read_lines, segment_count


def refused(data: bytes, name: str = "upload.zip", **limits: int) -> str:
    with pytest.raises(CorpusFormatError) as caught:
        read_corpus(data, name, limits=ArchiveLimits(**limits))
    return str(caught.value)


@pytest.mark.parametrize("pair", ["de-en", "en-de", "ru-en"])
def test_a_zipped_wmt21_folder_reads_as_its_plain_files(pair: str) -> None:
    n = segment_count(f"wmt21/{pair}", full=0)
    corpus = read_corpus(wmt21_zip(pair), f"{pair}.zip")
    assert corpus.format == "zip"
    assert corpus.streams() == {k: tuple(v) for k, v in wmt21_streams(pair).items()}
    assert corpus.n_segments == len(wmt21_streams(pair)["source"]) >= n
    source_language, target_language = pair.split("-")
    assert (corpus.source_language, corpus.target_language) == (
        source_language,
        target_language,
    )
    if pair == "ru-en":  # the folder's docids file gives the documents
        docids = [
            line.split("\t")[0] for line in read_lines(WMT21_DIR / pair / "docids")
        ]
        assert corpus.document_ids == tuple(docids)
    else:
        assert corpus.document_ids is None


def test_other_members_of_a_wmt_folder_are_passed_over_and_listed() -> None:
    extra = {
        "de-en/human/da_sys.tsv": (WMT21_DIR / "de-en/human/da_sys.tsv").read_bytes(),
        "de-en/scores/COMET_newstest2021_ref-A.tsv": b"Online-W\t0.5\n",
        "de-en/README.pdf": b"%PDF-1.4 ...",
        "__MACOSX/de-en/._src.de": b"\x00\x05\x16\x07",
        "de-en/": b"",
    }
    corpus = read_corpus(wmt21_zip("de-en", extra=extra), "de-en.zip")
    not_named = (
        "not named as a source, reference, system output or document ids "
        "(src.*, ref.*, sys/*, docids), nor SGML, WMT XML or TSV"
    )
    assert dict(corpus.skipped) == {
        "__MACOSX/de-en/._src.de": "operating-system metadata",
        "de-en/human/da_sys.tsv": not_named,
        "de-en/scores/COMET_newstest2021_ref-A.tsv": not_named,
        "de-en/README.pdf": not_named,
    }
    n = corpus.n_segments
    assert corpus.detected == (
        "ZIP archive of 6 files (plain text ×6): source, 2 references, 3 "
        f"systems, {n:,} segments; 4 other members passed over"
    )


def test_a_system_file_one_line_short_is_refused_naming_the_member() -> None:
    lines = (WMT21_DIR / "de-en/sys/Online-W.en").read_bytes().split(b"\n")
    n = len(lines) - 1
    short = b"\n".join(lines[: n - 1]) + b"\n"
    archive = wmt21_zip("de-en", extra={"de-en/sys/Online-W.en": short})
    assert refused(archive, "de-en.zip") == (
        f"de-en.zip/de-en/sys/Online-W.en, line {n}: the file ends after {n - 1} "
        f"lines, but the source (de-en.zip/de-en/src.de) has {n}; every line "
        "must be the translation of the same line there"
    )


def test_a_gzip_file_is_read_as_the_file_it_holds() -> None:
    data = (WMT21_DIR / "en-de/ref.A.de").read_bytes()
    corpus = read_corpus(gzip.compress(data), "ref.A.de.gz")
    assert corpus.references == {"A": tuple(read_lines(WMT21_DIR / "en-de/ref.A.de"))}
    assert corpus.target_language == "de"
    assert corpus.detected.startswith(
        "gzip-compressed plain text (refset): 1 reference"
    )


def test_concatenated_gzip_members_are_one_file() -> None:
    data = gzip.compress(b"one\ntwo\n") + gzip.compress(b"three\n")
    assert read_corpus(data, "hyp.txt.gz").systems == {"hyp": ("one", "two", "three")}


def test_a_cut_gzip_file_is_refused() -> None:
    data = gzip.compress(b"one\ntwo\n" * 1000)[:-40]
    assert refused(data, "hyp.gz") == "hyp.gz: the gzip data is cut short"


def test_path_traversal_is_refused() -> None:
    for name in (
        "../../etc/cron.d/evil",
        "/etc/passwd",
        "a/../../b",
        "C:\\evil.txt",
        "..\\x",
    ):
        assert refused(make_zip({"src.de": b"a\n", name: b"b\n"})) == (
            f"upload.zip: member {name!r} has a path outside the archive "
            "(absolute or with '..'); refused"
        )


def test_a_symbolic_link_is_refused() -> None:
    assert refused(symlink_zip("sys/link.en", "/etc/passwd")) == (
        "upload.zip: member 'sys/link.en' is a symbolic link; an archive may "
        "hold only files and folders"
    )


def test_too_many_members_are_refused_before_anything_is_unpacked() -> None:
    files = {f"sys/s{i}.en": b"x\n" for i in range(1001)}
    assert refused(make_zip(files)) == (
        "upload.zip: the archive has 1,001 entries; at most 1,000 are read"
    )


def test_a_zip_bomb_is_stopped_while_unpacking() -> None:
    # 200 MB of zeros deflate to about 200 KB: a ratio of about 1000.
    bomb = make_zip({"src.de": b"a\n", "sys/bomb.en": b"\x00" * (200 * 1024 * 1024)})
    started = time.perf_counter()
    message = refused(bomb)
    elapsed = time.perf_counter() - started
    print(f"zip bomb of {len(bomb):,} bytes refused in {elapsed * 1000:.0f} ms")
    assert message.startswith(
        "upload.zip: sys/bomb.en expands to more than 100 times its compressed size ("
    )
    assert message.endswith("); refused as a possible zip bomb")
    assert elapsed < 5  # stopped after a few MB, not after 200


def test_a_zip_whose_headers_understate_the_size_is_still_stopped() -> None:
    # The central directory and local header say 1,000 bytes; the member
    # unpacks to 50 MB. zipfile stops at the stated size and the CRC fails.
    bomb = make_zip({"sys/bomb.en": b"\x00" * (50 * 1024 * 1024)})
    real = (50 * 1024 * 1024).to_bytes(4, "little")
    forged = bomb.replace(real, (1000).to_bytes(4, "little"))
    assert forged.count((1000).to_bytes(4, "little")) == 2
    assert refused(forged) == (
        "upload.zip: member 'sys/bomb.en' is damaged (Bad CRC-32 for file "
        "'sys/bomb.en')"
    )


def test_the_total_unpacked_size_is_limited() -> None:
    files = {f"sys/s{i}.en": f"line {i}\n".encode() * 20_000 for i in range(4)}
    assert refused(make_zip(files), max_total_bytes=300_000) == (
        "upload.zip: the archive declares 560,000 bytes unpacked; the limit is 300,000"
    )
    # A gzip member's header gives its compressed size only: the total is
    # counted while it is unpacked.
    inner = gzip.compress(b"a line of text\n" * 100_000)  # 1.5 MB
    archive = make_zip({"src.de": b"x\n", "sys/a.en.gz": inner})
    assert refused(archive, max_total_bytes=1_000_000, max_ratio=10_000) == (
        "upload.zip: unpacks to more than 1,000,000 bytes (the limit); refused "
        "as a possible zip bomb"
    )


def test_duplicate_members_and_nested_archives() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, pytest.warns(UserWarning):
        archive.writestr("ref.A.en", "a\n")
        archive.writestr("ref.A.en", "b\n")
    assert refused(buffer.getvalue()) == (
        "upload.zip: member 'ref.A.en' appears twice; refused"
    )
    inner = make_zip({"ref.A.en": b"a\n"})
    corpus = read_corpus(make_zip({"src.de": b"x\n", "inner.zip": inner}), "o.zip")
    assert corpus.skipped == (
        ("inner.zip", "an archive inside the archive is not read"),
    )


def test_an_archive_with_no_corpus_file_is_refused() -> None:
    assert refused(make_zip({"notes.md": b"hello\n"})) == (
        "upload.zip: no corpus file in the archive (expected src.*, ref.*, "
        "sys/*, SGML, WMT XML or TSV files)"
    )


def test_a_damaged_zip_and_a_foreign_compression_are_refused() -> None:
    assert refused(b"PK\x03\x04" + b"\x00" * 40) == (
        "upload.zip: not a readable ZIP archive (File is not a zip file)"
    )
    assert refused(b"\xfd7zXZ\x00\x00rest", "hyp.xz") == (
        "hyp.xz: this is an xz-compressed file; corpus files are read as text, "
        "gzip or zip"
    )


def test_two_files_naming_the_same_system_are_refused() -> None:
    archive = make_zip({"sys/A.en": b"a\n", "hyp.A.en": b"b\n"})
    assert refused(archive) == (
        "upload.zip/hyp.A.en, line 1: system 'A' is already read in "
        "upload.zip/sys/A.en; give each reference and system its own name"
    )
