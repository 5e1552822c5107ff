"""ORANGE on hand-worked examples (Lin & Och 2004, section 2 and eq. 10)."""

import numpy as np
import pytest

from scoring.orange.ranking import (
    curve_points,
    jackknife_mean,
    merge_rankings,
    rank_sentences,
    summarise,
)


def orange_of(candidates, oracles, higher_is_better=True, curve_n=(1,), **kwargs):
    rankings = rank_sentences(
        [np.array(c, dtype=float) for c in candidates],
        oracles,
        higher_is_better=higher_is_better,
        curve_n=np.array(curve_n),
    )
    return rankings, summarise(rankings, metric="m", **kwargs)


def test_a_tie_takes_the_mid_rank_and_a_short_list_its_own_length():
    # Sentence 1: one better (0.9), one tied (0.5) -> rank 1 + 1 + 1/2 = 2.5 of 3 + 1.
    # Sentence 2: nothing better -> rank 1 of a 1-best list (N_2 + 1 = 2).
    rankings, result = orange_of([[0.9, 0.5, 0.2], [0.1]], [0.5, 0.5])
    assert rankings.ranks.tolist() == [2.5, 1.0]
    assert result.avg_rank == 1.75
    assert result.orange == pytest.approx(
        100 * (2.5 / 4 + 1.0 / 2) / 2, rel=1e-12
    )  # 56.25 %
    assert result.n_short == 1
    assert result.max_candidates == 3


def test_lower_is_better_for_error_rates():
    # WER-like: 0.1 beats the oracle 0.3; the two 0.3 tie with it.
    rankings, result = orange_of([[0.1, 0.3, 0.3, 0.9]], [0.3], higher_is_better=False)
    assert rankings.ranks.tolist() == [1 + 1 + 0.5 * 2]
    assert result.orange == pytest.approx(100 * 3 / 5, rel=1e-12)


def test_equal_lists_give_equation_10():
    candidates = [[0.1, 0.2, 0.9, 0.8], [0.7, 0.6, 0.1, 0.0], [0.0, 0.0, 0.0, 0.0]]
    oracles = [0.5, 0.5, 0.5]
    rankings, result = orange_of(candidates, oracles)
    # Ranks 3, 3, 1; eq. 10: sum / (S (N + 1)).
    assert rankings.ranks.tolist() == [3.0, 3.0, 1.0]
    assert result.orange == pytest.approx(100 * 7 / (3 * 5), rel=1e-12)


def test_the_jackknife_averages_over_the_held_out_reference():
    # Candidate scores against refs without r1, r2, r3.
    without = np.array([[0.2, 0.4, 0.6], [0.0, 0.3, 0.3]])
    assert jackknife_mean(without).tolist() == pytest.approx([0.4, 0.2], rel=1e-12)


def test_the_cutoff_curve_uses_the_first_n_candidates():
    rankings, result = orange_of(
        [[0.9, 0.1, 0.8, 0.2], [0.1, 0.9]], [0.5, 0.5], curve_n=(1, 2, 3, 4)
    )
    # Sentence 1, first n = 1..4: better = 1, 1, 2, 2 -> ranks 2, 2, 3, 3 of n + 1.
    # Sentence 2 (2 candidates): better = 0, 1, 1, 1 -> ranks 1, 2, 2, 2 of
    # min(n, 2) + 1 = 2, 3, 3, 3.
    expected = [
        (2 / 2 + 1 / 2) / 2,
        (2 / 3 + 2 / 3) / 2,
        (3 / 4 + 2 / 3) / 2,
        (3 / 5 + 2 / 3) / 2,
    ]
    assert [n for n, _ in result.curve] == [1, 2, 3, 4]
    assert [value for _, value in result.curve] == pytest.approx(
        [100 * e for e in expected], rel=1e-12
    )
    # The last point is ORANGE itself.
    assert result.curve[-1][1] == pytest.approx(result.orange, rel=1e-12)


def test_curve_points_start_at_one_and_end_at_n():
    assert curve_points(200, 64).tolist() == [1, 64, 128, 192, 200]
    assert curve_points(128, 64).tolist() == [1, 64, 128]
    assert curve_points(3, 1).tolist() == [1, 2, 3]


def test_it_lists_the_candidates_ranked_above_the_references():
    _, result = orange_of([[0.9, 0.5, 0.7], [0.1]], [0.6, 0.5])
    first, second = result.above_reference
    assert first["sentence"] == 0
    assert first["candidates"] == [
        {"index": 0, "score": 0.9},
        {"index": 2, "score": 0.7},
    ]
    assert second["candidates"] == []


def test_near_equal_scores_count_as_ties():
    # 0.1 + 0.2 != 0.3 in binary floating point; the ranking must not care.
    rankings, _ = orange_of([[0.1 + 0.2]], [0.3])
    assert rankings.tied.tolist() == [1]


def test_the_bootstrap_is_seeded_and_brackets_the_average_rank():
    rng = np.random.default_rng(7)
    candidates = [rng.random(50) for _ in range(200)]
    oracles = rng.random(200)
    _, first = orange_of(candidates, oracles, n_bootstrap=500, seed=3)
    _, again = orange_of(candidates, oracles, n_bootstrap=500, seed=3)
    _, other = orange_of(candidates, oracles, n_bootstrap=500, seed=4)
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    assert (first.ci_low, first.ci_high) != (other.ci_low, other.ci_high)
    assert first.ci_low < first.avg_rank < first.ci_high
    assert first.orange_ci_low < first.orange < first.orange_ci_high


def test_identical_ranks_give_a_zero_width_interval():
    _, result = orange_of([[0.9, 0.1]] * 10, [0.5] * 10, n_bootstrap=100)
    assert result.ci_low == result.ci_high == result.avg_rank == 2.0


def test_chunks_merge_into_the_same_answer_as_one_run():
    rng = np.random.default_rng(11)
    candidates = [rng.random(rng.integers(1, 40)).round(2) for _ in range(90)]
    oracles = rng.random(90).round(2)
    curve_n = curve_points(40, 8)

    def rank(lo, hi):
        return rank_sentences(
            candidates[lo:hi],
            oracles[lo:hi],
            higher_is_better=True,
            curve_n=curve_n,
            sentence_ids=range(lo, hi),
        )

    whole = summarise(rank(0, 90), metric="m", n_bootstrap=200, seed=5)
    merged = summarise(
        merge_rankings([rank(0, 17), rank(17, 60), rank(60, 90)]),
        metric="m",
        n_bootstrap=200,
        seed=5,
    )
    assert merged.to_dict() == whole.to_dict()


def test_a_sentence_without_candidates_is_refused():
    with pytest.raises(ValueError, match="sentence 0 has no candidates"):
        orange_of([[]], [0.5])
