"""chrF / chrF++ on small examples computed by hand, degenerate inputs and the
registry. Character n-grams ignore whitespace unless asked; precision and
recall are averaged over the orders where both sides have n-grams (sacreBLEU's
default), then F-beta with β = 2: F = 5PR / (4P + R), on 0-100."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.chrf.metric import CHRF, CHRFPlusPlus
from scoring.metrics.chrf.statistics import chrf_words


def chrf(hypothesis: str, references: list[str], metric: CHRF | None = None) -> float:
    """Sentence chrF (0-100) of one segment."""
    metric = metric or CHRF()
    return metric.score([hypothesis], [[r] for r in references], sentence=True).score


def test_bigram_chrf_of_ab_against_abc_is_seven_elevenths() -> None:
    # Order 1: P = 2/2, R = 2/3; order 2: "ab" vs {"ab", "bc"}: P = 1, R = 1/2.
    # avg P = 1, avg R = 7/12; F = 5 * 7/12 / (4 + 7/12) = 35/55 = 7/11.
    assert chrf("ab", ["abc"], CHRF(char_order=2)) == pytest.approx(
        100 * 7 / 11, rel=1e-12
    )


def test_orders_longer_than_both_segments_are_left_out_of_the_average() -> None:
    # "cat" has no 4-, 5- or 6-grams: only orders 1-3 count.
    assert chrf("cat", ["cat"]) == pytest.approx(100.0, rel=1e-12)
    # Against "cats": recalls 3/4, 2/3, 1/2, precisions 1; order 4 exists only
    # in the reference, so it is left out too. avg R = 23/36, F = 115/167.
    assert chrf("cat", ["cats"]) == pytest.approx(100 * 115 / 167, rel=1e-12)


def test_eps_smoothing_averages_per_order_f_scores_as_chrf_pp_py_does() -> None:
    # cat vs cats: per-order F = 15/19, 5/7, 5/9, then order 4 gives 0
    # (precision 1e-16, recall 0) and orders 5, 6 give 1e-16.
    expected = 100 * (15 / 19 + 5 / 7 + 5 / 9) / 6
    assert chrf("cat", ["cats"], CHRF(eps_smoothing=True)) == pytest.approx(
        expected, rel=1e-12
    )


def test_whitespace_is_ignored_unless_kept() -> None:
    assert chrf("a b c", ["abc"]) == pytest.approx(100.0, rel=1e-12)
    # Kept: order 1 P = 3/5, R = 1; orders 2 and 3 match nothing; order 4 and
    # 5 exist only in the hypothesis (not counted). avg P = 0.2, avg R = 1/3,
    # F = 5 * 0.2 / 3 / (0.8 + 1/3) = 5/17.
    assert chrf("a b c", ["abc"], CHRF(whitespace=True)) == pytest.approx(
        100 * 5 / 17, rel=1e-12
    )


def test_word_bigrams_of_chrf_pp_with_punctuation_split_off() -> None:
    # Words only (char_order 0): "the cat." -> the, cat, "."; unigrams P 2/3,
    # R 1; bigrams "the cat", "cat ." vs "the cat": P 1/2, R 1.
    # avg P = 7/12, avg R = 1, F = 5 * 7/12 / (4 * 7/12 + 1) = 7/8.
    metric = CHRFPlusPlus(char_order=0)
    assert chrf("the cat.", ["the cat"], metric) == pytest.approx(87.5, rel=1e-12)


def test_chrf_words_split_one_punctuation_mark_off_either_end() -> None:
    assert chrf_words("(hi) 'quoted' end. . a") == [
        "(hi",
        ")",
        "'quoted",
        "'",
        "end",
        ".",
        ".",
        "a",
    ]


def test_the_best_reference_by_f_score_gives_the_statistics() -> None:
    metric = CHRF()
    best = metric.segment_row("abc", ("abc",))
    assert metric.segment_row("abc", ("abcdefghij", "abc")) == best
    assert metric.segment_row("abc", ("xyz", "abc", "abcd")) == best
    assert chrf("abc", ["xyz", "abcdefghij", "abc"]) == pytest.approx(100.0, rel=1e-12)


def test_corpus_chrf_pools_statistics_instead_of_averaging_sentences() -> None:
    # char order 1: "ab"/"ab" -> [2, 2, 2]; ""/"cd" -> [0, 2, 0]. Summed
    # [2, 4, 2]: P = 1, R = 1/2, F = 2.5 / 4.5 (mean of sentences: 50).
    result = CHRF(char_order=1).score(["ab", ""], [["ab", "cd"]], sentence=True)
    assert result.statistics.tolist() == [[2, 2, 2], [0, 2, 0]]
    assert result.score == pytest.approx(100 * 2.5 / 4.5, rel=1e-12)
    assert result.sentence_scores == pytest.approx((100.0, 0.0), rel=1e-12)


def test_empty_hypothesis_or_reference_scores_zero() -> None:
    assert chrf("", ["abc"]) == 0.0
    assert chrf("abc", [""]) == 0.0
    assert chrf("", [""]) == 0.0
    assert chrf("   ", ["abc"], CHRFPlusPlus()) == 0.0
    # An empty reference contributes no n-grams: hypothesis counts are not
    # counted either (sacreBLEU's rule), so the row is all zeros.
    assert CHRF().segment_row("abc", ("",)) == [0] * 18


def test_a_missing_reference_leaves_the_other_ones() -> None:
    result = CHRF().score(["abc", "abc"], [["abc", "xyz"], [None, "abc"]])
    assert result.score == pytest.approx(100.0, rel=1e-12)
    assert result.signature.startswith("chrf|nrefs:var|")


def test_unicode_characters_are_code_points() -> None:
    # Chinese: orders 1-3 with P = R = 2/3, 1/2, 0 -> F = 7/18.
    assert chrf("我爱你", ["我爱他"]) == pytest.approx(100 * 7 / 18, rel=1e-12)
    # A no-break space and an ideographic space are whitespace.
    assert chrf("10\u00a0000\u3000€", ["10 000 €"]) == pytest.approx(100.0, rel=1e-12)
    # A combining accent is a character of its own; no normalisation.
    assert chrf("cafe\u0301", ["café"]) < 100.0
    assert chrf("Café", ["café"], CHRF(lowercase=True)) == pytest.approx(
        100.0, rel=1e-12
    )
    assert chrf("مرحبا بالعالم", ["مرحبا بالعالم"]) == pytest.approx(100.0, rel=1e-12)


def test_unicode_segments_score_as_sacrebleu_scores_them(sacrebleu) -> None:
    hypotheses = ["cafe\u0301 au lait", "مرحبا بالعالم", "我爱你。", "x\u00a0y z", ""]
    references = [["café au lait", "مرحبا يا عالم", "我爱他。", "x y\u3000z", "a"]]
    pairs = [
        (CHRF(), sacrebleu.CHRF()),
        (CHRFPlusPlus(), sacrebleu.CHRF(word_order=2)),
    ]
    for ours, theirs in pairs:
        result = ours.score(hypotheses, references, sentence=True)
        expected = [
            theirs.sentence_score(hypothesis, [reference]).score
            for hypothesis, reference in zip(hypotheses, references[0])
        ]
        assert result.sentence_scores == pytest.approx(expected, abs=1e-9)
        assert result.score == pytest.approx(
            theirs.corpus_score(hypotheses, references).score, abs=1e-9
        )


def test_scores_are_vectorised_over_leading_dimensions() -> None:
    metric = CHRF(char_order=1)
    rows = np.array([[2, 2, 2], [0, 2, 0], [4, 2, 1]])
    batched = np.stack([rows, rows])  # (2, 3, 3)
    assert metric.sentence_scores_from_statistics(batched).shape == (2, 3)
    # [4, 2, 1]: P = 1/4, R = 1/2, F = 5 * 1/8 / (1 + 1/2) = 5/12.
    assert metric.sentence_scores_from_statistics(rows) == pytest.approx(
        [100.0, 0.0, 100 * 5 / 12], rel=1e-12
    )


def test_the_registry_builds_chrf_and_chrf_pp() -> None:
    assert get_metric("chrf") == CHRF()
    assert get_metric("chrf++") == CHRFPlusPlus()
    assert CHRFPlusPlus().word_order == 2 and CHRFPlusPlus.name == "chrf++"
    assert get_metric("chrf:char_order=4,word_order=1,beta=1") == CHRF(4, 1, 1.0)
    assert get_metric("chrf").signature(nrefs=3) == (
        f"chrf|nrefs:3|case:mixed|eff:yes|nc:6|nw:0|beta:2|space:no|version:{VERSION}"
    )
    assert get_metric("chrf++:lowercase=true,eps_smoothing=true").signature(1) == (
        f"chrf++|nrefs:1|case:lc|eff:no|nc:6|nw:2|beta:2|space:no|version:{VERSION}"
    )
    assert get_metric("chrf:whitespace=yes,beta=0.5").signature(1) == (
        f"chrf|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|beta:0.5|space:yes|version:{VERSION}"
    )
    assert CHRF.scale == 100.0 and CHRF.higher_is_better
    assert len(get_metric("chrf++").statistics_names) == 24


@pytest.mark.parametrize(
    "spec",
    [
        "chrf:char_order=-1",
        "chrf:char_order=0",
        "chrf:word_order=1.5",
        "chrf:beta=0",
        "chrf:beta=inf",
        "chrf:whitespace=maybe",
        "chrf:tokenize=13a",
    ],
)
def test_the_registry_refuses_bad_chrf_parameters(spec: str) -> None:
    with pytest.raises(MetricError):
        get_metric(spec)


def test_the_cli_defaults_for_tokenizing_do_not_apply_to_chrf() -> None:
    metric = get_metric("chrf", defaults={"tokenize": "13a", "lowercase": True})
    assert metric == CHRF(lowercase=True)


def test_the_docstring_examples_of_the_chrf_modules_hold() -> None:
    import scoring.metrics.chrf.metric
    import scoring.metrics.chrf.statistics

    for module in (scoring.metrics.chrf.metric, scoring.metrics.chrf.statistics):
        outcome = doctest.testmod(module)
        assert outcome.attempted > 0 and outcome.failed == 0
