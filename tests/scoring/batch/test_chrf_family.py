"""chrF and chrF++ in the batch engine give the per-pair code's scores, bit for
bit: every parameter, on real Moses n-best lists (each candidate against
every jackknife subset and all references, each reference against the
others), on degenerate and unusual text, and ORANGE through the engine
equals ORANGE pair by pair.

Both sides apply the same IEEE operations in the same order (no
transcendental functions), so equality, not a tolerance, is asserted.
"""

from __future__ import annotations

import re
import string

import numpy as np
import pytest

from scoring import get_metric
from scoring.batch.chrf_family import ChrfFamily, ChrfText, _Spellings
from scoring.batch.engine import supports, token_view
from scoring.batch.grid import grid_from_texts
from scoring.batch.subsets import ALL_REFERENCES
from scoring.metrics.chrf.metric import CHRF
from scoring.metrics.chrf.statistics import (
    _PUNCTUATION,
    chrf_score,
    chrf_words,
    match_statistics,
    ngram_profile,
)
from scoring.orange.dispatch import on_engine, orange_for_metric, orange_metrics
from scoring.orange.options import OrangeOptions
from tests.scoring.support.batch_cases import (
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
)

# Every parameter, alone and together.
SPECS = (
    "chrf",
    "chrf++",
    "chrf:char_order=4",
    "chrf:char_order=1",
    "chrf++:word_order=1",
    "chrf++:word_order=3",
    "chrf++:char_order=0,word_order=2",
    "chrf:beta=1",
    "chrf:beta=3",
    "chrf++:beta=0.5",
    "chrf:lowercase=true",
    "chrf++:lowercase=true",
    "chrf:whitespace=true",
    "chrf++:whitespace=true,lowercase=true",
    "chrf:eps_smoothing=true",
    "chrf++:eps_smoothing=true,beta=1",
    "chrf++:char_order=2,word_order=2,beta=3,lowercase=true,eps_smoothing=true",
)

RUNS = re.compile(r"\s+|\S+")  # whitespace runs and words, in order

# hypotheses, references (one group each); the per-pair side must be able
# to score them, so every group has at least one reference.
GROUPS = [
    (
        ["", "a", "ab", "abcde", "the cat sat on the mat", "   ", "\t\n"],
        ["the cat sat on the mat", "", "a cat", "cats"],
    ),
    (
        ["a a a a a a a a", "aaaaaaaa", "ab ab ab", "the the the the", "x"],
        ["a a a", "aaa aaaaa", "ba ba", "the the cat"],
    ),
    (
        [
            "Größe ÄÖÜ straße",
            "GRÖSSE ÄÖÜ STRASSE",
            "ΟΔΟΣ Σοφίας",
            "İstanbul İzmir",
            "我们 今天 去 公园",
            "我们去公园",
            "مرحبا بالعالم",
            "cafe\u0301 au lait",
            "10\u00a0000 km",
        ],
        [
            "größe äöü Straße",
            "οδος σοφίας",
            "istanbul izmir",
            "我们 明天 去 公园",
            "café au lait",
        ],
    ),
    (
        [
            "Hello, (world) 'x",
            "hello , ( world ) ' x",
            "a\u2028b\x1cc  d\u3000e",
            " leading and trailing ",
            "!!! ... ,,,",
            "(hi)",
            "U.S.A. e.g., etc.",
        ],
        ["Hello, (world) 'x", "hello world x", "a b c d e", "(hi) U.S.A."],
    ),
    (
        ["THE CAT", "The Cat", "the cat"],
        ["the cat", "THE CAT"],
    ),
]


def assert_same_scores(spec, candidates, references, masks):
    metric = get_metric(spec)
    ours = engine_scores(metric, candidates, references, masks)
    expected = per_pair_scores(metric, candidates, references, masks)
    assert np.array_equal(ours, expected), (
        f"{spec}: largest difference {np.abs(ours - expected).max()}"
    )


@pytest.mark.parametrize("spec", SPECS)
def test_every_setting_matches_the_per_pair_code_on_regression_run1(spec, regression):
    data = regression.first(40)
    assert_same_scores(spec, data.candidates, data.references, jackknife_and_all(3))
    # The references as hypotheses, as the oracle scores them.
    assert_same_scores(spec, data.references, data.references, jackknife_and_all(3)[:3])


