"""NIST SGML: BLEND's real files, the variations of real files, and every
refusal with its whole message."""

from __future__ import annotations

import time

import numpy as np
import pytest

from scoring import get_metric
from scoring.formats import CorpusFormatError, read_corpus
from scoring.formats.text import unescape_sgml
from tests.scoring.support.realdata import (
    DATA_DIR,
    read_lines,
    require_full_data,
    segment_count,
)

BLEND = DATA_DIR / "blend-wmt15-16-da"
MTEVAL_BLEU = "bleu:lowercase=true,smooth=mteval,sentence_smooth=mteval"
N_BLEND = segment_count("blend-wmt15-16-da", full=5360)


def blend_sgml(name: str):
    path = BLEND / "preprocessed" / f"train.{name}.toen.sgm"
    return read_corpus(path.read_bytes(), path.name)


def refused(data: str | bytes, name: str = "test.sgm") -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with pytest.raises(CorpusFormatError) as caught:
        read_corpus(raw, name)
    return str(caught.value)


def test_it_reads_blends_system_sgml_as_a_tstset_with_its_attributes() -> None:
    corpus = blend_sgml("mt-system")
    assert corpus.format == "sgml"
    assert corpus.kind == "tstset"
    assert corpus.detected == (
        f"NIST SGML (tstset): 1 system, {N_BLEND:,} segments in 1 document"
    )
    assert list(corpus.systems) == ["tst"]
    assert corpus.references == {} and corpus.source is None
    assert corpus.document_ids == ("doc",) * N_BLEND
    assert (corpus.set_id, corpus.source_language, corpus.target_language) == (
        "set",
        "src",
        "tgt",
    )


def test_blends_sgml_segments_are_its_preprocessed_lines_with_mtevals_entities_read() -> (
    None
):
    # The preprocessed/ lines are the <seg> contents as written (&quot;, &apos;).
    for name, label in (("mt-system", "tst"), ("reference", "ref0")):
        corpus = blend_sgml(name)
        streams = corpus.systems if name == "mt-system" else corpus.references
        lines = read_lines(BLEND / "preprocessed" / f"train.{name}.toen")
        assert streams[label] == tuple(unescape_sgml(line) for line in lines)
        # &apos; stays (mteval does not replace it); &quot; does not.
        assert any("&apos;" in text for text in streams[label])
        assert not any("&quot;" in text for text in streams[label])


def test_bleu_of_blends_sgml_files_is_mtevals_bleu_of_them_segment_by_segment() -> None:
    # BLEND's scores/BLEU are mteval-v13a's segment BLEU of these very SGML
    # files. The mteval13a tokenizer re-escapes plain text as mteval's SGML
    # input, so on the segments read here it must give mteval's figures.
    hypotheses = blend_sgml("mt-system").systems["tst"]
    references = blend_sgml("reference").references["ref0"]
    expected = np.array([float(v) for v in read_lines(BLEND / "scores" / "BLEU")])
    metric = get_metric(f"{MTEVAL_BLEU},tokenize=mteval13a")
    ours = np.array(
        metric.score(hypotheses, [references], sentence=True).sentence_scores
    )
    assert ours.shape == expected.shape == (N_BLEND,)
    assert np.abs(ours / 100 - expected).max() < 1e-6
    # ... and the plain lines read as <seg> content give the same corpus BLEU.
    plain = get_metric(f"{MTEVAL_BLEU},tokenize=mteval13a-sgml").score(
        read_lines(BLEND / "preprocessed" / "train.mt-system.toen"),
        [read_lines(BLEND / "preprocessed" / "train.reference.toen")],
    )
    assert metric.score(hypotheses, [references]).score == pytest.approx(
        plain.score, abs=1e-9
    )


NIST_STYLE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mteval SYSTEM "ftp://jaguar.ncsl.nist.gov/mt/resources/mteval-xml-v1.3.dtd">
<mteval>
<REFSET SetID=nist08 SrcLang='Arabic' TrgLang="English" RefID="ref1">
<DOC DocID="b" SysID="ref1">
<hl><SEG id=1>Headline B</SEG></hl>
<p>
<seg id="3">third</seg>
<seg id="2">second
   over two lines</seg>
