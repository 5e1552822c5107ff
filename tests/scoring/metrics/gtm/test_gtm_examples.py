"""GTM on small examples computed by hand, degenerate inputs and the registry.

Hand computations follow GTM 1.4's rules (see ``scoring/metrics/gtm/matching.py``):
runs = diagonal sequences of equal tokens; candidates longest first, ties to
the later hypothesis position, then the later reference position (in the
references joined with a break after each); at most
min(|hyp|, mean reference length) tokens matched; MMS = (sum len^e)^(1/e);
P = MMS/|hyp|, R = MMS/mean reference length, F = 2PR/(P+R).
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.gtm.matching import gtm14_matching_size
from scoring.metrics.gtm.metric import GTM
from scoring.tokenizers.tools import gtm14_tokens


def gtm(hypothesis: str, references: list[str], e: float = 1.0, **options) -> float:
    """Sentence GTM (0-1) of one segment."""
    metric = GTM(exponent=e, **options)
    return metric.score([hypothesis], [[r] for r in references], sentence=True).score


def test_two_runs_of_two_make_the_e2_matching_size_the_root_of_eight() -> None:
    # hyp a b c d, ref a b x c d: runs "a b" and "c d".
    # e = 1: MMS 4, P = 4/4, R = 4/5, F = 2*0.8/1.8 = 8/9.
    assert gtm("a b c d", ["a b x c d"], e=1) == pytest.approx(8 / 9, rel=1e-12)
    # e = 2: MMS = sqrt(8), F = 2 MMS / (4 + 5).
    assert gtm("a b c d", ["a b x c d"], e=2) == pytest.approx(
        2 * math.sqrt(8) / 9, rel=1e-12
    )
    # e = 3: MMS = 16 ** (1/3).
    assert gtm("a b c d", ["a b x c d"], e=3) == pytest.approx(
        2 * 16 ** (1 / 3) / 9, rel=1e-12
    )


def test_a_longer_run_beats_scattered_matches_when_e_is_above_one() -> None:
    # Same bag of words, different order: e = 1 cannot tell them apart.
    in_order = gtm("a b c d", ["a b c d"], e=2)
    scrambled = gtm("a b c d", ["d c b a"], e=2)
    assert in_order == pytest.approx(1.0, rel=1e-12)
    assert scrambled == pytest.approx(
        math.sqrt(4) / 4, rel=1e-12
    )  # four runs of 1: MMS 2
    assert gtm("a b c d", ["d c b a"], e=1) == pytest.approx(1.0, rel=1e-12)


def test_greedy_ties_go_to_the_later_hypothesis_position_as_in_gtm14() -> None:
    # hyp b a b b, ref b b b a (X = 5 with the break). Runs of length 2 start
    # at (t, r) = (0, 2) "b a", (2, 0) and (2, 1) "b b"; the largest t*5 + r is
    # (2, 1), taken first; it blocks both others. Then single hits (1, 3) and
    # (0, 0): total 2^2 + 1 + 1 = 6, MMS = sqrt(6), F = sqrt(6) / 4.
    assert gtm("b a b b", ["b b b a"], e=2) == pytest.approx(
        math.sqrt(6) / 4, rel=1e-12
    )
    # Swapped (BLEND's order), the first run (2, 0) "b a" leaves room for
    # (0, 2) "b b": 4 + 4 = 8, MMS = sqrt(8) -- the true maximum, which the
    # greedy misses in the other order.
    assert gtm("b b b a", ["b a b b"], e=2) == pytest.approx(
        math.sqrt(8) / 4, rel=1e-12
    )


def test_runs_do_not_cross_from_one_reference_into_the_next() -> None:
    # refs "x a" and "b y": "a" ends reference 1 and "b" starts reference 2,
    # so hyp "a b" has two runs of 1, MMS = sqrt(2), mean ref length 2.
    assert gtm("a b", ["x a", "b y"], e=2) == pytest.approx(math.sqrt(2) / 2, rel=1e-12)


def test_one_hypothesis_can_match_runs_of_different_references() -> None:
    # hyp a b c d, refs "a b x y" and "z w c d": runs "a b" (ref 1) and
    # "c d" (ref 2): MMS = sqrt(8), P = R = sqrt(8) / 4.
    assert gtm("a b c d", ["a b x y", "z w c d"], e=2) == pytest.approx(
        math.sqrt(8) / 4, rel=1e-12
    )


def test_matching_stops_at_the_mean_reference_length_even_fractionally() -> None:
    # refs "a b" and "a b c": mean length 2.5 < |hyp| = 3. The run a b c of
    # reference 2 is cut to 2.5 tokens: MMS = 2.5 for any e.
    # P = 2.5 / 3, R = 2.5 / 2.5 = 1, F = 2 P / (P + 1) = 10 / 11.
    for e in (1, 2, 3):
        assert gtm("a b c", ["a b", "a b c"], e=e) == pytest.approx(10 / 11, rel=1e-12)
    assert gtm14_matching_size(("a", "b", "c"), [("a", "b"), ("a", "b", "c")], 2) == 2.5


def test_corpus_gtm_pools_matching_sizes_and_lengths() -> None:
    # Segment 1: "a b" vs "a b" -> MMS 2, lengths 2, 2.
    # Segment 2: "c d e f" vs "x" -> MMS 0, lengths 4, 1.
    # P = 2/6, R = 2/3, F = 2 * (1/3 * 2/3) / (1/3 + 2/3) = 4/9 (the mean of
    # the segment scores would be 0.5).
    result = GTM().score(["a b", "c d e f"], [["a b", "x"]], sentence=True)
    assert result.score == pytest.approx(4 / 9, rel=1e-12)
    assert result.sentence_scores == pytest.approx((1.0, 0.0), rel=1e-12)
    assert result.details["precision"] == pytest.approx(1 / 3, rel=1e-12)
    assert result.details["recall"] == pytest.approx(2 / 3, rel=1e-12)


def test_empty_hypothesis_or_reference_scores_zero() -> None:
    assert gtm("", ["a b"]) == 0.0
    assert gtm("a b", [""]) == 0.0
    assert gtm("", [""]) == 0.0
    assert gtm("   ", ["a"], tokenize="gtm14") == 0.0


def test_an_empty_segment_does_not_break_the_corpus_score() -> None:
    result = GTM(exponent=2).score(["a b", ""], [["a b", "c"]], sentence=True)
    # P = 2/2, R = 2/3 -> F = 0.8
    assert result.score == pytest.approx(0.8, rel=1e-12)
    assert result.sentence_scores == pytest.approx((1.0, 0.0), rel=1e-12)


def test_a_hypothesis_shorter_than_a_run_still_matches() -> None:
    assert gtm("a", ["a b c"], e=3) == pytest.approx(2 * 1 / (1 + 3), rel=1e-12)


def test_a_missing_reference_changes_the_mean_reference_length() -> None:
    # Segment 1 has references "a b" and "a b c d" (mean 3), segment 2 only
    # "a" (None in stream 2): mean lengths 3 and 1.
    result = GTM().score(["a b", "a"], [["a b", "a"], ["a b c d", None]], sentence=True)
    assert result.statistics.tolist() == [[2.0, 2.0, 3.0], [1.0, 1.0, 1.0]]
    assert result.signature.startswith("gtm|nrefs:var|")
    assert result.sentence_scores == pytest.approx((2 * 2 / 5, 1.0), rel=1e-12)


def test_a_single_reference_works_where_several_are_usual() -> None:
    assert gtm("the cat sat", ["the cat sat down"], e=2) == pytest.approx(
        2 * 3 / 7, rel=1e-12
    )


def test_gtm14_tokens_split_on_ascii_whitespace_only() -> None:
    assert gtm14_tokens("10\u00a0000 Euro\u3000mehr\tund\n so") == (
        "10\u00a0000",
        "Euro\u3000mehr",
        "und",
        "so",
    )
    # With GTM 1.4's split "10 000" (no-break space) is one token that does
    # not match "10" and "000"; the default Unicode split makes it two.
    assert gtm("10\u00a0000", ["10 000"], tokenize="gtm14") == 0.0
    assert gtm("10\u00a0000", ["10 000"]) == pytest.approx(1.0, rel=1e-12)


def test_unicode_tokens_match_by_code_points() -> None:
    # Chinese, Arabic, a combining accent: tokens match only when identical.
    assert gtm("我 爱 你", ["我 爱 他"], e=2) == pytest.approx(
        math.sqrt(4) / 3, rel=1e-12
    )
    assert gtm("مرحبا بالعالم", ["مرحبا بالعالم"], e=3) == pytest.approx(1.0, rel=1e-12)
    assert gtm("cafe\u0301", ["café"]) == 0.0  # not normalised, like GTM 1.4
    assert gtm("Café", ["café"], lowercase=True) == pytest.approx(1.0, rel=1e-12)


def test_other_tokenizers_apply_before_matching() -> None:
    # 13a splits the comma off: "Hello" "," "world" vs "Hello" "world".
    assert gtm("Hello, world", ["Hello world"], tokenize="13a") == pytest.approx(
        2 * 2 / 5, rel=1e-12
    )
    assert gtm("Hello, world", ["Hello world"], tokenize="none") == pytest.approx(
        0.5, rel=1e-12
    )


def test_statistics_are_floats_and_scores_are_vectorised() -> None:
    metric = GTM(exponent=2)
    rows = np.array([[2.0, 2.0, 2.0], [0.0, 3.0, 0.0], [1.0, 2.0, 4.0]])
    assert metric.sentence_scores_from_statistics(rows) == pytest.approx(
        [1.0, 0.0, 2 * (0.5 * 0.25) / 0.75], rel=1e-12
    )
    batched = np.stack([rows.sum(axis=0), rows[0]])  # (2, 3)
    assert metric.corpus_scores_from_statistics(batched).shape == (2,)
    assert metric.statistics_dtype is np.float64


def test_the_registry_builds_gtm_with_exponent_and_tokenizer() -> None:
    metric = get_metric("gtm:e=2,tokenize=gtm14")
    assert metric == GTM(exponent=2.0, tokenize="gtm14")
    assert metric.signature(nrefs=3) == (
        f"gtm|nrefs:3|case:mixed|tok:gtm14|e:2|version:{VERSION}"
    )
    assert get_metric("gtm:e=1.5", lowercase=True).signature(1) == (
        f"gtm|nrefs:1|case:lc|tok:none|e:1.5|version:{VERSION}"
    )
    assert GTM.scale == 1.0 and GTM.higher_is_better


@pytest.mark.parametrize(
    "spec", ["gtm:e=0.5", "gtm:e=11", "gtm:e=nan", "gtm:e=x", "gtm:tokenize=moses"]
)
def test_the_registry_refuses_bad_gtm_parameters(spec: str) -> None:
    with pytest.raises(MetricError):
        get_metric(spec)


def test_the_docstring_examples_of_the_gtm_modules_hold() -> None:
    import scoring.metrics.gtm.matching
    import scoring.metrics.gtm.metric

    for module in (scoring.metrics.gtm.metric, scoring.metrics.gtm.matching):
        outcome = doctest.testmod(module)
        assert outcome.attempted > 0 and outcome.failed == 0
