"""One metric's drill-down: its system pairs and the segments behind acc_eq.

Expected values: pairs counted by hand; the share of ``agree`` against
:func:`pairwise_accuracy`; per-segment counts against a plain loop over the
pairs written from the definitions; the item-grouped acc_eq against
:func:`kendall_variant` and :func:`calibrate_ties` at the same epsilon (1e-12
on random data with ties and gaps, and on WMT21 en-de MQM against sentence
chrF); and both against what :func:`run_protocol` stores.
"""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from scoring.errors import ScoringError
from scoring.stats.human import human_scores
from scoring.stats.kendall_variants import kendall_variant
from scoring.stats.metric_drill_down import (
    AGREE,
    DISAGREE,
    HUMAN_TIE,
    METRIC_TIE,
    drill_down_metric,
    segment_outcomes,
    system_pair_outcomes,
)
from scoring.stats.pairwise_accuracy import pairwise_accuracy
from scoring.stats.tie_calibration import calibrate_ties
from tests.scoring.support.kendall_reference import wmt21_en_de_mqm_chrf
from tests.scoring.support.realdata import require_full_data
from tests.scoring.support.wmt_protocol_data import synthetic_world
from tests.scoring.support.wmt_protocol_runs import coefficients, epsilons, quick, run


def _sign(value: float) -> int:
    return int(value > 0) - int(value < 0)


def reference_segment_counts(
    metric: np.ndarray, human: np.ndarray, epsilon: float
) -> list[dict[str, int]]:
    """Per segment (column): C, D, T_h, T_m, T_hm by a loop over the pairs of
    systems with all four scores (human tie: equal; metric tie: |d| <= eps)."""
    table = []
    for g in range(human.shape[1]):
        counts = dict.fromkeys(("C", "D", "T_h", "T_m", "T_hm"), 0)
        for i, j in combinations(range(human.shape[0]), 2):
            points = (metric[i, g], metric[j, g], human[i, g], human[j, g])
            if any(np.isnan(points)):
                continue
            metric_tie = abs(metric[i, g] - metric[j, g]) <= epsilon
            human_tie = human[i, g] == human[j, g]
            if metric_tie and human_tie:
                counts["T_hm"] += 1
            elif human_tie:
                counts["T_h"] += 1
            elif metric_tie:
                counts["T_m"] += 1
            elif _sign(metric[i, g] - metric[j, g]) == _sign(human[i, g] - human[j, g]):
                counts["C"] += 1
            else:
                counts["D"] += 1
        table.append(counts)
    return table


def random_segments(seed: int, systems: int = 6, segments: int = 40):
    """Integer human scores and eighth-step metric scores (ties in both,
    repeated differences), about 10 % of each missing."""
    rng = np.random.default_rng(seed)
    human = rng.integers(0, 4, (systems, segments)).astype(float)
    metric = rng.integers(0, 9, (systems, segments)) / 8.0
    human[rng.random(human.shape) < 0.1] = np.nan
    metric[rng.random(metric.shape) < 0.1] = np.nan
    return metric, human


# System pairs ---------------------------------------------------------------------


def test_system_pairs_by_hand_in_human_order_with_every_outcome() -> None:
    # Human order: d (4), a (3), then b and c tied at 1 (by name).
    result = system_pair_outcomes(
        np.array([0.5, 0.7, 0.2, 0.5]),
        np.array([3.0, 1.0, 1.0, 4.0]),
        ("a", "b", "c", "d"),
    )
    assert result.systems_used == ("d", "a", "b", "c")
    got = [
        (
            p.first,
            p.second,
            p.human_difference,
            round(p.metric_difference, 6),
            p.outcome,
        )
        for p in result.pairs
    ]
    assert got == [
        ("d", "a", 1.0, 0.0, METRIC_TIE),
        ("d", "b", 3.0, -0.2, DISAGREE),
        ("d", "c", 3.0, 0.3, AGREE),
        ("a", "b", 2.0, -0.2, DISAGREE),
        ("a", "c", 2.0, 0.3, AGREE),
        ("b", "c", 0.0, 0.5, HUMAN_TIE),
    ]
    assert result.counts == {AGREE: 2, DISAGREE: 2, METRIC_TIE: 1, HUMAN_TIE: 1}
    assert result.accuracy == pytest.approx(2 / 6)
    first = result.disagreements_first()
    assert [p.outcome for p in first] == [
        DISAGREE, DISAGREE, METRIC_TIE, HUMAN_TIE, AGREE, AGREE,
    ]  # fmt: skip


def test_a_tie_in_both_agrees_as_pairwise_accuracy_counts_it() -> None:
    result = system_pair_outcomes(np.array([1.0, 1.0]), np.array([2.0, 2.0]))
    assert [p.outcome for p in result.pairs] == [AGREE] and result.accuracy == 1.0


