"""The WMT meta-evaluation protocol (``run_protocol``, ``pool_protocols``).

Expected values: each task's statistic computed directly, with SciPy or the
statistic's own module, on human scores aggregated by plain loops
(``tests/scoring/support/wmt_protocol_data.py``); each task's p-values and
clusters from :func:`permutation_ranking` run on the same swap with the
task's generator; the overall block from the weighted mean and the summed
draws written out by hand; real WMT21 en-de MQM against our sentence
metrics; and printed timings.
"""

from __future__ import annotations

import json
import math
import os
import time

import numpy as np
import pytest
from scipy import stats

from scoring.errors import ScoringError
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
    pool_protocols,
    run_protocol,
    task_seed,
)
from scoring.stats.wmt_results import ProtocolResult, overall_cells
from tests.scoring.support.realdata import require_full_data
from tests.scoring.support.wmt_protocol_data import (
    KEPT,
    METRICS,
    N_SEGMENTS,
    UNJUDGED,
    UNSCORED,
    World,
    metric_scores,
    plain_human,
    synthetic_world,
    wmt21_mqm_world,
    wmt_sized_inputs,
)

DRAWS = 200
SEED = 7
NAME = "synthetic"
SETTINGS = ProtocolSettings(n_permutations=DRAWS, seed=SEED)


def run(
    world: World, settings: ProtocolSettings = SETTINGS, name: str = NAME, data=None
):
    """The protocol on ``world`` (or on other SCORES.json ``data``)."""
    scores = world.scores() if data is None else metric_scores(data)
    return run_protocol(scores, world.judgments, world.criterion, settings, name=name)


def quick(**settings) -> ProtocolSettings:
    return ProtocolSettings(n_permutations=20, **settings)


def coefficients(result: ProtocolResult, task: str) -> dict[str, float | None]:
    return {c["metric"]: c["coefficient"] for c in result.task(task).cells()}


def epsilons(result: ProtocolResult, task: str) -> dict[str, float | None]:
    return {c["metric"]: c["tie_epsilon"] for c in result.task(task).cells()}


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


# 3. Reproducible ---------------------------------------------------------------


def test_the_same_seed_gives_the_same_result(world, result) -> None:
    again = run(world)
    assert again.to_dict() == result.to_dict()
    for first, second in zip(again.tasks, result.tasks):
        np.testing.assert_array_equal(
            first.ranking.null_differences, second.ranking.null_differences
        )


def test_a_test_set_reads_the_same_alone_and_pooled(world, result) -> None:
    alone = result.to_dict()
    other = run(synthetic_world(seed=1), name="other")
    pooled = pool_protocols([result, other])
    assert result.to_dict() == alone == run(world).to_dict()
    for task in result.tasks:
        row = pooled.tasks.index(f"{NAME}/{task.task}")
        np.testing.assert_array_equal(pooled.task_values[row], task.ranking.values)
        np.testing.assert_array_equal(pooled.task_ranks[row], task.ranking.ranks)


def test_a_task_draws_the_same_whichever_other_tasks_run(world, result) -> None:
    tasks = ("segment:pearson", "system:pearson")  # fewer, in another order
    alone = run(world, ProtocolSettings(tasks=tasks, n_permutations=DRAWS, seed=SEED))
    for task in tasks:
        np.testing.assert_array_equal(
            alone.task(task).ranking.null_differences,
            result.task(task).ranking.null_differences,
        )


def test_other_test_set_names_and_seeds_draw_differently(world, result) -> None:
    renamed = run(world, name="renamed")
    reseeded = run(world, ProtocolSettings(n_permutations=DRAWS, seed=SEED + 1))
    for other in (renamed, reseeded):
        for task in TASKS:
            mine = result.task(task).ranking
            theirs = other.task(task).ranking
            assert not np.array_equal(
                mine.null_differences, theirs.null_differences, equal_nan=True
            ), task
            if task != "system:spa":  # SPA's value depends on the drawn signs
                np.testing.assert_array_equal(theirs.values, mine.values)
    # The tasks of one test set draw independently of each other.
    first_draws = {
        tuple(task_seed(SEED, NAME, index).integers(0, 2**32, size=4))
        for index in range(len(TASKS))
    }
    assert len(first_draws) == len(TASKS)


