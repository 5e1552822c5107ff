"""Permutation tests between metrics (PERM-BOTH) and WMT's rank clusters.

Expected values: hand-worked cases, slow loop references written from the
paper (``tests/scoring/support/metric_permutation_reference.py``) run on the
same masks, independent draws within their sampling error, a brute-force
cluster rule, and real WMT21 MQM data against our sentence metrics.
"""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from scipy import stats

from scoring.errors import ScoringError
from scoring.stats.kendall_pairs import pair_outcomes, pair_scores
from scoring.stats.kendall_variants import kendall_variant, pair_codes
from scoring.stats.metric_permutation import (
    DRAW_BLOCK,
    cluster_ranks,
    p_values_from_draws,
    permutation_ranking,
)
from scoring.stats.metric_swaps import ScoreSwap
from scoring.stats.outcome_sources import agreement_swap, kendall_swap, spa_swap
from scoring.stats.outcome_swaps import OutcomeSwap
from scoring.stats.pairwise_accuracy import pairwise_accuracy
from scoring.stats.soft_pairwise import human_permutation_test, soft_pairwise_accuracy
from scoring.stats.tie_calibration import calibrate_ties
from tests.scoring.support.metric_permutation_reference import (
    REAL_METRICS,
    all_masks,
    grouped_mean,
    grouped_pearson,
    metric_matrix,
    mqm_matrix,
    reference_outcome_p_values,
    reference_score_p_values,
    unit_of_point,
)
from tests.scoring.support.realdata import require_full_data


