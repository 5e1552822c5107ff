"""WNM against hand computation of the salience formula of Babych et al. 2005.

The small corpus used throughout has three documents (reference tokens):

    d1: "a b a" + "c"   -> a:2 b:1 c:1 (4 tokens)
    d2: "a d"           -> a:1 d:1     (2 tokens)
    d3: "d e"           -> d:1 e:1     (2 tokens)

N = 3 documents, 8 tokens. S(i,j) = ln((P_doc - P_corp-doc) (N - df) / N / P_corp):

    S(b, d1) = S(c, d1) = ln(1/4 * 2/3 / (1/8))            = ln(4/3)
    S(a, d1)            = ln((2/4 - 1/4) * 1/3 / (3/8))     = ln(2/9)   (< 0)
    S(a, d2)            = ln((1/2 - 2/6) * 1/3 / (3/8))     = ln(4/27)  (< 0)
    S(d, d2) = S(d, d3) = ln((1/2 - 1/6) * 1/3 / (2/8))     = ln(4/9)   (< 0)
    S(e, d3)            = ln(1/2 * 2/3 / (1/8))             = ln(8/3)
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring.metrics.wnm.metric import WNM
from scoring.metrics.wnm.salience import salience_weights

B = math.log(4 / 3)
E = math.log(8 / 3)
A1 = math.log(2 / 9)

COUNTS = {
    "d1": {"a": 2, "b": 1, "c": 1},
    "d2": {"a": 1, "d": 1},
    "d3": {"d": 1, "e": 1},
}
DOCS = ["d1", "d1", "d2", "d3"]
REFS = [["a b a", "c", "a d", "d e"]]


def wnm(**options: object) -> WNM:
    return WNM(tokenize="none", **options)  # type: ignore[arg-type]


def test_a_word_found_in_one_document_only_gets_the_log_of_its_concentration() -> None:
    weights = salience_weights(COUNTS)
    assert weights["d1"]["b"] == pytest.approx(B, rel=1e-12)
    assert weights["d1"]["c"] == pytest.approx(B, rel=1e-12)
    assert weights["d3"]["e"] == pytest.approx(E, rel=1e-12)


def test_a_repeated_word_is_weighed_by_its_relative_frequency_against_the_rest() -> (
    None
):
    weights = salience_weights(COUNTS)
    assert weights["d1"]["a"] == pytest.approx(A1, rel=1e-12)
    assert weights["d2"]["a"] == pytest.approx(math.log(4 / 27), rel=1e-12)
    assert weights["d2"]["d"] == pytest.approx(math.log(4 / 9), rel=1e-12)
    assert weights["d3"]["d"] == pytest.approx(math.log(4 / 9), rel=1e-12)


def test_a_word_in_every_document_has_salience_zero() -> None:
    counts = {doc: {**words, "the": 3} for doc, words in COUNTS.items()}
    weights = salience_weights(counts)
    assert [weights[doc]["the"] for doc in counts] == [0.0, 0.0, 0.0]


def test_a_word_no_more_frequent_in_its_document_than_elsewhere_has_salience_zero() -> (
    None
):
    # 7 tokens. "x" is 1/4 of d1 but 1/3 of the rest (d2 + d3): no logarithm.
    # In d2 it is 1/2 against 1/5 of the rest; P_corp = 2/7, df = 2.
    weights = salience_weights(
        {"d1": {"x": 1, "y": 3}, "d2": {"x": 1, "z": 1}, "d3": {"w": 1}}
    )
    assert weights["d1"]["x"] == 0.0
    assert weights["d2"]["x"] == pytest.approx(
        math.log((1 / 2 - 1 / 5) * (1 / 3) / (2 / 7)), rel=1e-12
    )


def test_negative_zero_replaces_negative_saliences_only() -> None:
    weights = salience_weights(COUNTS, negative="zero")
    assert weights["d1"] == pytest.approx({"a": 0.0, "b": B, "c": B}, rel=1e-12)
    assert weights["d2"] == {"a": 0.0, "d": 0.0}
    assert weights["d3"] == pytest.approx({"d": 0.0, "e": E}, rel=1e-12)


def test_a_single_document_corpus_has_no_salient_word_and_scores_zero() -> None:
    assert salience_weights({"only": {"a": 2, "b": 1}}) == {
        "only": {"a": 0.0, "b": 0.0}
    }
    hyps, refs = ["a b", "b a"], [["a b", "a b"]]
    assert wnm().score(hyps, refs, document_ids=["x", "x"]).score == 0.0
    # Unweighted n-grams still work on one document (3 and 2 of 3 per segment).
    plain = wnm(weights="none", max_order=2).score(hyps, refs, document_ids=["x", "x"])
    assert plain.score == pytest.approx((3 + 2) / 6, rel=1e-12)


def test_it_computes_unigram_precision_recall_and_f_by_hand() -> None:
    # negative=zero: a (d1), a, d (d2), d (d3) weigh 0; b, c weigh B; e weighs E.
    # seg1 "a b x": hyp B (x is not in d1's reference: weight 0), match B, ref B
    # seg2 "c c":   hyp 2B, match min(2B, B) = B, ref B
    # d2 "a d":     all weights 0
    # d3 "e f":     hyp E, match E, ref E
    hyps = ["a b x", "c c", "a d", "e f"]
    statistics = wnm(max_order=1, negative="zero").segment_statistics(
        hyps, REFS, document_ids=DOCS
    )
    expected = [[B, B, B, B], [B, 2 * B, B, B], [0, 0, 0, 0], [E, E, E, E]]
    np.testing.assert_allclose(statistics, expected)
    precision = (2 * B + E) / (3 * B + E)
    for measure, value in (
        ("p", precision),
        ("r", 1.0),
        ("f", 2 * precision / (precision + 1)),
    ):
        result = wnm(max_order=1, negative="zero", measure=measure).score(
            hyps, REFS, sentence=True, document_ids=DOCS
        )
        assert result.score == pytest.approx(value, rel=1e-12)
    sentence = wnm(max_order=1, negative="zero", measure="p").score(
        hyps, REFS, sentence=True, document_ids=DOCS
    )
    assert sentence.sentence_scores == pytest.approx((1.0, 0.5, 0.0, 1.0), rel=1e-12)


def test_a_hypothesis_word_absent_from_the_reference_document_weighs_nothing() -> None:
    with_extra = wnm(max_order=1, negative="zero", measure="p").score(
        ["b x y z", "c", "a d", "d e"], REFS, document_ids=DOCS
    )
    without = wnm(max_order=1, negative="zero", measure="p").score(
        ["b", "c", "a d", "d e"], REFS, document_ids=DOCS
    )
    assert (
        with_extra.score
        == pytest.approx(without.score, rel=1e-12)
        == pytest.approx(1.0, rel=1e-12)
    )


def test_negative_saliences_kept_as_in_the_tool_can_push_precision_above_one() -> None:
    # seg1 "a b" vs "a b a": hyp A1 + B; ref 2 A1 + B; the matched weight of
    # "a" is min(A1, 2 A1) = 2 A1 (the larger count when the weight is < 0).
    row = wnm(max_order=1, negative="keep").segment_statistics(
        ["a b", "c", "a d", "d e"], REFS, document_ids=DOCS
    )[0]
    np.testing.assert_allclose(row, [2 * A1 + B, A1 + B, 2 * A1 + B, 2 * A1 + B])
    assert (2 * A1 + B) / (A1 + B) > 2  # what the tool would report as wP


def test_an_ngram_weighs_its_last_word_by_default_or_the_sum_of_its_words() -> None:
    # d1 weights with negative=zero: a 0, b B. hyp "b a" vs ref "a b a", n = 2.
    # last: hyp b(B) a(0) "b a"(0) = B; ref a a b "a b"(B) "b a"(0) = 2B; match B.
    # sum:  hyp B + 0 + B = 2B; ref 0 + 0 + B + B + B = 3B; match B + 0 + B = 2B.
    hyps = ["b a", "c", "a d", "d e"]
    last = wnm(max_order=2, negative="zero").segment_statistics(
        hyps, REFS, document_ids=DOCS
    )
    total = wnm(max_order=2, negative="zero", ngram_weight="sum").segment_statistics(
        hyps, REFS, document_ids=DOCS
    )
    np.testing.assert_allclose(last[0], [B, B, B, 2 * B])
    np.testing.assert_allclose(total[0], [2 * B, 2 * B, 2 * B, 3 * B])


def test_several_references_clip_precision_by_one_reference_and_pool_recall() -> None:
    # Unweighted: hyp "a a b", refs "a b" and "a a c".
    # P: a min(2, max(1, 2)) + b min(1, 1) = 3 of 3.  R: (1 + 1) + (2 + 0) of 2 + 3.
    metric = wnm(max_order=1, weights="none")
    row = metric.segment_statistics(
        ["a a b"], [["a b"], ["a a c"]], document_ids=["d"]
    )[0]
    np.testing.assert_allclose(row, [3, 3, 4, 5])
    result = metric.score(["a a b"], [["a b"], ["a a c"]], document_ids=["d"])
    assert result.score == pytest.approx(0.8, rel=1e-12)
    assert result.details["precision"] == 1.0
    assert result.details["f"] == pytest.approx(2 * 0.8 / 1.8, rel=1e-12)


def test_salience_pools_all_references_of_a_document() -> None:
    # d1 counts x:2 y:1 z:1 over both references, so x, y, z all weigh
    # ln(4/3) (e.g. x: (2/4) * (2/3) / (2/8)). hyp "y": P = 1, R = B / 4B.
    refs = [["x y", "p", "q"], ["x z", "p", "q"]]
    metric = wnm(max_order=1)
    rows = metric.segment_statistics(
        ["y", "p", "q"], refs, document_ids=["d1", "d2", "d3"]
    )
    np.testing.assert_allclose(rows[0], [B, B, B, 4 * B])
    np.testing.assert_allclose(rows[1], [E, E, 2 * E, 2 * E])


def test_document_scope_matches_bags_of_whole_documents_and_averages_them() -> None:
    hyps, refs, docs = ["x", "y", "a b"], [["y", "x", "a c"]], ["one", "one", "two"]
    segment = wnm(max_order=1, weights="none").score(
        hyps, refs, sentence=True, document_ids=docs
    )
    document = wnm(max_order=1, weights="none", scope="document").score(
        hyps, refs, sentence=True, document_ids=docs
    )
    assert segment.score == pytest.approx(1 / 4, rel=1e-12)
    assert document.score == pytest.approx((1.0 + 0.5) / 2, rel=1e-12)
    np.testing.assert_allclose(
        document.statistics[:, 4:], [[0.5, 0.5, 0.5, 0.5]] * 2 + [[0.5, 0.5, 0.5, 1]]
    )
    assert document.sentence_scores == segment.sentence_scores == (0.0, 0.0, 0.5)
    assert "scope:document" in document.signature
    assert "scope:segment" in document.sentence_signature


def test_segments_of_a_document_need_not_be_contiguous() -> None:
    hyps = ["a b x", "a d", "c c", "e f"]
    refs = [["a b a", "a d", "c", "d e"]]
    shuffled = wnm(max_order=1, negative="zero").score(
        hyps, refs, document_ids=["d1", "d2", "d1", "d3"]
    )
    ordered = wnm(max_order=1, negative="zero").score(
        ["a b x", "c c", "a d", "e f"], REFS, document_ids=DOCS
    )
    assert shuffled.score == pytest.approx(ordered.score, rel=1e-12)


def test_the_worked_examples_in_the_wnm_docstrings_hold() -> None:
    import doctest

    import scoring.metrics.wnm.salience

    outcome = doctest.testmod(scoring.metrics.wnm.salience)
    assert outcome.attempted > 0 and outcome.failed == 0
