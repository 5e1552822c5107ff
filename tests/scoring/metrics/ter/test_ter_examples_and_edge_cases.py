"""TER: Snover et al.'s example (as in the lecture notes), shifts counted by
hand, text-handling options, and awkward input.

Expected values are hand counts stated next to each assertion.
"""

from __future__ import annotations

import pytest

from scoring import MetricError, get_metric
from scoring import __version__ as VERSION
from scoring.metrics.edit.wer import WER
from scoring.metrics.ter.metric import TER

# Lecture notes 002, "TER Example" (from Snover et al. 2006).
SNOVER_REFERENCE = (
    "SAUDI ARABIA denied THIS WEEK information Published in the AMERICAN New York times"
)
SNOVER_HYPOTHESIS = (
    "THIS WEEK THE SAUDIS denied information published in the New York times"
)


def ter_row(metric: TER, hypothesis: str, *references: str) -> list[float]:
    """[edits, average reference length] of one segment."""
    streams = [[reference] for reference in references]
    return metric.segment_statistics([hypothesis], streams)[0].tolist()


def test_it_counts_one_shift_two_substitutions_and_one_insertion() -> None:
    # Shift "THIS WEEK" after "denied", substitute THE/SAUDIS by SAUDI/ARABIA,
    # insert AMERICAN: 4 edits over 13 words = 30.8 % (the notes' "31 %").
    assert ter_row(TER(), SNOVER_HYPOTHESIS, SNOVER_REFERENCE) == [4.0, 13.0]
    assert TER().score([SNOVER_HYPOTHESIS], [[SNOVER_REFERENCE]]).score == (
        pytest.approx(100 * 4 / 13, rel=1e-12)
    )


def test_the_lecture_notes_4_over_12_5_is_the_average_of_two_references() -> None:
    # The notes divide by 12.5, an average reference length: add a second,
    # 12-word reference that needs more edits, and TER = 4 / 12.5 = 32 %.
    other = "one two three four five six seven eight nine ten eleven twelve"
    assert ter_row(TER(), SNOVER_HYPOTHESIS, SNOVER_REFERENCE, other) == [4.0, 12.5]


def test_its_answer_to_the_lecture_notes_wer_question_is_6_over_13() -> None:
    # "WER score = ?": without shifts, 5 substitutions ("this week the saudis
    # denied" -> "saudi arabia denied this week") and 1 insertion (american).
    assert WER(lowercase=True).score(
        [SNOVER_HYPOTHESIS], [[SNOVER_REFERENCE]]
    ).score == pytest.approx(100 * 6 / 13, rel=1e-12)


def test_it_is_case_insensitive_unless_asked() -> None:
    # Published / published becomes a fifth edit (TERCOM -s).
    assert ter_row(TER(lowercase=False), SNOVER_HYPOTHESIS, SNOVER_REFERENCE) == [
        5.0,
        13.0,
    ]


@pytest.mark.parametrize(
    ("hypothesis", "reference", "edits"),
    [
        ("b c a", "a b c", 1),  # shift "a" to the front (Levenshtein: 2)
        ("a b c d e", "c d e a b", 1),  # one block shift (Levenshtein: 4)
        ("x a b", "a b y", 2),  # "x" is in no reference: nothing to shift
        ("a b c", "a b c", 0),
    ],
)
def test_a_shift_of_any_block_costs_one_edit(
    hypothesis: str, reference: str, edits: int
) -> None:
    assert ter_row(TER(), hypothesis, reference) == [edits, len(reference.split())]


def test_it_is_an_error_rate_in_percent() -> None:
    metric = get_metric("ter")
    assert (metric.higher_is_better, metric.scale) == (False, 100.0)


def test_empty_hypotheses_and_references() -> None:
    assert ter_row(TER(), "", "a b c") == [3.0, 3.0]
    assert ter_row(TER(), "a b", "") == [2.0, 0.0]
    assert ter_row(TER(), "", "") == [0.0, 0.0]
    result = TER().score(["a b", ""], [["", ""]], sentence=True)
    assert result.sentence_scores == (100.0, 0.0)
    assert result.score == 100.0  # edits but no reference words


