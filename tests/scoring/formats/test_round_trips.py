"""Every writer's output reads back as the corpus written: real WMT21 files
and, by Hypothesis, arbitrary segment text (except what a format cannot
hold: line breaks anywhere; TAB in TSV; control characters other than TAB,
U+FFFE and U+FFFF in WMT XML; a byte-order mark starting a plain file)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import get_metric, get_tokenizer
from scoring.formats import (
    ParsedCorpus,
    read_corpus,
    write_plain,
    write_sgml,
    write_tsv,
    write_wmt_xml,
)
from scoring.tokenizers.mteval import mteval_tokens
from tests.scoring.formats.support import make_zip, wmt21_streams, wmt21_zip
from tests.scoring.properties.strategies import PROPERTY_SETTINGS

WRITERS = {"sgml": write_sgml, "wmt-xml": write_wmt_xml, "tsv": write_tsv}


@pytest.mark.parametrize("fmt", list(WRITERS))
@pytest.mark.parametrize("pair", ["de-en", "en-de", "ru-en"])
def test_a_wmt21_test_set_round_trips_through_every_format(pair: str, fmt: str) -> None:
    corpus = read_corpus(wmt21_zip(pair), f"{pair}.zip")
    again = read_corpus(WRITERS[fmt](corpus), f"{pair}.out")
    assert again.format == fmt
    assert again.streams() == corpus.streams()
    assert again.document_ids == (
        corpus.document_ids
        if corpus.document_ids or fmt == "tsv"
        else ("doc1",) * corpus.n_segments
    )
    if fmt != "tsv":  # TSV states no languages
        assert (again.source_language, again.target_language) == (
            corpus.source_language,
            corpus.target_language,
        )


def test_mtevals_three_sgml_files_in_a_zip_read_as_the_plain_files() -> None:
    corpus = read_corpus(wmt21_zip("ru-en"), "ru-en.zip")
    files = {"newstest2021.ru-en.src.ru.sgm": write_sgml(corpus, ["source"])}
    files["newstest2021.ru-en.ref.en.sgm"] = write_sgml(corpus, ["ref:A", "ref:B"])
    for name in corpus.systems:
        files[f"sys/{name}.sgm"] = write_sgml(corpus, [f"system:{name}"])
    again = read_corpus(make_zip(files), "ru-en-sgml.zip")
    assert again.detected.startswith("ZIP archive of 4 files (NIST SGML ×4): ")
    assert again.streams() == corpus.streams()
    assert again.document_ids == corpus.document_ids
    assert len(set(corpus.document_ids or ())) >= 16


@pytest.mark.parametrize("tokenize", ["13a", "mteval13a"])
def test_bleu_of_a_wmt21_system_read_from_sgml_equals_bleu_of_its_plain_text(
    tokenize: str,
) -> None:
    plain = wmt21_streams("en-de")
    corpus = read_corpus(wmt21_zip("en-de"), "en-de.zip")
    sgml = {
        "ref.sgm": write_sgml(corpus, ["ref:A", "ref:C", "ref:D"]),
        "tst.sgm": write_sgml(corpus, ["system:Facebook-AI"]),
    }
    read = read_corpus(make_zip(sgml), "sgml.zip")
    metric = get_metric(f"bleu:tokenize={tokenize}")
    from_plain = metric.score(
        plain["system:Facebook-AI"], [plain[f"ref:{x}"] for x in "ACD"]
    )
    from_sgml = metric.score(
        read.systems["Facebook-AI"], [read.references[x] for x in "ACD"]
    )
    assert from_sgml.score == from_plain.score  # the same segments: exactly equal
    assert from_sgml.score > 10


def test_the_bytes_written_are_stable() -> None:
    corpus = read_corpus(wmt21_zip("ru-en"), "ru-en.zip")
    for writer in WRITERS.values():
        assert writer(read_corpus(writer(corpus), "x")) == writer(corpus)


# -- Hypothesis: write -> read is the identity ---------------------------------

NO_LINE_BREAKS = st.characters(
    blacklist_categories=("Cs",), blacklist_characters="\n\r"
)
XML_TEXT = st.characters(
    blacklist_categories=("Cs",),
    blacklist_characters="\n\r\ufffe\uffff"
    + "".join(chr(c) for c in range(32) if c != 9),
)
# Pieces of seg content where entity replacement could go wrong (no raw
# "<": mteval would drop a literal <skipped> that the reader keeps).
ENTITY_PIECES = [
    "&",
    "amp;",
    "lt;",
    "gt;",
    "quot;",
    "apos;",
    "#39;",
    ">",
    "a",
    " ",
    "\n",
    "\t",
    ".",
]
TRICKY_PIECES = [
    "&lt;",
    "&amp;",
    "&quot;",
    "&apos;",
    '<seg id="2">',
    "</seg>",
    "</doc>",
    "<",
    "&",
    " ",
]
DOCUMENT_IDS = st.text(
    alphabet=st.sampled_from("abcXYZ019._-&<>\"' é東"), min_size=1, max_size=6
)


@st.composite
def corpora(draw: st.DrawFn, alphabet: st.SearchStrategy[str]) -> ParsedCorpus:
    n = draw(st.integers(1, 6))
    # Arbitrary characters, with entity-like pieces mixed in often.
    segment = st.lists(
        st.one_of(st.text(alphabet, max_size=4), st.sampled_from(TRICKY_PIECES)),
        max_size=8,
    ).map("".join)
    text = st.lists(segment, min_size=n, max_size=n)
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=3)) if n > 1 else [])
    names = draw(
        st.lists(
            DOCUMENT_IDS, min_size=len(cuts) + 1, max_size=len(cuts) + 1, unique=True
        )
    )
    bounds = [0, *cuts, n]
    documents = tuple(
        names[k]
        for k in range(len(bounds) - 1)
        for _ in range(bounds[k], bounds[k + 1])
    )
    references = {
        label: tuple(draw(text))
        for label in draw(st.sets(st.sampled_from("ABC"), max_size=2))
    }
    systems = {
        name: tuple(draw(text))
        for name in draw(
            st.sets(st.sampled_from(["s-1", "Online W", "x&y"]), min_size=1, max_size=2)
        )
    }
    return ParsedCorpus(
        format="",
        detected="",
        kind="mixed",
        source=tuple(draw(text)),
        references=references,
        systems=systems,
        document_ids=documents,
        source_language=draw(st.sampled_from([None, "de", "zh"])),
        target_language=draw(st.sampled_from([None, "en"])),
    )


@PROPERTY_SETTINGS
@given(corpora(NO_LINE_BREAKS))
def test_sgml_write_then_read_is_the_identity(corpus: ParsedCorpus) -> None:
    again = read_corpus(write_sgml(corpus), "x.sgm")
    assert again.streams() == corpus.streams()
    assert again.document_ids == corpus.document_ids
    assert (again.source_language, again.target_language) == (
        corpus.source_language,
        corpus.target_language,
    )


@PROPERTY_SETTINGS
@given(corpora(XML_TEXT))
def test_wmt_xml_write_then_read_is_the_identity(corpus: ParsedCorpus) -> None:
    again = read_corpus(write_wmt_xml(corpus), "x.xml")
    assert again.streams() == corpus.streams()
    assert again.document_ids == corpus.document_ids


@PROPERTY_SETTINGS
@given(
    corpora(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\t"))
)
def test_tsv_write_then_read_is_the_identity(corpus: ParsedCorpus) -> None:
    again = read_corpus(write_tsv(corpus), "x.tsv", "tsv")
    assert again.streams() == corpus.streams()
    assert again.document_ids == corpus.document_ids


@PROPERTY_SETTINGS
@given(
    st.lists(
        st.text(
            st.characters(
                blacklist_categories=("Cs",), blacklist_characters="\n\r\ufeff"
            ),
            max_size=25,
        ),
        min_size=1,
        max_size=6,
    )
)
def test_plain_write_then_read_is_the_identity(segments: list[str]) -> None:
    corpus = read_corpus(write_plain(segments), "hyp.en", "plain")
    assert corpus.systems == {"hyp": tuple(segments)}


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(ENTITY_PIECES), max_size=30).map("".join))
def test_mteval13a_on_a_segment_read_from_sgml_is_mteval_on_the_file(
    content: str,
) -> None:
    # mteval-v13a tokenises the <seg> content as written; the reader replaces
    # entities once, the mteval13a tokenizer re-escapes: the tokens agree.
    text = (
        f'<tstset><doc docid="d" sysid="s"><seg id="1">{content}</seg></doc></tstset>'
    )
    segment = read_corpus(text.encode(), "x.sgm").systems["s"][0]
    assert get_tokenizer("mteval13a")(segment) == mteval_tokens(content)