def segment_data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Five systems x twelve segments, three metrics of growing noise, two
    unrated points, one segment rated for one system only."""
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(5, 12))
    human[0, 3] = human[2, 7] = np.nan
    human[1:, 10] = np.nan
    noise = np.array([0.5, 1.0, 1.1])[:, None, None]
    return human, human + noise * rng.normal(size=(3, 5, 12))


# Worked examples ------------------------------------------------------------


def test_one_clearly_best_metric_and_two_tied_ones_make_ranks_1_2_2() -> None:
    rng = np.random.default_rng(3)
    human = rng.normal(size=16)
    noisy = human + rng.normal(scale=1.5, size=16)
    scores = np.stack([human + rng.normal(scale=0.05, size=16), noisy, noisy])
    ranking = permutation_ranking(ScoreSwap(human, scores, ("best", "b", "c")))
    assert ranking.ranks.tolist() == [1, 2, 2]
    assert ranking.clusters == (("best",), ("b", "c"))
    assert ranking.p_value("best", "b") <= 0.05
    # Identical scores: every draw's difference is 0, the observed one too.
    assert ranking.p_value("b", "c") == ranking.p_value("c", "b") == 1.0


def test_the_p_value_counts_draws_reaching_the_observed_difference() -> None:
    values = np.array([0.5, 0.3])
    differences = np.array([0.2, 0.1, 0.3, 0.2 + 1e-12, -0.2, np.nan])
    draws = np.zeros((6, 2, 2))
    draws[:, 0, 1], draws[:, 1, 0] = differences, -differences
    p = p_values_from_draws(values, draws)
    # a > b: 0.2, 0.3 and 0.2 + 1e-12 reach 0.2; the NaN draw never counts.
    assert p[0, 1] == pytest.approx(3 / 6)
    # b > a: -d* >= -0.2 for 0.2, 0.1, 0.2 + 1e-12 (a rounding tie) and -0.2.
    assert p[1, 0] == pytest.approx(4 / 6)
    smoothed = p_values_from_draws(values, draws, add_one=True)
    assert smoothed[0, 1] == pytest.approx(4 / 7)
    assert np.isnan(p[0, 0])


def test_swapping_every_unit_or_none_gives_minus_or_plus_the_observed() -> None:
    human, scores = segment_data()
    test = ScoreSwap(human, scores, ("a", "b", "c"), grouping="item")
    masks = np.array([np.zeros(test.n_units, bool), np.ones(test.n_units, bool)])
    first, second = np.array([0, 0, 1]), np.array([1, 2, 2])
    observed = test.values[first] - test.values[second]
    assert test.null_differences(masks, first, second) == pytest.approx(
        np.stack([observed, -observed]), abs=1e-12
    )


def test_observed_pearson_values_agree_with_scipy_for_each_grouping() -> None:
    human, scores = segment_data()
    for grouping in ("none", "item", "system"):
        test = ScoreSwap(human, scores, ("a", "b", "c"), grouping=grouping)
        expected = [grouped_pearson(human, row, grouping) for row in scores]
        assert test.values == pytest.approx(expected, abs=1e-12)
    judged = np.isfinite(human)
    test = ScoreSwap(human, scores, ("a", "b", "c"))
    for value, row in zip(test.values, scores):
        assert value == pytest.approx(
            stats.pearsonr(human[judged], row[judged]).statistic, abs=1e-12
        )


def test_system_level_pairwise_accuracy_agrees_with_the_pairwise_module() -> None:
    rng = np.random.default_rng(5)
    human = rng.normal(size=9)
    scores = human + rng.normal(size=(3, 9))
    scores[2, 4] = scores[2, 5]  # a metric tie
    test = ScoreSwap(human, scores, "xyz", statistic="pairwise_accuracy")
    expected = [pairwise_accuracy(row, human).accuracy for row in scores]
    assert test.values == pytest.approx(expected, abs=1e-15)
    assert test.value_range == (0.0, 1.0)


# The slow reference on the same masks -----------------------------------------


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
@pytest.mark.parametrize("unit", ["point", "item", "system"])
def test_pearson_p_values_equal_the_slow_reference(grouping: str, unit: str) -> None:
    human, scores = segment_data()
    test = ScoreSwap(human, scores, ("a", "b", "c"), grouping=grouping, unit=unit)
    ranking = permutation_ranking(test, n_draws=80, seed=4)
    masks = all_masks(test.n_units, 80, 4)

    def statistic(h: np.ndarray, x: np.ndarray) -> float:
        return grouped_pearson(h, x, grouping)

    units = unit_of_point(unit, human.shape)
    values, p_values = reference_score_p_values(human, scores, statistic, units, masks)
    assert ranking.values == pytest.approx(values, abs=1e-12)
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


def test_pairwise_accuracy_p_values_equal_the_slow_reference() -> None:
    rng = np.random.default_rng(6)
    human = rng.normal(size=10)
    human[7] = np.nan  # a system without a human score
    scores = human + rng.normal(scale=[[0.3], [1.0], [1.0]], size=(3, 10))
    test = ScoreSwap(human, scores, "xyz", statistic="pairwise_accuracy")
    ranking = permutation_ranking(test, n_draws=300, seed=2)

    def statistic(h: np.ndarray, x: np.ndarray) -> float:
        return pairwise_accuracy(x[:, 0], h[:, 0]).accuracy

    values, p_values = reference_score_p_values(
        human[:, None],
        scores[:, :, None],
        statistic,
        unit_of_point("point", (10, 1)),
        all_masks(10, 300, 2),
    )
    assert ranking.values == pytest.approx(values, abs=1e-15)
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


def test_a_statistic_given_as_a_function_is_recomputed_on_each_draw() -> None:
    human, scores = segment_data(1)

    def spearman(h: np.ndarray, batch: np.ndarray) -> np.ndarray:
        kept = np.isfinite(h)
        return np.array([stats.spearmanr(h[kept], x[kept]).statistic for x in batch])

    test = ScoreSwap(human, scores, ("a", "b", "c"), statistic=spearman, unit="item")
    ranking = permutation_ranking(test, n_draws=60, seed=8)

    def one(h: np.ndarray, x: np.ndarray) -> float:
        return float(spearman(h, x[None])[0])

    values, p_values = reference_score_p_values(
        human, scores, one, unit_of_point("item", human.shape), all_masks(12, 60, 8)
    )
    assert ranking.statistic == "spearman"
    assert ranking.values == pytest.approx(values, abs=1e-12)
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


def outcome_data(levels: tuple[float, ...] = (0.0, 1.0)) -> tuple[np.ndarray, list]:
    """Four metrics' outcomes on the pairs of groups of 2, 3, 4 and 5
    systems (four weight classes), and the group of each pair."""
    rng = np.random.default_rng(9)
    groups = [
        g for g, size in enumerate((2, 3, 4, 5)) for _ in range(size * (size - 1) // 2)
    ]
    right = np.array([0.9, 0.7, 0.65, 0.5])[:, None]
    correct = rng.random((4, len(groups))) < right
    if len(levels) == 2:
        return np.where(correct, levels[1], levels[0]), groups
    return rng.random((4, len(groups))), groups  # continuous terms (SPA)


@pytest.mark.parametrize(
    "levels, unit",
    [((0.0, 1.0), "pair"), ((-1.0, 1.0), "pair"), ((0.0, 1.0), "group"), ((), "pair")],
    ids=["acc_eq", "tau_23", "acc_eq-groups", "continuous"],
)
def test_outcome_p_values_equal_the_slow_reference(levels: tuple, unit: str) -> None:
    outcomes, groups = outcome_data(levels)
    test = OutcomeSwap(outcomes, "abcd", groups=groups, grouping="item", unit=unit)
    ranking = permutation_ranking(test, n_draws=250, seed=5)
    unit_of_pair = range(len(groups)) if unit == "pair" else groups
    values, p_values = reference_outcome_p_values(
        outcomes, groups, list(unit_of_pair), all_masks(test.n_units, 250, 5)
    )
    assert ranking.values == pytest.approx(values, abs=1e-12)
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


def test_an_outcome_statistic_given_as_a_function_is_recomputed() -> None:
    outcomes, groups = outcome_data()

    def worst_group(batch: np.ndarray) -> np.ndarray:
        labels = np.asarray(groups)
        return np.min([batch[:, labels == g].mean(axis=1) for g in set(groups)], axis=0)

    test = OutcomeSwap(outcomes, "abcd", statistic=worst_group)
    ranking = permutation_ranking(test, n_draws=120, seed=3)
    values, p_values = reference_outcome_p_values(
        outcomes,
        groups,
        list(range(len(groups))),
        all_masks(len(groups), 120, 3),
        statistic=lambda row: float(worst_group(np.array([row]))[0]),
    )
    assert ranking.values == pytest.approx(values, abs=1e-15)
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


def test_accuracy_and_spa_swaps_take_the_per_pair_outcomes_of_their_modules() -> None:
    rng = np.random.default_rng(11)
    human_segments = rng.normal(size=(6, 40)) + np.arange(6)[:, None] * 0.2
    metric_segments = human_segments + rng.normal(
        scale=[[[0.5]], [[2.0]]], size=(2, 6, 40)
    )
    human = human_segments.mean(axis=1)
    accuracy = {
        name: pairwise_accuracy(row.mean(axis=1), human)
        for name, row in zip("xy", metric_segments)
    }
    test = agreement_swap(accuracy)
    expected = [accuracy["x"].accuracy, accuracy["y"].accuracy]
    assert test.values == pytest.approx(expected, abs=1e-15)
    human_test = human_permutation_test(human_segments, n_permutations=200, seed=1)
    spa = {
        name: soft_pairwise_accuracy(row, human_test)
        for name, row in zip("xy", metric_segments)
    }
    test = spa_swap(spa)
    assert test.values == pytest.approx([spa["x"].spa, spa["y"].spa], abs=1e-12)
    values, p_values = reference_outcome_p_values(
        1.0 - np.stack([spa[name].pair_errors for name in "xy"]),
        [0] * 15,
        list(range(15)),
        all_masks(15, 200, 7),
    )
    np.testing.assert_allclose(
        permutation_ranking(test, n_draws=200, seed=7).p_values, p_values, atol=1e-12
    )


def plain_tau_b(codes: list, groups: list) -> float:
    """Mean over groups of (C - D) / sqrt((C + D + T_h)(C + D + T_m)), from
    codes C=0, D=1, T_h=2, T_m=3, T_hm=4 (-1 not counted)."""
    counts: dict = {}
    for code, group in zip(codes, groups):
        if code >= 0:
            counts.setdefault(group, [0] * 5)[int(code)] += 1
    values = []
    for c, d, t_h, t_m, _ in counts.values():
        denominator = ((c + d + t_h) * (c + d + t_m)) ** 0.5
        if denominator > 0:
            values.append((c - d) / denominator)
    return sum(values) / len(values)


def kendall_data() -> tuple[np.ndarray, dict]:
    """Six systems x 25 segments, human scores with ties, three metrics."""
    rng = np.random.default_rng(14)
    human = np.round(rng.normal(size=(6, 25)) * 2) / 2
    human[0, 3] = np.nan
    metrics = {
        name: human + rng.normal(scale=scale, size=human.shape)
        for name, scale in zip("abc", (0.3, 1.0, 1.2))
    }
    return human, metrics


def test_tie_calibrated_acc_eq_swaps_each_metrics_own_outcomes() -> None:
    human, metrics = kendall_data()
    swap = kendall_swap(metrics, human)
    for name, metric in metrics.items():
        calibrated = calibrate_ties(metric, human, "acc23", group_by="item")
        assert swap.epsilons[name] == calibrated.epsilon
        assert swap.values[list(metrics).index(name)] == pytest.approx(
            calibrated.statistic, abs=1e-12
        )
    assert swap.statistic == "acc_eq" and swap.value_range == (0.0, 1.0)
    ranking = permutation_ranking(swap, n_draws=150, seed=2)
    outcomes = pair_outcomes(metrics["a"], human, "item")
    rows = [
        [
            1.0 if code in (0, 4) else 0.0
            for code in pair_codes(
                pair_outcomes(metric, human, "item").metric_differences,
                outcomes.human_signs,
                swap.epsilons[name],
            )
        ]
        for name, metric in metrics.items()
    ]
    _, p_values = reference_outcome_p_values(
        np.array(rows),
        list(outcomes.groups),
        list(range(outcomes.groups.size)),
        all_masks(swap.n_units, 150, 2),
    )
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)
    assert ranking.to_dict()["epsilons"] == swap.epsilons


def test_tau_b_is_recomputed_from_the_swapped_pair_codes() -> None:
    human, metrics = kendall_data()
    metrics["c"] = metrics["c"].copy()
    metrics["c"][2, 5] = np.nan  # a pair not counted for one metric only
    swap = kendall_swap(metrics, human, variant="b")
    expected = [
        kendall_variant(metric, human, "b", group_by="item").statistic
        for metric in metrics.values()
    ]
    assert swap.values == pytest.approx(expected, abs=1e-12)
    ranking = permutation_ranking(swap, n_draws=60, seed=3)
    outcomes = pair_outcomes(metrics["a"], human, "item")
    codes = np.stack(
        [
            pair_codes(
                pair_outcomes(metric, human, "item").metric_differences,
                outcomes.human_signs,
            )
            for metric in metrics.values()
        ]
    )
    groups = list(outcomes.groups)
    _, p_values = reference_outcome_p_values(
        codes.astype(float),
        groups,
        list(range(len(groups))),
        all_masks(swap.n_units, 60, 3),
        statistic=lambda row: plain_tau_b(row, groups),
    )
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


# Independent draws -------------------------------------------------------------


def test_independent_draws_agree_within_their_sampling_error() -> None:
    human, scores = segment_data(2)
    test = ScoreSwap(human, scores, ("a", "b", "c"))
    draws = 400
    fast = permutation_ranking(test, n_draws=draws, seed=21).p_values
    coins = np.random.default_rng(12345).random((draws, test.n_units)) < 0.5

    def statistic(h: np.ndarray, x: np.ndarray) -> float:
        return grouped_pearson(h, x, "none")

    units = unit_of_point("point", human.shape)
    _, slow = reference_score_p_values(human, scores, statistic, units, coins)
    off = ~np.eye(3, dtype=bool)
    p = (fast[off] + slow[off]) / 2
    # Two independent estimates of one p: their difference has variance
    # 2 p (1 - p) / R; allow five standard errors and one draw.
    allowed = 5 * np.sqrt(2 * p * (1 - p) / draws) + 1 / draws
    assert (np.abs(fast[off] - slow[off]) <= allowed).all()


# Clusters ------------------------------------------------------------------------


def brute_force_ranks(values: np.ndarray, p_values: np.ndarray, alpha: float) -> list:
    """Ranks from the definition: the top rank is the longest run of the
    sorted metrics in which no metric is significantly better than a later
    one; the rest is ranked the same way."""
    order = sorted(range(len(values)), key=lambda m: -values[m])
    ranks, rank = [0] * len(values), 0
    while order:
        rank += 1
        length = max(
            n
            for n in range(1, len(order) + 1)
            if not any(p_values[a, b] <= alpha for a, b in combinations(order[:n], 2))
        )
        for metric in order[:length]:
            ranks[metric] = rank
        order = order[length:]
    return ranks


def test_the_cluster_rule_matches_a_brute_force_on_random_p_values() -> None:
    rng = np.random.default_rng(13)
    for _ in range(300):
        size = int(rng.integers(1, 9))
        values = rng.permutation(size).astype(float)  # distinct statistics
        p_values = np.where(
            rng.random((size, size)) < 0.4,
            rng.random((size, size)) * 0.05,
            rng.random((size, size)),
        )
        np.fill_diagonal(p_values, np.nan)
        alpha = float(rng.choice([0.01, 0.05]))
        expected = brute_force_ranks(values, p_values, alpha)
        assert cluster_ranks(values, p_values, alpha=alpha).tolist() == expected


def test_a_new_rank_starts_when_any_member_of_the_current_one_is_better() -> None:
    # A beats C but B does not: C starts rank 2 although B is close to it
    # (WMT's walk); D is close to C and stays with it.
    p = np.full((4, 4), 0.5)
    p[0, 2] = 0.01
    assert cluster_ranks(np.array([4.0, 3.0, 2.0, 1.0]), p).tolist() == [1, 1, 2, 2]
    # p exactly alpha separates (p <= alpha), NaN never does.
    p[0, 2], p[1, 3] = 0.05, np.nan
    assert cluster_ranks(np.array([4.0, 3.0, 2.0, 1.0]), p).tolist() == [1, 1, 2, 2]


def test_an_undefined_statistic_is_ranked_last() -> None:
    p = np.full((3, 3), 0.5)
    assert cluster_ranks(np.array([np.nan, 0.2, 0.4]), p).tolist() == [2, 1, 1]


# Early stopping, results, errors -----------------------------------------------


def test_early_stopping_keeps_the_draws_it_saw() -> None:
    rng = np.random.default_rng(4)
    human = rng.normal(size=(8, 60))
    scores = human + rng.normal(scale=[[[0.2]], [[3.0]], [[3.05]]], size=(3, 8, 60))
    test = ScoreSwap(human, scores, ("good", "bad", "alike"))
    full = permutation_ranking(test, n_draws=1000, seed=6)
    early = permutation_ranking(test, n_draws=1000, seed=6, early_stop_confidence=0.99)
    used = early.n_draws_used
    # good vs the others: no draw reaches the observed difference; the 99%
    # exact interval of 0 in n is [0, 1 - 0.005^(1/n)], below 0.05 from
    # n = 104, so these pairs stop after the second block.
    assert 1 - 0.005 ** (1 / 100) > 0.05 > 1 - 0.005 ** (1 / 200)
    assert used[0, 1] == used[0, 2] == 2 * DRAW_BLOCK
    assert (used % DRAW_BLOCK == 0).all() and used.max() <= 1000
    for a, b in [(0, 1), (0, 2), (1, 2), (2, 1)]:
        seen = full.null_differences[: used[a, b], a, b]
        observed = full.values[a] - full.values[b]
        assert early.p_values[a, b] == pytest.approx(np.mean(seen >= observed - 1e-9))
    assert early.ranks.tolist() == full.ranks.tolist()


def test_the_result_is_frozen_json_safe_and_names_its_test() -> None:
    human, scores = segment_data()
    ranking = permutation_ranking(
        ScoreSwap(human, scores, ("a", "b", "c"), grouping="item"), n_draws=100, seed=3
    )
    data = json.loads(json.dumps(ranking.to_dict()))
    assert data["grouping"] == "item" and data["unit"] == "point"
    assert data["swapped"] == "scores" and data["seed"] == 3
    assert [row["metric"] for row in data["metrics"]] == [
        ranking.metrics[i] for i in ranking.order
    ]
    assert "PERM-BOTH" in data["test"] and "no smoothing" in data["test"]
    assert set(data["p_values"]["a"]) == {"b", "c"}
    with pytest.raises(ValueError):
        ranking.p_values[0, 1] = 0.0
    assert ranking.null_differences is not None
    assert ranking.null_differences.shape == (100, 3, 3)


def test_the_same_seed_gives_the_same_ranking() -> None:
    human, scores = segment_data()
    test = ScoreSwap(human, scores, ("a", "b", "c"))
    first = permutation_ranking(test, n_draws=200, seed=9)
    again = permutation_ranking(test, n_draws=200, seed=9)
    other = permutation_ranking(test, n_draws=200, seed=10)
    assert np.array_equal(
        first.null_differences, again.null_differences, equal_nan=True
    )
    assert not np.array_equal(
        first.null_differences, other.null_differences, equal_nan=True
    )


def test_bad_input_is_refused_with_a_reason() -> None:
    human, scores = segment_data()
    with pytest.raises(ScoringError, match="distinct name"):
        ScoreSwap(human, scores, ("a", "a", "c"))
    with pytest.raises(ScoringError, match="grouping"):
        ScoreSwap(human, scores, ("a", "b", "c"), grouping="document")
    with pytest.raises(ScoringError, match="system-level"):
        ScoreSwap(human, scores, ("a", "b", "c"), statistic="pairwise_accuracy")
    with pytest.raises(ScoringError, match="group labels"):
        OutcomeSwap(np.ones((2, 3)), "ab", grouping="item")
    with pytest.raises(ScoringError, match="alpha"):
        permutation_ranking(ScoreSwap(human, scores, "abc"), alpha=1.5)


def test_grouped_mean_reference_is_a_mean_of_group_means() -> None:
    assert grouped_mean([1, 1, 1, 1], [1, 1, 1, 2]) == 1.0
    assert grouped_mean([1, 0, 0, 0], [1, 1, 1, 2]) == pytest.approx(1 / 6)


# Real data: WMT21 expert MQM ---------------------------------------------------


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_segment_pearson_on_wmt21_mqm_equals_the_slow_reference(pair: str) -> None:
    require_full_data("WMT21 MQM segment scores of every rated system")
    human = mqm_matrix(pair)
    scores = np.stack([metric_matrix(pair, metric) for metric in REAL_METRICS])
    test = ScoreSwap(human, scores, REAL_METRICS)
    ranking = permutation_ranking(test, n_draws=40, seed=1)
    judged = np.isfinite(human)
    for value, row in zip(ranking.values, scores):
        assert value == pytest.approx(
            stats.pearsonr(human[judged], row[judged]).statistic, abs=1e-12
        )

    def statistic(h: np.ndarray, x: np.ndarray) -> float:
        return grouped_pearson(h, x, "none")

    units = unit_of_point("point", human.shape)
    _, p_values = reference_score_p_values(
        human, scores, statistic, units, all_masks(test.n_units, 40, 1)
    )
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_item_grouped_pearson_on_wmt21_mqm_agrees_with_scipy(pair: str) -> None:
    require_full_data("WMT21 MQM segment scores of every rated system")
    human = mqm_matrix(pair)
    scores = np.stack([metric_matrix(pair, metric) for metric in REAL_METRICS])
    test = ScoreSwap(human, scores, REAL_METRICS, grouping="item")
    expected = [grouped_pearson(human, test.standardised[m], "item") for m in range(3)]
    assert test.values == pytest.approx(expected, abs=1e-9)
    ranking = permutation_ranking(test, n_draws=1000, seed=1)
    assert set(ranking.ranks.tolist()) <= {1, 2, 3}


def test_acc_eq_p_values_on_wmt21_en_de_equal_the_slow_reference() -> None:
    require_full_data("WMT21 MQM segment scores of every rated system")
    human = mqm_matrix("en-de")
    segments = np.stack([metric_matrix("en-de", metric) for metric in REAL_METRICS])
    swap = kendall_swap(dict(zip(REAL_METRICS, segments)), human)
    ranking = permutation_ranking(swap, n_draws=20, seed=4)
    rows = []
    for m, metric in enumerate(REAL_METRICS):
        outcomes = pair_outcomes(segments[m], human, "item")
        codes = pair_codes(
            outcomes.metric_differences, outcomes.human_signs, swap.epsilons[metric]
        )
        rows.append(pair_scores(codes, "acc23"))
    values, p_values = reference_outcome_p_values(
        np.stack(rows),
        list(outcomes.groups),
        list(range(outcomes.groups.size)),
        all_masks(swap.n_units, 20, 4),
    )
    assert ranking.values == pytest.approx(values, abs=1e-12)
    np.testing.assert_allclose(ranking.p_values, p_values, atol=1e-12)
