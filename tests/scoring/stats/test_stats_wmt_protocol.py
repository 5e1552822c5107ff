"""The WMT meta-evaluation protocol (``run_protocol``): what each task computes.

Expected values: each task's statistic computed directly, with SciPy or the
statistic's own module, on human scores aggregated by plain loops
(``tests/scoring/support/wmt_protocol_data.py``); each task's p-values and
clusters from :func:`permutation_ranking` run on the same swap with the
task's generator; real WMT21 en-de MQM against our sentence metrics.
Reproducibility, pooling, errors and settings:
``test_stats_wmt_protocol_runs.py``.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from scipy import stats

from scoring.stats.kendall_variants import kendall_variant
from scoring.stats.metric_permutation import cluster_ranks, permutation_ranking
from scoring.stats.metric_swaps import ScoreSwap
from scoring.stats.outcome_sources import agreement_swap, kendall_swap, spa_swap
from scoring.stats.pairwise_accuracy import pairwise_accuracy
from scoring.stats.soft_pairwise import human_permutation_test, soft_pairwise_accuracy
from scoring.stats.tie_calibration import calibrate_ties
from scoring.stats.wmt_protocol import (
    TASKS,
    ProtocolSettings,
    task_seed,
)
from scoring.stats.wmt_results import ProtocolResult
from tests.scoring.support.realdata import require_full_data
from tests.scoring.support.wmt_protocol_data import (
    KEPT,
    METRICS,
    N_SEGMENTS,
    UNSCORED,
    World,
    plain_human,
    synthetic_world,
    wmt21_mqm_world,
)
from tests.scoring.support.wmt_protocol_runs import (
    DRAWS,
    NAME,
    SEED,
    coefficients,
    epsilons,
    quick,
    run,
)


@pytest.fixture(scope="module")
def world() -> World:
    return synthetic_world()


@pytest.fixture(scope="module")
def result(world: World) -> ProtocolResult:
    return run(world)


# The inputs -------------------------------------------------------------------


def test_the_synthetic_world_has_ties_gaps_and_an_excluded_system(
    world, result
) -> None:
    assert result.systems == KEPT
    assert result.excluded_systems == (UNSCORED,)
    assert result.negated == ("ter",)
    assert result.metrics == METRICS
    human = world.human_segment
    # Points nobody judged; segment 29 judged for the unscored system only.
    assert np.isnan(human).any() and np.isnan(human).all(axis=0).any()
    assert world.segments.tolist() == list(range(1, N_SEGMENTS))
    judged = np.isfinite(human)
    assert np.isnan(world.sentence[METRICS.index("fair")][judged]).any()
    assert np.unique(human[judged]).size < judged.sum()  # human ties


def test_lower_is_better_metrics_are_negated_so_every_task_reads_higher_is_better(
    result,
) -> None:
    # ter = 1 - quality / 5: negated, it agrees with the humans like the rest.
    for task in result.tasks:
        low, high = task.ranking.value_range
        chance = (low + high) / 2  # r = 0, accuracy 1/2
        assert coefficients(result, task.task)["ter"] > chance, task.task


# 1. Every coefficient is the statistic computed directly ---------------------


def test_system_pearson_is_scipys_r_of_corpus_scores_and_human_system_means(
    world, result
) -> None:
    got = coefficients(result, "system:pearson")
    for m, metric in enumerate(METRICS):
        expected = stats.pearsonr(world.corpus[m], world.human_system).statistic
        assert got[metric] == pytest.approx(expected, abs=1e-12)
    assert set(epsilons(result, "system:pearson").values()) == {None}


def test_system_accuracy_is_the_pairwise_accuracy_module(world, result) -> None:
    got = coefficients(result, "system:accuracy")
    for m, metric in enumerate(METRICS):
        expected = pairwise_accuracy(world.corpus[m], world.human_system).accuracy
        assert got[metric] == pytest.approx(expected, abs=1e-12)


def test_system_spa_is_soft_pairwise_accuracy_with_the_tasks_signs(
    world, result
) -> None:
    rng = task_seed(SEED, NAME, TASKS.index("system:spa"))
    human = human_permutation_test(
        world.human_segment, systems=KEPT, n_permutations=DRAWS, seed=rng
    )
    got = coefficients(result, "system:spa")
    for m, metric in enumerate(METRICS):
        expected = soft_pairwise_accuracy(world.sentence[m], human).spa
        assert got[metric] == pytest.approx(expected, abs=1e-12)


def test_segment_acc_eq_is_the_item_grouped_tie_calibration(world, result) -> None:
    got = coefficients(result, "segment:acc_eq")
    got_epsilons = epsilons(result, "segment:acc_eq")
    for m, metric in enumerate(METRICS):
        expected = calibrate_ties(
            world.sentence[m], world.human_segment, variant="acc23", group_by="item"
        )
        assert got[metric] == pytest.approx(expected.statistic, abs=1e-12)
        assert got_epsilons[metric] == pytest.approx(expected.epsilon, abs=1e-12)
    # Tie calibration matters on these data: some metric needs an epsilon > 0.
    assert max(got_epsilons.values()) > 0


def test_segment_kendall_23_is_calibrated_and_agrees_with_kendall_variant(
    world, result
) -> None:
    got = coefficients(result, "segment:kendall")
    got_epsilons = epsilons(result, "segment:kendall")
    for m, metric in enumerate(METRICS):
        calibrated = calibrate_ties(world.sentence[m], world.human_segment, "23")
        assert got_epsilons[metric] == pytest.approx(calibrated.epsilon, abs=1e-12)
        assert got[metric] == pytest.approx(calibrated.statistic, abs=1e-12)
        direct = kendall_variant(
            world.sentence[m], world.human_segment, "23", epsilon=calibrated.epsilon
        )
        assert got[metric] == pytest.approx(direct.statistic, abs=1e-12)
    notes = result.task("segment:kendall").notes
    assert notes == {"variant": "23", "tie_calibration": True}


@pytest.mark.parametrize("group_by", ["item", "system", "none"])
def test_segment_kendall_b_is_uncalibrated_kendall_variant(world, group_by) -> None:
    settings = quick(tasks=("segment:kendall",), kendall_variant="b", group_by=group_by)
    result = run(world, settings)
    got = coefficients(result, "segment:kendall")
    for m, metric in enumerate(METRICS):
        expected = kendall_variant(
            world.sentence[m], world.human_segment, "b", group_by=group_by
        )
        assert got[metric] == pytest.approx(expected.statistic, abs=1e-12)
    assert set(epsilons(result, "segment:kendall").values()) == {None}
    assert result.task("segment:kendall").notes["tie_calibration"] is False


@pytest.mark.parametrize("group_by", ["system", "none"])
def test_acc_eq_grouped_otherwise_is_calibrated_the_same_way(world, group_by) -> None:
    result = run(world, quick(tasks=("segment:acc_eq",), group_by=group_by))
    got = coefficients(result, "segment:acc_eq")
    got_epsilons = epsilons(result, "segment:acc_eq")
    for m, metric in enumerate(METRICS):
        expected = calibrate_ties(
            world.sentence[m], world.human_segment, "acc23", group_by=group_by
        )
        assert got[metric] == pytest.approx(expected.statistic, abs=1e-12)
        assert got_epsilons[metric] == pytest.approx(expected.epsilon, abs=1e-12)
    assert result.task("segment:acc_eq").ranking.grouping == group_by


def test_without_tie_calibration_acc_eq_is_taken_at_epsilon_zero(world) -> None:
    result = run(world, quick(tasks=("segment:acc_eq",), tie_calibration=False))
    got = coefficients(result, "segment:acc_eq")
    for m, metric in enumerate(METRICS):
        expected = kendall_variant(world.sentence[m], world.human_segment, "acc23")
        assert got[metric] == pytest.approx(expected.statistic, abs=1e-12)
    assert set(epsilons(result, "segment:acc_eq").values()) == {None}


def test_segment_pearson_is_scipys_r_over_every_point_all_metrics_scored(
    world, result
) -> None:
    human, sentence = world.human_segment, world.sentence
    points = np.isfinite(human) & np.isfinite(sentence).all(axis=0)
    # fair's missing scores drop those points for every metric.
    assert points.sum() < np.isfinite(human).sum()
    got = coefficients(result, "segment:pearson")
    for m, metric in enumerate(METRICS):
        expected = stats.pearsonr(sentence[m][points], human[points]).statistic
        assert got[metric] == pytest.approx(expected, abs=1e-12)


def test_segment_pearson_grouped_by_item_is_the_mean_of_scipys_rs(world) -> None:
    result = run(world, quick(tasks=("segment:pearson",), pearson_group_by="item"))
    human, sentence = world.human_segment, world.sentence
    points = np.isfinite(human) & np.isfinite(sentence).all(axis=0)
    got = coefficients(result, "segment:pearson")
    for m, metric in enumerate(METRICS):
        rs = []
        for g in range(human.shape[1]):
            x, h = sentence[m][points[:, g], g], human[points[:, g], g]
            if h.size >= 2 and np.ptp(h) > 0 and np.ptp(x) > 0:  # r defined
                rs.append(stats.pearsonr(x, h).statistic)
        assert got[metric] == pytest.approx(np.mean(rs), abs=1e-12)


def test_raw_human_scores_are_used_when_not_standardised(world) -> None:
    result = run(world, quick(tasks=("system:pearson",), standardise=False))
    *_, means = plain_human(world.judgments, world.criterion, KEPT, standardise=False)
    assert not np.allclose(means, world.human_system)
    got = coefficients(result, "system:pearson")
    for m, metric in enumerate(METRICS):
        expected = stats.pearsonr(world.corpus[m], means).statistic
        assert got[metric] == pytest.approx(expected, abs=1e-12)
    assert result.to_dict()["settings"]["human"] == "raw"


# 2. p-values and clusters are the permutation test's ------------------------


def reproduced_swap(task: str, world: World, rng: np.random.Generator):
    """The swap of ``task`` built from the plain arrays, drawing from ``rng``
    what the task draws before its permutations (SPA's signs)."""
    human, sentence, corpus = world.human_segment, world.sentence, world.corpus
    if task == "system:pearson":
        return ScoreSwap(world.human_system, corpus, METRICS)
    if task == "system:accuracy":
        return agreement_swap(
            {m: pairwise_accuracy(corpus[i], world.human_system)
             for i, m in enumerate(METRICS)}
        )  # fmt: skip
    if task == "system:spa":
        signs = human_permutation_test(
            human, systems=KEPT, n_permutations=DRAWS, seed=rng
        )
        return spa_swap(
            {m: soft_pairwise_accuracy(sentence[i], signs)
             for i, m in enumerate(METRICS)}
        )  # fmt: skip
    if task == "segment:pearson":
        return ScoreSwap(human, sentence, METRICS)
    variant = "acc23" if task == "segment:acc_eq" else "23"
    calibrated = {
        m: calibrate_ties(sentence[i], human, variant).epsilon
        for i, m in enumerate(METRICS)
    }
    return kendall_swap(
        dict(zip(METRICS, sentence)), human, variant=variant, epsilons=calibrated
    )


@pytest.mark.parametrize("task", TASKS)
def test_p_values_and_clusters_are_the_permutation_ranking_of_the_same_swap(
    world, result, task: str
) -> None:
    rng = task_seed(SEED, NAME, TASKS.index(task))
    expected = permutation_ranking(
        reproduced_swap(task, world, rng), n_draws=DRAWS, seed=rng, alpha=0.05
    )
    ranking = result.task(task).ranking
    assert ranking.values == pytest.approx(expected.values, abs=1e-12)
    np.testing.assert_array_equal(ranking.p_values, expected.p_values)
    cells = result.task(task).cells()
    best = int(np.argmax(expected.values))
    assert cells[0]["metric"] == METRICS[best]
    assert cells[0]["p_value"] is None
    for cell in cells[1:]:
        other = METRICS.index(cell["metric"])
        assert cell["p_value"] == expected.p_values[best, other]
    clusters = cluster_ranks(expected.values, expected.p_values, alpha=0.05)
    for cell in cells:
        assert cell["cluster"] == clusters[METRICS.index(cell["metric"])]
        assert cell["method"] == task.partition(":")[2]
    assert [c["cluster"] for c in cells] == sorted(c["cluster"] for c in cells)


def test_the_clusters_follow_wmts_rule_by_hand(result) -> None:
    # Walk down best first; a new cluster starts at a metric that some
    # metric of the current cluster beats at p <= alpha.
    for task in result.tasks:
        ranking = task.ranking
        order = sorted(range(len(METRICS)), key=lambda i: -ranking.values[i])
        expected, cluster, members = {}, 1, []
        for metric in order:
            if any(ranking.p_values[a, metric] <= 0.05 for a in members):
                cluster, members = cluster + 1, []
            members.append(metric)
            expected[METRICS[metric]] = cluster
        assert {c["metric"]: c["cluster"] for c in task.cells()} == expected


def test_a_clearly_better_metric_is_significantly_better(result) -> None:
    cells = result.task("segment:pearson").cells()
    assert cells[0]["metric"] == "good"
    poor = next(c for c in cells if c["metric"] == "poor")
    assert poor["p_value"] <= 0.05 and poor["cluster"] > 1


# 7. Real data: WMT21 en-de MQM ---------------------------------------------------


def test_wmt21_en_de_mqm_runs_and_every_coefficient_is_the_direct_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    require_full_data("WMT21 en-de MQM and every rated system's output")
    world = wmt21_mqm_world("en-de")
    scores = world.scores()
    assert dict(scores.higher_is_better) == {"chrf": True, "bleu": True, "wer": False}
    started = time.perf_counter()
    result = run(world, ProtocolSettings(n_permutations=200, seed=1), name="en-de")
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(
            f"\nWMT21 en-de MQM protocol ({len(result.systems)} systems x "
            f"{world.segments.size} segments, {len(world.metrics)} metrics, 200 "
            f"permutations, {len(TASKS)} tasks): {elapsed:.1f} s"
        )
    assert result.systems == world.systems and len(world.systems) == 10
    assert set(result.excluded_systems) == set(world.judgments.systems) - set(
        world.systems
    )
    assert result.negated == ("wer",)
    human, sentence, corpus = world.human_segment, world.sentence, world.corpus
    signs = human_permutation_test(
        human,
        systems=world.systems,
        n_permutations=200,
        seed=task_seed(1, "en-de", TASKS.index("system:spa")),
    )
    points = np.isfinite(human) & np.isfinite(sentence).all(axis=0)
    for m, metric in enumerate(world.metrics):
        acc_eq = calibrate_ties(sentence[m], human, "acc23")
        tau_23 = calibrate_ties(sentence[m], human, "23")
        expected = {
            "system:pearson": stats.pearsonr(corpus[m], world.human_system).statistic,
            "system:accuracy": pairwise_accuracy(corpus[m], world.human_system).accuracy,
            "system:spa": soft_pairwise_accuracy(sentence[m], signs).spa,
            "segment:acc_eq": acc_eq.statistic,
            "segment:kendall": tau_23.statistic,
            "segment:pearson": stats.pearsonr(sentence[m][points], human[points]).statistic,
        }  # fmt: skip
        for task, value in expected.items():
            got = coefficients(result, task)[metric]
            assert got == pytest.approx(value, abs=1e-9), (task, metric)
        got_acc_eq = epsilons(result, "segment:acc_eq")[metric]
        assert got_acc_eq == pytest.approx(acc_eq.epsilon, abs=1e-9)
        got_tau = epsilons(result, "segment:kendall")[metric]
        assert got_tau == pytest.approx(tau_23.epsilon, abs=1e-9)
    json.dumps(result.to_dict(), allow_nan=False)
