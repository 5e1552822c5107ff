"""NIST by hand: information weights, brevity factor, pooling, mteval's
zero-prefix quirk, and degenerate input.

Every expected value is computed by hand from the definition in the lecture
notes (seed 002: Info(w1..wn) = log2(#w1..wn-1 / #w1..wn), NIST = BP * sum
over n of matched information / hypothesis n-grams) and mteval-v13a's rules
(unigram information log2(total reference words / count), brevity factor
exp(-beta ln^2(c/r)) with 0.5 at c/r = 2/3, average reference length).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.ngram.nist_weights import (
    NIST_BETA,
    information_weights,
    nist_brevity_factor,
)


def nist(hypotheses: list[str], streams: list[list[str | None]], spec: str = "nist"):
    return get_metric(spec).score(hypotheses, streams, sentence=True)


def test_weights_follow_the_definition_on_a_two_segment_corpus() -> None:
    # References "a b" and "a c": 4 words; #a = 2, #b = #c = #ab = #ac = 1.
    weights = information_weights([("a", "b"), ("a", "c")], max_order=2)
    assert weights == {
        ("a",): 1.0,  # log2(4 / 2)
        ("b",): 2.0,  # log2(4 / 1)
        ("c",): 2.0,
        ("a", "b"): 1.0,  # log2(#a / #ab) = log2(2 / 1)
        ("a", "c"): 1.0,
    }


def test_it_scores_the_two_segment_corpus_by_hand() -> None:
    # Segment 1: matched unigrams a (1 bit) + b (2 bits) over 2 unigrams,
    # matched bigram "a b" (1 bit) over 1 bigram: 1.5 + 1 = 2.5; no 3- to
    # 5-grams (they add 0, mteval divides by max(count, 1)). Equal lengths.
    result = nist(["a b", "a c"], [["a b", "a c"]])
    assert result.sentence_scores == (2.5, 2.5)
    assert result.score == 2.5
    assert result.signature == f"nist|nrefs:1|case:mixed|tok:13a|n:5|version:{VERSION}"


def test_the_brevity_factor_is_one_half_at_two_thirds_of_the_length() -> None:
    assert NIST_BETA == pytest.approx(math.log(2) / math.log(1.5) ** 2, rel=1e-15)
    assert float(nist_brevity_factor(2.0, 3.0)) == pytest.approx(0.5, abs=1e-15)
    assert nist_brevity_factor(np.array([3, 4, 0]), np.array([3, 3, 3])).tolist() == [
        1.0,
        1.0,
        0.0,
    ]
    # Reference "a b c", hypothesis "a b": unigrams a, b carry log2(3) bits
    # each, "a b" carries log2(1/1) = 0; NIST = log2(3) * 0.5.
    result = nist(["a b"], [["a b c"]])
    assert result.score == pytest.approx(math.log2(3) * 0.5, abs=1e-12)


def test_a_hypothesis_shorter_than_n_scores_its_unigrams_only() -> None:
    # Reference "a b": a and b carry 1 bit each; hypothesis "a": 1 bit over
    # 1 unigram; c/r = 1/2, BF = exp(-beta ln^2 2) = 2 ** -(ln 2 / ln 1.5)^2.
    result = nist(["a"], [["a b"]])
    expected = 2 ** -((math.log(2) / math.log(1.5)) ** 2)
    assert result.score == pytest.approx(expected, abs=1e-12)


def test_matches_are_clipped_by_the_largest_count_in_one_reference() -> None:
    # References "a b" and "a c" (one segment): 4 words, #a = 2, so a has
    # 1 bit. "a a" matches a once (max count in a single reference is 1):
    # 1 bit over 2 unigrams; c = 2 = average reference length.
    result = nist(["a a"], [["a b"], ["a c"]])
    assert result.score == pytest.approx(0.5, abs=1e-12)
    assert result.details["ref_len"] == 2.0


def test_the_brevity_factor_uses_the_average_reference_length() -> None:
    # References of 4 and 2 tokens: average 3 = |hyp|, so no penalty. The
    # closest length (BLEU's choice) would be 2 or 4, not 3.
    metric = get_metric("nist")
    statistics = metric.segment_statistics(["a b c"], [["a b c d"], ["a b"]])
    assert statistics[0, :2].tolist() == [3.0, 3.0]


def test_the_zero_prefix_quirk_of_mteval_by_hand() -> None:
    # References "0 x y 0 x" and "00 x 00": 8 words, #0 = #(0 x) = 2. The
    # definition gives "0 x" log2(#0 / #(0 x)) = 0 bits; mteval tests the
    # prefix string "0" for Perl truth, finds it false and uses the unigram
    # formula log2(8 / 2) instead. Longer prefixes ("0 x") and other tokens
    # ("00") are true in Perl and keep the definition.
    tokens = [("0", "x", "y", "0", "x"), ("00", "x", "00")]
    weights = information_weights(tokens, max_order=3)
    assert weights[("0", "x")] == pytest.approx(math.log2(8 / 2), abs=1e-15)
    assert weights[("00", "x")] == pytest.approx(math.log2(2 / 1), abs=1e-15)
    assert weights[("0", "x", "y")] == pytest.approx(math.log2(2 / 1), abs=1e-15)
    plain = information_weights(tokens, max_order=3, perl_zero_prefix=False)
    assert plain[("0", "x")] == 0.0


def test_corpus_nist_pools_the_summed_rows_and_is_not_the_mean() -> None:
    hypotheses = ["the cat sat on the mat", "a dog"]
    references = [["the cat sat on a mat", "a dog barked"]]
    metric = get_metric("nist")
    result = metric.score(hypotheses, references, sentence=True)
    summed = np.asarray(result.statistics).sum(axis=0)
    assert metric.corpus_score_from_statistics(summed) == result.score
    assert result.score != pytest.approx(np.mean(result.sentence_scores), rel=1e-6)
    # Bootstrap-style batches: (n_samples, n_stats) -> (n_samples,).
    batch = np.stack([summed, summed])
    assert metric.corpus_scores_from_statistics(batch).tolist() == [result.score] * 2
    assert metric.statistics_names == (
        "hyp_len",
        "ref_len",
        "info_1",
        "info_2",
        "info_3",
        "info_4",
        "info_5",
        "totals_1",
        "totals_2",
        "totals_3",
        "totals_4",
        "totals_5",
    )


def test_segment_row_scores_a_segment_as_a_corpus_of_its_own() -> None:
    # Weights from "a b" alone: a and b 1 bit each, "a b" 0 bits.
    row = get_metric("nist:n=2").segment_row("a b", ("a b",))
    assert list(row) == [2.0, 2.0, 2.0, 0.0, 2, 1]


def test_an_empty_hypothesis_scores_zero() -> None:
    assert nist([""], [["a b"]]).sentence_scores == (0.0,)
    assert nist(["", "a b"], [["a b", "a b"]]).sentence_scores[0] == 0.0


def test_an_empty_reference_gives_no_information_and_no_division_by_zero() -> None:
    # mteval dies on an empty reference (average length 0); here the brevity
    # factor is 1 and nothing can match, so the score is 0.
    assert nist(["a b"], [[""]]).score == 0.0
    assert nist(["", "a b"], [["", "a b"]]).sentence_scores[0] == 0.0


def test_missing_references_average_over_the_references_present() -> None:
    # Segment 1 has references of 2 and 4 tokens (average 3), segment 2 one
    # reference of 2 tokens; the corpus length is 3 + 2 = 5.
    result = nist(["a b c", "d e"], [["a b", "d e"], ["a b c d", None]])
    assert "|nrefs:var|" in result.signature
    assert result.details["ref_len"] == 5.0


def test_unicode_text_chinese_arabic_combining_and_no_break_space() -> None:
    same = [
        ("我 爱 你 。", "我 爱 你 。", "nist"),
        ("我爱你。", "我爱你。", "nist:tokenize=char"),
        ("مرحبا بالعالم", "مرحبا بالعالم", "nist"),
        ("Cafe\u0301 au lait", "Cafe\u0301 au lait", "nist"),
        ("Haus\u00a0am See", "Haus am See", "nist"),
        ("Haus\u00a0am See", "Haus am See", "nist:tokenize=mteval13a"),
    ]
    for hypothesis, reference, spec in same:
        identical = nist([reference], [[reference]], spec).score
        assert nist([hypothesis], [[reference]], spec).score == identical > 0
    # Unsegmented Chinese is one 13a token: it matches nothing.
    assert nist(["我爱你。"], [["我 爱 你 。"]]).score == 0.0


def test_nist_is_unbounded_and_higher_is_better() -> None:
    metric = get_metric("nist")
    assert (metric.name, metric.higher_is_better, metric.scale) == (
        "nist",
        True,
        math.inf,
    )
    assert get_metric("nist:n=4,tokenize=mteval13a,lowercase=true").signature(2) == (
        f"nist|nrefs:2|case:lc-ascii|tok:mteval13a|n:4|version:{VERSION}"
    )


@pytest.mark.parametrize(
    ("spec", "complaint"),
    [
        ("nist:n=0", "n=0 is out of range; allowed: from 1 to 9"),
        ("nist:tokenize=moses", "expected one of"),
        ("nist:smooth=exp", "unknown parameter 'smooth'"),
    ],
)
def test_a_bad_parameter_is_refused(spec: str, complaint: str) -> None:
    with pytest.raises(MetricError, match=complaint):
        get_metric(spec)


def test_progress_is_reported_up_to_one_and_the_metric_is_immutable() -> None:
    seen: list[float] = []
    metric = get_metric("nist")
    metric.score(["a b", "c d", "e"], [["a b", "c d", "e f"]], progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)
    with pytest.raises(dataclasses.FrozenInstanceError):
        metric.max_order = 3  # type: ignore[misc]


def test_the_docstring_examples_of_nist_weights_hold() -> None:
    import doctest

    import scoring.metrics.ngram.nist_weights

    outcome = doctest.testmod(scoring.metrics.ngram.nist_weights)
    assert outcome.attempted > 0 and outcome.failed == 0
