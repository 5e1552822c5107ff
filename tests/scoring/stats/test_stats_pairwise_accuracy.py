"""System-level pairwise accuracy (Kocmi et al. 2021), alone and pooled.

Expected values: pairs counted by hand, and a plain loop over the pairs of
systems written from the paper's definition (systems matched by name, signs
compared with Python's comparisons), on WMT21 system-level human scores
(crowd DA z, expert MQM) against the official BLEU and chrF and COMET.
"""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from scoring.errors import ScoringError
from scoring.stats.pairwise_accuracy import (
    pairwise_accuracy,
    pooled_pairwise_accuracy,
    system_pairs,
)
from tests.scoring.support.realdata import WMT21_DIR, require_full_data
from tests.scoring.support.stats_data import official_scores, read_tsv, require


def compare(a: float, b: float) -> int:
    """1 if a > b, -1 if a < b, 0 for a tie."""
    a, b = float(a), float(b)
    return (a > b) - (a < b)


def reference_counts(
    metric: dict[str, float], human: dict[str, float]
) -> tuple[int, int, list[tuple[str, str]]]:
    """(agreeing pairs, pairs, disagreeing pairs) by the paper's definition:
    a pair agrees when sign(metric delta) = sign(human delta), 0 for a tie."""
    systems = sorted(name for name in human if name in metric)
    agreeing, disagreeing = 0, []
    for first, second in combinations(systems, 2):
        if compare(metric[first], metric[second]) == compare(
            human[first], human[second]
        ):
            agreeing += 1
        else:
            disagreeing.append((first, second))
    n_pairs = len(systems) * (len(systems) - 1) // 2
    return agreeing, n_pairs, disagreeing


