"""RED's edit distances, keywords, content words and semantic codes, from the
lecture notes' examples (seed 002) and hand computation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring.metrics.red.edit_distance import edit_distances, edit_distances_by_swap
from scoring.metrics.red.features import (
    ALL_VARIANTS,
    BASIC_VARIANTS,
    Variant,
    features,
    is_content_word,
    keywords,
)
from scoring.metrics.red.semantic import load_synonyms


def ids(*sentences: str) -> list[np.ndarray]:
    vocabulary: dict[str, int] = {}
    return [
        np.array([vocabulary.setdefault(word, len(vocabulary)) for word in s.split()])
        for s in sentences
    ]


def test_it_counts_the_lectures_wer_example_as_eight_edits() -> None:
    # Seed 002: 4 substitutions + 1 insertion + 3 deletions = 8 (18-word reference).
    reference = (
        "it is a guide to action which ensures that the military always "
        "obeys the commands of the party"
    )
    hypothesis = (
        "it is a guide to action that ensures that the military will "
        "forever heed party commands"
    )
    hyp, ref = ids(hypothesis, reference)
    assert len(ref) == 18
    assert edit_distances([hyp], [ref]).tolist() == [8]


def test_the_swap_operator_makes_a_swapped_pair_one_edit() -> None:
    # "he saw a man" / "he a saw man": two substitutions, or one swap.
    hyp, ref = ids("he a saw man", "he saw a man")
    assert edit_distances_by_swap([hyp], [ref], (False, True)).tolist() == [[2], [1]]


def _reference_distance(a: list[int], b: list[int], swap: bool) -> int:
    """Plain dynamic programme, cell by cell (optimal string alignment)."""
    table = [
        [i + j if i * j == 0 else 0 for j in range(len(b) + 1)]
        for i in range(len(a) + 1)
    ]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
            if (
                swap
                and i > 1
                and j > 1
                and a[i - 1] == b[j - 2]
                and a[i - 2] == b[j - 1]
            ):
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[len(a)][len(b)]


def test_batched_distances_equal_a_cell_by_cell_dynamic_programme() -> None:
    rng = random.Random(11)
    firsts = [
        np.array([rng.randrange(4) for _ in range(rng.randrange(0, 14))])
        for _ in range(700)
    ]
    seconds = [
        np.array([rng.randrange(4) for _ in range(rng.randrange(0, 14))])
        for _ in range(700)
    ]
    both = edit_distances_by_swap(firsts, seconds, (False, True))
    for row, swap in enumerate((False, True)):
        expected = [
            _reference_distance(list(a), list(b), swap) for a, b in zip(firsts, seconds)
        ]
        assert both[row].tolist() == expected


def test_empty_sequences_cost_the_length_of_the_other() -> None:
    empty, three = np.array([], dtype=np.int64), np.array([1, 2, 3])
    assert edit_distances([empty, three, empty], [three, empty, empty]).tolist() == [
        3,
        3,
        0,
    ]
    assert edit_distances([], []).tolist() == []


# The lecture's RED example (Hindi): T is the MT output, H1-H3 the references.
T = ("hum", "karya", "karnaa", "ab", "prarambh", "honge")
H1 = ("ab", "hum", "kaam", "shuru", "karenge")
H2 = ("ab", "hum", "kaam", "arambh", "karenge")
H3 = ("hum", "ab", "kaam", "karnaa", "shuru", "karenge")
# Semantic codes of the example: X = work (karya, kaam),
# Y = begin (prarambh, arambh, shuru).
CODES = {"karya": 1, "kaam": 1, "prarambh": 2, "arambh": 2, "shuru": 2}


def toy_synonyms(word: str) -> frozenset[int]:
    return frozenset({CODES[word]}) if word in CODES else frozenset()


def test_keywords_are_the_words_of_two_or_more_references() -> None:
    assert keywords([H1, H2, H3]) == {"ab", "hum", "kaam", "shuru", "karenge"}
    assert keywords([H1]) == set(H1)  # a single reference: all its words


def test_semantic_codes_let_karya_match_kaam_and_prarambh_match_shuru() -> None:
    # ED1(T, H1): no alignment keeps both "hum" and "ab" (they cross), so at
    # best one match: 6 edits of max(6, 5) words.
    # ED3(T, H1): with codes, hum, kaam (karya) and shuru (prarambh) align:
    # insert "ab", delete "karnaa ab", substitute "honge" -> 4 edits.
    ed1, ed3 = Variant(False, False, False, False), Variant(False, False, True, False)
    values = features([T], [[H1]], [ed1, ed3], language="hi", synonyms=toy_synonyms)
    np.testing.assert_allclose(values, [[6 / 6, 4 / 6]])


def test_each_feature_takes_the_closest_of_several_references() -> None:
    ed1, ed2 = Variant(False, False, False, False), Variant(False, False, False, True)
    one = features([H3], [[H1]], [ed1], language="hi")
    three = features([H3], [[H1, H2, H3]], [ed1, ed2], language="hi")
    assert one[0, 0] > 0
    np.testing.assert_allclose(three, [[0.0, 0.0]])


def test_the_keyword_policy_edits_keywords_only() -> None:
    # Keywords {ab, hum, kaam, shuru, karenge}: T keeps "hum ab".
    # H1 keeps all five words: "hum ab" vs "ab hum kaam shuru karenge" is 4
    # edits of 5, and with a swap 1 + 3 = 4 as well. H2 keeps "ab hum kaam
    # karenge": 3 of 4 (with or without swap). H3 keeps "hum ab kaam shuru
    # karenge": 3 insertions of 5, the closest reference.
    ed2, ed10 = Variant(False, False, False, True), Variant(True, False, False, True)
    keys = keywords([H1, H2, H3])
    kept = [tuple(w for w in ref if w in keys) for ref in (H1, H2, H3)]
    assert kept[1] == ("ab", "hum", "kaam", "karenge")
    per_reference = [
        features([T], [[ref]], [ed2, ed10], language="hi")[0] for ref in kept
    ]
    np.testing.assert_allclose(
        per_reference, [[4 / 5, 4 / 5], [3 / 4, 3 / 4], [3 / 5, 3 / 5]]
    )
    values = features([T], [[H1, H2, H3]], [ed2, ed10], language="hi")
    np.testing.assert_allclose(values, [[3 / 5, 3 / 5]])


def test_content_words_are_alphanumeric_tokens_outside_the_function_word_list() -> None:
    assert [
        is_content_word(w, "en") for w in ("the", "of", "house", "ran", ",", "3", "n't")
    ] == [False, False, True, True, False, True, False]
    # No list for other languages: only punctuation and symbols are dropped.
    assert [is_content_word(w, "de") for w in ("der", "Haus", "«", "—")] == [
        True,
        True,
        False,
        False,
    ]
    assert is_content_word("机器", "zh") and is_content_word("ترجمة", "ar")


def test_the_content_policy_ignores_function_words_and_punctuation() -> None:
    ed1, ed5 = Variant(False, False, False, False), Variant(False, True, False, False)
    hyp, ref = ("the", "cat", "sat", "."), ("a", "cat", "sat", "quietly", "!")
    values = features([hyp], [[ref]], [ed1, ed5])
    # all words: 3 edits of 5; content words "cat sat" vs "cat sat quietly": 1 of 3
    np.testing.assert_allclose(values, [[3 / 5, 1 / 3]])


def test_features_are_zero_for_two_empty_segments_and_one_against_nothing() -> None:
    values = features([(), ("house",), ()], [[()], [()], [("house",)]], BASIC_VARIANTS)
    np.testing.assert_allclose(values[0], 0.0)
    np.testing.assert_allclose(values[2], 1.0)
    # Against an empty reference there are no keywords, so the keyword
    # variants (even columns) see two empty sequences.
    np.testing.assert_allclose(values[1], [1, 0, 1, 0, 1, 0, 1, 0])
    assert features([], [], BASIC_VARIANTS).shape == (0, 8)


def test_the_variants_are_numbered_as_in_the_lectures_table() -> None:
    names = [variant.name for variant in ALL_VARIANTS]
    assert (
        names[0] == "ED1" and names[1] == "ED2-keywords" and names[2] == "ED3-semantic"
    )
    assert names[13] == "ED14-swap-content-keywords"
    assert names[15] == "ED16-swap-content-semantic-keywords"
    assert [v.number for v in BASIC_VARIANTS] == [1, 2, 5, 6, 9, 10, 13, 14]


def test_semantic_variants_need_synonyms() -> None:
    with pytest.raises(ValueError, match="WordNet"):
        features([("a",)], [[("a",)]], ALL_VARIANTS)


def test_wordnet_synonyms_match_inflected_forms_of_shared_synsets() -> None:
    synonyms = load_synonyms()
    if synonyms is None:
        pytest.skip("WordNet files (Debian wordnet-base) not installed")
    # WordNet 3.0: "begin" and "start" share synsets (e.g. begin.v.01);
    # "began" reaches "begin" through verb.exc, "cars" reaches "car" by the
    # -s rule; "car" and "automobile" share car.n.01.
    assert synonyms("began") & synonyms("start")
    assert synonyms("cars") & synonyms("automobile")
    assert not synonyms("car") & synonyms("banana")
    ed1, ed3 = Variant(False, False, False, False), Variant(False, False, True, False)
    values = features(
        [("they", "began", "the", "car")],
        [[("they", "start", "the", "automobile")]],
        [ed1, ed3],
        synonyms=synonyms,
    )
    np.testing.assert_allclose(values, [[2 / 4, 0.0]])


@pytest.mark.parametrize(
    "module_name",
    [
        "scoring.metrics.red.edit_distance",
        "scoring.metrics.red.features",
        "scoring.metrics.red.semantic",
    ],
)
def test_the_worked_examples_in_the_red_docstrings_hold(module_name: str) -> None:
    import doctest
    import importlib

    outcome = doctest.testmod(importlib.import_module(module_name))
    assert outcome.attempted > 0 and outcome.failed == 0
