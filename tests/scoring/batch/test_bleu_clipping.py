"""BLEU's clipped matches against reference subsets equal Counter arithmetic.

:func:`scoring.batch.kernels_ngram.clipped_subset_matches` counts an
n-gram's c-th occurrence as a match in subset s while c <= its largest
count in one reference of s, finding trie children in a dense table, or by
walking siblings when that table would pass 2**22 entries (long
references). Both paths are checked against ``collections.Counter``: the
clipped count is sum over n-grams of min(hypothesis count, max over the
subset's references).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from scoring.batch.grid import grid_from_texts
from scoring.batch.kernels_ngram import clipped_subset_matches
from scoring.batch.subsets import jackknife_masks


def _ngrams(words: list[str], n: int) -> Counter:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def _expected(hypothesis: str, references: list[str], mask: int, order: int) -> int:
    limit: Counter = Counter()
    for k, reference in enumerate(references):
        if (mask >> k) & 1:
            limit |= _ngrams(reference.split(), order)
    return sum((_ngrams(hypothesis.split(), order) & limit).values())


def _check(hypotheses, references, max_order=4):
    grid = grid_from_texts(hypotheses, references, str.split)
    widest = max(len(refs) for refs in references)
    masks = jackknife_masks(widest, True)
    got = clipped_subset_matches(
        grid.hyp_tokens, grid.hyp_offsets, grid.ref_tokens, grid.ref_offsets,
        grid.group_hyps, grid.group_refs, grid.vocabulary_size, max_order, masks,
    )  # fmt: skip
    h = 0
    for group, refs in zip(hypotheses, references):
        for hypothesis in group:
            for s, mask in enumerate(masks.tolist()):
                for order in range(1, max_order + 1):
                    want = _expected(hypothesis, refs, mask, order)
                    assert got[h, s, order - 1] == want, (hypothesis, mask, order)
            h += 1


@pytest.mark.parametrize("seed", range(5))
def test_random_groups_equal_counters(seed):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(int(rng.integers(2, 12)))]

    def sentence() -> str:
        return " ".join(rng.choice(words, int(rng.integers(0, 30))))

    references = [[sentence() for _ in range(4)] for _ in range(3)]
    hypotheses = [[sentence() for _ in range(15)] + [""] for _ in range(3)]
    _check(hypotheses, references)


def test_long_references_walk_the_siblings():
    # 2,500 distinct words: the dense table would need about 25 million
    # entries, past the limit, so children are found by the sibling walk.
    reference = " ".join(f"v{i}" for i in range(2500))
    repeated = " ".join(f"v{i % 40}" for i in range(300))
    hypotheses = [["v1 v2 v3 v4 v9 v1 v2 v3", repeated, "v2499 v0 x", ""]]
    _check(hypotheses, [[reference, repeated]])