def test_the_closest_reference_and_missing_references() -> None:
    result = TER().score(["a b c", "x"], [["a b c", "y"], [None, "x z z"]])
    # Segment 1: one reference, 0 edits. Segment 2: min(1, 2) edits over
    # (1 + 3) / 2 words.
    assert result.statistics.tolist() == [[0.0, 3.0], [1.0, 2.0]]
    assert result.signature.startswith("ter|nrefs:var|")


def test_the_default_splits_on_unicode_whitespace_and_tercom_on_ascii_only() -> None:
    hypothesis, reference = "10\u00a0000 euros", "10 000 euros"
    assert ter_row(TER(), hypothesis, reference) == [0.0, 3.0]
    # TERCOM 0.7.25: "10\u00a0000" is one word, substituted for "10", and
    # the reference's "000" is deleted: 2 edits.
    assert ter_row(TER(tercom=True), hypothesis, reference) == [2.0, 3.0]
    assert ter_row(TER(tercom=True), "a\u3000b", "a b") == [2.0, 2.0]


def test_chinese_is_one_word_unless_asian_support_splits_it() -> None:
    hypothesis, reference = "我爱北京。", "我爱上海。"
    assert ter_row(TER(), hypothesis, reference) == [1.0, 1.0]
    # normalize + asian_support: 我 爱 北 京 。 vs 我 爱 上 海 。 -> 2 substitutions.
    metric = TER(normalize=True, asian_support=True)
    assert ter_row(metric, hypothesis, reference) == [2.0, 5.0]
    # ... and no_punct removes the ideographic full stop: 2 edits over 4.
    metric = TER(normalize=True, asian_support=True, no_punct=True)
    assert ter_row(metric, hypothesis, reference) == [2.0, 4.0]


def test_arabic_and_combining_characters_are_compared_as_they_are() -> None:
    assert ter_row(TER(), "الولد ذهب", "ذهب الولد") == [1.0, 2.0]  # one shift
    # No Unicode normalisation: "e" + U+0301 differs from "é".
    assert ter_row(TER(), "cafe\u0301", "caf\u00e9") == [1.0, 1.0]


def test_normalisation_splits_punctuation_and_possessives() -> None:
    hypothesis, reference = "the cat's toy, 3.50$.", "the cat 's toy , 3.50 $ ."
    assert ter_row(TER(), hypothesis, reference)[0] > 0
    assert ter_row(TER(normalize=True), hypothesis, reference) == [0.0, 8.0]
    tercom = TER(normalize=True, tercom=True)
    assert ter_row(tercom, hypothesis, reference) == [0.0, 8.0]


def test_tercom_mode_keeps_javas_empty_words() -> None:
    # TERCOM -P turns ". a" into " a"; Java's split then yields ["", "a"]:
    # an empty word, inserted (1 edit). sacreBLEU's split drops it.
    assert ter_row(TER(no_punct=True, tercom=True), ". a", "a") == [1.0, 1.0]
    assert ter_row(TER(no_punct=True), ". a", "a") == [0.0, 1.0]


def test_signatures_name_every_text_option() -> None:
    assert TER().signature(3) == (
        f"ter|nrefs:3|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:{VERSION}"
    )
    metric = get_metric("ter:tercom=true,lowercase=false,normalize=true,no_punct=true")
    assert metric.signature(1) == (
        "ter|nrefs:1|case:mixed|tok:tercom-0.7.25|norm:yes|punct:no|asian:no"
        f"|version:{VERSION}"
    )


def test_it_refuses_asian_support_in_tercom_mode_and_non_booleans() -> None:
    with pytest.raises(MetricError, match="TERCOM 0.7.25 has no asian_support"):
        TER(tercom=True, asian_support=True)
    with pytest.raises(MetricError, match="normalize must be true or false"):
        TER(normalize="no")  # type: ignore[arg-type]
    with pytest.raises(MetricError, match="unknown parameter 'tokenize'"):
        get_metric("ter:tokenize=13a")