@pytest.mark.parametrize("spec", ["chrf", "chrf++", "chrf++:lowercase=true"])
def test_it_matches_on_the_mert_example_with_its_xxx_tokens(spec, mert):
    data = mert.first(50)
    assert_same_scores(spec, data.candidates, data.references, jackknife_and_all(3))


@pytest.mark.parametrize("spec", SPECS)
def test_degenerate_and_unusual_text_matches_the_per_pair_code(spec):
    hypotheses = [group[0] for group in GROUPS]
    references = [group[1] for group in GROUPS]
    masks = np.array(
        [ALL_REFERENCES, 0b1110, 0b1101, 0b1011, 0b0111, 0b0001, 0b0110, 0b1010],
        dtype=np.int64,
    )
    assert_same_scores(spec, hypotheses, references, masks)
    assert_same_scores(spec, references, references, masks)


@pytest.mark.parametrize(
    "spec",
    ["chrf", "chrf++", "chrf:whitespace=true,lowercase=true", "chrf++:whitespace=true"],
)
def test_the_family_scores_grids_of_other_tokenisations_alike(spec):
    # Whole texts, words, words and whitespace runs as tokens: the
    # characters and words derived from the vocabulary are the same.
    metric = get_metric(spec)
    hypotheses = [group[0] for group in GROUPS]
    references = [group[1] for group in GROUPS]
    masks = jackknife_and_all(2)
    expected = per_pair_scores(metric, hypotheses, references, masks)
    case = str.lower if metric.lowercase else str
    views = [ChrfText(metric.lowercase), lambda text: RUNS.findall(case(text))]
    if not metric.whitespace:
        views.append(lambda text: case(text).split())
    for view in views:
        grid = grid_from_texts(hypotheses, references, view)
        ours = ChrfFamily([metric]).scores(grid, masks)[0]
        assert np.array_equal(ours, expected), view


@pytest.mark.parametrize("spec", ["chrf", "chrf++", "chrf++:whitespace=true"])
def test_a_chunk_of_only_empty_and_blank_texts_scores_like_per_pair(spec):
    hypotheses = [["", " ", "\t\n"], [""]]
    references = [["", "  "], [" ", ""]]
    masks = jackknife_and_all(2)
    assert_same_scores(spec, hypotheses, references, masks)
    metric = get_metric(spec)
    if not metric.whitespace:  # nothing to read at all
        assert not engine_scores(metric, hypotheses, references, masks).any()


def test_ties_between_references_go_to_the_first_as_in_the_per_pair_code():
    # "aaaa" scores 20.83... against "aba" and against "aabb" (likewise
    # "aaab" against "bba" and "abbb") from different statistics rows; the
    # chosen row decides the subset's score.
    profile = ngram_profile("aaaa", 6, 0, whitespace=False)
    tied = [
        match_statistics(profile, ngram_profile(r, 6, 0, False))
        for r in ("aba", "aabb")
    ]
    assert tied[0] != tied[1]
    assert chrf_score(tied[0], 2.0, False) == chrf_score(tied[1], 2.0, False)
    hypotheses = [["aaaa", "aaab"]]
    references = [["aba", "aabb", "bba", "abbb"]]
    masks = np.array([0b0011, 0b1100, 0b1111, 0b0110, 0b1010], dtype=np.int64)
    for spec in ("chrf", "chrf:whitespace=true", "chrf:char_order=2"):
        assert_same_scores(spec, hypotheses, references, masks)


def test_groups_with_thousands_of_distinct_characters_match_too():
    # Past 1,024 distinct reference symbols a group's bigrams are looked up
    # in the trie's sibling lists instead of the dense table.
    many = "".join(chr(0x4E00 + i) for i in range(1100))
    hypotheses = [[many[::-1], many[:700] + " " + many[650:], many[::7], "x"]]
    references = [[many, many[500:] + many[:500], "x y"]]
    masks = np.array([0b011, 0b110, 0b101, 0b111], dtype=np.int64)
    for spec in ("chrf", "chrf++:whitespace=true"):
        assert_same_scores(spec, hypotheses, references, masks)


