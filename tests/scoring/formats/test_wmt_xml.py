"""WMT XML (2021 onwards): one file with the source, references and systems;
DTDs and entities refused before anything is expanded."""

from __future__ import annotations

import pytest

from scoring.formats import CorpusFormatError, read_corpus, write_wmt_xml

WMT22_STYLE = """<?xml version='1.0' encoding='utf-8'?>
<dataset id="wmttest2022">
  <collection id="general">
    <doc id="news-1" origlang="de" domain="news">
      <src lang="de">
        <p>
          <seg id="1">Guten Tag &amp; willkommen</seg>
          <seg id="2">Zweiter &#x263A; Satz</seg>
        </p>
        <p>
          <seg id="3">Dritter
            Satz</seg>
        </p>
      </src>
      <ref lang="en" translator="A">
        <p><seg id="1">Good day &amp; welcome</seg><seg id="2">Second sentence</seg></p>
        <p><seg id="3">Third sentence</seg></p>
      </ref>
      <ref lang="en" translator="B">
        <p><seg id="2">Sentence two</seg><seg id="1">Hello and welcome</seg><seg id="3">Sentence three</seg></p>
      </ref>
      <hyp lang="en" system="sys-1">
        <p><seg id="1">Good day</seg><seg id="2"/><seg id="3">Third</seg></p>
      </hyp>
    </doc>
    <doc id="suite-1" origlang="de" testsuite="yes">
      <src lang="de"><p><seg id="1">nur Testsuite</seg></p></src>
      <hyp lang="en" system="sys-1"><p><seg id="1">test suite only</seg></p></hyp>
    </doc>
    <doc id="news-2" origlang="en">
      <src lang="de" translator="C"><p><seg id="1">Ende</seg></p></src>
      <ref lang="en" translator="A"><p><seg id="1">End</seg></p></ref>
      <ref lang="en" translator="B"><p><seg id="1">The end</seg></p></ref>
      <hyp lang="en" system="sys-1"><p><seg id="1">end</seg></p></hyp>
    </doc>
  </collection>
</dataset>
"""


def refused(text: str, name: str = "test.xml") -> str:
    with pytest.raises(CorpusFormatError) as caught:
        read_corpus(text.encode("utf-8"), name)
    return str(caught.value)


def test_it_reads_source_references_and_systems_from_one_wmt22_style_file() -> None:
    corpus = read_corpus(WMT22_STYLE.encode(), "wmttest2022.de-en.all.xml")
    assert corpus.format == "wmt-xml" and corpus.kind == "mixed"
    assert corpus.detected == (
        "WMT XML (mixed): source, 2 references, 1 system, 4 segments in 2 documents"
    )
    assert corpus.source == (
        "Guten Tag & willkommen",
        "Zweiter \u263a Satz",
        "Dritter Satz",
        "Ende",
    )
    assert corpus.references == {
        "A": ("Good day & welcome", "Second sentence", "Third sentence", "End"),
        "B": ("Hello and welcome", "Sentence two", "Sentence three", "The end"),
    }
    assert corpus.systems == {"sys-1": ("Good day", "", "Third", "end")}
    assert corpus.document_ids == ("news-1",) * 3 + ("news-2",)
    assert (corpus.set_id, corpus.source_language, corpus.target_language) == (
        "wmttest2022",
        "de",
        "en",
    )


