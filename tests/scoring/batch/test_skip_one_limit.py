"""ROUGE-S with one finite skip limit: the branch-free path of
:func:`scoring.batch.kernels_skip.skip_bigram_hits` (up to four references)
gives the clipped skip-bigram counts of the definition (``Counter`` of the
pairs with gap <= d on each side, intersected) and of its general path
(gap histograms).

Asking for two limits at once takes the general path; its column for the
limit must equal the one-limit call, for groups of one to six references
(five and six take the general path either way), grids whose widest group
has fewer than four references, and limits from 0 to 9.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from scoring.batch.grid import grid_from_texts
from scoring.batch.kernels_skip import skip_bigram_hits


def _random_groups(seed: int, refs_per_group: list[int]):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(int(rng.integers(3, 30)))]

    def sentence() -> str:
        return " ".join(rng.choice(words, int(rng.integers(0, 45))))

    hypotheses = [
        [sentence() for _ in range(int(rng.integers(1, 40)))] for _ in refs_per_group
    ]
    references = [[sentence() for _ in range(k)] for k in refs_per_group]
    return hypotheses, references


def _skip_bigrams(words: list[str], limit: int) -> Counter:
    return Counter(
        (words[i], words[j])
        for i in range(len(words))
        for j in range(i + 1, min(len(words), i + limit + 2))
    )


def _defined(hypotheses, references, limit) -> list[list[int]]:
    return [
        [
            sum(
                (
                    _skip_bigrams(h.split(), limit) & _skip_bigrams(r.split(), limit)
                ).values()
            )
            for r in refs
        ]
        for group, refs in zip(hypotheses, references)
        for h in group
    ]


def _hits(hypotheses, references, limits):
    grid = grid_from_texts(hypotheses, references, str.split)
    return skip_bigram_hits(
        grid.hyp_tokens, grid.hyp_offsets, grid.ref_tokens, grid.ref_offsets,
        grid.group_hyps, grid.group_refs, grid.vocabulary_size,
        np.asarray(limits, dtype=np.int64),
    )  # fmt: skip


@pytest.mark.parametrize("limit", [0, 1, 4, 9])
@pytest.mark.parametrize(
    "refs_per_group", [[1], [2, 1], [4, 3, 4], [1, 6, 2, 5], [3, 3]]
)
def test_one_limit_equals_the_general_path(limit, refs_per_group):
    for seed in range(3):
        hypotheses, references = _random_groups(seed, refs_per_group)
        alone = _hits(hypotheses, references, [limit])[:, :, 0]
        for row, expected in zip(alone, _defined(hypotheses, references, limit)):
            assert row[: len(expected)].tolist() == expected
        other = limit + 1
        general = _hits(hypotheses, references, sorted([limit, other]))
        column = 0 if limit < other else 1
        assert np.array_equal(alone, general[:, :, column])
        assert alone.sum() > 0 or limit == 0
