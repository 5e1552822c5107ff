"""BLEU on empty, short and non-Latin input, and on malformed calls.

Expected values are hand computations (stated in the comments) and, where
sacreBLEU accepts the same input, sacreBLEU's numbers.
"""

from __future__ import annotations

import math

import pytest

from scoring import MetricError, get_metric
from scoring.metrics.ngram.bleu import BLEU


def corpus_and_sentence(
    metric: BLEU, hypothesis: str, reference: str
) -> tuple[float, float]:
    """Corpus and sentence BLEU (0-100) of a one-segment corpus."""
    result = metric.score([hypothesis], [[reference]], sentence=True)
    assert result.sentence_scores is not None
    return result.score, result.sentence_scores[0]


def test_an_empty_hypothesis_scores_zero_like_sacrebleu(sacrebleu) -> None:
    # c = 0: no n-gram can match, so BLEU is 0 (and BP would be 0 too).
    assert corpus_and_sentence(BLEU(), "", "a b c") == (0.0, 0.0)
    assert sacrebleu.corpus_bleu([""], [["a b c"]]).score == 0.0


def test_an_empty_reference_scores_zero_and_has_length_zero(sacrebleu) -> None:
    metric = BLEU()
    assert corpus_and_sentence(metric, "a b", "") == (0.0, 0.0)
    row = metric.segment_statistics(["a b"], [[""]])[0]
    assert row.tolist() == [2, 0, 0, 0, 0, 0, 2, 1, 0, 0]
    assert sacrebleu.corpus_bleu(["a b"], [[""]]).score == 0.0


def test_an_empty_hypothesis_against_an_empty_reference_scores_zero(sacrebleu) -> None:
    # No n-gram matches at all; sacreBLEU also returns 0 here, not 100.
    assert corpus_and_sentence(BLEU(), "", "") == (0.0, 0.0)
    assert sacrebleu.corpus_bleu([""], [[""]]).score == 0.0


def test_a_hypothesis_shorter_than_n_gets_a_sentence_score_but_no_corpus_score(
    sacrebleu,
) -> None:
    # "hello" vs "hello world": p_1 = 1/1; p_2..p_4 = (0+1)/(0+1) = 1 with
    # add-one smoothing; BP = exp(1 - 2/1). The corpus score has no bigram at
    # all, so its geometric mean (without effective order) is 0.
    corpus, sentence = corpus_and_sentence(BLEU(), "hello", "hello world")
    assert sentence == pytest.approx(100 * math.exp(-1), abs=1e-12)
    assert corpus == 0.0
    assert sacrebleu.corpus_bleu(["hello"], [["hello world"]]).score == 0.0
    assert sacrebleu.sentence_bleu(
        "hello", ["hello world"], smooth_method="add-k", smooth_value=1
    ).score == pytest.approx(sentence, abs=1e-12)


def test_a_single_matching_word_scores_100_at_the_sentence_level() -> None:
    # p_1 = 1/1, add-one gives 1/1 for every higher order, c = r = 1.
    assert corpus_and_sentence(BLEU(), "Yes", "Yes")[1] == 100.0


def test_no_unigram_match_means_zero_even_with_add_one_smoothing() -> None:
    # Lin & Och 2004: BLEUS is zero when no unigram matches, although add-one
    # would give the higher orders 1/(total+1) each.
    assert corpus_and_sentence(BLEU(), "x y z", "a b c") == (0.0, 0.0)


@pytest.mark.parametrize("tokenize", ["13a", "none"])
def test_a_no_break_space_separates_tokens(tokenize: str) -> None:
    # U+00A0 is whitespace for str.split, as in sacreBLEU: identical tokens.
    metric = BLEU(tokenize=tokenize, max_order=2)
    scores = corpus_and_sentence(metric, "Haus\u00a0am See", "Haus am See")
    assert scores == (100.0, 100.0)


def test_chinese_is_scored_on_whitespace_tokens_as_13a_splits_only_ascii(
    sacrebleu,
) -> None:
    metric = BLEU(max_order=2)
    # Same three space-separated characters: a perfect match.
    assert corpus_and_sentence(metric, "我 爱 你 。", "我 爱 你 。") == (100.0, 100.0)
    # Unsegmented, the whole sentence is one token that matches nothing.
    assert corpus_and_sentence(metric, "我爱你。", "我 爱 你 。") == (0.0, 0.0)
    assert sacrebleu.corpus_bleu(["我爱你。"], [["我 爱 你 。"]]).score == 0.0


