"""The BLEU paper's block test (Papineni et al. 2002, Table 2)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from scoring import get_metric
from scoring.stats.blocks import block_scores, block_starts, block_t_test
from scoring.stats.report import comparison_report
from scoring.stats.significance import compare_systems
from tests.scoring.support.realdata import WMT21_DIR, load_test_set
from tests.scoring.support.stats_data import bleu_statistics, require

# Table 2 of the paper: 20 blocks of 25 sentences.
SYSTEMS = ("S1", "S2", "S3", "H1", "H2")
MEANS = (0.051, 0.081, 0.090, 0.192, 0.256)
STD_DEVS = (0.017, 0.025, 0.020, 0.030, 0.039)
T_VALUES = (6.0, 3.4, 24.0, 11.0)  # each system against its left neighbour
N_BLOCKS = 20


def table_2_blocks() -> np.ndarray:
    """Block scores with exactly Table 2's means, st. devs and t-statistics.

    System k's blocks are m_k + s_k z_k with z_k of mean 0 and sample sd 1;
    sd(d)^2 = s_k^2 + s_{k-1}^2 - 2 s_k s_{k-1} rho must equal
    (delta_m sqrt(B) / t)^2, which fixes rho = corr(z_k, z_{k-1}); the z_k
    are chained from an orthonormal basis orthogonal to the constant vector.
    """
    rng = np.random.default_rng(0)
    basis, _ = np.linalg.qr(
        np.column_stack([np.ones(N_BLOCKS), rng.normal(size=(N_BLOCKS, 5))])
    )
    units = basis[:, 1:].T * math.sqrt(N_BLOCKS - 1)  # mean 0, sample sd 1, orthogonal
    z = [units[0]]
    for k in range(1, len(SYSTEMS)):
        spread = (MEANS[k] - MEANS[k - 1]) * math.sqrt(N_BLOCKS) / T_VALUES[k - 1]
        s, s_left = STD_DEVS[k], STD_DEVS[k - 1]
        rho = (s**2 + s_left**2 - spread**2) / (2 * s * s_left)
        z.append(rho * z[-1] + math.sqrt(1 - rho**2) * units[k])
    return np.array([m + s * zk for m, s, zk in zip(MEANS, STD_DEVS, z)])


def test_it_reproduces_table_2_of_the_bleu_paper_from_blocks_with_its_figures() -> None:
    test = block_t_test(table_2_blocks(), SYSTEMS)
    assert test.n_blocks == 20
    assert np.allclose(test.means, MEANS, atol=1e-12)
    assert np.allclose(test.std, STD_DEVS, atol=1e-12)
    assert np.isnan(test.t[0]) and np.allclose(test.t[1:], T_VALUES, atol=1e-9)
    # "A paired t-statistic of 1.7 or above is 95 % significant": all are.
    assert np.all(test.p_values[1:] < 0.05)


def test_the_worked_example_of_the_module_docstring() -> None:
    test = block_t_test(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 3.0]]), ["a", "b"])
    assert test.t[1] == pytest.approx(math.sqrt(3), abs=1e-12)
    assert test.std.tolist() == [1.0, 1.0]


def test_the_t_statistics_and_p_values_agree_with_scipy() -> None:
    rng = np.random.default_rng(1)
    scores = rng.normal(30, 3, size=(4, 20)) + np.array([[0], [1], [1.2], [0.5]])
    test = block_t_test(scores, ["a", "b", "c", "d"])
    for i in range(1, 4):
        reference = stats.ttest_rel(scores[i], scores[i - 1])
        assert test.t[i] == pytest.approx(reference.statistic, abs=1e-12)
        assert test.p_values[i] == pytest.approx(reference.pvalue / 2, abs=1e-10)


def test_identical_neighbours_give_no_t_and_constant_gaps_an_infinite_one() -> None:
    scores = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]])
    test = block_t_test(scores, ["a", "b", "c"])
    assert np.isnan(test.t[1]) and test.t[2] == math.inf and test.p_values[2] == 0.0


def test_blocks_are_consecutive_and_the_first_ones_take_the_remainder() -> None:
    starts = block_starts(1002, 20)
    assert starts[:4].tolist() == [0, 51, 102, 152]
    assert np.diff(np.r_[starts, 1002]).tolist() == [51, 51] + [50] * 18
    with pytest.raises(ValueError, match="cannot cut 19"):
        block_starts(19, 20)
    with pytest.raises(ValueError, match="at least 2"):
        block_starts(100, 1)


def test_block_bleu_is_sacrebleus_corpus_bleu_of_each_block(sacrebleu) -> None:
    require(WMT21_DIR / "en-de")
    test_set = load_test_set("en-de", "A")
    statistics = bleu_statistics("en-de", "A", "Facebook-AI")[None]  # (1, n, k)
    ours = block_scores(get_metric("bleu").corpus_scores_from_statistics, statistics)[0]
    hypotheses = test_set.system("Facebook-AI")
    bounds = np.r_[block_starts(len(hypotheses)), len(hypotheses)]
    for block, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:])):
        expected = sacrebleu.corpus_bleu(
            list(hypotheses[start:stop]), [list(test_set.references[0][start:stop])]
        ).score
        assert ours[block] == pytest.approx(expected, abs=1e-9)


def test_the_block_test_joins_the_comparison_report() -> None:
    statistics = np.random.default_rng(2).integers(1, 20, size=(2, 40, 2))
    statistics[..., 1] += 20

    class Ratio:
        name, higher_is_better = "ratio", True

        @staticmethod
        def corpus_scores_from_statistics(summed: np.ndarray) -> np.ndarray:
            return summed[..., 0] / summed[..., 1]

    comparison = compare_systems(
        Ratio(), ["a", "b"], list(statistics), n_samples=50, n_trials=50
    )  # type: ignore[arg-type]
    blocks = block_t_test(
        block_scores(Ratio.corpus_scores_from_statistics, statistics), ["a", "b"]
    )
    text = comparison_report(comparison, blocks)
    assert "20 blocks, paired t against the system to the left:" in text
    assert "std dev" in text and "p (one-sided)" in text
    assert blocks.to_dict()["systems"][1]["t"] == pytest.approx(blocks.t[1], rel=1e-12)
