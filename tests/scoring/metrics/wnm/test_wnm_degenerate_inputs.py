"""WNM on degenerate and multilingual input, and its configuration."""

from __future__ import annotations

import pytest

from scoring import MetricError
from scoring import __version__ as VERSION
from scoring.metrics.wnm.metric import WNM

# Three documents with words of their own, so that every word is salient.
DOCS = ["d1", "d2", "d3"]


def test_an_empty_hypothesis_scores_zero_without_error() -> None:
    refs = [["alpha beta", "gamma delta", "epsilon zeta"]]
    result = WNM(measure="f").score(
        ["", "gamma delta", "epsilon zeta"], refs, sentence=True, document_ids=DOCS
    )
    assert result.sentence_scores == (0.0, 1.0, 1.0)
    assert 0 < result.score < 1


def test_an_empty_reference_gives_recall_zero_for_its_segment() -> None:
    refs = [["", "gamma delta", "epsilon zeta"]]
    result = WNM().score(
        ["alpha", "gamma delta", "epsilon zeta"], refs, sentence=True, document_ids=DOCS
    )
    assert result.sentence_scores == (0.0, 1.0, 1.0)


def test_a_hypothesis_shorter_than_n_matches_its_unigrams() -> None:
    refs = [["alpha beta gamma", "delta", "epsilon"]]
    result = WNM(max_order=4, measure="p", weights="none").score(
        ["alpha", "delta", "epsilon"], refs, sentence=True, document_ids=DOCS
    )
    assert result.sentence_scores == (1.0, 1.0, 1.0)


def test_a_single_reference_where_several_are_usual_still_scores() -> None:
    refs_two = [["alpha beta", "gamma", "delta"], ["alpha beta", "gamma", "delta"]]
    one = WNM().score(["alpha", "gamma", "delta"], refs_two[:1], document_ids=DOCS)
    two = WNM().score(["alpha", "gamma", "delta"], refs_two, document_ids=DOCS)
    assert one.signature.split("|")[1] == "nrefs:1"
    # A duplicated reference changes neither the weights nor the ratios.
    assert two.score == pytest.approx(one.score, rel=1e-12)


def test_a_missing_reference_in_a_stream_is_skipped() -> None:
    refs = [["alpha beta", "gamma", "delta"], ["alpha beta", None, "delta"]]
    result = WNM().score(["alpha beta", "gamma", "delta"], refs, document_ids=DOCS)
    assert result.signature.split("|")[1] == "nrefs:var"
    assert result.score == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize(
    "text",
    [
        "机器 翻译 评测",  # Chinese, pre-segmented
        "الترجمة الآلية جيدة",  # Arabic
        "cafe\u0301 na\u0308ive",  # combining accents
        "one\u00a0two\u3000three",  # no-break and ideographic spaces
    ],
)
def test_a_hypothesis_equal_to_its_reference_scores_one_in_any_script(
    text: str,
) -> None:
    refs = [[text, "other words here", "more other text"]]
    for tokenize in ("13a", "none", "wnm"):
        result = WNM(tokenize=tokenize, measure="f").score(
            [text, "other words here", "more other text"], refs, document_ids=DOCS
        )
        assert result.score == pytest.approx(1.0, rel=1e-12), tokenize


def test_it_refuses_to_score_without_document_ids() -> None:
    with pytest.raises(MetricError, match="document ids"):
        WNM().score(["a"], [["a"]])
    with pytest.raises(MetricError, match="document ids"):
        WNM(weights="none", scope="document").score(["a"], [["a"]])


def test_plain_counts_segment_by_segment_need_no_document_ids() -> None:
    hypotheses, references = ["a b c", "x y", ""], [["a b d", "x z", "q"]]
    unweighted = WNM(weights="none", measure="f")
    assert unweighted.requires == ()
    without = unweighted.score(hypotheses, references, sentence=True)
    with_ids = unweighted.score(
        hypotheses, references, sentence=True, document_ids=["1", "2", "1"]
    )
    assert without.score == with_ids.score > 0
    assert without.sentence_scores == with_ids.sentence_scores


@pytest.mark.parametrize(
    "options",
    [
        {"measure": "x"},
        {"max_order": 0},
        {"weights": "tfidf"},
        {"negative": "abs"},
        {"ngram_weight": "mean"},
        {"scope": "corpus"},
        {"tokenize": "intl-x"},
        {"lowercase": "yes"},
    ],
)
def test_it_refuses_bad_configurations(options: dict[str, object]) -> None:
    with pytest.raises(MetricError, match="wnm"):
        WNM(**options)  # type: ignore[arg-type]


def test_the_signature_names_every_setting() -> None:
    result = WNM().score(["a"], [["a"]], document_ids=["d"])
    assert result.signature == (
        "wnm|nrefs:1|case:lc|tok:13a|measure:r|n:4|weights:salience|neg:zero|"
        f"ngram:last|scope:segment|version:{VERSION}"
    )


def test_segment_row_scores_one_segment_as_a_corpus_of_one_document() -> None:
    assert list(WNM().segment_row("a b", ("a b",))) == [0.0, 0.0, 0.0, 0.0]
    assert list(WNM(weights="none", max_order=1).segment_row("a b", ("a c",))) == [
        1,
        2,
        1,
        2,
    ]


def test_the_registry_builds_wnm_from_a_spec() -> None:
    from scoring import get_metric

    metric = get_metric("wnm:measure=f,n=2,scope=document,tokenize=wnm,negative=zero")
    assert metric == WNM(
        measure="f", max_order=2, scope="document", tokenize="wnm", negative="zero"
    )
    with pytest.raises(MetricError, match="valid parameters of wnm"):
        get_metric("wnm:measure=q")