def test_what_it_writes_it_reads_back() -> None:
    corpus = read_corpus(WMT22_STYLE.encode(), "all.xml")
    again = read_corpus(write_wmt_xml(corpus), "again.xml")
    assert again.streams() == corpus.streams()
    assert again.document_ids == corpus.document_ids
    assert (again.set_id, again.source_language, again.target_language) == (
        "wmttest2022",
        "de",
        "en",
    )


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE dataset [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<dataset id="x"><collection id="c"><doc id="d">
<src lang="de"><p><seg id="1">&lol2;</seg></p></src>
</doc></collection></dataset>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<dataset id="x"><collection id="c"><doc id="d">
<!ENTITY secret SYSTEM "file:///etc/passwd">
<src lang="de"><p><seg id="1">&secret;</seg></p></src>
</doc></collection></dataset>
"""


def test_a_doctype_with_entities_is_refused_before_any_expansion() -> None:
    assert refused(BILLION_LAUGHS) == (
        "test.xml, line 2: a <!DOCTYPE> declaration; WMT XML needs none, and "
        "DTDs and entities are not read (they could fetch files or expand "
        "without end)"
    )


def test_an_entity_declaration_anywhere_is_refused() -> None:
    assert refused(EXTERNAL_ENTITY) == (
        "test.xml, line 3: an <!ENTITY> declaration; entities are not read"
    )


def test_an_undeclared_entity_is_malformed_xml_with_its_line() -> None:
    text = WMT22_STYLE.replace("Second sentence", "Second &nbsp; sentence")
    assert refused(text) == "test.xml, line 16: not well-formed XML: undefined entity"


def test_a_declared_encoding_other_than_utf8_is_refused() -> None:
    text = WMT22_STYLE.replace("encoding='utf-8'", "encoding='ISO-8859-1'")
    assert refused(text) == (
        "test.xml, line 1: the XML declaration says encoding 'ISO-8859-1'; save "
        'the file as UTF-8 and say encoding="utf-8"'
    )


def test_a_reference_missing_for_one_document_is_refused() -> None:
    text = WMT22_STYLE.replace(
        '<ref lang="en" translator="B"><p><seg id="1">The end</seg></p></ref>', ""
    )
    assert refused(text) == (
        "test.xml: reference 'B' has no document 'news-2'; the source has it at line 31"
    )


def test_a_hypothesis_missing_a_segment_is_refused_naming_its_line() -> None:
    text = WMT22_STYLE.replace('<seg id="2"/>', "")
    assert refused(text) == (
        "test.xml, line 22: document 'news-1' of system 'sys-1' has no segment "
        "2; the source has it at line 8"
    )


def test_a_duplicated_segment_id_and_a_hyp_without_system_are_refused() -> None:
    text = WMT22_STYLE.replace(
        '<seg id="2">Second sentence', '<seg id="1">Second sentence'
    )
    assert refused(text) == (
        "test.xml, line 16: segment id 1 appears twice in document 'news-1' of "
        "reference 'A' (first at line 16)"
    )
    text = WMT22_STYLE.replace(
        ' system="sys-1"><p><seg id="1">end', '><p><seg id="1">end'
    )
    assert (
        refused(text) == "test.xml, line 34: <hyp> without a system name (system=...)"
    )


def test_markup_inside_a_segment_is_refused() -> None:
    text = WMT22_STYLE.replace("Third sentence", "Third <b>bold</b> sentence")
    assert (
        refused(text)
        == "test.xml, line 17: <b> inside a <seg>; segments hold text only"
    )


def test_text_xml_cannot_hold_is_refused_by_the_writer() -> None:
    corpus = read_corpus(WMT22_STYLE.encode(), "all.xml")
    from dataclasses import replace

    broken = replace(corpus, systems={"sys-1": ("a\x01", "", "", "")})
    with pytest.raises(ValueError, match=r"system:sys-1, segment 1: U\+0001 cannot"):
        write_wmt_xml(broken)


def test_it_reads_what_sacrebleus_wmt_xml_reader_reads() -> None:
    # sacreBLEU 2.6.0's reader of the same format (lxml), then its _clean
    # (whitespace collapsed); the sample has no double spaces, so the
    # streams must be equal.
    import io

    sacrebleu_xml = pytest.importorskip("sacrebleu.dataset.wmt_xml")
    fields = sacrebleu_xml.WMTXMLDataset._unwrap_wmt21_or_later(
        io.BytesIO(WMT22_STYLE.encode())
    )
    clean = sacrebleu_xml.WMTXMLDataset._clean
    theirs = {
        key: tuple(clean(text) for text in value) for key, value in fields.items()
    }
    corpus = read_corpus(WMT22_STYLE.encode(), "all.xml")
    assert theirs["src"] == corpus.source
    assert theirs["docid"] == corpus.document_ids
    assert {k[4:]: v for k, v in theirs.items() if k.startswith("ref:")} == dict(
        corpus.references
    )
    assert theirs["sys-1"] == corpus.systems["sys-1"]
