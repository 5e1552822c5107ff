"""WER: the lecture notes' worked example, multiple references, awkward input.

Expected values are the lecture notes' (002, "Example - Word Error Rate") or
hand counts stated next to each assertion.
"""

from __future__ import annotations

import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.common.edit_distance import bag_matches, levenshtein
from scoring.metrics.edit.wer import WER
from tests.scoring.support.lecture_examples import (
    LECTURE_HYPOTHESIS,
    LECTURE_REFERENCE,
)


def corpus_and_sentences(
    metric: WER, hypotheses: list[str], references: list[list[str | None]]
) -> tuple[float, tuple[float, ...]]:
    result = metric.score(hypotheses, references, sentence=True)
    assert result.sentence_scores is not None
    return result.score, result.sentence_scores


def test_it_gives_the_lecture_notes_44_percent() -> None:
    # 4 substitutions + 1 insertion + 3 deletions = 8 edits, 18 reference words.
    score, sentences = corpus_and_sentences(
        WER(), [LECTURE_HYPOTHESIS], [[LECTURE_REFERENCE]]
    )
    assert score == pytest.approx(100 * 8 / 18, abs=1e-12)
    assert sentences == (pytest.approx(44.444444, abs=1e-6),)


def test_its_statistics_are_the_edits_and_the_reference_length() -> None:
    row = WER().segment_statistics([LECTURE_HYPOTHESIS], [[LECTURE_REFERENCE]])[0]
    assert row.tolist() == [8.0, 18.0]


def test_it_is_an_error_rate_in_percent() -> None:
    metric = get_metric("wer")
    assert metric.higher_is_better is False
    assert metric.scale == 100.0


def test_the_corpus_score_pools_edits_and_lengths() -> None:
    # Segment 1: 1 substitution over 4 words; segment 2: 2 deletions over 2.
    score, sentences = corpus_and_sentences(
        WER(), ["a b c x", ""], [["a b c d", "e f"]]
    )
    assert sentences == (25.0, 100.0)
    assert score == pytest.approx(100 * 3 / 6, rel=1e-12)


def test_it_uses_the_closest_reference_and_the_average_length() -> None:
    # Reference 1 needs 2 edits, reference 2 only 1 (one deletion); average
    # length (3 + 4) / 2 = 3.5, as TER does.
    row = WER().segment_statistics(["a b c"], [["x y c"], ["a b c d"]])[0]
    assert row.tolist() == [1.0, 3.5]
    assert WER().score(["a b c"], [["x y c"], ["a b c d"]]).score == pytest.approx(
        100 / 3.5, rel=1e-12
    )


def test_a_missing_reference_leaves_that_segment_with_fewer_references() -> None:
    result = WER().score(["a b", "c d"], [["a b", "c"], [None, "c d e f"]])
    # Segment 1: one reference, 0 edits, length 2. Segment 2: min(1, 2) = 1
    # edit, average length (1 + 4) / 2.
    assert result.statistics.tolist() == [[0.0, 2.0], [1.0, 2.5]]
    assert result.signature.startswith("wer|nrefs:var|")


def test_an_empty_hypothesis_deletes_every_reference_word() -> None:
    score, sentences = corpus_and_sentences(WER(), [""], [["a b c"]])
    assert (score, sentences) == (100.0, (100.0,))


def test_an_empty_reference_counts_as_a_full_error_unless_both_are_empty() -> None:
    score, sentences = corpus_and_sentences(WER(), ["a b", ""], [["", ""]])
    # Σ reference length is 0: a corpus with edits scores 100, like TER.
    assert sentences == (100.0, 0.0)
    assert score == 100.0
    assert WER().score([""], [[""]]).score == 0.0


def test_a_long_hypothesis_scores_above_100() -> None:
    assert WER().score(["a b c d"], [["a"]]).score == 300.0


def test_case_and_tokenisation_are_choices_named_in_the_signature() -> None:
    hypothesis, reference = "Hello, World", "hello , world"
    assert WER().score([hypothesis], [[reference]]).score == pytest.approx(
        100.0, rel=1e-12
    )
    assert (
        WER(tokenize="13a", lowercase=True).score([hypothesis], [[reference]]).score
        == 0.0
    )
    assert WER().signature(1) == f"wer|nrefs:1|case:mixed|tok:none|version:{VERSION}"
    assert (
        get_metric("wer:tokenize=13a,lowercase=true").signature(2)
        == f"wer|nrefs:2|case:lc|tok:13a|version:{VERSION}"
    )


def test_the_ascii_tokenizer_keeps_a_no_break_space_inside_a_word() -> None:
    # WER.pl splits on ASCII whitespace only: "10\u00a0000" is one word.
    hypothesis, reference = "10\u00a0000 km", "10 000 km"
    assert WER(tokenize="ascii").score([hypothesis], [[reference]]).score == (
        pytest.approx(100 * 2 / 3, rel=1e-12)
    )
    assert WER().score([hypothesis], [[reference]]).score == 0.0


def test_chinese_arabic_and_combining_characters_are_compared_as_words() -> None:
    # Without tokenisation a Chinese sentence is one word: 1 substitution.
    assert WER().score(["我爱你"], [["我爱她"]]).score == 100.0
    # Arabic: one of three words differs.
    assert WER().score(["ذهب الولد الى"], [["ذهب البنت الى"]]).score == (
        pytest.approx(100 / 3, rel=1e-12)
    )
    # "e" + U+0301 and the precomposed "é" are different strings (no Unicode
    # normalisation is applied), so this is one substitution.
    assert WER().score(["cafe\u0301 noir"], [["caf\u00e9 noir"]]).score == 50.0


def test_it_refuses_unknown_tokenizers_and_non_boolean_case_flags() -> None:
    with pytest.raises(MetricError, match="valid tokenizers: 13a, none.*, ascii"):
        WER(tokenize="moses")
    with pytest.raises(MetricError, match="lowercase must be true or false"):
        WER(lowercase="yes")  # type: ignore[arg-type]


def test_levenshtein_agrees_with_a_textbook_dynamic_programme() -> None:
    import random

    def textbook(a: list[int], b: list[int]) -> int:
        previous = list(range(len(b) + 1))
        for i, x in enumerate(a, 1):
            current = [i] + [0] * len(b)
            for j, y in enumerate(b, 1):
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)
                )
            previous = current
        return previous[-1]

    rng = random.Random(7)
    for _ in range(500):
        a = [rng.randrange(6) for _ in range(rng.randrange(0, 90))]
        b = [rng.randrange(6) for _ in range(rng.randrange(0, 90))]
        assert levenshtein(a, b) == textbook(a, b)


def test_bag_matches_count_shared_words_with_multiplicity() -> None:
    assert bag_matches("the the cat".split(), "the cat the the".split()) == 3
    assert bag_matches([], "a".split()) == 0
