"""Ranking a chunk of equally shaped sentences as one block
(:mod:`scoring.orange.ranking_blocks`) gives exactly the per-sentence path's
rankings, and ORANGE through it equals the per-pair ORANGE."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scoring import get_metric
from scoring.orange.batched import _candidate_scores
from scoring.orange.dispatch import orange_for_metric
from scoring.orange.options import OrangeOptions
from scoring.orange.ranking import curve_points, rank_sentences
from scoring.orange.ranking_blocks import (
    block_candidate_scores,
    block_oracle_scores,
    rank_sentence_block,
    uniform_shape,
)
from tests.scoring.support.batch_cases import REGRESSION_RUN, regression_run


def _assert_same(ours, expected):
    for field in dataclasses.fields(expected):
        mine, theirs = getattr(ours, field.name), getattr(expected, field.name)
        if isinstance(theirs, np.ndarray):
            assert mine.dtype == theirs.dtype, field.name
            assert np.array_equal(mine, theirs), field.name
        else:
            assert mine == theirs, field.name


def _per_sentence(subset_scores, reference_scores, n_sentences, n, k, all_refs):
    """The per-sentence path of ``rank_sentence_range``."""
    scores, oracles = [], []
    for i in range(n_sentences):
        scores.append(
            _candidate_scores(subset_scores[i * n : (i + 1) * n], k, all_refs)
        )
        oracles.append(
            float(np.mean([reference_scores[i * k + j, j] for j in range(k)]))
        )
    return scores, oracles


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("all_references", [False, True])
def test_block_equals_the_per_sentence_path(higher_is_better, all_references):
    rng = np.random.default_rng(7)
    n_sentences, n, k = 9, 37, 4
    # Few distinct values, so ties with the oracle and between candidates.
    subset_scores = rng.integers(0, 5, size=(n_sentences * n, k + 1)) / 7
    reference_scores = rng.random((n_sentences * k, k))
    reference_scores[:k] = 2 / 7  # an oracle tied with candidates
    curve_n = curve_points(n, 8)
    ids = list(range(100, 100 + n_sentences))
    scores, oracles = _per_sentence(
        subset_scores, reference_scores, n_sentences, n, k, all_references
    )
    expected = rank_sentences(
        scores,
        oracles,
        higher_is_better=higher_is_better,
        curve_n=curve_n,
        sentence_ids=ids,
    )
    block = block_candidate_scores(subset_scores, n_sentences, k, all_references)
    assert np.array_equal(block, np.stack(scores))
    ours = rank_sentence_block(
        block,
        block_oracle_scores(reference_scores, n_sentences, k),
        higher_is_better=higher_is_better,
        curve_n=curve_n,
        sentence_ids=ids,
    )
    _assert_same(ours, expected)
    assert expected.tied.sum() > 0 and expected.better.sum() > 0


def test_uniform_shape():
    assert uniform_shape(np.array([5, 5]), np.array([3, 3])) == (5, 3)
    assert uniform_shape(np.array([5, 4]), np.array([3, 3])) is None
    assert uniform_shape(np.array([5, 5]), np.array([3, 2])) is None
    assert uniform_shape(np.array([], dtype=np.int64), np.array([])) is None


@pytest.mark.parametrize("spec", ["bleus:n=4", "rouge-w:w=1.2", "wer"])
def test_orange_of_equal_and_ragged_lists_equals_the_per_pair_orange(spec):
    if not REGRESSION_RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {REGRESSION_RUN}")
    data = regression_run().first(60)
    ragged = tuple(c[: 60 - 7 * i] for i, c in enumerate(data.candidates))
    options = OrangeOptions(curve_step=16, n_bootstrap=50)
    metric = get_metric(spec)
    for candidates in (data.candidates, ragged):
        args = (metric, spec, candidates, data.references, options)
        batch = orange_for_metric(*args, sentence_ids=data.sentence_ids)
        per_pair = orange_for_metric(
            *args, sentence_ids=data.sentence_ids, per_pair=True
        )
        assert batch.to_dict() == per_pair.to_dict()
