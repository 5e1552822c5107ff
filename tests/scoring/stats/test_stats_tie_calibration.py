"""Tie calibration (exact and sampled search) and the pair outcomes behind it.

The exact search must find what a brute force finds by recomputing the
grouped statistic from scratch at every candidate threshold
(``tests/scoring/support/kendall_reference.py``): the same epsilon, to the
last bit, and the same statistic (1e-12 on random data with ties, compared
as fractions there; 1e-9 on WMT21 en-de MQM against sentence chrF).
"""

from __future__ import annotations

import doctest
import json
import math

import numpy as np
import pytest

import scoring.stats.kendall_pairs as kendall_pairs_module
import scoring.stats.kendall_variants as kendall_variants_module
import scoring.stats.tie_calibration as tie_calibration_module
from scoring.stats import (
    calibrate_outcomes,
    calibrate_ties,
    kendall_variant,
    outcome_statistic,
    pair_outcomes,
    pair_scores,
    statistic_from_codes,
)
from scoring.stats.kendall_variants import pair_codes
from tests.scoring.support.kendall_reference import (
    brute_force_calibration,
    wmt21_en_de_mqm_chrf,
)
from tests.scoring.support.realdata import require_full_data

GROUPINGS = ("none", "item", "system")
CALIBRATED = ("23", "acc23")

