"""Grouped Kendall variants (tau_b, tau_c, tau_23, acc_eq) of Deutsch et al. 2023.

Checked against hand-worked pair counts, SciPy's ``kendalltau`` (tau_b and
tau_c) and the slow loop reference of ``tests/scoring/support/
kendall_reference.py``, written from the paper's definitions: exactly on the
counts, to 1e-12 on random data with ties and missing scores, to 1e-9 on
WMT21 en-de expert MQM against our sentence chrF.
"""

from __future__ import annotations

import doctest
import json
import math

import numpy as np
import pytest
from scipy import stats

import scoring.stats.kendall_variants as kendall_variants_module
from scoring.stats import kendall_variant
from scoring.stats.kendall_variants import (
    BOTH_TIE,
    CONCORDANT,
    DISCORDANT,
    HUMAN_TIE,
    METRIC_TIE,
    NOT_COUNTED,
    pair_codes,
    pair_rows,
)
from tests.scoring.support.kendall_reference import (
    reference_statistics,
    wmt21_en_de_mqm_chrf,
)
from tests.scoring.support.realdata import require_full_data

GROUPINGS = ("none", "item", "system")
VARIANTS = ("b", "c", "23", "acc23")

# 3 systems x 2 segments with ties in both scores (the module's example).
HUMAN = np.array([[2.0, 3.0], [1.0, 2.0], [1.0, 1.0]])
METRIC = np.array([[0.9, 0.7], [0.5, 0.8], [0.5, 0.1]])

# By hand. Item: segment 1 has C, C, T_hm (tau_c: n = 3, k = 2 distinct);
# segment 2 D, C, C (k = 3). System: one pair per system: D, C, T_h (the
# third has no tau_b or tau_c: its human scores are tied). None: the 15
# pairs of the 6 points are C = 9, D = 2, T_h = 3, T_m = 0, T_hm = 1
# (tau_c: n = 6, k = min(3 human, 5 metric values)).
HAND = {
    ("item", "b"): (1.0 + 1.0 / 3.0) / 2.0,
    ("item", "c"): (4.0 / 4.5 + 2.0 / 6.0) / 2.0,
    ("item", "23"): (1.0 + 1.0 / 3.0) / 2.0,
    ("item", "acc23"): (1.0 + 2.0 / 3.0) / 2.0,
    ("system", "b"): 0.0,
    ("system", "c"): 0.0,
    ("system", "23"): -1.0 / 3.0,
    ("system", "acc23"): 1.0 / 3.0,
    ("none", "b"): 7.0 / math.sqrt(14.0 * 11.0),
    ("none", "c"): 2.0 * 7.0 / (36.0 * 2.0 / 3.0),
    ("none", "23"): 5.0 / 15.0,
    ("none", "acc23"): 10.0 / 15.0,
}
HAND_GROUPS = {"item": (2, 2, 2, 2), "system": (2, 2, 3, 3), "none": (1, 1, 1, 1)}


def _random_scores(
    rng: np.random.Generator, systems: int, segments: int
) -> tuple[np.ndarray, np.ndarray]:
    """Scores with many ties in both and about 10 % missing in each."""
    human = rng.integers(0, 4, (systems, segments)).astype(float)
    metric = rng.integers(0, 6, (systems, segments)) / 4.0
    human[rng.random(human.shape) < 0.1] = np.nan
    metric[rng.random(metric.shape) < 0.1] = np.nan
    return metric, human


def _agree(actual: float, expected: float, tolerance: float) -> bool:
    if math.isnan(expected):
        return math.isnan(actual)
    return abs(actual - expected) <= tolerance


def test_the_docstring_examples_hold() -> None:
    outcome = doctest.testmod(kendall_variants_module)
    assert outcome.attempted > 0 and outcome.failed == 0