</p>
</DOC>
<doc docid="a" sysid="ref1">
<seg id="1">A &amp; B &lt;b&gt; &quot;q&quot; &apos;s &#39; &amp;lt;</seg>
</doc>
</REFSET>
<refset setid="nist08" srclang="Arabic" trglang="English" refid="ref2">
<doc docid="a" sysid="ref2"><seg id="1">a</seg></doc>
<doc docid="b" sysid="ref2"><seg id="1">b1</seg><seg id="2">b2</seg><seg id="3">b3</seg></doc>
</refset>
<!-- a comment <seg id="9">not a segment</seg> -->
</mteval>
"""


def test_it_reads_nist_variations_case_quotes_headlines_and_several_refsets() -> None:
    corpus = read_corpus(NIST_STYLE.encode(), "nist08.ref.xml")
    assert corpus.format == "sgml" and corpus.kind == "refset"
    assert corpus.source_language == "Arabic" and corpus.set_id == "nist08"
    # Documents in the base stream's order (b, a); segments by id in each.
    assert corpus.document_ids == ("b", "b", "b", "a")
    assert corpus.references == {
        "ref1": (
            "Headline B",
            "second over two lines",
            "third",
            'A & B <b> "q" &apos;s &#39; &lt;',
        ),
        "ref2": ("b1", "b2", "b3", "a"),
    }


def test_segments_keep_their_spaces_when_on_one_line() -> None:
    text = '<tstset sysid="s"><doc docid="d"><seg id="1">  two  spaces\t</seg></doc></tstset>'
    assert read_corpus(text.encode(), "t.sgm").systems["s"] == ("  two  spaces\t",)


def tstset(*docs: str, sysid: str = "sys") -> str:
    return (
        f'<tstset setid="t" srclang="de" trglang="en" sysid="{sysid}">\n'
        + "".join(docs)
        + "</tstset>\n"
    )


def test_a_duplicated_segment_id_is_refused_naming_both_lines() -> None:
    text = tstset(
        '<doc docid="d1">\n<seg id="1">a</seg>\n<seg id="1">b</seg>\n</doc>\n'
    )
    assert refused(text) == (
        "test.sgm, line 4: segment id 1 appears twice in document 'd1' of "
        "system 'sys' (first at line 3)"
    )


def test_a_document_given_twice_is_refused() -> None:
    doc = '<doc docid="d1">\n<seg id="1">a</seg>\n</doc>\n'
    assert refused(tstset(doc, doc)) == (
        "test.sgm, line 5: document 'd1' appears twice in system 'sys' "
        "(first at line 2)"
    )


def test_an_unclosed_segment_a_segment_without_id_and_stray_tags_are_refused() -> None:
    assert refused(
        tstset('<doc docid="d">\n<seg id="1">a\n<seg id="2">b</seg></doc>')
    ) == ("test.sgm, line 3: <seg> is not closed with </seg>")
    assert refused(tstset('<doc docid="d">\n<seg>a</seg></doc>')) == (
        "test.sgm, line 3: <seg> without an id"
    )
    assert refused(tstset('<doc>\n<seg id="1">a</seg></doc>')) == (
        "test.sgm, line 2: <doc> without a docid"
    )
    assert refused('<tstset>\n<doc docid="d">\n<seg id="1">a</seg>\n</tstset>') == (
        "test.sgm, line 4: </tstset> closes the set, but document 'd' (line 2) "
        "is still open"
    )
    assert refused('<tstset>\n<doc docid="d">\n<seg id="1">a</seg></doc>\n') == (
        "test.sgm, line 1: the <tstset> is never closed with </tstset>"
    )
    assert refused('<tstset>\n<seg id="1">a</seg>\n</tstset>') == (
        "test.sgm, line 2: <seg> outside a <doc>"
    )
    assert refused("<tstset>\n</tstset>\n") == (
        "test.sgm: no <seg> found in a <srcset>, <refset> or <tstset>"
    )


def test_conflicting_languages_in_one_file_are_refused() -> None:
    text = (
        '<refset srclang="de" trglang="en"><doc docid="d" sysid="A"><seg id="1">a</seg></doc></refset>\n'
        '<refset srclang="cs" trglang="en"><doc docid="d" sysid="B"><seg id="1">b</seg></doc></refset>\n'
    )
    assert refused(text) == "test.sgm, line 2: srclang='cs' differs from 'de' at line 1"


SOURCE = (
    '<srcset setid="t" srclang="de">\n'
    '<doc docid="d1">\n<seg id="1">s1</seg>\n<seg id="2">s2</seg>\n</doc>\n'
    '<doc docid="d2">\n<seg id="1">s3</seg>\n</doc>\n'
    "</srcset>\n"
)


def test_a_system_missing_a_segment_of_the_source_is_refused_naming_both_files() -> (
    None
):
    from tests.scoring.formats.support import make_zip

    system = tstset(
        '<doc docid="d1">\n<seg id="1">h1</seg>\n</doc>\n',
        '<doc docid="d2">\n<seg id="1">h3</seg>\n</doc>\n',
    )
    archive = make_zip({"src.sgm": SOURCE.encode(), "tst.sgm": system.encode()})
    assert refused(archive, "set.zip") == (
        "set.zip/tst.sgm, line 2: document 'd1' of system 'sys' has no segment "
        "2; the source has it at set.zip/src.sgm, line 4"
    )


def test_documents_that_differ_between_source_and_system_are_refused() -> None:
    from tests.scoring.formats.support import make_zip

    other_document = tstset(
        '<doc docid="d1">\n<seg id="1">h1</seg>\n<seg id="2">h2</seg>\n</doc>\n',
        '<doc docid="d3">\n<seg id="1">h3</seg>\n</doc>\n',
    )
    archive = make_zip({"src.sgm": SOURCE.encode(), "tst.sgm": other_document.encode()})
    assert refused(archive, "set.zip") == (
        "set.zip/tst.sgm, line 6: document 'd3' of system 'sys' is not in the "
        "source (set.zip/src.sgm)"
    )
    missing_document = tstset(
        '<doc docid="d1">\n<seg id="1">h1</seg>\n<seg id="2">h2</seg>\n</doc>\n'
    )
    archive = make_zip(
        {"src.sgm": SOURCE.encode(), "tst.sgm": missing_document.encode()}
    )
    assert refused(archive, "set.zip") == (
        "set.zip/tst.sgm: system 'sys' has no document 'd2'; the source has it "
        "at set.zip/src.sgm, line 6"
    )
    extra_segment = tstset(
        '<doc docid="d1">\n<seg id="1">h1</seg>\n<seg id="2">h2</seg>\n<seg id="3">x</seg>\n</doc>\n',
        '<doc docid="d2">\n<seg id="1">h3</seg>\n</doc>\n',
    )
    archive = make_zip({"src.sgm": SOURCE.encode(), "tst.sgm": extra_segment.encode()})
    assert refused(archive, "set.zip") == (
        "set.zip/tst.sgm, line 5: segment 3 of document 'd1' of system 'sys' is "
        "not in the source (set.zip/src.sgm)"
    )


def test_a_system_with_documents_in_another_order_is_lined_up_by_document_id() -> None:
    from tests.scoring.formats.support import make_zip

    system = tstset(
        '<doc docid="d2">\n<seg id="1">h3</seg>\n</doc>\n',
        '<doc docid="d1">\n<seg id="2">h2</seg>\n<seg id="1">h1</seg>\n</doc>\n',
    )
    corpus = read_corpus(
        make_zip({"src.sgm": SOURCE.encode(), "tst.sgm": system.encode()}), "set.zip"
    )
    assert corpus.source == ("s1", "s2", "s3")
    assert corpus.systems == {"sys": ("h1", "h2", "h3")}
    assert corpus.document_ids == ("d1", "d1", "d2")
    assert corpus.kind == "mixed"


def test_a_latin1_sgml_file_is_refused_naming_the_line_and_byte() -> None:
    data = tstset('<doc docid="d">\n<seg id="1">caf\xe9</seg></doc>\n').encode(
        "latin-1"
    )
    assert refused(data) == (
        "test.sgm, line 3: invalid UTF-8 (byte 0xe9 at byte 16 of the line), "
        "perhaps Latin-1 or Windows-1252 ('é'); save the file as UTF-8"
    )


def test_blends_three_sgml_files_zipped_line_up_as_source_reference_and_system() -> (
    None
):
    require_full_data("BLEND's train.source.toen.sgm (not in the fixtures)")
    from tests.scoring.formats.support import make_zip

    names = ("source", "reference", "mt-system")
    files = {
        f"train.{name}.toen.sgm": (
            BLEND / "preprocessed" / f"train.{name}.toen.sgm"
        ).read_bytes()
        for name in names
    }
    corpus = read_corpus(make_zip(files), "blend-sgml.zip")
    assert corpus.detected == (
        "ZIP archive of 3 files (NIST SGML ×3): source, 1 reference, 1 system, "
        "5,360 segments in 1 document"
    )
    source = read_lines(BLEND / "preprocessed" / "train.source.toen")
    assert corpus.source == tuple(unescape_sgml(line) for line in source)


@pytest.mark.parametrize(
    "junk", ['<x "\n', '<doc docid="a\n', "<!x ", "<seg id=1>"], ids=repr
)
def test_tags_left_open_are_refused_in_linear_time(junk: str) -> None:
    # An early reader scanned to the end of the file from every "<" of an
    # unclosed tag: 20,000 such lines took minutes.
    text = "<tstset>\n<doc docid=d>\n" + junk * 20_000
    started = time.perf_counter()
    message = refused(text)
    elapsed = time.perf_counter() - started
    print(f"{junk!r} x 20,000: refused in {elapsed * 1000:.0f} ms")
    assert message.startswith("test.sgm, line ")
    assert elapsed < 2


def test_an_unclosed_comment_is_refused() -> None:
    assert refused("<tstset>\n<!-- never closed\n<doc docid=d>") == (
        "test.sgm, line 2: a comment (<!--) is never closed"
    )