# 4. Pooling test sets -----------------------------------------------------------


@pytest.fixture(scope="module")
def two_sets(result) -> tuple[ProtocolResult, ProtocolResult]:
    tasks = ("system:pearson", "system:accuracy", "segment:acc_eq")
    settings = ProtocolSettings(tasks=tasks, n_permutations=DRAWS, seed=SEED)
    return result, run(synthetic_world(seed=1), settings, name="b")


def rescaled(task) -> np.ndarray:
    """A task's statistics in [0, 1]: correlations (r + 1) / 2."""
    values = task.ranking.values
    correlation = task.task.endswith("pearson") or task.task == "segment:kendall"
    return (values + 1) / 2 if correlation else values


def test_the_overall_score_is_the_weighted_mean_of_rescaled_task_statistics(
    two_sets,
) -> None:
    first, second = two_sets
    pooled = pool_protocols([first, second], weights=[2.0, 1.0])
    # Set a's weight 2 is shared by its six tasks, b's 1 by its three.
    expected = sum(2.0 / 6 * rescaled(task) for task in first.tasks)
    expected += sum(1.0 / 3 * rescaled(task) for task in second.tasks)
    expected /= 3.0
    assert pooled.overall == pytest.approx(expected, abs=1e-12)
    assert pooled.weights == pytest.approx([2 / 18] * 6 + [1 / 9] * 3)
    cells = overall_cells(pooled)
    assert [c["coefficient"] for c in cells] == pytest.approx(
        sorted(expected, reverse=True), abs=1e-12
    )
    assert cells[0]["p_value"] is None
    assert {c["method"] for c in cells} == {"overall"}


def test_pooled_p_values_come_from_the_summed_draws(two_sets) -> None:
    first, second = two_sets
    pooled = pool_protocols([first, second])
    summed = 0.0
    for result in (first, second):
        for task in result.tasks:
            low, high = task.ranking.value_range
            weight = 0.5 / len(result.tasks)
            summed = summed + weight * task.ranking.null_differences / (high - low)
    overall = pooled.overall
    p_values = np.full((len(METRICS),) * 2, np.nan)
    for a in range(len(METRICS)):
        for b in range(len(METRICS)):
            if a != b:
                observed = overall[a] - overall[b]
                scale = max(1.0, abs(overall[a]), abs(overall[b]))
                p_values[a, b] = np.mean(summed[:, a, b] >= observed - 1e-9 * scale)
    np.testing.assert_allclose(pooled.ranking.p_values, p_values, atol=1e-12)
    ranks = cluster_ranks(overall, p_values, alpha=0.05)
    assert pooled.ranking.ranks.tolist() == ranks.tolist()
    cells = overall_cells(pooled)
    best = int(np.argmax(overall))
    for cell in cells[1:]:
        other = METRICS.index(cell["metric"])
        assert cell["p_value"] == pytest.approx(p_values[best, other], abs=1e-12)


def test_pooling_one_test_set_shares_its_weight_among_its_tasks(result) -> None:
    pooled = pool_protocols([result])
    assert pooled.tasks == tuple(f"{NAME}/{task}" for task in TASKS)
    assert pooled.weights == pytest.approx(np.full(len(TASKS), 1 / len(TASKS)))


@pytest.mark.parametrize(
    "weights", [[1.0], [1.0, 0.0], [1.0, -1.0], [1.0, math.nan], [1.0, math.inf]]
)
def test_pooling_refuses_bad_weights(two_sets, weights) -> None:
    with pytest.raises(ScoringError, match="weight per test set"):
        pool_protocols(list(two_sets), weights=weights)


