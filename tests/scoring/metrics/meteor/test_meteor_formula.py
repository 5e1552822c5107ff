"""METEOR's score formula, statistics, degenerate inputs and signatures.

Expected values come from the lecture notes' worked example (002, "METEOR
Example": P = 5/8, R = 5/14, 3 chunks of 5 matches, 0.3498) and from hand
computation with the formula of Banerjee & Lavie 2005.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring.errors import MetricError
from scoring.metrics.meteor.formula import MeteorFormula
from scoring.metrics.meteor.metric import Meteor
from scoring.registry import get_metric

PAPER = MeteorFormula(alpha=0.9, beta=3.0, gamma=0.5, delta=1.0, weights=(1.0,))


def exact_row(hyp_len: int, ref_len: int, matches: int, chunks: int) -> list[int]:
    """Statistics of an exact-only alignment without function words."""
    return [hyp_len, ref_len, 0, 0, matches, matches, 0, 0, chunks, matches, matches]


def test_it_reproduces_the_lecture_example_with_the_lecture_fragmentation() -> None:
    # Ref "the Iraqi weapons are to be handed over to the army within two
    # weeks" (14 words), MT "in two weeks Iraq's weapons will give army"
    # (8 words): 5 matches in 3 chunks. The notes use (3-1)/(5-1) = 0.5.
    lecture = MeteorFormula(0.9, 3.0, 0.5, 1.0, (1.0,), fragmentation="lecture")
    score = float(lecture.scores(np.array(exact_row(8, 14, 5, 3))))
    fmean = 10 * (5 / 8) * (5 / 14) / (5 / 14 + 9 * 5 / 8)
    assert round(fmean, 4) == 0.3731
    assert score == pytest.approx(fmean * (1 - 0.5 * 0.5**3))
    assert round(score, 4) == 0.3498


def test_it_uses_chunks_over_matches_as_in_the_paper() -> None:
    score = float(PAPER.scores(np.array(exact_row(8, 14, 5, 3))))
    fmean = 10 * (5 / 8) * (5 / 14) / (5 / 14 + 9 * 5 / 8)
    assert score == pytest.approx(fmean * (1 - 0.5 * (3 / 5) ** 3))
    assert round(score, 4) == 0.3328


def test_a_perfect_match_scores_one_in_meteor_15_but_not_in_the_2005_paper() -> None:
    rank = Meteor()
    assert rank.score(["the cat sat"], [["the cat sat"]]).score == 1.0
    paper = Meteor(params="2005")
    # 2005: 3 matches in 1 chunk still cost 0.5 * (1/3)^3.
    expected = 1 - 0.5 * (1 / 3) ** 3
    assert paper.score(["the cat sat"], [["the cat sat"]]).score == pytest.approx(
        expected
    )


def test_function_words_count_with_weight_one_minus_delta() -> None:
    # METEOR 1.5 rank, English: delta = 0.75; "the" is a function word.
    # hyp "the cat" vs ref "the dog": one function-word match out of
    # weighted lengths 0.25 + 0.75 on each side: P = R = 0.25, one chunk.
    metric = Meteor(modules="exact")
    result = metric.score(["the cat"], [["the dog"]], sentence=True)
    expected = 0.25 * (1 - 0.6 * (1 / 1) ** 0.2)
    assert result.score == pytest.approx(expected)


def test_the_corpus_score_comes_from_summed_statistics_not_a_mean() -> None:
    metric = Meteor(params="2005", modules="exact")
    hyps = ["a b c d", "x y"]
    refs = [["a b c d", "x z"]]
    result = metric.score(hyps, refs, sentence=True)
    summed = result.statistics.sum(axis=0)
    assert result.score == pytest.approx(
        float(metric.corpus_scores_from_statistics(summed))
    )
    # 5 matches of 6 words each side, chunks 1 + 1.
    fmean = 5 / 6
    assert result.score == pytest.approx(fmean * (1 - 0.5 * (2 / 5) ** 3))
    assert result.score != pytest.approx(float(np.mean(result.sentence_scores)))


def test_a_perfect_segment_adds_no_chunks_to_the_pool_like_the_jar() -> None:
    # METEOR 1.5's MeteorStats.addStats skips the chunks of perfect matches.
    metric = Meteor(modules="exact")
    result = metric.score(["a b", "x y z"], [["a b", "z y x"]], sentence=True)
    chunks = metric.statistics_names.index("chunks")
    assert result.statistics[:, chunks].tolist() == [0, 3]
    assert result.sentence_scores[0] == 1.0


def test_it_keeps_the_reference_with_the_best_segment_score() -> None:
    metric = Meteor(modules="exact")
    hyp = ["the quick brown fox"]
    one = metric.score(hyp, [["a slow red fox"]], sentence=True).score
    both = metric.score(hyp, [["a slow red fox"], ["the quick brown fox"]]).score
    assert one < 1.0 and both == 1.0


def test_it_accepts_a_variable_number_of_references() -> None:
    metric = Meteor(modules="exact")
    result = metric.score(
        ["the cat", "a dog"], [["the cat", "no dog"], [None, "a dog"]], sentence=True
    )
    assert result.sentence_scores == (1.0, 1.0)
    assert "nrefs:var" in result.signature


@pytest.mark.parametrize(
    ("hypothesis", "reference"),
    [("", "the cat"), ("the cat", ""), ("", ""), ("   ", "\u00a0")],
)
def test_empty_sides_score_zero(hypothesis: str, reference: str) -> None:
    result = Meteor().score([hypothesis], [[reference]], sentence=True)
    assert result.sentence_scores == (0.0,)
    assert result.score == 0.0


def test_a_one_word_hypothesis_is_scored() -> None:
    # 1 of 1 hypothesis words, 1 of 4 reference words, one chunk (2005).
    score = Meteor(params="2005").score(["cat"], [["the cat sat down"]]).score
    fmean = 10 * 1 * 0.25 / (0.25 + 9 * 1)
    assert score == pytest.approx(fmean * (1 - 0.5))


@pytest.mark.parametrize(
    ("hypothesis", "reference", "expected"),
    [
        ("我 喜欢 猫", "我 喜欢 猫", 1.0),  # Chinese words split on spaces
        ("قطة سوداء", "قطة سوداء", 1.0),  # Arabic
        ("cafe\u0301 noir", "cafe\u0301 noir", 1.0),  # combining accent kept
        ("one\u00a0two", "one two", 1.0),  # -norm: U+00A0 separates words
    ],
)
def test_unicode_text_is_matched_word_for_word(
    hypothesis: str, reference: str, expected: float
) -> None:
    assert Meteor().score([hypothesis], [[reference]]).score == expected


def test_without_norm_a_no_break_space_does_not_separate_words() -> None:
    # The jar's StringTokenizer splits on ASCII whitespace only.
    metric = Meteor(norm=False, modules="exact")
    assert metric.words("one\u00a0two three") == ("one\u00a0two", "three")
    assert metric.score(["one\u00a0two"], [["one two"]]).score == 0.0


def test_norm_lowercases_and_case_can_be_kept_without_it() -> None:
    assert Meteor().words("The Cat") == ("the", "cat")
    assert Meteor(norm=False, lowercase=False).words("The Cat") == ("The", "Cat")


def test_the_signature_names_every_setting() -> None:
    signature = Meteor().signature(nrefs=2)
    assert signature.startswith("meteor|nrefs:2|lang:en|norm:yes|case:lc|params:rank|")
    assert "|abgd:0.85+0.2+0.6+0.75|" in signature
    assert "|para:off|" in signature
    paper = Meteor(params="2005", frag="lecture").signature(nrefs=1)
    assert (
        "|params:2005|" in paper and "|w:1+1+1|" in paper and "|frag:lecture|" in paper
    )


def test_without_wordnet_files_the_synonym_stage_is_off_and_signed(tmp_path) -> None:
    metric = Meteor(wordnet=str(tmp_path))
    signature = metric.signature(nrefs=1)
    assert "|syn:off|" in signature
    assert "|mods:exact+stem|" in signature
    # A synonym pair no longer matches ("car" / "automobile").
    assert metric.score(["car"], [["automobile"]]).score == 0.0


def test_explicit_modules_take_the_task_weights_by_position_like_the_jar() -> None:
    # METEOR -m "exact stem paraphrase" gives paraphrase the synonym weight.
    metric = Meteor(modules="exact+stem+synonym")
    assert metric.config.formula.weights == (1.0, 0.6, 0.8)
    metric = Meteor(modules="exact+synonym")
    assert metric.config.formula.weights == (1.0, 0.6)
    metric = Meteor(modules="exact+synonym", weights="1+0.8")
    assert metric.config.formula.weights == (1.0, 0.8)


def test_the_registry_builds_meteor_from_a_spec() -> None:
    metric = get_metric("meteor:params=2005,modules=exact+stem,norm=false")
    assert isinstance(metric, Meteor)
    assert metric.params == "2005" and metric.modules == "exact+stem"
    assert metric.norm is False
    assert metric.higher_is_better and metric.scale == 1.0


@pytest.mark.parametrize(
    "spec",
    [
        "meteor:params=2010",
        "meteor:lang=fr",
        "meteor:modules=exact+bogus",
        "meteor:modules=exact+exact",
        "meteor:lang=de,modules=exact+synonym",
        "meteor:modules=exact+stem,weights=1",
        "meteor:frag=log",
    ],
)
def test_it_refuses_bad_configurations(spec: str) -> None:
    with pytest.raises(MetricError):
        get_metric(spec)


def test_scores_stay_in_zero_one() -> None:
    metric = Meteor()
    hyps = ["a a a a b", "the the the", "x"]
    refs = [["a b a", "the", "y x y x"]]
    result = metric.score(hyps, refs, sentence=True)
    assert all(0.0 <= value <= 1.0 for value in result.sentence_scores)
    assert 0.0 <= result.score <= 1.0 and not math.isnan(result.score)