def test_systems_without_a_score_are_left_out_and_named() -> None:
    result = system_pair_outcomes(
        np.array([1.0, np.nan, 3.0, 2.0]),
        np.array([1.0, 2.0, np.nan, 3.0]),
        ("a", "b", "c", "d"),
    )
    assert result.systems_used == ("d", "a")
    assert set(result.systems_left_out) == {"b", "c"}
    assert len(result.pairs) == 1


@pytest.mark.parametrize("seed", range(12))
def test_the_share_of_agreeing_pairs_is_pairwise_accuracy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 12))
    metric = rng.integers(0, 5, n).astype(float)  # many ties
    human = rng.integers(0, 4, n) / 2.0
    metric[rng.random(n) < 0.15] = np.nan
    names = tuple(f"s{i}" for i in range(n))
    expected = pairwise_accuracy(metric, human, names)
    result = system_pair_outcomes(metric, human, names)
    assert len(result.pairs) == expected.n_pairs
    assert result.counts[AGREE] == expected.n_agreeing
    assert result.accuracy == expected.accuracy or (
        np.isnan(result.accuracy) and np.isnan(expected.accuracy)
    )
    # The same pairs, each agreeing exactly where pairwise_accuracy says so.
    agrees = {
        frozenset((names[i], names[j])): bool(agreement)
        for (i, j), agreement in zip(expected.pairs, expected.agreement)
    }
    assert {
        frozenset((p.first, p.second)): p.outcome == AGREE for p in result.pairs
    } == agrees
    assert all(p.human_difference >= 0 for p in result.pairs)


# Segments -------------------------------------------------------------------------


def test_segments_by_hand_with_ties_under_epsilon() -> None:
    # Segment 7: human (2, 1, 1), metric (0.9, 0.5, 0.45): C, C, and the
    # third pair tied in both at epsilon 0.05. Segment 9: human (3, 2, 1),
    # metric (0.7, 0.8, 0.78): D (a-b), D (a-c), b-c within epsilon: T_m.
    # Segment 11: only system a judged, no pair.
    human = np.array([[2.0, 3.0, 1.0], [1.0, 2.0, np.nan], [1.0, 1.0, np.nan]])
    metric = np.array([[0.9, 0.7, 0.1], [0.5, 0.8, 0.2], [0.45, 0.78, 0.3]])
    result = segment_outcomes(metric, human, 0.05, ("a", "b", "c"), (7, 9, 11))
    seven, nine, eleven = result.segments
    assert (seven.concordant, seven.both_ties, seven.acc_eq) == (2, 1, 1.0)
    assert (nine.discordant, nine.metric_ties, nine.n_pairs) == (2, 1, 3)
    assert nine.acc_eq == 0.0 and nine.missed == 3
    assert eleven.n_pairs == 0 and np.isnan(eleven.acc_eq)
    assert result.n_segments_with_pairs == 2 and result.acc_eq == 0.5
    assert [s.segment for s in result.by_discordant()] == [9, 7]
    # The most confident mistake: a against b (metric |Δ| 0.1 > 0.08).
    worst = nine.worst_pair
    assert (worst.first, worst.second, worst.outcome) == ("a", "b", DISAGREE)
    assert worst.human_difference == 1.0
    assert worst.metric_difference == pytest.approx(-0.1)
    assert seven.worst_pair is None
    assert result.counts.to_dict() == {
        "concordant": 2,
        "discordant": 2,
        "human_ties": 0,
        "metric_ties": 1,
        "both_ties": 1,
    }


