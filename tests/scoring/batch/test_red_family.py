"""RED through the batch engine equals the per-pair code: the feature
vectors (8 basic or 16 semantic edit distances, keywords per reference
subset) equal the model's own ``feature_matrix`` bit for bit, and so do the
scores; on real Moses n-best lists, odd inputs and random sentences over a
small vocabulary of content words, function words, punctuation and WordNet
synonyms; and ORANGE through the engine equals the per-pair ORANGE.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring import MetricError, get_metric
from scoring.batch.engine import supports, token_view
from scoring.batch.grid import grid_from_texts
from scoring.batch.kernels_word_distance import (
    word_edit_distance,
    word_edit_distances,
)
from scoring.batch.red_family import RedFamily
from scoring.batch.subsets import ALL_REFERENCES, jackknife_masks
from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR, wordnet_available
from scoring.metrics.red.edit_distance import edit_distances
from scoring.metrics.red.metric import RED
from scoring.orange.dispatch import on_engine, orange_for_metric
from scoring.orange.options import OrangeOptions
from tests.scoring.support.batch_cases import (
    engine_scores,
    jackknife_and_all,
    per_pair_scores,
    subsets_of,
)

# Whether the files are there, not the loaded tables: loading WordNet takes
# seconds, and every test process collects this module.
HAVE_WORDNET = wordnet_available(DEFAULT_WORDNET_DIR)
SPECS = (
    "red",
    pytest.param(
        "red:features=semantic",
        marks=pytest.mark.skipif(
            not HAVE_WORDNET, reason="WordNet files (wordnet-base) not installed"
        ),
    ),
)
LONG = " ".join(f"w{i % 37}" for i in range(150))
LONGER = " ".join(f"w{(i * 7) % 41}" for i in range(140))
ODD_GROUPS = [
    # (hypotheses, references): empty texts, single tokens, repeats, swaps,
    # punctuation only, Unicode, long sentences, synonyms.
    (
        ["", "a", "the", "the cat sat on the mat", "cat the sat mat on the"],
        ["the cat sat on the mat", "", "a cat", "the"],
    ),
    (
        ["we begin the work .", "start start start", ", . !", "house the house"],
        ["we start the job .", "we begin work", "the house , the home", "begin"],
    ),
    (
        ["我们 今天 去 公园", "Café au lait", "cafe\u0301 au lait", "10\u00a0000 km"],
        ["我们 明天 去 公园", "café au lait", "10 000 km", "ÉTÉ été"],
    ),
    ([LONG, LONGER, LONG[:100], "w1 w2 w3"], [LONGER, LONG, LONG[50:], LONG[:200]]),
]


def own_features(metric, hypotheses, references, masks):
    """The model's ``feature_matrix`` per group and subset: ``(H, S, F)``."""
    model = metric.trained_model
    rows = []
    for group, refs in zip(hypotheses, references):
        columns = [
            model.feature_matrix(
                list(group),
                [[refs[k] for k in subsets_of(mask, len(refs))]] * len(group),
                metric.wordnet,
            )
            for mask in masks.tolist()
        ]
        rows.append(np.stack(columns, axis=1))
    return np.concatenate(rows)


def engine_features(metric, hypotheses, references, masks):
    grid = grid_from_texts(hypotheses, references, RedFamily.token_view(metric))
    return RedFamily([metric]).features(metric, grid, masks)


def assert_same(spec, hypotheses, references, masks):
    metric = get_metric(spec)
    ours = engine_features(metric, hypotheses, references, masks)
    assert np.array_equal(ours, own_features(metric, hypotheses, references, masks))
    scores = engine_scores(metric, hypotheses, references, masks)
    expected = per_pair_scores(metric, hypotheses, references, masks)
    assert np.array_equal(scores, expected), np.abs(scores - expected).max()


def test_the_engine_computes_red_with_the_models_tokenizer():
    metric = get_metric("red")
    assert supports(metric) and on_engine(metric)
    assert not on_engine(metric, per_pair=True)
    assert token_view(metric) == RedFamily.token_view(metric)
    assert token_view(metric)("The Cat.") == metric.trained_model.tokens("The Cat.")


@pytest.mark.parametrize("spec", SPECS)
def test_candidates_and_references_match_the_per_pair_code_on_regression_run1(
    spec, regression
):
    data = regression.first(60)
    assert_same(spec, data.candidates, data.references, jackknife_and_all(3))
    # References as hypotheses, each against the others (the oracle).
    assert_same(spec, data.references, data.references, jackknife_masks(3))