def test_pooling_refuses_duplicate_names_and_nothing(result) -> None:
    with pytest.raises(ScoringError, match="distinct names"):
        pool_protocols([result, result])
    with pytest.raises(ScoringError, match="at least one test set"):
        pool_protocols([])


# 5. Which systems, and the errors about them ----------------------------------


def test_only_systems_with_a_human_score_and_every_metrics_scores_are_used(
    world,
) -> None:
    data = json.loads(json.dumps(world.data))
    del data["sysB"]["poor"]  # one metric lacks a system
    data["sysC"]["fair"] = {"score": 0.3}  # a corpus score, no sentence scores
    result = run(world, quick(), data=data)
    assert result.excluded_systems == ("sysB", "sysC", UNSCORED)
    assert result.systems == ("sysA", "sysD", "sysE", "sysF")
    # At system level only, the corpus score is enough for sysC.
    system_only = run(world, quick(tasks=("system:pearson",)), data=data)
    assert system_only.excluded_systems == ("sysB", UNSCORED)
    kept = [KEPT.index(s) for s in system_only.systems]
    expected = stats.pearsonr(
        [data[s]["good"]["score"] for s in system_only.systems],
        world.human_system[kept],
    ).statistic
    got = coefficients(system_only, "system:pearson")["good"]
    assert got == pytest.approx(expected, abs=1e-12)


def test_fewer_than_three_systems_is_an_error_naming_the_test_set(world) -> None:
    data = {s: world.data[s] for s in ("sysA", "sysB", UNJUDGED)}
    with pytest.raises(ScoringError, match=r"newstest.*2 system\(s\).*at least 3"):
        run(world, quick(), name="newstest", data=data)


def test_fewer_than_two_metrics_is_an_error_naming_the_test_set(world) -> None:
    data = {s: {"good": entries["good"]} for s, entries in world.data.items()}
    with pytest.raises(ScoringError, match="newstest.*two metrics"):
        run(world, quick(), name="newstest", data=data)


def test_a_sentence_score_vector_shorter_than_the_judged_segments_is_an_error(
    world,
) -> None:
    data = json.loads(json.dumps(world.data))
    del data["sysD"]["fair"]["sentence_scores"][20:]
    message = r"up to 29 were judged but metric 'fair' has only 20 .* system 'sysD'"
    with pytest.raises(ScoringError, match=message):
        run(world, quick(), data=data)


def test_spa_notes_count_the_segments_dropped_and_why(world, result) -> None:
    notes = result.task("system:spa").notes
    missing_human = np.isnan(world.human_segment).any(axis=0)  # (G,)
    missing_metric = np.isnan(world.sentence).any(axis=1)  # (M, G)
    assert notes["segments"] == world.segments.size
    assert notes["segments_missing_human_score"] == missing_human.sum()
    assert notes["segments_missing_metric_score"] == missing_metric.sum(axis=1).max()
    assert notes["segments_used"] == min(
        (~missing_human & ~row).sum() for row in missing_metric
    )
    assert 0 < notes["segments_used"] < notes["segments"]
    assert notes["segments_missing_metric_score"] > 0


# 6. Settings and serialisation ---------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"tasks": ("system:kendall",)}, "unknown task"),
        ({"tasks": ()}, "unknown task"),
        ({"tasks": ("system:pearson", "system:pearson")}, "more than once"),
        ({"group_by": "segment"}, "group_by"),
        ({"pearson_group_by": "judge"}, "group_by"),
        ({"kendall_variant": "c"}, "kendall variant"),
        ({"n_permutations": 0}, "permutations"),
        ({"n_permutations": 2.5}, "permutations"),
        ({"n_permutations": True}, "permutations"),
        ({"seed": 1.5}, "seed"),
        ({"seed": "1"}, "seed"),
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": 1.0}, "alpha"),
        ({"alpha": math.nan}, "alpha"),
        ({"tie_sample_rate": 0.0}, "sample rate"),
        ({"tie_sample_rate": 1.5}, "sample rate"),
    ],
)
def test_bad_settings_are_refused_with_the_reason(settings, message) -> None:
    with pytest.raises(ScoringError, match=message):
        ProtocolSettings(**settings)