@pytest.mark.parametrize("epsilon", [0.0, 0.125, 0.3, 1.0])
@pytest.mark.parametrize("seed", range(4))
def test_random_segments_match_the_loop_and_kendall_variant(
    seed: int, epsilon: float
) -> None:
    metric, human = random_segments(seed)
    result = segment_outcomes(metric, human, epsilon)
    expected = reference_segment_counts(metric, human, epsilon)
    for segment, counts in zip(result.segments, expected):
        assert (
            segment.concordant, segment.discordant, segment.human_ties,
            segment.metric_ties, segment.both_ties,
        ) == (counts["C"], counts["D"], counts["T_h"], counts["T_m"], counts["T_hm"])  # fmt: skip
        if segment.n_pairs:
            right = counts["C"] + counts["T_hm"]
            assert segment.acc_eq == pytest.approx(right / segment.n_pairs, abs=1e-12)
    variant = kendall_variant(metric, human, "acc23", "item", epsilon)
    assert result.acc_eq == pytest.approx(variant.statistic, abs=1e-12)
    assert result.n_segments_with_pairs == variant.n_groups
    assert result.counts == variant.counts
    defined = [s.acc_eq for s in result.segments if s.n_pairs]
    assert result.acc_eq == pytest.approx(np.mean(defined), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_at_the_calibrated_epsilon_acc_eq_is_the_calibration(seed: int) -> None:
    metric, human = random_segments(seed + 10)
    calibrated = calibrate_ties(metric, human, "acc23", group_by="item")
    result = segment_outcomes(metric, human, calibrated.epsilon)
    assert result.acc_eq == pytest.approx(calibrated.statistic, abs=1e-12)


def test_every_worst_pair_is_the_largest_discordant_gap_of_its_segment() -> None:
    metric, human = random_segments(3)
    names = tuple(f"s{i}" for i in range(metric.shape[0]))
    result = segment_outcomes(metric, human, 0.125, names)
    for g, segment in enumerate(result.segments):
        gaps = [
            abs(metric[i, g] - metric[j, g])
            for i, j in combinations(range(len(names)), 2)
            if not np.isnan(
                [metric[i, g], metric[j, g], human[i, g], human[j, g]]
            ).any()
            and abs(metric[i, g] - metric[j, g]) > 0.125
            and human[i, g] != human[j, g]
            and _sign(metric[i, g] - metric[j, g]) != _sign(human[i, g] - human[j, g])
        ]
        if not gaps:
            assert segment.worst_pair is None
            continue
        worst = segment.worst_pair
        first, second = names.index(worst.first), names.index(worst.second)
        assert abs(worst.metric_difference) == max(gaps)
        assert human[first, g] - human[second, g] == worst.human_difference > 0
        assert metric[first, g] - metric[second, g] == worst.metric_difference < 0


def test_a_label_per_segment_is_required() -> None:
    with pytest.raises(ScoringError, match="one label per segment"):
        segment_outcomes(np.zeros((2, 3)), np.zeros((2, 3)), 0.0, None, (1, 2))


def test_wmt21_mqm_against_chrf_acc_eq_is_the_calibrated_statistic() -> None:
    require_full_data("WMT21 en-de MQM with chrF of every rated system")
    metric, human, systems = wmt21_en_de_mqm_chrf()
    calibrated = calibrate_ties(metric, human, "acc23", group_by="item")
    result = segment_outcomes(metric, human, calibrated.epsilon, systems)
    assert result.acc_eq == pytest.approx(calibrated.statistic, abs=1e-12)
    # chrF's calibrated epsilon ties every pair here (MQM ties half of them),
    # so check at epsilon 0 too, where discordant pairs remain.
    for epsilon in (calibrated.epsilon, 0.0):
        result = segment_outcomes(metric, human, epsilon, systems)
        variant = kendall_variant(metric, human, "acc23", "item", epsilon)
        assert result.acc_eq == pytest.approx(variant.statistic, abs=1e-12)
        assert result.counts == variant.counts
    assert result.counts.discordant > 0
    # System level: mean sentence chrF against mean MQM.
    metric_system, human_system = np.nanmean(metric, axis=1), np.nanmean(human, axis=1)
    pairs = system_pair_outcomes(metric_system, human_system, systems)
    expected = pairwise_accuracy(metric_system, human_system, systems)
    assert pairs.accuracy == expected.accuracy
    assert len(pairs.pairs) == 28


# Against the stored protocol -------------------------------------------------------


def test_the_drill_down_of_each_metric_matches_the_protocols_cells() -> None:
    world = synthetic_world()
    result = run(world, quick())
    human = human_scores(world.judgments, world.criterion)
    accuracies = coefficients(result, "system:accuracy")
    acc_eqs = coefficients(result, "segment:acc_eq")
    for metric, epsilon in epsilons(result, "segment:acc_eq").items():
        drill = drill_down_metric(
            world.scores(), human, metric, result.systems, epsilon
        )
        assert drill.negated == (metric in result.negated)
        assert drill.system_pairs.accuracy == pytest.approx(
            accuracies[metric], abs=1e-12
        )
        assert drill.segments.acc_eq == pytest.approx(acc_eqs[metric], abs=1e-12)
        assert set(drill.system_pairs.systems_used) == set(result.systems)
        json.dumps(drill.to_dict(), allow_nan=False)
        assert len(drill.to_dict(limit=5)["segments"]["segments"]) == 5


def test_an_unknown_metric_is_refused() -> None:
    world = synthetic_world()
    human = human_scores(world.judgments, world.criterion)
    with pytest.raises(ScoringError, match="no scores of metric 'bleu'"):
        drill_down_metric(world.scores(), human, "bleu", ("sysA",), 0.0)
