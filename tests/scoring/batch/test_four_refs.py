"""LCS, word edit distance and bag-of-words matches with four references
per walk equal the plain definitions.

:func:`scoring.batch.kernels_lcs.lcs_grid` and
:func:`scoring.batch.kernels_edit.levenshtein_grid` take the four-at-a-time
walk (:mod:`scoring.batch.kernels_four_refs`) for groups whose references
all have at most 64 words, and their older paths otherwise. Both are
checked against textbook O(nm) tables on random groups: one to nine
references (chunks of four, a partial last chunk), empty sides, words no
reference has, references of exactly 64 words and of 65 (the other path).
:func:`scoring.batch.kernels_edit.bag_matches_grid` (PER, ROUGE-1) takes
the four-at-a-time walk for every group; it is checked against counters,
with and without each side's last word (ROUGE-1.5.5's ROUGE-SU unigrams).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from scoring.batch.grid import grid_from_texts
from scoring.batch.kernels_edit import bag_matches_grid, levenshtein_grid
from scoring.batch.kernels_lcs import lcs_grid


def _lcs_table(a: list[str], b: list[str]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b, 1):
            above = row[j]
            row[j] = diagonal + 1 if x == y else max(above, row[j - 1])
            diagonal = above
    return row[-1]


def _edit_table(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            above = row[j]
            row[j] = min(above + 1, row[j - 1] + 1, diagonal + (x != y))
            diagonal = above
    return row[-1]


def _shared(a: list[str], b: list[str]) -> int:
    return sum((Counter(a) & Counter(b)).values())


def _groups(seed: int, refs_per_group: list[int], longest: int):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(int(rng.integers(2, 25)))]

    def sentence(most: int) -> str:
        return " ".join(rng.choice(words, int(rng.integers(0, most + 1))))

    references = [[sentence(longest) for _ in range(k)] for k in refs_per_group]
    hypotheses = [
        [sentence(40) for _ in range(int(rng.integers(1, 12)))] + ["", "zz yy"]
        for _ in refs_per_group
    ]
    return hypotheses, references


def _check(hypotheses, references):
    grid = grid_from_texts(hypotheses, references, str.split)
    args = (
        grid.hyp_tokens, grid.hyp_offsets, grid.ref_tokens, grid.ref_offsets,
        grid.group_hyps, grid.group_refs, grid.vocabulary_size,
    )  # fmt: skip
    lcs, edits = lcs_grid(*args), levenshtein_grid(*args)
    bags = {drop: bag_matches_grid(*args, drop) for drop in (False, True)}
    h = 0
    for group, refs in zip(hypotheses, references):
        for hypothesis in group:
            for k, reference in enumerate(refs):
                a, b = hypothesis.split(), reference.split()
                assert lcs[h, k] == _lcs_table(a, b), (hypothesis, reference)
                assert edits[h, k] == _edit_table(a, b), (hypothesis, reference)
                assert bags[False][h, k] == _shared(a, b)
                assert bags[True][h, k] == _shared(a[:-1], b[:-1])
            h += 1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("refs_per_group", [[1], [4], [3, 5], [9, 2, 4], [6]])
def test_random_groups_equal_the_tables(seed, refs_per_group):
    _check(*_groups(seed, refs_per_group, longest=50))


def test_references_of_64_and_65_words():
    long_64 = " ".join(f"t{i % 7}" for i in range(64))
    long_65 = " ".join(f"t{i % 5}" for i in range(65))
    hypotheses = [
        [long_64, long_65, "t1 t2 t3 t4", ""],
        [long_64[:50], "t0 " * 30, "x"],
    ]
    references = [[long_64, "t3 t1", "", "t6 t5 t4"], [long_65, long_64, "t0"]]
    _check(hypotheses, references)
