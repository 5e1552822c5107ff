"""Soft pairwise accuracy (Thompson et al. 2024) and its permutation p-values.

Expected values: p-values worked out by hand over every sign pattern of a
tiny test set; a slow reference written from the paper (a loop per pair and
per permutation, systems and segments matched by name and position) fed the
SAME sign rows, which must agree to 1e-12; and independently drawn
permutations, which must agree within sampling error. Real data: WMT21
expert MQM per segment as the human scores, our sentence chrF and BLEU as
the metric.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

import numpy as np
import pytest

from scoring import get_metric
from scoring.errors import ScoringError
from scoring.stats.resampling import random_signs
from scoring.stats.soft_pairwise import (
    TIE_TOLERANCE,
    human_permutation_test,
    permutation_p_values,
    soft_pairwise_accuracy,
)
from tests.scoring.support.realdata import (
    FULL_DATA,
    WMT21_DIR,
    load_test_set,
    read_lines,
    require_full_data,
)
from tests.scoring.support.stats_data import read_tsv, require

Scores = dict[str, list[float | None]]  # system -> score of each segment

# --- the reference, from the paper -------------------------------------------

# Two permuted sums this close, relative to the pair's summed absolute
# scores, are equal: the module's documented rule, restated.
REFERENCE_TIE_TOLERANCE = 1e-10


def reference_p_value(first: list[float], second: list[float], sign_rows) -> float:
    """p that ``first`` is better than ``second``: the share of sign rows
    whose sum of sign * (first - second) is at least the observed sum."""
    differences = [a - b for a, b in zip(first, second)]
    observed = math.fsum(differences)
    scale = math.fsum(abs(a) for a in first) + math.fsum(abs(b) for b in second)
    at_least = 0
    for row in sign_rows:  # one permutation at a time
        permuted = math.fsum(sign * d for sign, d in zip(row, differences))
        if permuted >= observed - REFERENCE_TIE_TOLERANCE * scale:
            at_least += 1
    return at_least / len(sign_rows)


@dataclass
class ReferenceSpa:
    spa: float
    systems: list[str]
    segments: list[int]
    errors: list[float]
    human_p: dict[tuple[str, str], float]
    metric_p: dict[tuple[str, str], float]


def reference_spa(human: Scores, metric: Scores, signs: np.ndarray) -> ReferenceSpa:
    """SPA = 1 - mean over pairs i < j of |p_h(i, j) - p_m(i, j)|, on the
    systems with some human and some metric score and the segments where
    each of them has both; ``signs`` has one column per input segment."""
    systems = [
        name
        for name, scores in human.items()
        if any(v is not None for v in scores)
        and any(v is not None for v in metric.get(name, []))
    ]
    n_segments = len(next(iter(human.values())))
    segments = [
        k
        for k in range(n_segments)
        if all(human[s][k] is not None and metric[s][k] is not None for s in systems)
    ]
    rows = [[float(row[k]) for k in segments] for row in signs]
    human_p, metric_p, errors = {}, {}, []
    for a, b in combinations(systems, 2):
        human_p[a, b] = reference_p_value(
            [human[a][k] for k in segments], [human[b][k] for k in segments], rows
        )
        metric_p[a, b] = reference_p_value(
            [metric[a][k] for k in segments], [metric[b][k] for k in segments], rows
        )
        errors.append(abs(human_p[a, b] - metric_p[a, b]))
    spa = 1.0 - math.fsum(errors) / len(errors) if errors else math.nan
    return ReferenceSpa(spa, systems, segments, errors, human_p, metric_p)


def as_matrix(scores: Scores, systems: list[str]) -> np.ndarray:
    """``(S, n)`` in ``systems`` order, NaN for None or an absent system."""
    n = len(next(iter(scores.values())))
    return np.array(
        [
            [np.nan if v is None else v for v in scores.get(name, [None] * n)]
            for name in systems
        ],
        dtype=float,
    )


def as_scores(matrix: np.ndarray, systems: list[str]) -> Scores:
    return {
        name: [None if np.isnan(v) else float(v) for v in row]
        for name, row in zip(systems, matrix)
    }


def sampling_bound(p: float, p_other: float, n: int, n_other: int) -> float:
    """Four standard errors of the difference of two independent estimates
    of one p-value, plus one draw of each."""
    shared = (p * n + p_other * n_other) / (n + n_other)
    spread = math.sqrt(shared * (1 - shared) * (1 / n + 1 / n_other))
    return 4 * spread + 1 / n + 1 / n_other


def independent_p_values(scores: np.ndarray, n: int, seed: int) -> np.ndarray:
    """p-values from draws of another generator (MT19937), one pair at a
    time, the permuted statistic summed from the differences."""
    rng = np.random.Generator(np.random.MT19937(seed))
    signs = rng.choice([-1.0, 1.0], size=(n, scores.shape[1]))
    n_systems = scores.shape[0]
    p_values = np.full((n_systems, n_systems), np.nan)
    for a in range(n_systems):
        for b in range(n_systems):
            if a != b:
                differences = scores[a] - scores[b]
                tolerance = REFERENCE_TIE_TOLERANCE * np.abs(scores[[a, b]]).sum()
                at_least = signs @ differences >= differences.sum() - tolerance
                p_values[a, b] = at_least.mean()
    return p_values


def test_the_reference_states_the_modules_tie_rule() -> None:
    assert REFERENCE_TIE_TOLERANCE == TIE_TOLERANCE


# --- a worked example, by hand --------------------------------------------------

# Three systems, four segments, small integers (exact sums).
HUMAN = np.array([[2.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
METRIC = np.array([[1.0, 1.0, 1.0, 1.0], [0.0, 2.0, 0.0, 0.0], [1.0, 0.0, 0.0, 1.0]])
ALL_SIGNS = np.array(list(product([1.0, -1.0], repeat=4)))  # (16, 4)
# By hand, over the 16 sign patterns, p(i, j) = #{permuted >= observed} / 16:
# human A - B = [1, 0, -1, 1], observed 1: the three non-zero terms are
#   +-1 each, at least 1 when two of three are positive: 8/16; p(B, A) counts
#   <= 1, all but the all-positive pattern: 14/16.
# human A - C = [2, 1, -1, 1], observed 3: +2 with at most one of the three
#   1s negative: 4/16.  human B - C = [1, 1, 0, 0], observed 2: 4/16.
# metric A - B = [1, -1, 1, 1], observed 2: three or four positive: 5/16.
# metric A - C = [0, 1, 1, 0], observed 2: 4/16.
# metric B - C = [-1, 2, 0, -1], observed 0: with +2, 4 of 4 sign pairs of
#   the 1s; with -2, only both 1s positive: (4 + 1) * 2 / 16 = 10/16.
HUMAN_P = {(0, 1): 0.5, (1, 0): 0.875, (0, 2): 0.25, (1, 2): 0.25}
METRIC_P = {(0, 1): 0.3125, (0, 2): 0.25, (1, 2): 0.625}
# |0.5 - 0.3125| + |0.25 - 0.25| + |0.25 - 0.625| = 0.5625 over 3 pairs.
EXACT_SPA = 1 - 0.5625 / 3


def test_p_values_over_every_sign_pattern_are_the_hand_counts() -> None:
    human_p = permutation_p_values(HUMAN, ALL_SIGNS)
    metric_p = permutation_p_values(METRIC, ALL_SIGNS)
    for (i, j), expected in HUMAN_P.items():
        assert human_p[i, j] == expected
    for (i, j), expected in METRIC_P.items():
        assert metric_p[i, j] == expected
    assert np.isnan(np.diag(human_p)).all()


def test_spa_over_every_sign_pattern_is_the_hand_value() -> None:
    human = human_permutation_test(HUMAN, systems=["A", "B", "C"], signs=ALL_SIGNS)
    result = soft_pairwise_accuracy(METRIC, human)
    assert result.spa == pytest.approx(EXACT_SPA, abs=1e-15)
    assert result.pair_errors.tolist() == pytest.approx([0.1875, 0.0, 0.375], abs=1e-15)
    assert result.pairs.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert result.n_permutations == 16 and result.seed is None


def test_monte_carlo_p_values_and_spa_lie_within_sampling_error_of_exact() -> None:
    n = 4000
    human = human_permutation_test(HUMAN, n_permutations=n, seed=11)
    result = soft_pairwise_accuracy(METRIC, human)
    exact_human = permutation_p_values(HUMAN, ALL_SIGNS)
    exact_metric = permutation_p_values(METRIC, ALL_SIGNS)
    bounds = []
    for i, j in combinations(range(3), 2):
        for estimate, exact in (
            (result.human_p_values, exact_human),
            (result.metric_p_values, exact_metric),
        ):
            bound = 4 * math.sqrt(exact[i, j] * (1 - exact[i, j]) / n) + 1 / n
            assert abs(estimate[i, j] - exact[i, j]) <= bound
            bounds.append(bound)
    # |SPA - exact| is at most the mean over pairs of both p-values' errors.
    assert abs(result.spa - EXACT_SPA) <= sum(bounds) / 3


def test_a_permuted_sum_equal_to_the_observed_one_counts_for_both_sides() -> None:
    # Identical systems: every permutation ties, so both p-values are 1.
    scores = np.array([[0.1, 0.2, 0.7], [0.1, 0.2, 0.7]])
    p_values = permutation_p_values(scores, random_signs(3, 50, 0))
    assert p_values[0, 1] == p_values[1, 0] == 1.0
    # A sums to 0.1 + 0.2 = 0.30000000000000004 and B to 0.3: observed
    # A - B = 5.6e-17, and swapping both segments gives -5.6e-17. The two are
    # equal up to rounding (both 0 in decimal), so the swap counts.
    rounded = np.array([[0.1, 0.2], [0.3, 0.0]])
    assert permutation_p_values(rounded, np.array([[-1.0, -1.0]]))[0, 1] == 1.0


# --- the slow reference, with the same sign rows --------------------------------


def random_case(
    seed: int, n_systems: int, n_segments: int
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=(n_systems, 1))
    human = np.round(quality + rng.normal(size=(n_systems, n_segments)), 1)
    metric = quality + 0.7 * rng.normal(size=(n_systems, n_segments))
    human[rng.random(human.shape) < 0.05] = np.nan
    metric[rng.random(metric.shape) < 0.03] = np.nan
    return human, metric


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spa_equals_the_slow_reference_on_the_same_signs(seed: int) -> None:
    systems = ["A", "B", "C", "D", "E", "F"]
    human_matrix, metric_matrix = random_case(seed, 6, 40)
    human = human_permutation_test(
        human_matrix, systems=systems, n_permutations=300, seed=seed
    )
    result = soft_pairwise_accuracy(metric_matrix, human)
    expected = reference_spa(
        as_scores(human_matrix, systems), as_scores(metric_matrix, systems), human.signs
    )
    assert list(result.systems_used) == expected.systems
    assert result.segments_used.tolist() == expected.segments
    assert result.spa == pytest.approx(expected.spa, abs=1e-12)
    assert result.pair_errors.tolist() == pytest.approx(expected.errors, abs=1e-12)
    for a, b in combinations(range(len(expected.systems)), 2):
        pair = (expected.systems[a], expected.systems[b])
        assert result.human_p_values[a, b] == pytest.approx(
            expected.human_p[pair], abs=1e-12
        )
        assert result.metric_p_values[a, b] == pytest.approx(
            expected.metric_p[pair], abs=1e-12
        )


def test_independent_draws_agree_within_sampling_error() -> None:
    human_matrix, metric_matrix = random_case(4, 5, 25)
    kept = ~np.isnan(human_matrix).any(axis=0) & ~np.isnan(metric_matrix).any(axis=0)
    n, n_reference = 1000, 5000
    result = soft_pairwise_accuracy(
        metric_matrix, human_permutation_test(human_matrix, n_permutations=n, seed=5)
    )
    reference = {
        "human": independent_p_values(human_matrix[:, kept], n_reference, 99),
        "metric": independent_p_values(metric_matrix[:, kept], n_reference, 98),
    }
    ours = {"human": result.human_p_values, "metric": result.metric_p_values}
    pair_bounds = np.zeros(result.n_pairs)
    for side in ("human", "metric"):
        for index, (a, b) in enumerate(combinations(range(5), 2)):
            p, p_ref = ours[side][a, b], reference[side][a, b]
            bound = sampling_bound(p, p_ref, n, n_reference)
            assert abs(p - p_ref) <= bound
            pair_bounds[index] += bound
    errors = np.abs(reference["human"] - reference["metric"])[np.triu_indices(5, 1)]
    assert abs(result.spa - (1 - errors.mean())) <= pair_bounds.mean()


# --- systems and segments left out -----------------------------------------------


def test_missing_scores_drop_systems_and_segments_and_say_why() -> None:
    nan = np.nan
    human = np.array(
        [
            [1.0, 2.0, nan, 4.0, 5.0, 6.0],
            [2.0, 1.0, 3.0, 3.0, 4.0, 1.0],
            [nan, nan, nan, nan, nan, nan],  # C: not judged
            [0.0, 1.0, 2.0, 5.0, 1.0, 2.0],
            [0.5, 1.5, 2.5, 3.5, 4.5, 5.5],  # E: judged, never scored
        ]
    )
    metric = np.array(
        [
            [1.0, 1.0, 1.0, 1.0, 2.0, nan],
            [3.0, 2.0, 1.0, 3.0, 4.0, 2.0],
            [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            [0.0, nan, 2.0, 4.0, 1.0, nan],
            [nan, nan, nan, nan, nan, nan],
        ]
    )
    human_test = human_permutation_test(
        human, systems=list("ABCDE"), n_permutations=200, seed=3
    )
    result = soft_pairwise_accuracy(metric, human_test)
    assert result.systems_used == ("A", "B", "D")
    assert result.systems_without_human == ("C",)
    assert result.systems_without_metric == ("E",)
    # Segment 3 (index 2) lacks A's human score; 2 and 6 lack a metric score.
    assert result.segments_used.tolist() == [0, 3, 4]
    assert (result.segments_missing_human, result.segments_missing_metric) == (1, 2)
    assert result.segments_dropped == 3
    # The human p-values are recomputed on the segments used, same signs.
    used = np.ix_([0, 1, 3], [0, 3, 4])
    expected = permutation_p_values(human[used], human_test.signs[:, [0, 3, 4]])
    np.testing.assert_array_equal(result.human_p_values, expected)
    summary = json.loads(json.dumps(result.to_dict()))
    assert summary["segments"] == {
        "n_input": 6,
        "n_used": 3,
        "n_dropped": 3,
        "missing_human_score": 1,
        "missing_metric_score": 2,
        "used": [0, 3, 4],
    }
    assert summary["systems_left_out"] == {
        "no_human_score": ["C"],
        "no_metric_score": ["E"],
    }
    assert summary["seed"] == 3 and summary["n_permutations"] == 200


def test_a_complete_metric_reuses_the_human_p_values() -> None:
    human_matrix, metric_matrix = random_case(6, 4, 30)
    human = human_permutation_test(np.nan_to_num(human_matrix), seed=2)
    result = soft_pairwise_accuracy(np.nan_to_num(metric_matrix), human)
    np.testing.assert_array_equal(result.human_p_values, human.p_values)
    # Leaving a system out keeps the others' p-values (a pair's own test).
    partial = np.nan_to_num(metric_matrix)
    partial[1] = np.nan
    fewer = soft_pairwise_accuracy(partial, human)
    np.testing.assert_array_equal(
        fewer.human_p_values, human.p_values[np.ix_([0, 2, 3], [0, 2, 3])]
    )


def test_too_few_systems_or_segments_give_no_spa() -> None:
    human = human_permutation_test(np.array([[1.0, 2.0], [2.0, 1.0]]), seed=1)
    one_system = soft_pairwise_accuracy(np.array([[1.0, 2.0], [np.nan, np.nan]]), human)
    assert one_system.n_pairs == 0 and np.isnan(one_system.spa)
    no_segment = soft_pairwise_accuracy(np.array([[1.0, np.nan], [np.nan, 1.0]]), human)
    assert no_segment.segments_used.size == 0 and np.isnan(no_segment.spa)
    assert no_segment.to_dict()["spa"] is None


def test_the_seed_fixes_the_signs_and_is_recorded() -> None:
    scores = np.arange(12.0).reshape(3, 4)
    first = human_permutation_test(scores, n_permutations=50, seed=7)
    again = human_permutation_test(scores, n_permutations=50, seed=7)
    np.testing.assert_array_equal(first.signs, again.signs)
    np.testing.assert_array_equal(first.signs, random_signs(4, 50, 7))
    assert first.seed == 7 and first.n_permutations == 50
    assert human_permutation_test(scores, seed=np.random.default_rng(7)).seed is None
    assert json.loads(json.dumps(first.to_dict()))["n_segments_judged"] == 4
    with pytest.raises(ValueError, match="read-only"):
        first.signs[0, 0] = 1.0


def test_it_refuses_bad_shapes_and_signs() -> None:
    human = human_permutation_test(np.ones((2, 3)), seed=1)
    with pytest.raises(ScoringError, match="shape"):
        soft_pairwise_accuracy(np.ones((2, 4)), human)
    with pytest.raises(ScoringError, match="systems, segments"):
        human_permutation_test(np.ones(3))
    with pytest.raises(ScoringError, match="finite or NaN"):
        human_permutation_test(np.array([[1.0, np.inf]]))
    with pytest.raises(ScoringError, match="signs must be"):
        human_permutation_test(np.ones((2, 3)), signs=np.zeros((4, 3)))
    with pytest.raises(ScoringError, match="signs must have shape"):
        human_permutation_test(np.ones((2, 3)), signs=np.ones((4, 2)))


# --- WMT21 expert MQM against our sentence chrF and BLEU ------------------------


@cache
def mqm(pair: str) -> Scores:
    """MQM of every rated system at every line (None where not rated)."""
    path = WMT21_DIR / pair / "human" / "mqm_seg.tsv"
    require(path)
    n_lines = len(load_test_set(pair, "A").references[0])
    scores: Scores = {}
    for row in read_tsv(path):
        line = int(row["seg_id"])
        if line <= n_lines:
            values = scores.setdefault(row["system"], [None] * n_lines)
            value = row["mqm_avg_score"]
            values[line - 1] = None if value == "None" else float(value)
    return scores


def rated_lines(pair: str) -> list[int]:
    """0-based lines that MQM rated for some system."""
    return [
        k
        for k in range(len(next(iter(mqm(pair).values()))))
        if any(scores[k] is not None for scores in mqm(pair).values())
    ]


@cache
def sentence_scores(
    pair: str, metric: str, system: str
) -> tuple[float | None, ...] | None:
    """Our sentence ``metric`` (chrF or BLEU, 0-100) of each line against
    reference A; a human translation ``ref-X`` enters as a system; None
    without an output. Only the lines MQM rated are scored (the others
    could not be used, and scoring all of them takes two to three times as
    long); the rest are None, i.e. missing metric scores too."""
    test_set = load_test_set(pair, "A")
    language = pair.split("-")[1]
    if system.startswith("ref-"):
        path = test_set.directory / f"ref.{system[4:]}.{language}"
        if system == "ref-A" or not path.exists():
            return None  # the reference itself, or not in the data
        hypotheses = tuple(read_lines(path))
    elif (test_set.directory / "sys" / f"{system}.{language}").exists():
        hypotheses = test_set.system(system)
    else:
        return None
    lines = rated_lines(pair)
    references = tuple(
        tuple(stream[k] for k in lines) for stream in test_set.references
    )
    result = get_metric(metric).score(
        [hypotheses[k] for k in lines], references, sentence=True
    )
    values: list[float | None] = [None] * len(hypotheses)
    for k, value in zip(lines, result.sentence_scores):
        values[k] = value
    return tuple(values)


def metric_scores(pair: str, metric: str) -> Scores:
    scores: Scores = {}
    for system in mqm(pair):
        values = sentence_scores(pair, metric, system)
        if values is not None:
            scores[system] = list(values)
    return scores


CASES = [("en-de", "chrf"), ("zh-en", "bleu")]


def wmt21_case(pair: str, metric: str) -> tuple[Scores, Scores]:
    """MQM and metric scores; the fixtures' zh-en has one system with an
    output, too few for a pair."""
    if pair == "zh-en":
        require_full_data("zh-en MQM of more than one system with an output")
    return mqm(pair), metric_scores(pair, metric)


@pytest.mark.parametrize(("pair", "metric"), CASES)
def test_wmt21_spa_equals_the_slow_reference_on_the_same_signs(
    pair: str, metric: str
) -> None:
    human, scores = wmt21_case(pair, metric)
    systems = list(human)
    human_test = human_permutation_test(
        as_matrix(human, systems), systems=systems, n_permutations=40, seed=21
    )
    result = soft_pairwise_accuracy(as_matrix(scores, systems), human_test)
    expected = reference_spa(human, scores, human_test.signs)
    assert list(result.systems_used) == expected.systems
    assert result.segments_used.tolist() == expected.segments
    assert result.spa == pytest.approx(expected.spa, abs=1e-9)
    assert result.pair_errors.tolist() == pytest.approx(expected.errors, abs=1e-9)
    assert set(result.systems_without_metric) >= {"ref-A"}
    if FULL_DATA:
        # MQM rated 527 of 1002 en-de lines and 650 of 1948 zh-en lines, the
        # same lines for every system; ref-B and the metric "systems" have no
        # output; en-de's human translations C and D enter as systems.
        rated = {"en-de": 527, "zh-en": 650}[pair]
        assert result.segments_used.size == rated
        assert result.segments_missing_human == result.n_segments - rated
        assert result.segments_missing_metric == result.n_segments - rated
        assert {"ref-B", "metricsystem1"} <= set(result.systems_without_metric)
        assert len(result.systems_used) == {"en-de": 10, "zh-en": 8}[pair]


@pytest.mark.parametrize(("pair", "metric"), CASES)
def test_wmt21_spa_agrees_with_independent_draws(pair: str, metric: str) -> None:
    human, scores = wmt21_case(pair, metric)
    systems = list(human)
    n, n_reference = 1000, 4000
    human_test = human_permutation_test(
        as_matrix(human, systems), systems=systems, n_permutations=n, seed=2021
    )
    result = soft_pairwise_accuracy(as_matrix(scores, systems), human_test)
    kept = [systems.index(name) for name in result.systems_used]
    used = result.segments_used
    reference = {
        "human": independent_p_values(
            as_matrix(human, systems)[np.ix_(kept, used)], n_reference, 7
        ),
        "metric": independent_p_values(
            as_matrix(scores, systems)[np.ix_(kept, used)], n_reference, 8
        ),
    }
    ours = {"human": result.human_p_values, "metric": result.metric_p_values}
    pairs = list(combinations(range(len(kept)), 2))
    pair_bounds = np.zeros(len(pairs))
    for side in ("human", "metric"):
        for index, (a, b) in enumerate(pairs):
            bound = sampling_bound(
                ours[side][a, b], reference[side][a, b], n, n_reference
            )
            assert abs(ours[side][a, b] - reference[side][a, b]) <= bound
            pair_bounds[index] += bound
    upper = np.triu_indices(len(kept), 1)
    reference_spa_value = (
        1 - np.abs(reference["human"] - reference["metric"])[upper].mean()
    )
    assert abs(result.spa - reference_spa_value) <= pair_bounds.mean()
    assert 0.0 <= result.spa <= 1.0