@pytest.mark.parametrize("spec", SPECS)
def test_they_match_on_the_mert_example_with_its_xxx_tokens(spec, mert):
    data = mert.first(40)
    assert_same(spec, data.candidates, data.references, jackknife_and_all(3))


@pytest.mark.parametrize("spec", SPECS)
def test_odd_inputs_get_the_per_pair_features_for_every_subset(spec):
    hypotheses = [group[0] for group in ODD_GROUPS]
    references = [group[1] for group in ODD_GROUPS]
    assert_same(spec, hypotheses, references, jackknife_masks(4, all_references=True))


@pytest.mark.parametrize("spec", SPECS)
def test_one_reference_and_different_reference_counts_per_sentence(spec):
    # With one reference every reference word is a keyword.
    hypotheses = [["a house", "the home"], ["we begin work", ""], ["start"]]
    references = [["the house"], ["we start", "begin the job", "job", "work"]]
    references.append(["start now", "now start"])
    masks = np.array([ALL_REFERENCES, 0b1101, 0b0101, 0b0001, 0b0011], dtype=np.int64)
    assert_same(spec, hypotheses, references, masks)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("spec", SPECS)
def test_random_sentences_over_a_small_vocabulary(spec, seed):
    rng = random.Random(seed)
    words = "the a of we begin start work job house home . , big large run".split()

    def sentence(length):
        return " ".join(rng.choice(words) for _ in range(length))

    references = [
        [sentence(rng.randint(0, 10)) for _ in range(rng.randint(1, 4))]
        for _ in range(40)
    ]
    hypotheses = [[sentence(rng.randint(0, 10)) for _ in range(4)] for _ in references]
    masks = np.array([ALL_REFERENCES, 0b1101, 0b0101, 0b0001, 0b1011], dtype=np.int64)
    assert_same(spec, hypotheses, references, masks)


def test_semantic_features_without_wordnet_fail_like_the_per_pair_code(tmp_path):
    metric = RED(features="semantic", wordnet=str(tmp_path))
    with pytest.raises(MetricError) as per_pair:
        metric.segment_statistics(["a b"], [["a b"]])
    grid = grid_from_texts([["a b"]], [["a b", "b a"]], RedFamily.token_view(metric))
    with pytest.raises(MetricError) as engine:
        RedFamily([metric]).scores(grid, jackknife_masks(2))
    assert str(engine.value) == str(per_pair.value)


@pytest.mark.parametrize("all_references", [False, True], ids=["jackknife", "all-refs"])
@pytest.mark.parametrize("spec", SPECS)
def test_orange_through_the_engine_equals_the_per_pair_orange(
    spec, all_references, regression
):
    options = OrangeOptions(
        all_references=all_references, curve_step=50, n_bootstrap=100
    )
    data = regression.first(100)
    metric = get_metric(spec)
    args = (metric, spec, data.candidates, data.references, options)
    batch = orange_for_metric(*args, sentence_ids=data.sentence_ids)
    per_pair = orange_for_metric(*args, sentence_ids=data.sentence_ids, per_pair=True)
    assert batch.to_dict() == per_pair.to_dict()


@pytest.mark.parametrize("swap", [False, True], ids=["levenshtein", "swap"])
def test_the_compiled_distances_equal_the_numpy_ones(swap):
    # Bit-parallel up to 64 reference tokens, the plain programme beyond.
    rng = np.random.default_rng(7)
    firsts, seconds = [], []
    for _ in range(400):
        alphabet = int(rng.integers(1, 6))
        firsts.append(rng.integers(0, alphabet, int(rng.integers(0, 80))))
        seconds.append(rng.integers(0, alphabet, int(rng.integers(0, 80))))
    expected = edit_distances(firsts, seconds, swap=swap)
    local = np.arange(6, dtype=np.int32)
    rows = [np.empty(81, dtype=np.int64) for _ in range(3)]
    for first, second, distance in zip(firsts, seconds, expected):
        masks = np.zeros(6, dtype=np.uint64)
        for i, token in enumerate(second[:64].tolist()):
            masks[token] |= np.uint64(1) << np.uint64(i)
        ours = word_edit_distance(
            first.astype(np.int32),
            len(first),
            second.astype(np.int32),
            len(second),
            swap,
            masks,
            local,
            *rows,
        )
        assert ours == distance, (first, second)
        both = word_edit_distances(
            first.astype(np.int32),
            len(first),
            second.astype(np.int32),
            len(second),
            masks,
            local,
            *rows,
        )
        assert both[1 if swap else 0] == distance, (first, second)
