"""The all-weights weighted-LCS kernel equals the per-pair WLCS bit for bit.

:func:`scoring.batch.kernels_wlcs.wlcs_grid_all_weights` walks each table
once for the ten ROUGE-W weights; every value must be exactly
:func:`scoring.metrics.rouge.lcs.wlcs_table`'s c(m, n) (same operations in
the same order, so equality, not a tolerance) and the one-weight-at-a-time
kernel's. Checked on the real Moses n-best lists (candidates and references
as hypotheses) and on edge cases: empty sides, one token, repeated tokens,
Unicode, groups not a multiple of the 8 or 16 lanes, sentences over 64 tokens.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.batch.exact_math import python_powers
from scoring.batch.grid import grid_from_texts
from scoring.batch.kernels_lcs import wlcs_grid
from scoring.batch.kernels_wlcs import wlcs_grid_all_weights
from scoring.metrics.rouge.lcs import wlcs_table
from tests.scoring.support.batch_cases import (
    MERT_EXAMPLE,
    REGRESSION_RUN,
    mert_example,
    regression_run,
)

WEIGHTS = tuple(w / 10 for w in range(11, 21))  # the paper's ROUGE-W-1.1..2.0

EDGE_GROUPS = [
    (
        ["", "a", "a a a a", "a b a b a b", "the cat sat on the mat", "mat the on"],
        ["the cat sat on the mat", "", "a", "a a b b a a"],
    ),
    (
        [f"w{i % 3} w{i % 5} w{i % 2} w{i}" for i in range(13)],  # 13: not 8k
        ["w0 w1 w0 w2 w1", "w3 w3 w3", "w0"],
    ),
    (
        ["我们 今天 去 公园", "مرحبا بالعالم", "café au lait café", "x"],
        ["我们 明天 去 公园", "مرحبا بالعالم الجميل", "café au lait"],
    ),
    (
        [
            " ".join(f"t{i % 37}" for i in range(150)),
            " ".join(f"t{(i * 7) % 41}" for i in range(90)),
            "t1 t2 t3",
        ],
        [
            " ".join(f"t{(i * 3) % 37}" for i in range(140)),
            " ".join(f"t{i % 11}" for i in range(70)),
        ],
    ),
]


def _grid_args(hypotheses, references):
    grid = grid_from_texts(hypotheses, references, str.split)
    args = (
        grid.hyp_tokens,
        grid.hyp_offsets,
        grid.ref_tokens,
        grid.ref_offsets,
        grid.group_hyps,
        grid.group_refs,
        grid.vocabulary_size,
    )
    longest = int(max(grid.hyp_lengths.max(initial=0), grid.ref_lengths.max(initial=0)))
    powers = np.stack([python_powers(longest + 2, w) for w in WEIGHTS])
    return args, powers


def _per_pair(hypotheses, references) -> np.ndarray:
    """``(H, K, W)`` by the metric's own WLCS, zero where a group has fewer
    references than the widest."""
    widest = max(len(refs) for refs in references)
    rows = []
    for group, refs in zip(hypotheses, references):
        for hypothesis in group:
            row = np.zeros((widest, len(WEIGHTS)))
            for k, reference in enumerate(refs):
                for w, weight in enumerate(WEIGHTS):
                    row[k, w] = wlcs_table(
                        reference.split(), hypothesis.split(), weight
                    )[0]
            rows.append(row)
    return np.stack(rows)


def _assert_exact(hypotheses, references):
    args, powers = _grid_args(hypotheses, references)
    ours = wlcs_grid_all_weights(*args, powers)
    assert np.array_equal(ours, wlcs_grid(*args, powers, False))
    assert np.array_equal(ours, _per_pair(hypotheses, references))


@pytest.mark.parametrize("index", range(len(EDGE_GROUPS)))
def test_edge_cases_equal_the_per_pair_wlcs(index):
    hypotheses, references = EDGE_GROUPS[index]
    _assert_exact([hypotheses], [references])


def test_several_groups_in_one_grid():
    _assert_exact([h for h, _ in EDGE_GROUPS], [r for _, r in EDGE_GROUPS])


def test_one_weight_alone():
    hypotheses, references = EDGE_GROUPS[0]
    args, powers = _grid_args([hypotheses], [references])
    alone = wlcs_grid_all_weights(*args, powers[3:4])
    assert np.array_equal(alone[:, :, 0], wlcs_grid_all_weights(*args, powers)[:, :, 3])


@pytest.mark.parametrize("which", ["regression", "mert"])
def test_real_moses_nbest_lists_equal_the_per_pair_wlcs(which):
    path = REGRESSION_RUN if which == "regression" else MERT_EXAMPLE
    if not path.exists():
        pytest.skip(f"real Moses n-best data not found at {path}")
    data = regression_run() if which == "regression" else mert_example()
    candidates = [group[:60] for group in data.candidates]
    _assert_exact(candidates, data.references)
    # The references as hypotheses, as ORANGE's oracle scores them.
    _assert_exact(data.references, data.references)