WORD_TEXTS = [
    "",
    "  ",
    "Hello, (world) 'x",
    '! !! a! !a (hi) "quoted" x. U.S.A. ... -- a-b',
    "ÄÖ, —dash— «guillemets» ¿qué? 我们，去",
    "a\u2028b\x1cc  d\u3000e\t\n f\u00a0g",
    " ΟΔΟΣ İstanbul ",
    "the the the cat cat",
    # thousands of distinct words, in one text and over many: the word
    # table and its store grow
    " ".join(f"w{i}x," for i in range(5000)),
    *(f"v{i} ({i}) x{i % 7}" for i in range(3000)),
]


def test_the_compiled_word_split_is_chrf_words_interned_exactly():
    grid = grid_from_texts([WORD_TEXTS], [["a b"]], ChrfText(False))
    words, offsets = _Spellings(grid).words(grid.hyp_tokens, grid.hyp_offsets)
    id_of_word: dict[str, int] = {}
    for index, text in enumerate(WORD_TEXTS):
        expected = chrf_words(text)
        found = words[offsets[index] : offsets[index + 1]].tolist()
        assert len(found) == len(expected), text
        for word, word_id in zip(expected, found):
            assert id_of_word.setdefault(word, word_id) == word_id, word
    assert len(set(id_of_word.values())) == len(id_of_word)  # one id per word


def test_chrf_plus_plus_splits_off_the_ascii_punctuation_of_string_punctuation():
    assert _PUNCTUATION == frozenset(string.punctuation)


@pytest.mark.parametrize("lowercase", [False, True])
def test_the_token_view_is_the_case_folded_text(lowercase):
    text = " ΟΔΟΣ İstanbul\t"
    assert ChrfText(lowercase)(text) == [text.lower() if lowercase else text]


VIEW_SPECS = (
    "chrf",
    "chrf:whitespace=true",
    "chrf:lowercase=true",
    "chrf++",
    "chrf:word_order=1",
    "chrf++:whitespace=true",
)


def test_the_engine_handles_chrf_and_chrf_plus_plus_but_not_subclasses():
    assert supports(get_metric("chrf")) and supports(get_metric("chrf++"))
    assert on_engine(get_metric("chrf:whitespace=true,eps_smoothing=true"))

    class Variant(CHRF):
        pass

    assert not ChrfFamily.handles(Variant())
    views = {spec: token_view(get_metric(spec)) for spec in VIEW_SPECS}
    assert views["chrf:lowercase=true"] == ChrfText(True)
    del views["chrf:lowercase=true"]
    assert set(views.values()) == {ChrfText(False)}  # one tokenisation for all


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize(
    "spec", ["chrf", "chrf++", "chrf++:beta=1,lowercase=true,eps_smoothing=true"]
)
def test_orange_through_the_engine_equals_the_per_pair_orange(
    spec, all_references, regression
):
    options = OrangeOptions(
        all_references=all_references, curve_step=50, n_bootstrap=100
    )
    data = regression.first(100)
    args = (get_metric(spec), spec, data.candidates, data.references, options)
    batch = orange_for_metric(*args, sentence_ids=data.sentence_ids)
    per_pair = orange_for_metric(*args, sentence_ids=data.sentence_ids, per_pair=True)
    assert batch.to_dict() == per_pair.to_dict()


def test_chrf_variants_of_different_views_rank_together_like_each_alone(regression):
    data = regression.first(30)
    options = OrangeOptions(curve_step=10, n_bootstrap=50)
    specs = VIEW_SPECS + ("chrf++:lowercase=true",)
    together = orange_metrics(
        {spec: get_metric(spec) for spec in specs},
        data.candidates,
        data.references,
        options,
        sentence_ids=data.sentence_ids,
    )
    for spec in specs:
        alone = orange_for_metric(
            get_metric(spec),
            spec,
            data.candidates,
            data.references,
            options,
            sentence_ids=data.sentence_ids,
            per_pair=True,
        )
        assert together[spec].to_dict() == alone.to_dict(), spec
