"""mteval-v13a's BLEU smoothing (``smooth=mteval``), by hand.

mteval-v13a.pl's ``bleu_score``: for n = 1..4, an order without hypothesis
n-grams adds log-precision 0; the k-th order with n-grams but no match gets
precision 1 / (2^k * hypothesis n-grams); the sum is always divided by 4;
brevity factor exp(min(0, 1 - r/c)), 0 for an empty hypothesis. Its segment
figures are matched on real data in test_bleu_mteval_oracle.py; here the
cases where it differs from sacreBLEU's ``exp``.
"""

from __future__ import annotations

import math

import pytest

from scoring import __version__ as VERSION
from scoring import get_metric

MTEVAL = "bleu:smooth=mteval,sentence_smooth=mteval"


def scores(hypothesis: str, reference: str, spec: str = MTEVAL) -> tuple[float, float]:
    """(corpus, sentence) BLEU, 0-100, of a one-segment corpus."""
    result = get_metric(spec).score([hypothesis], [[reference]], sentence=True)
    return result.score, result.sentence_scores[0]


def test_the_kth_unmatched_order_gets_one_over_two_to_the_k_times_its_count() -> None:
    # "x y z" vs "x b c": p1 = 1/3, p2 = 1/(2*2), p3 = 1/(4*1), no 4-grams.
    corpus, sentence = scores("x y z", "x b c")
    expected = 100 * (1 / 3 * 1 / 4 * 1 / 4) ** (1 / 4)
    assert corpus == pytest.approx(expected, abs=1e-12)
    assert sentence == pytest.approx(expected, abs=1e-12)


def test_a_hypothesis_without_any_match_still_scores_above_zero() -> None:
    # p1 = 1/(2*3), p2 = 1/(4*2), p3 = 1/(8*1): mteval gives 0.2263 where
    # sacreBLEU (and Lin & Och's BLEUS) give 0.
    expected = 100 * (1 / 6 * 1 / 8 * 1 / 8) ** (1 / 4)
    assert scores("x y z", "a b c")[1] == pytest.approx(expected, abs=1e-12)
    assert scores("x y z", "a b c", "bleu:sentence_smooth=exp")[1] == 0.0


def test_orders_without_ngrams_count_as_one_and_stay_in_the_mean() -> None:
    # "a b" vs "a c d": p1 = 1/2, p2 = 1/(2*1), no 3- or 4-grams (log 1 =
    # 0, still divided by 4); BP = exp(1 - 3/2). sacreBLEU's exp with
    # effective order divides by 2 instead.
    brevity = math.exp(1 - 3 / 2)
    mteval = 100 * brevity * (1 / 2 * 1 / 2) ** (1 / 4)
    effective = 100 * brevity * (1 / 2 * 1 / 2) ** (1 / 2)
    assert scores("a b", "a c d")[1] == pytest.approx(mteval, abs=1e-12)
    assert scores("a b", "a c d", "bleu:sentence_smooth=exp")[1] == pytest.approx(
        effective, abs=1e-12
    )


def test_an_empty_hypothesis_scores_zero_even_against_an_empty_reference() -> None:
    assert scores("", "a b") == (0.0, 0.0)
    assert scores("", "") == (0.0, 0.0)


def test_a_hypothesis_against_an_empty_reference_is_not_penalised_for_length() -> None:
    # r = 0: BP = exp(min(0, 1 - 0/2)) = 1; p1 = 1/(2*2), p2 = 1/(4*1), so
    # mteval gives BLEU 0.5 to any two-word hypothesis here.
    assert scores("a b", "") == pytest.approx((50.0, 50.0), abs=1e-12)


def test_with_every_order_matched_it_is_plain_bleu() -> None:
    # The lecture example (seed 002): precisions 8/8, 6/7, 4/6, 3/5, c = 8,
    # closest reference 9 tokens: BLEU = 0.6753 with any smoothing.
    hypothesis = "the gunman was shot dead by police ."
    reference = "the gunman was shot dead by the police ."
    expected = 100 * math.exp(1 - 9 / 8) * (6 / 7 * 4 / 6 * 3 / 5) ** (1 / 4)
    expected_pair = (expected, expected)
    assert scores(hypothesis, reference) == pytest.approx(expected_pair, abs=1e-9)


def test_mteval_smoothing_is_named_in_the_signatures_without_effective_order() -> None:
    metric = get_metric(MTEVAL)
    assert metric.signature(1) == (
        f"bleu|nrefs:1|case:mixed|tok:13a|smooth:mteval|n:4|version:{VERSION}"
    )
    assert metric.sentence_signature(1) == metric.signature(1)
    assert "eff:yes" in get_metric("bleu").sentence_signature(1)
