"""Metric rankings pooled over tasks and test sets (WMT23's overall ranking).

Expected values: hand computations of the weighted, rescaled means and of
the pooled p-values from the tasks' own draws; pairwise accuracy pooled by
counting pairs from :mod:`scoring.stats.pairwise_accuracy`; the WMT23
protocol on real WMT21 MQM data; and a printed timing of the whole protocol
at WMT size.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from scipy import stats

from scoring.errors import ScoringError
from scoring.stats.metric_permutation import MetricRanking, permutation_ranking
from scoring.stats.metric_swaps import ScoreSwap
from scoring.stats.outcome_sources import agreement_swap, kendall_swap
from scoring.stats.pairwise_accuracy import pairwise_accuracy, pooled_pairwise_accuracy
from scoring.stats.pooled_meta_evaluation import (
    pool_rankings,
    pooled_accuracy_ranking,
    pooled_permutation,
    pooled_scores,
    wmt23_weights,
)
from scoring.stats.tie_calibration import calibrate_ties
from tests.scoring.support.metric_permutation_reference import (
    REAL_METRICS,
    TOLERANCE,
    corpus_scores,
    metric_matrix,
    mqm_matrix,
)
from tests.scoring.support.realdata import require_full_data

METRICS = ("good", "fair", "poor")


def synthetic_set(seed: int, systems: int = 8, segments: int = 40) -> tuple:
    """Segment scores of a test set: human ``(S, N)``, metrics ``(3, S, N)``."""
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(systems, 1)) + rng.normal(size=(systems, segments))
    noise = np.array([0.4, 1.0, 2.5])[:, None, None]
    return human, human + noise * rng.normal(size=(3, systems, segments))


def wmt_tasks(seed: int) -> dict:
    """System Pearson, system accuracy and segment acc_eq of one test set."""
    human, scores = synthetic_set(seed)
    return {
        "sys-pearson": ScoreSwap(human.mean(axis=1), scores.mean(axis=2), METRICS),
        "sys-accuracy": ScoreSwap(
            human.mean(axis=1),
            scores.mean(axis=2),
            METRICS,
            statistic="pairwise_accuracy",
        ),
        "seg-acc_eq": kendall_swap(dict(zip(METRICS, scores)), human),
    }


def fixed_ranking(values: list, value_range: tuple, draws: np.ndarray) -> MetricRanking:
    """A ranking made by hand: draws of d*(0, 1) ``(R,)``, others 0."""
    null = np.zeros((draws.size, 3, 3))
    null[:, 0, 1], null[:, 1, 0] = draws, -draws
    return MetricRanking(
        statistic="hand",
        metrics=METRICS,
        values=np.array(values),
        ranks=np.ones(3, dtype=np.int64),
        p_values=np.full((3, 3), np.nan),
        n_draws_used=np.full((3, 3), draws.size),
        n_draws=draws.size,
        seed=None,
        alpha=0.05,
        grouping="none",
        swapped="scores",
        unit="point",
        value_range=value_range,
        null_differences=null,
    )


def test_a_worked_pooling_of_two_tasks() -> None:
    # Pearson (0.8, 0.6, 0.6) -> (0.9, 0.8, 0.8); accuracy (0.7, 0.75, 0.5);
    # equal weights: overall (0.8, 0.775, 0.65).
    pearson = fixed_ranking([0.8, 0.6, 0.6], (-1.0, 1.0), np.array([0.2, -0.2]))
    accuracy = fixed_ranking([0.7, 0.75, 0.5], (0.0, 1.0), np.array([-0.05, 0.05]))
    pooled = pool_rankings({"pearson": pearson, "accuracy": accuracy})
    assert pooled.overall == pytest.approx([0.8, 0.775, 0.65])
    # Pooled draws of (good, fair): 0.5 * 0.2 / 2 + 0.5 * -0.05 = 0.025 and
    # -0.025; the observed 0.8 - 0.775 = 0.025 is reached once in two.
    assert pooled.ranking.p_value("good", "fair") == 0.5
    assert pooled.ranking.p_value("fair", "good") == 1.0
    # (good, poor): every pooled draw is 0 < 0.15, so p = 0, a new rank.
    assert pooled.ranking.p_value("good", "poor") == 0.0
    assert pooled.ranking.ranks.tolist() == [1, 1, 2]
    assert pooled.weights.tolist() == [0.5, 0.5]


def test_the_overall_score_is_the_weighted_mean_of_rescaled_statistics() -> None:
    rankings = {
        name: permutation_ranking(swap, n_draws=200, seed=3)
        for name, swap in wmt_tasks(1).items()
    }
    weights = [2.0, 1.0, 1.0]
    pooled = pool_rankings(rankings, weights)
    expected = []
    for m in range(3):
        total = 0.0
        for weight, ranking in zip(weights, rankings.values()):
            low, high = ranking.value_range
            total += weight / 4.0 * (ranking.values[m] - low) / (high - low)
        expected.append(total)
    assert pooled.overall == pytest.approx(expected, abs=1e-15)
    assert pooled.task_values[1].tolist() == list(rankings["sys-accuracy"].values)
    assert pooled.value_ranges == ((-1.0, 1.0), (0.0, 1.0), (0.0, 1.0))


def test_pooled_p_values_sum_the_tasks_draws_index_by_index() -> None:
    pooled = pooled_permutation(wmt_tasks(2), [1.0, 1.0, 2.0], n_draws=300, seed=5)
    children = np.random.SeedSequence(5).spawn(3)
    rankings = [
        permutation_ranking(swap, n_draws=300, seed=np.random.default_rng(child))
        for swap, child in zip(wmt_tasks(2).values(), children)
    ]
    weights = np.array([0.25, 0.25, 0.5])
    overall = pooled.overall
    for a in range(3):
        for b in range(3):
            if a == b:
                continue
            count = 0
            for r in range(300):
                draw = sum(
                    w
                    * t.null_differences[r, a, b]
                    / (t.value_range[1] - t.value_range[0])
                    for w, t in zip(weights, rankings)
                )
                scale = max(1.0, abs(overall[a]), abs(overall[b]))
                count += draw >= overall[a] - overall[b] - TOLERANCE * scale
            assert pooled.ranking.p_values[a, b] == pytest.approx(
                count / 300, abs=1e-12
            )
    assert pooled.ranking.seed == 5


def test_each_task_draws_its_own_masks_from_the_one_seed() -> None:
    tasks = wmt_tasks(3)
    same = {"first": tasks["sys-pearson"], "second": tasks["sys-pearson"]}
    pooled = pooled_permutation(same, n_draws=100, seed=1)
    again = pooled_permutation(same, n_draws=100, seed=1)
    first, second = (
        permutation_ranking(
            tasks["sys-pearson"], n_draws=100, seed=np.random.default_rng(c)
        )
        for c in np.random.SeedSequence(1).spawn(2)
    )
    # Independent between tasks, aligned by index, reproducible.
    assert not np.allclose(
        first.null_differences, second.null_differences, equal_nan=True
    )
    np.testing.assert_array_equal(
        pooled.ranking.null_differences, again.ranking.null_differences
    )


def test_accuracy_pooled_by_counting_pairs_agrees_with_the_pairwise_module() -> None:
    sets = {name: synthetic_set(seed, systems=size) for name, seed, size in
            [("en-de", 4, 9), ("zh-en", 5, 6)]}  # fmt: skip
    swaps = {
        name: ScoreSwap(
            human.mean(axis=1),
            scores.mean(axis=2),
            METRICS,
            statistic="pairwise_accuracy",
        )
        for name, (human, scores) in sets.items()
    }
    pooled = pooled_accuracy_ranking(swaps, n_draws=200, seed=2)
    for m in range(len(METRICS)):
        counted = pooled_pairwise_accuracy(
            {
                name: pairwise_accuracy(scores[m].mean(axis=1), human.mean(axis=1))
                for name, (human, scores) in sets.items()
            }
        )
        assert pooled.overall[m] == pytest.approx(counted.accuracy, abs=1e-15)
    assert pooled.weights == pytest.approx([36 / 51, 15 / 51])
    assert pooled.ranking.statistic == "pairwise_accuracy"
    # The pooled accuracy is itself a task of WMT23's overall ranking.
    overall = pool_rankings(
        {"accuracy": pooled.ranking, "pearson": permutation_ranking(
            wmt_tasks(4)["sys-pearson"], n_draws=200, seed=3)},
        [2.0, 1.0],
    )  # fmt: skip
    assert overall.overall[0] == pytest.approx(
        2 / 3 * pooled.overall[0] + 1 / 3 * (overall.task_values[1, 0] + 1) / 2
    )


def test_the_pooled_accuracy_of_the_pairwise_module_can_swap_pair_agreements() -> None:
    sets = {"en-de": synthetic_set(8, systems=7), "zh-en": synthetic_set(9, systems=5)}
    pooled = {
        metric: pooled_pairwise_accuracy(
            {
                name: pairwise_accuracy(scores[m].mean(axis=1), human.mean(axis=1))
                for name, (human, scores) in sets.items()
            }
        )
        for m, metric in enumerate(METRICS)
    }
    swap = agreement_swap(pooled)
    assert swap.values == pytest.approx([pooled[m].accuracy for m in METRICS])
    assert swap.n_units == 21 + 10  # every system pair of both sets
    ranking = permutation_ranking(swap, n_draws=200, seed=1)
    assert ranking.statistic == "pairwise_accuracy" and ranking.unit == "pair"


def test_tasks_without_all_their_draws_cannot_be_pooled() -> None:
    swap = wmt_tasks(6)["sys-pearson"]
    early = permutation_ranking(swap, n_draws=1000, seed=1, early_stop_confidence=0.99)
    assert early.n_draws_used[0, 1] == 100  # settled after one block
    full = permutation_ranking(swap, n_draws=1000, seed=1)
    with pytest.raises(ScoringError, match="cannot be pooled"):
        pool_rankings({"early": early, "full": full})
    shorter = permutation_ranking(swap, n_draws=500, seed=1)
    with pytest.raises(ScoringError, match="same number"):
        pool_rankings({"short": shorter, "full": full})


def test_metrics_missing_from_a_task_are_left_out_and_listed() -> None:
    human, scores = synthetic_set(7)
    three = permutation_ranking(ScoreSwap(human, scores, METRICS), n_draws=100)
    two = permutation_ranking(ScoreSwap(human, scores[:2], METRICS[:2]), n_draws=100)
    pooled = pool_rankings({"three": three, "two": two})
    assert pooled.metrics == METRICS[:2]
    assert pooled.excluded_metrics == ("poor",)
    data = json.loads(json.dumps(pooled.to_dict()))
    assert data["excluded_metrics"] == ["poor"]
    assert data["overall"]["grouping"] == "pooled"
    assert [task["task"] for task in data["tasks"]] == ["three", "two"]


def test_wmt23_weights_give_the_pooled_accuracy_as_much_as_all_pairs() -> None:
    weights = wmt23_weights(3)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[0] == pytest.approx(3 / 12)
    assert weights[1:] == pytest.approx([1 / 12] * 9)
    assert (
        pooled_scores(np.array([[0.0], [1.0]]), [(-1, 1), (0, 1)], np.ones(2)) == 0.75
    )
    with pytest.raises(ScoringError):
        wmt23_weights(0)


# Real data: the WMT23 protocol on WMT21 en-de and zh-en MQM ------------------


def test_the_wmt23_protocol_on_wmt21_mqm() -> None:
    require_full_data("WMT21 MQM segment scores of every rated system")
    pairs = ("en-de", "zh-en")
    accuracy, per_pair, expected = {}, {}, {}
    for pair in pairs:
        human = mqm_matrix(pair)
        segments = np.stack([metric_matrix(pair, metric) for metric in REAL_METRICS])
        system_human = np.nanmean(human, axis=1)
        corpus = np.stack([corpus_scores(pair, metric) for metric in REAL_METRICS])
        accuracy[pair] = ScoreSwap(
            system_human, corpus, REAL_METRICS, statistic="pairwise_accuracy"
        )
        judged = np.isfinite(human)
        per_pair[f"{pair} sys pearson"] = ScoreSwap(system_human, corpus, REAL_METRICS)
        per_pair[f"{pair} seg pearson"] = ScoreSwap(human, segments, REAL_METRICS)
        per_pair[f"{pair} seg acc_eq"] = kendall_swap(
            dict(zip(REAL_METRICS, segments)), human
        )
        expected[pair] = {
            "sys pearson": [stats.pearsonr(system_human, c).statistic for c in corpus],
            "seg pearson": [
                stats.pearsonr(human[judged], s[judged]).statistic for s in segments
            ],
            "seg acc_eq": [calibrate_ties(s, human).statistic for s in segments],
        }
    pooled_accuracy = pooled_accuracy_ranking(accuracy, n_draws=1000, seed=1)
    counted = [
        pooled_pairwise_accuracy(
            {
                pair: pairwise_accuracy(corpus_scores(pair, metric), np.nanmean(
                    mqm_matrix(pair), axis=1))
                for pair in pairs
            }
        ).accuracy
        for metric in REAL_METRICS
    ]  # fmt: skip
    assert pooled_accuracy.overall == pytest.approx(counted, abs=1e-15)
    rankings = {"sys accuracy": pooled_accuracy.ranking}
    children = np.random.SeedSequence(7).spawn(len(per_pair))
    for (name, swap), child in zip(per_pair.items(), children):
        pair, statistic = name.split(" ", 1)
        assert swap.values == pytest.approx(expected[pair][statistic], abs=1e-9)
        rankings[name] = permutation_ranking(
            swap, n_draws=1000, seed=np.random.default_rng(child)
        )
    overall = pool_rankings(rankings, wmt23_weights(len(pairs)))
    by_hand = [
        sum(
            w * (r.values[m] - r.value_range[0]) / (r.value_range[1] - r.value_range[0])
            for w, r in zip(wmt23_weights(2), rankings.values())
        )
        for m in range(len(REAL_METRICS))
    ]
    assert overall.overall == pytest.approx(by_hand, abs=1e-12)
    data = json.loads(json.dumps(overall.to_dict()))
    assert len(data["tasks"]) == 7
    assert sorted(row["rank"] for row in data["overall"]["metrics"])[0] == 1
    epsilons = rankings["en-de seg acc_eq"].epsilons
    assert epsilons is not None and set(epsilons) == set(REAL_METRICS)


# Speed: the whole protocol at WMT size ----------------------------------------


def test_the_whole_protocol_at_wmt_size_prints_its_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    n_systems, n_segments, n_metrics, n_draws = 20, 2000, 30, 1000
    rng = np.random.default_rng(0)
    human = rng.normal(size=(n_systems, 1)) + rng.normal(size=(n_systems, n_segments))
    human = np.round(human * 4) / 4  # human ties, as MQM has
    noise = np.linspace(0.3, 3.0, n_metrics)[:, None, None]
    scores = human + noise * rng.normal(size=(n_metrics, n_systems, n_segments))
    names = tuple(f"metric{m:02d}" for m in range(n_metrics))
    started = time.perf_counter()
    swaps = {
        "sys accuracy": ScoreSwap(
            human.mean(axis=1),
            scores.mean(axis=2),
            names,
            statistic="pairwise_accuracy",
        ),
        "sys pearson": ScoreSwap(human.mean(axis=1), scores.mean(axis=2), names),
        "seg pearson": ScoreSwap(human, scores, names),
        "seg acc_eq": kendall_swap(dict(zip(names, scores)), human),
    }
    prepared = time.perf_counter()
    overall = pooled_permutation(swaps, [1, 1, 1, 1], n_draws=n_draws, seed=1)
    finished = time.perf_counter()
    with capsys.disabled():
        print(
            f"\nWMT-size protocol ({n_systems} systems x {n_segments} segments x "
            f"{n_metrics} metrics, {n_draws} draws, 4 tasks pooled): preparation "
            f"with tie calibration {prepared - started:.1f} s, permutations and "
            f"clusters {finished - prepared:.1f} s, total {finished - started:.1f} s"
        )
    assert overall.ranking.ranks.min() == 1