CORPUS_WITHOUT_4_GRAM_MATCHES = (
    ["the cat sat on the mat", "a dog barked"],
    [["the cat sat upon the mat", "the dog barked"]],
)


@pytest.mark.parametrize(
    ("smooth", "value"),
    [
        ("exp", None),
        ("none", None),
        ("floor", None),
        ("floor", 0.3),
        ("add-k", None),
        ("add-k", 2.0),
    ],
)
def test_corpus_smoothing_matches_sacrebleu_when_a_precision_is_zero(
    sacrebleu, smooth: str, value: float | None
) -> None:
    hypotheses, references = CORPUS_WITHOUT_4_GRAM_MATCHES
    options: dict[str, object] = {"smooth": smooth}
    if value is not None:
        options["smooth_value"] = value
    ours = get_metric("bleu", **options).score(hypotheses, references).score
    reference_metric = sacrebleu.BLEU(smooth_method=smooth, smooth_value=value)
    theirs = reference_metric.corpus_score(hypotheses, references).score
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_exp_smoothing_halves_the_first_zero_precision_by_hand() -> None:
    # Segment 1: 1-grams 5/6 ("on" unmatched), 2-grams 3/5, 3-grams 1/4,
    # 4-grams 0/3; segment 2: 2/3, 1/2, 0/1, 0/0. Pooled: 7/9, 4/7, 1/5, 0/3;
    # exp smoothing makes p_4 = 1 / (2 * 3). c = 9 = r (lengths 6 + 3).
    hypotheses, references = CORPUS_WITHOUT_4_GRAM_MATCHES
    result = get_metric("bleu").score(hypotheses, references)
    assert result.details["matches"] == [7, 4, 1, 0]
    assert result.details["totals"] == [9, 7, 5, 3]
    expected = (7 / 9 * 4 / 7 * 1 / 5 * 1 / 6) ** 0.25
    assert result.score == pytest.approx(100 * expected, abs=1e-12)
    assert get_metric("bleu:smooth=none").score(hypotheses, references).score == 0.0


def test_missing_references_give_a_variable_reference_count(sacrebleu) -> None:
    hypotheses = ["the cat sat on the mat", "a dog barked at the moon"]
    references = [
        ["the cat sat on a mat", None],
        ["a cat sat on the mat", "the dog barked at the moon"],
    ]
    result = get_metric("bleu:n=2").score(hypotheses, references)
    assert "|nrefs:var|" in result.signature
    reference_metric = sacrebleu.BLEU(max_ngram_order=2)
    theirs = reference_metric.corpus_score(hypotheses, references).score
    assert result.score == pytest.approx(theirs, abs=1e-9)


def test_an_empty_corpus_scores_zero_with_no_sentence_scores() -> None:
    result = get_metric("bleu").score([], [[]], sentence=True)
    assert (result.score, result.sentence_scores, result.n_segments) == (0.0, (), 0)


def test_reference_streams_of_the_wrong_length_are_refused() -> None:
    expected = "reference stream 2 has 1 segments but there are 2 hypotheses"
    with pytest.raises(MetricError, match=expected):
        get_metric("bleu").score(["a", "b"], [["a", "b"], ["a"]])


def test_a_flat_list_of_references_is_refused_with_an_explanation() -> None:
    # A common mistake: one list of reference strings instead of streams.
    with pytest.raises(MetricError, match="reference streams"):
        get_metric("bleu").score(["a b"], ["a b"])
    with pytest.raises(MetricError, match="hypotheses must be a sequence"):
        get_metric("bleu").score("a b", [["a b"]])


def test_non_text_input_and_segments_without_any_reference_are_refused() -> None:
    with pytest.raises(MetricError, match="hypothesis 2 is a int"):
        get_metric("bleu").score(["a", 3], [["a", "b"]])
    with pytest.raises(MetricError, match="segment 1 has no reference"):
        get_metric("bleu").score(["a"], [[None], [None]])
    with pytest.raises(MetricError, match="at least one reference stream"):
        get_metric("bleu").score(["a"], [])