# Two systems, four segments, one pair each. acc_eq by epsilon: 0 -> 2/4
# (segments 2 and 4 concordant), 0.2 -> 3/4 (segment 1 tied in both),
# 0.4 -> 2/4 (segment 4 turns metric-tied), 0.5 -> 3/4 (segment 3 tied in
# both), 0.6 -> 2/4. The maximum is reached at 0.2 and at 0.5.
HUMAN = np.array([[1.0, 2.0, 1.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
METRIC = np.array([[0.0, 0.8, 0.0, 0.4], [0.2, 0.2, 0.5, 0.0]])


def _random_scores(
    rng: np.random.Generator, systems: int, segments: int
) -> tuple[np.ndarray, np.ndarray]:
    """Scores with ties in both, repeated metric differences and about 10 %
    missing in each (so groups differ in their number of pairs)."""
    human = rng.integers(0, 4, (systems, segments)).astype(float)
    metric = rng.integers(0, 9, (systems, segments)) / 8.0
    human[rng.random(human.shape) < 0.1] = np.nan
    metric[rng.random(metric.shape) < 0.1] = np.nan
    return metric, human


def _candidates(metric: np.ndarray, human: np.ndarray, group_by: str) -> set[float]:
    outcomes = pair_outcomes(metric, human, group_by)
    gaps = np.abs(outcomes.metric_differences)
    return {0.0, *gaps[~np.isnan(gaps)].tolist()}


@pytest.mark.parametrize(
    "module", [tie_calibration_module, kendall_pairs_module], ids=lambda m: m.__name__
)
def test_the_docstring_examples_hold(module) -> None:
    outcome = doctest.testmod(module)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_the_smallest_of_two_best_thresholds_wins() -> None:
    best = calibrate_ties(METRIC, HUMAN, "acc23", "item")
    assert best.epsilon == 0.2
    assert best.statistic == 0.75
    assert best.n_candidates == 5 and best.n_searched == 5
    assert (best.n_groups, best.n_pairs, best.n_dropped) == (4, 4, 0)
    # tau_23: +1 -1 +1 +1 at 0.2 and +1 +1 +1 -1 at 0.5, both 1/2.
    tau = calibrate_ties(METRIC, HUMAN, "23", "item")
    assert (tau.epsilon, tau.statistic) == (0.2, 0.5)


def test_no_threshold_is_needed_when_every_pair_is_ordered_right() -> None:
    human, metric = np.array([[3.0], [2.0], [1.0]]), np.array([[0.3], [0.2], [0.1]])
    best = calibrate_ties(metric, human, "acc23", "item")
    assert (best.epsilon, best.statistic) == (0.0, 1.0)


def test_metric_scores_already_tied_count_at_epsilon_zero() -> None:
    human, metric = np.array([[1.0], [1.0], [2.0]]), np.array([[0.5], [0.5], [0.9]])
    best = calibrate_ties(metric, human, "acc23", "item")
    assert (best.epsilon, best.statistic, best.n_candidates) == (0.0, 1.0, 2)


def test_no_pair_gives_an_undefined_statistic_at_epsilon_zero() -> None:
    human = np.array([[1.0, np.nan], [np.nan, 2.0]])
    best = calibrate_ties(np.ones((2, 2)), human, "acc23", "item")
    assert math.isnan(best.statistic)
    assert (best.epsilon, best.n_pairs, best.n_dropped, best.n_candidates) == (
        0.0,
        0,
        2,
        1,
    )


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("group_by", GROUPINGS)
@pytest.mark.parametrize("variant", CALIBRATED)
def test_random_scores_with_ties_match_the_brute_force(
    seed: int, group_by: str, variant: str
) -> None:
    rng = np.random.default_rng(seed)
    metric, human = _random_scores(
        rng, int(rng.integers(2, 7)), int(rng.integers(2, 9))
    )
    epsilon, statistic = brute_force_calibration(
        metric, human, variant, group_by, exact=True
    )
    best = calibrate_ties(metric, human, variant, group_by)
    assert best.epsilon == epsilon
    if math.isnan(statistic):
        assert math.isnan(best.statistic)
        return
    assert best.statistic == pytest.approx(statistic, abs=1e-12)
    plain = kendall_variant(metric, human, variant, group_by, epsilon=best.epsilon)
    assert best.statistic == plain.statistic
    assert (best.n_groups, best.n_pairs, best.n_dropped) == (
        plain.n_groups,
        plain.n_pairs,
        plain.n_dropped,
    )
    assert best.n_candidates == len(_candidates(metric, human, group_by))


@pytest.mark.parametrize(
    "group_by, systems, segments",
    [
        ("item", slice(None), slice(None)),
        # The brute force tries every candidate: about 5,000 to 15,000 here.
        ("system", slice(None), slice(0, 60)),
        ("none", slice(0, 4), slice(0, 30)),
    ],
)
@pytest.mark.parametrize("variant", CALIBRATED)
def test_wmt21_mqm_against_chrf_matches_the_brute_force(
    group_by: str, systems: slice, segments: slice, variant: str
) -> None:
    require_full_data("WMT21 en-de MQM with chrF of every rated system")
    metric, human, _ = wmt21_en_de_mqm_chrf()
    metric, human = metric[systems, segments], human[systems, segments]
    epsilon, statistic = brute_force_calibration(metric, human, variant, group_by)
    best = calibrate_ties(metric, human, variant, group_by)
    assert best.epsilon == epsilon
    assert best.statistic == pytest.approx(statistic, abs=1e-9)
    assert best.epsilon > 0  # chrF's exact ties are rare: calibration helps


@pytest.mark.parametrize("sample_rate", [0.02, 0.1, 0.5])
@pytest.mark.parametrize("group_by", GROUPINGS)
def test_a_sampled_search_returns_a_candidate_and_never_beats_the_exact_one(
    sample_rate: float, group_by: str
) -> None:
    metric, human = _random_scores(np.random.default_rng(7), 6, 12)
    exact = calibrate_ties(metric, human, "acc23", group_by)
    at_zero = kendall_variant(metric, human, "acc23", group_by).statistic
    for seed in range(5):
        sampled = calibrate_ties(metric, human, "acc23", group_by, sample_rate, seed)
        assert sampled.epsilon in _candidates(metric, human, group_by)
        assert at_zero <= sampled.statistic <= exact.statistic  # 0 always searched
        assert sampled.n_candidates == exact.n_candidates
        assert sampled.n_searched == math.ceil(sample_rate * exact.n_candidates)
        assert (sampled.seed, sampled.sample_rate) == (seed, sample_rate)
        same = kendall_variant(metric, human, "acc23", group_by, sampled.epsilon)
        assert sampled.statistic == same.statistic
        again = calibrate_ties(metric, human, "acc23", group_by, sample_rate, seed)
        assert again == sampled


def test_a_full_sample_is_the_exact_search_and_needs_no_seed() -> None:
    metric, human = _random_scores(np.random.default_rng(8), 5, 10)
    exact = calibrate_ties(metric, human, "acc23", "item")
    assert calibrate_ties(metric, human, "acc23", "item", 1.0, seed=4) == exact
    assert exact.seed is None and exact.n_searched == exact.n_candidates


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sample_rate": 0.0, "seed": 1}, "sample_rate"),
        ({"sample_rate": 1.5, "seed": 1}, "sample_rate"),
        ({"sample_rate": 0.5}, "seed"),
        ({"variant": "b"}, "calibrated variant 'b'"),
        ({"group_by": "document"}, "grouping"),
    ],
)
def test_bad_options_are_refused_with_the_reason(kwargs: dict, message: str) -> None:
    options = {"variant": "acc23", "group_by": "item", **kwargs}
    with pytest.raises(ValueError, match=message):
        calibrate_ties(METRIC, HUMAN, **options)


def test_the_calibration_is_json_safe() -> None:
    data = json.loads(
        json.dumps(calibrate_ties(METRIC, HUMAN, "acc23", "item").to_dict())
    )
    assert data["epsilon"] == 0.2 and data["statistic"] == 0.75
    assert data["counts"] == {  # segments 2 and 4 C, 3 T_h, 1 T_hm
        "concordant": 2,
        "discordant": 0,
        "human_ties": 1,
        "metric_ties": 0,
        "both_ties": 1,
    }
    assert (data["n_candidates"], data["sample_rate"], data["seed"]) == (5, 1.0, None)


@pytest.mark.parametrize("group_by", GROUPINGS)
def test_pair_outcomes_list_every_pair_with_both_human_scores(group_by: str) -> None:
    metric, human = _random_scores(np.random.default_rng(5), 5, 7)
    outcomes = pair_outcomes(metric, human, group_by)
    first, second = outcomes.first_points, outcomes.second_points
    flat_metric, flat_human = metric.ravel(), human.ravel()
    np.testing.assert_array_equal(
        outcomes.metric_differences, flat_metric[first] - flat_metric[second]
    )
    np.testing.assert_array_equal(
        outcomes.human_signs, np.sign(flat_human[first] - flat_human[second])
    )
    assert (
        not np.isnan(flat_human[first]).any() and not np.isnan(flat_human[second]).any()
    )
    assert (np.diff(outcomes.groups) >= 0).all()
    # The group of each pair holds both its points.
    systems, segments = np.divmod(first, 7)
    expected_group = {"item": segments, "system": systems, "none": 0 * first}[group_by]
    np.testing.assert_array_equal(outcomes.groups, expected_group)
    n_points = 35 if group_by == "none" else (5 if group_by == "item" else 7)
    n_groups = {"none": 1, "item": 7, "system": 5}[group_by]
    assert outcomes.n_groups == n_groups
    assert outcomes.n_possible == n_groups * n_points * (n_points - 1) // 2
    human_pairs = sum(
        1
        for a in range(35)
        for b in range(a + 1, 35)
        if not (np.isnan(flat_human[a]) or np.isnan(flat_human[b]))
        and (
            group_by == "none"
            or (group_by == "item" and a % 7 == b % 7)
            or (group_by == "system" and a // 7 == b // 7)
        )
    )
    assert outcomes.groups.size == human_pairs
    with pytest.raises(ValueError, match="read-only"):
        outcomes.metric_differences[0] = 1.0


def test_pair_outcomes_in_small_batches_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    metric, human = _random_scores(np.random.default_rng(6), 6, 9)
    whole = {g: pair_outcomes(metric, human, g) for g in GROUPINGS}
    monkeypatch.setattr(kendall_variants_module, "_BATCH", 8)
    for group_by, expected in whole.items():
        batched = pair_outcomes(metric, human, group_by)
        for name in (
            "groups",
            "first_points",
            "second_points",
            "metric_differences",
            "human_signs",
        ):
            np.testing.assert_array_equal(
                getattr(batched, name), getattr(expected, name)
            )


@pytest.mark.parametrize("group_by", GROUPINGS)
@pytest.mark.parametrize("variant", ["b", "23", "acc23"])
def test_the_statistic_from_outcomes_is_the_statistic_from_scores(
    group_by: str, variant: str
) -> None:
    metric, human = _random_scores(np.random.default_rng(9), 6, 8)
    outcomes = pair_outcomes(metric, human, group_by)
    for epsilon in (0.0, 0.125, 0.3):
        direct = kendall_variant(metric, human, variant, group_by, epsilon)
        assert outcome_statistic(outcomes, variant, epsilon) == direct
        codes = pair_codes(outcomes.metric_differences, outcomes.human_signs, epsilon)
        from_codes = statistic_from_codes(
            codes, outcomes.groups, outcomes.n_groups, variant
        )
        assert float(from_codes) == pytest.approx(direct.statistic, abs=1e-15)
    with pytest.raises(ValueError, match="tau_c"):
        outcome_statistic(outcomes, "c")


def test_swapped_outcomes_of_two_metrics_are_scored_draw_by_draw() -> None:
    rng = np.random.default_rng(10)
    _, human = _random_scores(rng, 6, 30)
    x_scores = rng.integers(0, 9, human.shape) / 8.0  # complete: same pairs
    y_scores = human + rng.normal(scale=0.7, size=human.shape)
    x, y = pair_outcomes(x_scores, human), pair_outcomes(y_scores, human)
    np.testing.assert_array_equal(x.groups, y.groups)
    np.testing.assert_array_equal(x.human_signs, y.human_signs)
    x_best, y_best = calibrate_outcomes(x), calibrate_outcomes(y)
    x_codes = pair_codes(x.metric_differences, x.human_signs, x_best.epsilon)
    y_codes = pair_codes(y.metric_differences, y.human_signs, y_best.epsilon)
    swaps = rng.random((40, x_codes.size)) < 0.5
    swaps[0], swaps[1] = False, True
    draws = np.where(swaps, y_codes, x_codes)  # (40, P): X' of each draw
    statistics = statistic_from_codes(draws, x.groups, x.n_groups)
    assert statistics.shape == (40,)
    assert statistics[0] == pytest.approx(x_best.statistic, abs=1e-15)
    assert statistics[1] == pytest.approx(y_best.statistic, abs=1e-15)
    for row in range(40):  # one draw at a time, through the bincount path
        shuffled = np.random.default_rng(row).permutation(x_codes.size)
        alone = statistic_from_codes(
            draws[row, shuffled], x.groups[shuffled], x.n_groups
        )
        assert statistics[row] == pytest.approx(float(alone), abs=1e-15)
    # Every pair counted by both: a weighted sum of the pair scores.
    sizes = np.bincount(x.groups)
    weights = 1.0 / (sizes[x.groups] * np.count_nonzero(sizes))
    np.testing.assert_allclose(
        pair_scores(draws, "acc23") @ weights, statistics, rtol=0, atol=1e-12
    )


def test_pair_scores_of_each_code() -> None:
    codes = np.array([-1, 0, 1, 2, 3, 4])
    np.testing.assert_array_equal(
        pair_scores(codes, "acc23"), [np.nan, 1.0, 0.0, 0.0, 0.0, 1.0]
    )
    np.testing.assert_array_equal(
        pair_scores(codes, "23"), [np.nan, 1.0, -1.0, -1.0, -1.0, 1.0]
    )


def test_a_wmt_sized_item_grouping_has_380000_pairs_a_metric() -> None:
    rng = np.random.default_rng(12)
    human = rng.integers(0, 3, (20, 2000)).astype(float)  # a third of pairs tied
    metric = human + rng.normal(scale=0.3, size=human.shape)
    outcomes = pair_outcomes(metric, human, "item")
    assert outcomes.groups.size == 380_000
    best = calibrate_outcomes(outcomes, "acc23")
    assert best.n_pairs == 380_000 and best.n_groups == 2000
    assert best.statistic > kendall_variant(metric, human, "acc23", "item").statistic