def test_settings_keep_the_tasks_as_a_tuple_and_take_numpy_integers() -> None:
    settings = ProtocolSettings(
        tasks=["system:pearson"], n_permutations=np.int64(50), seed=np.int32(3)
    )
    assert settings.tasks == ("system:pearson",)
    assert json.loads(json.dumps(settings.to_dict()))["permutations"] == 50


def test_an_unknown_criterion_is_refused(world) -> None:
    with pytest.raises(ScoringError, match="no judgments of criterion 'style'"):
        run_protocol(world.scores(), world.judgments, "style")


def test_the_result_is_json_safe_and_round_trips(result) -> None:
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data == result.to_dict()
    assert data["settings"] == {
        "tasks": list(TASKS),
        "permutations": DRAWS,
        "seed": SEED,
        "alpha": 0.05,
        "group_by": "item",
        "pearson_group_by": "none",
        "tie_calibration": True,
        "tie_sample_rate": 1.0,
        "kendall_variant": "23",
        "human": "z",
    }
    assert data["excluded_systems"] == [UNSCORED]
    assert [task["task"] for task in data["tasks"]] == list(TASKS)
    for task in data["tasks"]:
        assert {tuple(cell) for cell in task["cells"]} == {
            ("metric", "method", "coefficient", "tie_epsilon", "p_value", "cluster")
        }
    pooled = pool_protocols([result])
    json.dumps(pooled.to_dict(), allow_nan=False)
    json.dumps(overall_cells(pooled), allow_nan=False)


def test_a_sampled_tie_search_is_seeded_by_the_task(world) -> None:
    settings = quick(tasks=("segment:acc_eq",), tie_sample_rate=0.5, seed=3)
    first = run(world, settings, name="s")
    assert first.to_dict() == run(world, settings, name="s").to_dict()
    rng = task_seed(3, "s", TASKS.index("segment:acc_eq"))
    expected = {
        metric: calibrate_ties(
            world.sentence[m], world.human_segment, sample_rate=0.5, seed=rng
        )
        for m, metric in enumerate(METRICS)
    }
    got = epsilons(first, "segment:acc_eq")
    assert got == {m: pytest.approx(e.epsilon, abs=1e-12) for m, e in expected.items()}


def test_asking_for_a_task_that_was_not_run_names_those_that_were(world) -> None:
    result = run(world, quick(tasks=("system:pearson",)), name="newstest")
    with pytest.raises(KeyError, match="'segment:pearson' was not run on 'newstest'"):
        result.task("segment:pearson")


def test_progress_is_reported_after_each_task(world) -> None:
    calls = []
    run_protocol(
        world.scores(),
        world.judgments,
        world.criterion,
        quick(tasks=("system:pearson", "segment:pearson")),
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 2), (2, 2)]


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


# 8. Speed at WMT size ----------------------------------------------------------


def test_the_whole_protocol_at_wmt_size_prints_its_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not os.environ.get("MTDASH_TIMINGS"):
        pytest.skip("a timing at WMT size (about a minute): set MTDASH_TIMINGS=1")
    judgments, scores = wmt_sized_inputs(20, 2000, 30)
    finished: list[float] = []
    started = time.perf_counter()
    result = run_protocol(
        scores,
        judgments,
        "score",
        ProtocolSettings(n_permutations=1000),
        name="wmt-size",
        progress=lambda done, total: finished.append(time.perf_counter() - started),
    )
    steps = np.diff([0.0, *finished])
    with capsys.disabled():
        print(
            "\nWMT-size protocol (20 systems x 2000 segments x 30 metrics, 1000 "
            f"permutations, {len(TASKS)} tasks): {finished[-1]:.1f} s ("
            + ", ".join(f"{t} {s:.1f} s" for t, s in zip(TASKS, steps))
            + ")"
        )
    assert len(result.tasks) == len(TASKS)
