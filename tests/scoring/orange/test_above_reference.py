"""The candidates ranked above the references, held as arrays.

A corpus whose candidates are close to the references ranks millions of
candidates above them; they used to be a Python tuple per candidate in the
rankings and a dict per candidate in the result (about 1.5 GB on 872 x
1024-best x 34 metrics). The JSON made from the arrays must be the one the
dicts gave.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from scoring.orange.above_reference import AboveReference, AboveReferenceItems
from scoring.orange.ranking import (
    curve_points,
    merge_rankings,
    rank_sentences,
    summarise,
)
from scoring.orange.ranking_blocks import rank_sentence_block
from scoring.orange.report_json import metric_entry


def _tied_scores(rng: np.random.Generator, shape) -> np.ndarray:
    """Scores on a coarse grid, so many candidates tie with each other."""
    return rng.integers(0, 12, size=shape) / 11.0


@pytest.mark.parametrize("higher_is_better", [True, False])
def test_the_json_from_the_arrays_is_the_json_from_the_dicts(higher_is_better):
    rng = np.random.default_rng(5)
    scores = _tied_scores(rng, (30, 40))
    oracles = _tied_scores(rng, 30) + 0.03
    oracles[3] = 2.0 if higher_is_better else -1.0  # nothing above it
    rankings = rank_sentence_block(
        scores,
        oracles,
        higher_is_better=higher_is_better,
        curve_n=curve_points(40, 8),
        sentence_ids=list(range(100, 130)),
    )
    result = summarise(rankings, metric="m", n_bootstrap=20, seed=1)
    assert isinstance(result.above_reference, AboveReferenceItems)
    # The same result with the dicts a stored job reads back.
    as_dicts = type(result)(
        **{
            **{key: getattr(result, key) for key in result.__dataclass_fields__},
            "above_reference": tuple(result.above_reference),
        }
    )
    assert as_dicts == result
    assert result.above_reference[3]["candidates"] == []
    for limit in (0, 1, 3, 10, "all", "none"):
        assert metric_entry(result, limit) == metric_entry(as_dicts, limit)


def test_the_rankings_read_as_tuples_of_pairs_per_sentence():
    pairs = (((0, 0.5), (3, 0.25)), (), ((1, 1.0),))
    above = AboveReference.from_pairs(pairs)
    assert above == pairs
    assert tuple(above) == pairs
    assert len(above) == 3 and above[-1] == ((1, 1.0),)
    assert above.counts.tolist() == [2, 0, 1]
    joined = AboveReference.concatenate([above, AboveReference.from_pairs([()])])
    assert joined == pairs + ((),)
    with pytest.raises(IndexError):
        above[3]


def test_the_block_and_per_sentence_paths_list_the_same_candidates():
    rng = np.random.default_rng(9)
    scores = _tied_scores(rng, (12, 25))
    oracles = _tied_scores(rng, 12)
    curve_n = curve_points(25, 5)
    block = rank_sentence_block(
        scores, oracles, higher_is_better=True, curve_n=curve_n, sentence_ids=range(12)
    )
    one_by_one = merge_rankings(
        [
            rank_sentences(
                list(scores[start : start + 4]),
                oracles[start : start + 4],
                higher_is_better=True,
                curve_n=curve_n,
                sentence_ids=range(start, start + 4),
            )
            for start in (0, 4, 8)
        ]
    )
    assert block.above_reference == one_by_one.above_reference
    assert block.above_reference == tuple(
        tuple((int(j), float(scores[i, j])) for j in np.flatnonzero(row > oracles[i]))
        for i, row in enumerate(scores)
    )


def test_a_result_with_many_candidates_above_holds_no_object_per_candidate():
    # 300 x 1024 candidates, all above the oracle: 307,200 listed.
    scores = np.linspace(0.5, 1.0, 300 * 1024).reshape(300, 1024)
    oracles = np.zeros(300)
    tracemalloc.start()
    try:
        rankings = rank_sentence_block(
            scores,
            oracles,
            higher_is_better=True,
            curve_n=curve_points(1024, 64),
            sentence_ids=range(300),
        )
        result = summarise(rankings, metric="m", n_bootstrap=10, seed=1)
        entry, listed = metric_entry(result, 10)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert entry["n_candidates_above"] == 300 * 1024
    assert len(listed) == 3000
    assert entry["above_reference"][0]["candidates"][0] == [1023, scores[0, 1023]]
    # Arrays: about 5 MB (scores, masks, 16 bytes a candidate listed); a
    # tuple and a dict per candidate took over 100 MB.
    assert peak < 30 * 2**20
