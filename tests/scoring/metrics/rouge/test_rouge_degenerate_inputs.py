"""ROUGE on awkward input: empty or too short segments, missing references,
ties between references, Unicode text, and corpus scores from summed rows.
Expected values are hand-computed."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import get_metric

ALL_SPECS = [
    "rouge-n:n=1",
    "rouge-n:n=4",
    "rouge-l",
    "rouge-w:w=1.2",
    "rouge-s:d=*",
    "rouge-s:d=0",
    "rouge-su:d=4",
]


def with_options(spec: str, options: str) -> str:
    """``spec`` with more ``key=value`` options appended."""
    return f"{spec}{',' if ':' in spec else ':'}{options}"


BOTH_MODES = [
    with_options(spec, f"preprocess={mode}")
    for spec in ALL_SPECS
    for mode in ("default", "rouge155")
]


def rows(spec: str, hypotheses, references) -> np.ndarray:
    return get_metric(spec).segment_statistics(hypotheses, references)


@pytest.mark.parametrize("spec", BOTH_MODES)
def test_an_empty_hypothesis_scores_zero_everywhere(spec: str) -> None:
    statistics = rows(spec, ["", "the cat sat on the mat"], [["the cat sat", ""]])
    # hits, reference total, hypothesis total, R, P, F are 0 for segment 1;
    # segment 2 has an empty reference: nothing to recall, R = P = F = 0.
    assert statistics[0, 0] == 0 and statistics[0, 2] == 0
    assert list(statistics[0, 3:6]) == [0.0, 0.0, 0.0]
    assert list(statistics[1, 3:6]) == [0.0, 0.0, 0.0]
    assert list(statistics[:, 6]) == [1.0, 1.0]


@pytest.mark.parametrize("mode", ["default", "rouge155"])
def test_punctuation_only_segments_have_no_tokens(mode: str) -> None:
    spec = f"rouge-l:preprocess={mode}"
    statistics = rows(spec, ["...", "the cat"], [["!!", "-- ?"]])
    # Segment 1: nothing on either side; segment 2: the hypothesis' 2 tokens
    # are its only counts.
    assert not statistics[0, :6].any()
    assert list(statistics[1, :6]) == [0.0, 0.0, 2.0, 0.0, 0.0, 0.0]


def test_a_hypothesis_shorter_than_n_has_no_n_grams_to_match() -> None:
    statistics = rows("rouge-n:n=3", ["the cat"], [["the cat sat"]])
    # hits 0, one reference trigram, no hypothesis trigram.
    assert list(statistics[0, :6]) == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]


def test_a_one_token_segment_has_no_su_units_in_rouge155_but_one_by_default() -> None:
    official = rows("rouge-su:d=*,preprocess=rouge155", ["cat"], [["cat"]])
    assert list(official[0, :6]) == [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    default = rows("rouge-su:d=*", ["cat"], [["cat"]])
    assert list(default[0, :6]) == [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("spec", BOTH_MODES)
@pytest.mark.parametrize("multiref", ["average", "best"])
def test_a_missing_reference_counts_as_absent_not_as_empty(
    spec: str, multiref: str
) -> None:
    hypotheses = ["the gunman was shot by police", "police kill the gunman"]
    stream_a = ["police shot the gunman", "police killed the gunman"]
    stream_b = [None, "the police killed the gunman"]
    spec = with_options(spec, f"multiref={multiref}")
    two = rows(spec, hypotheses, [stream_a, stream_b])
    one = rows(spec, hypotheses[:1], [stream_a[:1]])
    np.testing.assert_array_equal(two[0], one[0])
    result = get_metric(spec).score(hypotheses, [stream_a, stream_b])
    assert result.signature.split("|")[1] == "nrefs:var"


def test_best_reference_ties_keep_the_first_reference() -> None:
    # Recall 1/2 against both; the first gives P = 1/2, the second P = 2/2.
    metric = get_metric("rouge-n:n=1,multiref=best,measure=p", tokenize="none")
    result = metric.score(["a c"], [["a b"], ["a c d e"]], sentence=True)
    assert result.sentence_scores == (0.5,)
    result = metric.score(["a c"], [["a c d e"], ["a b"]], sentence=True)
    assert result.sentence_scores == (1.0,)


def test_default_preprocessing_keeps_and_case_folds_unicode_words() -> None:
    metric = get_metric("rouge-n:n=1,measure=r")
    hypotheses = [
        "我们 喜欢 猫 。",
        "ذهب الولد إلى المدرسة",
        "ÜBER das Café",
        "a\u00a0b c",
    ]
    references = [
        "我们 喜欢 狗 。",
        "ذهب الولد إلى البيت",
        "über das cafe\u0301",  # NFD spelling: not the same token as "café"
        "a b c",
    ]
    scores = metric.score(hypotheses, [references], sentence=True).sentence_scores
    # "。" is punctuation and dropped; U+00A0 separates words.
    assert scores == pytest.approx([2 / 3, 3 / 4, 2 / 3, 1.0], rel=1e-12)


def test_rouge155_preprocessing_deletes_non_ascii_letters_like_the_perl_script() -> (
    None
):
    metric = get_metric("rouge-n:n=1,measure=r,preprocess=rouge155")
    hypotheses = ["我们 喜欢 猫", "Sané scored", "ÜBER das Café", "a\u00a0b c"]
    references = ["我们 喜欢 狗", "San\u00e9 scored", "über das cafe\u0301", "A B C"]
    scores = metric.score(hypotheses, [references], sentence=True).sentence_scores
    # Chinese vanishes (no tokens: 0); "Sané" -> "san"; "über"/"ÜBER" ->
    # "ber", "Café" -> "caf" but "cafe" + U+0301 -> "cafe".
    assert scores == (0.0, 1.0, round(2 / 3, 5), 1.0)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_the_corpus_score_is_the_mean_of_the_sentence_scores_of_summed_rows(
    spec: str,
) -> None:
    hypotheses = ["the cat sat", "a dog", "", "the the cat sat on a mat"]
    references = [
        ["the cat sat on the mat", "cats sit", "a dog", "the cat is on the mat"]
    ]
    metric = get_metric(spec)
    result = metric.score(hypotheses, references, sentence=True)
    assert result.score == pytest.approx(np.mean(result.sentence_scores), abs=1e-15)
    statistics = result.statistics
    # Bootstrap-style batches of summed rows give the resampled means.
    picks = np.array([[0, 0, 1, 3], [2, 2, 2, 2]])
    batch = statistics[picks].sum(axis=1)
    expected = [np.mean(np.array(result.sentence_scores)[pick]) for pick in picks]
    assert metric.corpus_scores_from_statistics(batch) == pytest.approx(
        expected, rel=1e-12
    )
    assert metric.corpus_scores_from_statistics(np.zeros(7)) == 0.0
