"""The WMT meta-evaluation protocol: reproducible draws, pooling test sets
(``pool_protocols``: the weighted mean and the summed draws written out by
hand), which systems are used and the errors about them, settings and
serialisation, and the printed timing at WMT size. What each task computes:
``test_stats_wmt_protocol.py``.
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
from scoring.stats.metric_permutation import cluster_ranks
from scoring.stats.tie_calibration import calibrate_ties
from scoring.stats.wmt_protocol import (
    TASKS,
    ProtocolSettings,
    pool_protocols,
    run_protocol,
    task_seed,
)
from scoring.stats.wmt_results import ProtocolResult, overall_cells
from tests.scoring.support.wmt_protocol_data import (
    KEPT,
    METRICS,
    UNJUDGED,
    UNSCORED,
    World,
    synthetic_world,
    wmt_sized_inputs,
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
