"""TSV's header convention, plain-text roles from WMT file names, and what
``fmt="auto"`` detects from the content (not the name)."""

from __future__ import annotations

import pytest

from scoring.formats import CorpusFormatError, detect_format, read_corpus
from scoring.formats.plain import NamedRole, role_from_name
from tests.scoring.support.realdata import WMT21_DIR

TSV = (
    "docid\tsource\tref:A\treference:B\tsystem:Online-W\thyp:UEdin\n"
    "d1\tQuelle\tSource\tThe source\tSource\tA source\n"
    "d1\t\t\t\t\t\n"
    "d2\tzwei\ttwo\tTwo\t2\ttwo\n"
)


def refused(text: str | bytes, name: str = "t.tsv", fmt: str = "auto") -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(CorpusFormatError) as caught:
        read_corpus(data, name, fmt)
    return str(caught.value)


def test_it_reads_a_tsv_with_one_column_per_stream() -> None:
    corpus = read_corpus(TSV.encode(), "set.tsv")
    assert corpus.detected == (
        "TSV (mixed): source, 2 references, 2 systems, 3 segments in 2 documents"
    )
    assert corpus.source == ("Quelle", "", "zwei")
    assert corpus.references == {
        "A": ("Source", "", "two"),
        "B": ("The source", "", "Two"),
    }
    assert corpus.systems == {
        "Online-W": ("Source", "", "2"),
        "UEdin": ("A source", "", "two"),
    }
    assert corpus.document_ids == ("d1", "d1", "d2")


def test_tsv_rows_and_headers_that_break_the_convention_are_refused() -> None:
    assert refused(TSV.replace("d2\tzwei", "d2\tzw\tei")) == (
        "t.tsv, line 4: 7 fields, but the header names 6 columns (fields are "
        "separated by TAB; a segment cannot contain one)"
    )
    assert refused("source\tscore\nx\t1\n", fmt="tsv") == (
        "t.tsv, line 1: column 2: 'score' is not a column name; use source, "
        "ref:<label>, system:<name> or docid"
    )
    assert refused("source\tref:A\treference:A\nx\ty\tz\n") == (
        "t.tsv, line 1: column 3: 'reference:A' names the same stream as column 2"
    )
    assert refused("source\tref:A\n", fmt="tsv") == (
        "t.tsv: no segments: the file has only a header"
    )


def test_a_plain_file_with_a_tab_in_a_segment_stays_plain() -> None:
    text = "Haus\tam See\nzwei\n"
    assert detect_format(text) == "plain"
    assert read_corpus(text.encode(), "hyp.de").systems == {
        "hyp": ("Haus\tam See", "zwei")
    }
    # A header of stream names is TSV; one column alone is not detected.
    assert detect_format("source\tsystem:x\na\tb") == "tsv"
    assert detect_format("source\na") == "plain"


def test_the_format_is_told_from_the_content_not_the_name() -> None:
    sgml = '<refset trglang="en"><doc docid="d" sysid="A"><seg id="1">x</seg></doc></refset>'
    xml = (
        '<?xml version="1.0"?>\n<!-- made by hand -->\n<dataset id="t"><collection id="c">'
        '<doc id="d"><ref lang="en" translator="A"><p><seg id="1">x</seg></p></ref>'
        "</doc></collection></dataset>"
    )
    for text, fmt in (
        (sgml, "sgml"),
        (xml, "wmt-xml"),
        (TSV, "tsv"),
        ("x\ny\n", "plain"),
    ):
        assert read_corpus(text.encode(), "upload.txt").format == fmt
    assert read_corpus(sgml.encode(), "upload.txt").references == {"A": ("x",)}


def test_forcing_a_format_reads_the_file_as_that_format() -> None:
    assert read_corpus(b"<seg>not sgml</seg>\n", "hyp.en", "plain").systems == {
        "hyp": ("<seg>not sgml</seg>",)
    }
    assert refused(b"just text\n", "hyp.sgm", "sgml") == (
        "hyp.sgm: no <seg> found in a <srcset>, <refset> or <tstset>"
    )
    with pytest.raises(ValueError, match="unknown format 'csv'; choose one of auto, "):
        read_corpus(b"x\n", "x.csv", "csv")


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("en-de/src.en", NamedRole("source", None, "en")),
        ("ref.A.de", NamedRole("reference", "A", "de")),
        ("newstest2021.en-de.ref.C.de", NamedRole("reference", "C", "de")),
        ("test.ref", NamedRole("reference", "test", None)),
        ("en-de/sys/Facebook-AI.de", NamedRole("system", "Facebook-AI", "de")),
        ("newstest2021.en-de.hyp.UEdin.de", NamedRole("system", "UEdin", "de")),
        ("hyp.txt", NamedRole("system", "hyp", None)),
        ("ru-en/docids", NamedRole("docid", None)),
        ("human/mqm_seg.tsv", None),
        ("scores/COMET_newstest2021_ref-A.tsv", None),
    ],
)
def test_plain_file_names_say_what_the_file_is(
    path: str, role: NamedRole | None
) -> None:
    assert role_from_name(path) == role


def test_a_plain_file_of_no_known_name_is_a_system_named_after_it() -> None:
    corpus = read_corpus(b"a\nb\n", "my output.txt")
    assert corpus.systems == {"my output": ("a", "b")}
    assert corpus.detected == "plain text (tstset): 1 system, 2 segments"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "hyp.sgm: the file is empty (0 bytes)"),
        (b"\xef\xbb\xbf", "hyp.sgm: the file is empty (only a byte-order mark)"),
        (
            "<tstset>".encode("utf-16"),
            "hyp.sgm: the file is UTF-16 little-endian (it starts with the "
            "byte-order mark FF FE), not UTF-8; save it as UTF-8",
        ),
        (
            b"%PDF-1.4",
            "hyp.sgm: this is a PDF document, not plain text; upload the text "
            "itself, UTF-8, one segment per line",
        ),
    ],
)
def test_files_that_are_not_utf8_text_get_the_upload_messages(
    data: bytes, message: str
) -> None:
    assert refused(data, "hyp.sgm") == message


def test_a_bom_and_crlf_line_ends_are_read_as_plain_utf8() -> None:
    data = b"\xef\xbb\xbfone\r\ntwo\r\n"
    assert read_corpus(data, "hyp.en").systems == {"hyp": ("one", "two")}


def test_a_docids_file_alone_is_no_corpus() -> None:
    data = (WMT21_DIR / "ru-en" / "docids").read_bytes()
    assert refused(data, "docids") == (
        "docids: only document ids; no source, reference or system segments"
    )


@pytest.mark.parametrize(
    ("head", "name"),
    [
        ('<?xml version="1.0"?>\n<!-- c -->\n<dataset id="x">', "dataset"),
        ('<!DOCTYPE dataset [\n<!ENTITY a "b">\n]>\n<dataset>', "dataset"),
        ("\n  <srcset setid=x>", "srcset"),
        ("text <srcset>", None),
        ("<!-- never closed <dataset>", None),
    ],
)
def test_the_first_element_is_found_after_declarations_and_comments(
    head: str, name: str | None
) -> None:
    from scoring.formats.text import first_element_name

    assert first_element_name(head) == name