def aligned(
    metric: dict[str, float], human: dict[str, float]
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Both score sets on the union of their systems, NaN where absent."""
    systems = sorted(set(metric) | set(human))
    return (
        systems,
        np.array([metric.get(name, np.nan) for name in systems]),
        np.array([human.get(name, np.nan) for name in systems]),
    )


def test_it_counts_the_pairs_the_metric_orders_as_the_humans_do() -> None:
    # Humans: A > B > C > D. The metric swaps A and B and ties C with D:
    # pairs AC, AD, BC, BD agree; AB (swapped) and CD (metric tie) do not.
    result = pairwise_accuracy(
        np.array([3.0, 4.0, 1.0, 1.0]),
        np.array([0.9, 0.5, 0.3, 0.1]),
        systems=["A", "B", "C", "D"],
    )
    assert (result.n_agreeing, result.n_pairs) == (4, 6)
    assert result.accuracy == pytest.approx(4 / 6, abs=1e-15)
    assert result.pairs.tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert result.agreement.tolist() == [False, True, True, True, True, False]


@pytest.mark.parametrize(
    ("metric", "human", "agrees"),
    [
        ([1.0, 1.0], [2.0, 2.0], True),  # both tie
        ([1.0, 1.0], [2.0, 3.0], False),  # only the metric ties
        ([1.0, 2.0], [3.0, 3.0], False),  # only the humans tie
        ([1.0, 2.0], [3.0, 4.0], True),
        ([2.0, 1.0], [3.0, 4.0], False),
    ],
)
def test_a_tie_agrees_only_with_a_tie(
    metric: list[float], human: list[float], agrees: bool
) -> None:
    result = pairwise_accuracy(np.array(metric), np.array(human))
    assert result.agreement.tolist() == [agrees]


def test_systems_without_a_score_are_left_out_and_listed() -> None:
    result = pairwise_accuracy(
        np.array([1.0, np.nan, 3.0, 4.0, 5.0]),
        np.array([1.0, 2.0, np.nan, 3.0, 5.0]),
        systems=["A", "B", "C", "D", "E"],
    )
    assert result.systems_used == ("A", "D", "E")
    assert result.systems_without_human == ("C",)
    assert result.systems_without_metric == ("B",)
    assert result.systems_left_out == ("C", "B")
    # Pairs name input positions, so two metrics' pairs can be matched up.
    assert result.pairs.tolist() == [[0, 3], [0, 4], [3, 4]]
    assert (result.n_agreeing, result.n_pairs) == (3, 3)


def test_fewer_than_two_systems_have_no_accuracy() -> None:
    result = pairwise_accuracy(np.array([1.0, np.nan]), np.array([2.0, 3.0]))
    assert result.n_pairs == 0
    assert np.isnan(result.accuracy)
    assert result.to_dict()["accuracy"] is None


def test_it_refuses_misaligned_or_infinite_scores() -> None:
    with pytest.raises(ScoringError, match="one entry per system"):
        pairwise_accuracy(np.ones(3), np.ones(4))
    with pytest.raises(ScoringError, match="finite or NaN"):
        pairwise_accuracy(np.array([1.0, np.inf]), np.ones(2))
    with pytest.raises(ScoringError, match="one name per system"):
        pairwise_accuracy(np.ones(3), np.ones(3), systems=["A"])


def test_the_result_is_frozen_and_its_dict_is_json() -> None:
    result = pairwise_accuracy(
        np.array([1.0, 2.0, np.nan]), np.array([1.0, 2.0, 3.0]), ["A", "B", "C"]
    )
    assert json.loads(json.dumps(result.to_dict())) == {
        "accuracy": 1.0,
        "n_pairs": 1,
        "n_agreeing": 1,
        "systems_used": ["A", "B"],
        "systems_left_out": {"no_human_score": [], "no_metric_score": ["C"]},
    }
    with pytest.raises(ValueError, match="read-only"):
        result.agreement[0] = False


def test_random_scores_with_ties_and_gaps_match_the_loop_over_pairs() -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        n = int(rng.integers(2, 12))
        # Few distinct values, so that ties are frequent on both sides.
        metric = rng.integers(0, 4, size=n).astype(float)
        human = rng.integers(0, 4, size=n).astype(float)
        metric[rng.random(n) < 0.15] = np.nan
        human[rng.random(n) < 0.15] = np.nan
        names = [f"s{i:02d}" for i in range(n)]
        result = pairwise_accuracy(metric, human, names)
        agreeing, n_pairs, _ = reference_counts(
            {s: v for s, v in zip(names, metric) if not np.isnan(v)},
            {s: v for s, v in zip(names, human) if not np.isnan(v)},
        )
        assert (result.n_agreeing, result.n_pairs) == (agreeing, n_pairs)


def test_system_pairs_are_the_upper_triangle_row_by_row() -> None:
    assert system_pairs(4).tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    assert system_pairs(1).shape == (0, 2)


def test_pooling_counts_pairs_over_the_test_sets() -> None:
    # 2 of 3 pairs, then 1 of 6: pooled 3 / 9, not the mean 0.4167.
    first = pairwise_accuracy(np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]))
    second = pairwise_accuracy(
        np.array([4.0, 3.0, 2.0, 1.0]), np.array([1.0, 2.0, 4.0, 3.0])
    )
    assert (second.n_agreeing, second.n_pairs) == (1, 6)
    pooled = pooled_pairwise_accuracy({"de-en": first, "zh-en": second})
    assert (pooled.n_agreeing, pooled.n_pairs) == (3, 9)
    assert pooled.accuracy == pytest.approx(1 / 3, abs=1e-15)
    assert (
        pooled.agreement.tolist()
        == first.agreement.tolist() + second.agreement.tolist()
    )
    assert pooled.test_set_of_pair.tolist() == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    summary = json.loads(json.dumps(pooled.to_dict()))
    assert summary["n_pairs"] == 9
    assert summary["test_sets"]["de-en"]["n_agreeing"] == 2
    assert summary["test_sets"]["zh-en"]["n_pairs"] == 6


def test_pooling_nothing_has_no_accuracy() -> None:
    pooled = pooled_pairwise_accuracy({})
    assert pooled.n_pairs == 0 and np.isnan(pooled.accuracy)


# --- WMT21 system-level human scores -----------------------------------------


def da_z(pair: str) -> dict[str, float]:
    """Crowd DA z of each system of ``pair`` (``HUMAN`` is a reference)."""
    path = WMT21_DIR / pair / "human" / "da_sys.tsv"
    require(path)
    return {row["system"]: float(row["z"]) for row in read_tsv(path)}


@pytest.mark.parametrize("pair", ["zh-en", "de-en", "ru-en"])
@pytest.mark.parametrize("metric", ["bleu-A", "chrf-A", "chrf-all"])
def test_da_against_the_official_scores_matches_the_loop(
    pair: str, metric: str
) -> None:
    human = da_z(pair)
    official = official_scores(pair, metric)
    systems, metric_vector, human_vector = aligned(official, human)
    result = pairwise_accuracy(metric_vector, human_vector, systems)
    agreeing, n_pairs, disagreeing = reference_counts(official, human)
    assert (result.n_agreeing, result.n_pairs) == (agreeing, n_pairs)
    assert result.accuracy == pytest.approx(agreeing / n_pairs, abs=1e-9)
    # The second human translation has DA scores but no BLEU or chrF.
    assert result.systems_without_metric == ("HUMAN",)
    assert set(result.systems_used) == set(human) - {"HUMAN"}
    flagged = {
        (systems[i], systems[j])
        for (i, j), ok in zip(result.pairs, result.agreement)
        if not ok
    }
    assert flagged == set(disagreeing)


def test_pooled_over_two_language_pairs_adds_their_counts() -> None:
    results, expected_agreeing, expected_pairs = {}, 0, 0
    for pair in ("zh-en", "de-en"):
        human, official = da_z(pair), official_scores(pair, "chrf-A")
        results[pair] = pairwise_accuracy(*aligned(official, human)[1:])
        agreeing, n_pairs, _ = reference_counts(official, human)
        expected_agreeing += agreeing
        expected_pairs += n_pairs
    pooled = pooled_pairwise_accuracy(results)
    # zh-en: 23 systems with DA and chrF (253 pairs); de-en: 19 (171 pairs).
    assert expected_pairs == 253 + 171
    assert (pooled.n_agreeing, pooled.n_pairs) == (expected_agreeing, expected_pairs)
    assert pooled.accuracy == pytest.approx(
        expected_agreeing / expected_pairs, abs=1e-9
    )
    assert pooled.accuracy != pytest.approx(
        np.mean([result.accuracy for result in results.values()]), abs=1e-12
    )


def mqm_system_means(pair: str) -> dict[str, float]:
    """Mean MQM score of each rated system over its rated segments."""
    totals: dict[str, list[float]] = {}
    for row in read_tsv(WMT21_DIR / pair / "human" / "mqm_seg.tsv"):
        if row["mqm_avg_score"] != "None":
            totals.setdefault(row["system"], []).append(float(row["mqm_avg_score"]))
    return {system: sum(values) / len(values) for system, values in totals.items()}


def comet(pair: str) -> dict[str, float]:
    path = WMT21_DIR / pair / "scores" / "COMET_newstest2021_ref-A.tsv"
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines())
    return {name: float(value) for name, value in rows}


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_mqm_against_comet_matches_the_loop(pair: str) -> None:
    require_full_data("the MQM scores of every system and the COMET scores")
    human, metric = mqm_system_means(pair), comet(pair)
    systems, metric_vector, human_vector = aligned(metric, human)
    result = pairwise_accuracy(metric_vector, human_vector, systems)
    agreeing, n_pairs, _ = reference_counts(metric, human)
    assert (result.n_agreeing, result.n_pairs) == (agreeing, n_pairs)
    assert result.accuracy == pytest.approx(agreeing / n_pairs, abs=1e-9)
    # COMET did not score reference A against itself.
    assert "ref-A" in result.systems_without_metric
    assert n_pairs >= 66  # at least 12 systems with both