@pytest.mark.parametrize("group_by", GROUPINGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_hand_worked_example_of_every_variant_and_grouping(
    group_by: str, variant: str
) -> None:
    result = kendall_variant(METRIC, HUMAN, variant, group_by)
    assert result.statistic == pytest.approx(HAND[group_by, variant], abs=1e-15)
    assert result.n_groups == HAND_GROUPS[group_by][VARIANTS.index(variant)]
    assert result.n_pairs == {"none": 15, "item": 6, "system": 3}[group_by]
    assert result.n_dropped == 0


def test_the_pooled_pair_counts_by_hand() -> None:
    counts = kendall_variant(METRIC, HUMAN, "b", "none").counts
    assert counts.to_dict() == {
        "concordant": 9,
        "discordant": 2,
        "human_ties": 3,
        "metric_ties": 0,
        "both_ties": 1,
    }
    assert counts.total == 15


def test_an_epsilon_turns_close_metric_scores_into_ties() -> None:
    # |0.9 - 0.8| and |0.7 - 0.8| are within 0.15: the T_h pair of points
    # (1, 1) and (2, 2) becomes T_hm, the D pair (1, 2)-(2, 2) becomes T_m.
    result = kendall_variant(METRIC, HUMAN, "acc23", "none", epsilon=0.15)
    assert result.counts.to_dict() == {
        "concordant": 9,
        "discordant": 1,
        "human_ties": 2,
        "metric_ties": 1,
        "both_ties": 2,
    }
    assert result.statistic == pytest.approx(11.0 / 15.0, abs=1e-15)
    tau_23 = kendall_variant(METRIC, HUMAN, "23", "none", epsilon=0.15).statistic
    assert tau_23 == pytest.approx(7.0 / 15.0, abs=1e-15)
    tau_b = kendall_variant(METRIC, HUMAN, "b", "none", epsilon=0.15).statistic
    assert tau_b == pytest.approx(8.0 / math.sqrt(12.0 * 11.0), abs=1e-15)


def test_a_pair_with_a_missing_score_on_either_side_is_not_counted() -> None:
    human, metric = HUMAN.copy(), METRIC.copy()
    human[1, 1] = np.nan  # segment 2 keeps only the pair of systems 1 and 3 (C)
    metric[2, 0] = np.nan  # segment 1 keeps only the pair of systems 1 and 2 (C)
    result = kendall_variant(metric, human, "acc23", "item")
    assert (result.n_pairs, result.n_dropped, result.n_groups) == (2, 4, 2)
    assert result.statistic == 1.0
    # Two groups without any pair: nothing is defined.
    empty = kendall_variant(np.full((3, 2), np.nan), HUMAN, "acc23", "item")
    assert math.isnan(empty.statistic)
    assert (empty.n_groups, empty.n_pairs, empty.n_dropped) == (0, 0, 6)
    assert empty.to_dict()["statistic"] is None


def test_the_pair_codes_of_each_outcome() -> None:
    differences = np.array([0.5, 0.5, 0.5, 0.05, 0.0, np.nan, 0.3])
    signs = np.array([1, -1, 0, 1, 0, 1, np.nan])
    assert pair_codes(differences, signs, epsilon=0.1).tolist() == [
        CONCORDANT,
        DISCORDANT,
        HUMAN_TIE,
        METRIC_TIE,
        BOTH_TIE,
        NOT_COUNTED,
        NOT_COUNTED,
    ]
    with pytest.raises(ValueError, match="epsilon"):
        pair_codes(differences, signs, epsilon=-0.1)


@pytest.mark.parametrize(
    "n_members, n_groups", [(0, 3), (1, 3), (2, 1), (7, 2), (40, 1)]
)
def test_the_pair_batches_hold_every_pair_once(
    monkeypatch: pytest.MonkeyPatch, n_members: int, n_groups: int
) -> None:
    monkeypatch.setattr(kendall_variants_module, "_BATCH", 10)
    batches = list(pair_rows(n_members, n_groups))
    pairs = [
        (int(a), int(b)) for first, second in batches for a, b in zip(first, second)
    ]
    expected = [(a, b) for a in range(n_members) for b in range(a + 1, n_members)]
    assert pairs == expected
    if n_members == 40:
        assert len(batches) > 10


def test_small_batches_give_the_same_statistics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    metric, human = _random_scores(np.random.default_rng(3), 5, 9)
    whole = {
        (g, v): kendall_variant(metric, human, v, g).to_dict()
        for g in GROUPINGS
        for v in VARIANTS
    }
    monkeypatch.setattr(kendall_variants_module, "_BATCH", 7)
    for (group_by, variant), expected in whole.items():
        assert kendall_variant(metric, human, variant, group_by).to_dict() == expected


@pytest.mark.parametrize("seed", range(6))
def test_pooled_tau_b_and_tau_c_are_scipys(seed: int) -> None:
    metric, human = _random_scores(np.random.default_rng(seed), 6, 15)
    complete = ~np.isnan(metric) & ~np.isnan(human)
    x, y = human[complete], metric[complete]
    for variant in ("b", "c"):
        expected = stats.kendalltau(x, y, variant=variant).statistic
        actual = kendall_variant(metric, human, variant, "none").statistic
        assert actual == pytest.approx(expected, abs=1e-12)


def test_item_grouped_tau_c_is_the_mean_of_scipys_per_segment() -> None:
    metric, human = _random_scores(np.random.default_rng(11), 7, 12)
    values = []
    for segment in range(metric.shape[1]):
        complete = ~np.isnan(metric[:, segment]) & ~np.isnan(human[:, segment])
        if complete.sum() >= 2:
            x, y = human[complete, segment], metric[complete, segment]
            value = stats.kendalltau(x, y, variant="c").statistic
            if not math.isnan(value):
                values.append(value)
    result = kendall_variant(metric, human, "c", "item")
    assert result.n_groups == len(values)
    assert result.statistic == pytest.approx(np.mean(values), abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("group_by", GROUPINGS)
def test_random_scores_with_ties_agree_with_the_loop_reference(
    seed: int, group_by: str
) -> None:
    rng = np.random.default_rng(seed)
    metric, human = _random_scores(
        rng, int(rng.integers(2, 7)), int(rng.integers(2, 9))
    )
    for epsilon in (0.0, 0.25, 0.6):
        expected = reference_statistics(metric, human, group_by, epsilon)
        for variant, (statistic, n_groups, n_pairs, n_dropped) in expected.items():
            result = kendall_variant(metric, human, variant, group_by, epsilon)
            assert _agree(result.statistic, statistic, 1e-12), (variant, epsilon)
            assert (result.n_groups, result.n_pairs, result.n_dropped) == (
                n_groups,
                n_pairs,
                n_dropped,
            )


def _real_data() -> tuple[np.ndarray, np.ndarray]:
    require_full_data("WMT21 en-de MQM with chrF of every rated system")
    metric, human, _ = wmt21_en_de_mqm_chrf()
    return metric, human


@pytest.mark.parametrize(
    "group_by, systems, segments",
    [
        ("item", slice(None), slice(None)),
        ("system", slice(None), slice(0, 300)),  # the loop walks 8 x 44,850 pairs
        ("none", slice(0, 3), slice(0, 200)),
    ],
)
def test_wmt21_mqm_against_chrf_agrees_with_the_loop_reference(
    group_by: str, systems: slice, segments: slice
) -> None:
    metric, human = _real_data()
    metric, human = metric[systems, segments], human[systems, segments]
    for variant, (statistic, n_groups, n_pairs, n_dropped) in reference_statistics(
        metric, human, group_by
    ).items():
        result = kendall_variant(metric, human, variant, group_by)
        assert result.statistic == pytest.approx(statistic, abs=1e-9), variant
        assert (result.n_groups, result.n_pairs, result.n_dropped) == (
            n_groups,
            n_pairs,
            n_dropped,
        )


def test_wmt21_mqm_against_chrf_pooled_is_scipys() -> None:
    metric, human = _real_data()
    rated = ~np.isnan(human)
    assert rated.sum() == 8 * 527
    for variant in ("b", "c"):
        expected = stats.kendalltau(human[rated], metric[rated], variant=variant)
        result = kendall_variant(metric, human, variant, "none")
        assert result.statistic == pytest.approx(expected.statistic, abs=1e-9)
        # Unrated segments: every pair touching one of their points is out.
        assert result.n_pairs == 4216 * 4215 // 2
        assert result.n_dropped == 8016 * 8015 // 2 - result.n_pairs


def test_the_result_is_json_safe() -> None:
    result = kendall_variant(METRIC, HUMAN, "acc23", "item", epsilon=0.05)
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {
        "statistic": pytest.approx(5.0 / 6.0),
        "variant": "acc23",
        "group_by": "item",
        "epsilon": 0.05,
        "n_groups": 2,
        "n_pairs": 6,
        "n_dropped": 0,
        "counts": {
            "concordant": 4,
            "discordant": 1,
            "human_ties": 0,
            "metric_ties": 0,
            "both_ties": 1,
        },
    }


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: kendall_variant(METRIC, HUMAN[:, :1]), "same shape"),
        (lambda: kendall_variant(METRIC[0], HUMAN[0]), "same shape"),
        (lambda: kendall_variant(METRIC * np.inf, HUMAN), "finite"),
        (lambda: kendall_variant(METRIC, HUMAN, "a"), "Kendall variant 'a'"),
        (lambda: kendall_variant(METRIC, HUMAN, "b", "segment"), "grouping"),
        (lambda: kendall_variant(METRIC, HUMAN, "c", epsilon=0.1), "epsilon = 0"),
        (lambda: kendall_variant(METRIC, HUMAN, "b", epsilon=-1.0), "non-negative"),
    ],
)
def test_bad_input_is_refused_with_the_reason(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
