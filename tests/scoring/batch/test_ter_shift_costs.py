"""The compiled shift search costs a candidate shift without writing the shifted
hypothesis out (:func:`scoring.batch.kernels_ter_shifts._shifted_distance`):
resumed from the current hypothesis's column where the shifted one starts to
differ, over the block and the words it passes, then the current tail, which
it stops at once a column equals the current hypothesis's there.

Every shift of random hypotheses (every block, every destination, to the front,
inside the block, past the end) must cost exactly the edit distance of the
shifted words, as :func:`scoring.metrics.ter.shifts.perform_shift` moves them.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring.batch.kernels_ter import _align, scratch
from scoring.batch.kernels_ter_shifts import _shifted_distance, perform_shift
from scoring.metrics.ter.shifts import perform_shift as reference_shift


def levenshtein(hyp, ref) -> int:
    previous = list(range(len(ref) + 1))
    for j, word in enumerate(hyp, 1):
        current = [j]
        for i, other in enumerate(ref, 1):
            current.append(
                min(
                    previous[i] + 1,
                    current[i - 1] + 1,
                    previous[i - 1] + (word != other),
                )
            )
        previous = current
    return previous[-1]


def shift_costs(hyp: list[int], ref: list[int], vocabulary: int):
    """(shifted words, compiled cost) of every shift of ``hyp``: the block
    ``hyp[start..end]`` of up to 4 words after ``hyp[destination]``."""
    n, m = len(hyp), len(ref)
    cur = np.array(hyp, dtype=np.int32)
    ref_array = np.array(ref, dtype=np.int32)
    masks = np.zeros((1, vocabulary), dtype=np.uint64)
    for i, word in enumerate(ref):
        masks[0, word] |= np.uint64(1) << np.uint64(i)
    work = scratch(n, m, vocabulary)
    # A beam wider than any distance: the bit-parallel columns, no pruning.
    _align(cur, n, ref_array, m, masks, 0, 0, 10_000, work)
    current = levenshtein(hyp, ref)
    out = np.zeros(n, dtype=np.int32)
    for start in range(n):
        for end in range(start, min(start + 4, n)):
            for destination in range(-1, n):
                if destination == start:
                    continue
                perform_shift(cur, n, start, end, destination, out)
                shifted = reference_shift(tuple(hyp), start, end, destination)
                assert tuple(out.tolist()) == shifted
                exact = levenshtein(shifted, ref)
                for below in (exact, exact + 1, 10_000):
                    cost = _shifted_distance(
                        cur, n, start, end, destination, masks, 0, m, work[8],
                        current, below,
                    )  # fmt: skip
                    # Exact below the bound, else at least the bound.
                    if exact < below:
                        assert cost == exact, (hyp, ref, shifted, below)
                    else:
                        assert below <= cost <= exact, (hyp, ref, shifted, below)
                yield shifted, cost


@pytest.mark.parametrize("seed", range(4))
def test_every_shift_costs_the_edit_distance_of_the_shifted_words(seed):
    rng = random.Random(seed)
    for _ in range(12):
        vocabulary = rng.choice([2, 3, 6, 20])
        n = rng.randint(1, 14)
        ref = [rng.randrange(vocabulary) for _ in range(rng.choice([1, 5, 13, 64]))]
        hyp = [rng.randrange(vocabulary) for _ in range(n)]
        if rng.random() < 0.5:  # mostly the reference, so columns meet again
            hyp = ref[: rng.randint(1, min(len(ref), 14))]
            hyp[rng.randrange(len(hyp))] = rng.randrange(vocabulary)
        if rng.random() < 0.5:  # a word in no reference: local id -1
            hyp[rng.randrange(len(hyp))] = -1
        for shifted, cost in shift_costs(hyp, ref, vocabulary):
            assert cost == levenshtein(shifted, ref), (hyp, ref, shifted)


def test_a_shift_that_changes_nothing_costs_the_current_distance():
    # Moving one of two equal neighbours: the columns meet at once.
    hyp, ref = [1, 1, 2, 0, -1], [0, 1, 1, 2]
    for shifted, cost in shift_costs(hyp, ref, 3):
        assert cost == levenshtein(shifted, ref)
