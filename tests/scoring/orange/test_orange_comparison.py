"""The paired test between metrics (ORANGE Tables 2–6: best, equivalent, worse)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.orange import compare_metrics, normalised_ranks
from scoring.orange.ranking import rank_sentences


def test_a_metric_better_on_every_sentence_is_alone_best():
    # Hand-worked: a = 20 %, b = 50 %; every difference is positive, so every
    # resampled mean is positive and the interval excludes 0.
    result = compare_metrics(
        {"a": [0.2, 0.2, 0.2], "b": [0.4, 0.6, 0.5]}, n_bootstrap=200, seed=3
    )
    assert result.best == "a"
    assert result.equivalent == ()
    b = result.for_metric("b")
    assert b.orange == pytest.approx(50.0, abs=1e-12)
    assert b.difference == pytest.approx(30.0, abs=1e-12)
    # The smallest possible resampled mean is the smallest difference (0.2).
    assert b.ci_low >= 20.0 - 1e-9
    assert b.ci_high <= 40.0 + 1e-9
    # No resample has mean <= 0: p = 2 * (0 + 1) / (200 + 1).
    assert b.p_value == pytest.approx(2 / 201, rel=1e-12)
    assert result.for_metric("a").p_value is None


def test_differences_of_both_signs_are_equivalent():
    # d = b - a = [+0.2, -0.2, +0.2, -0.1]: mean 0.025 > 0, so a is best, but
    # resamples fall on both sides of 0.
    a = [0.3, 0.5, 0.3, 0.5]
    b = [0.5, 0.3, 0.5, 0.4]
    result = compare_metrics({"a": a, "b": b}, n_bootstrap=500, seed=1)
    assert result.best == "a"
    row = result.for_metric("b")
    assert row.difference == pytest.approx(100 * 0.025, abs=1e-12)
    assert row.ci_low < 0 < row.ci_high
    assert row.equivalent
    assert row.p_value > 0.05


def test_tied_metrics_are_all_best():
    # Issue 19 item 3: both ORANGE 50 %, so both are best (this test said "the
    # first of tied metrics is best and the tie equivalent" before).
    result = compare_metrics([("x", [0.1, 0.9]), ("y", [0.9, 0.1])], n_bootstrap=100)
    assert result.bests == ("x", "y")
    assert result.equivalent == ()
    for name in ("x", "y"):
        row = result.for_metric(name)
        assert row.best and not row.equivalent
        assert (row.difference, row.p_value, row.compared_with) == (0.0, None, None)
    assert result.to_dict()["bests"] == ["x", "y"]


def test_means_equal_but_for_the_order_of_summation_tie():
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit.
    a, b = [0.1, 0.2, 0.3], [0.3, 0.2, 0.1]
    assert np.mean(a) != np.mean(b)
    result = compare_metrics({"a": a, "b": b, "c": [0.5, 0.5, 0.5]}, n_bootstrap=50)
    assert result.bests == ("a", "b")
    assert not result.for_metric("c").best


def test_a_metric_is_reported_against_the_best_it_is_least_distinguishable_from():
    # x and y tie at 30 %. z (40 %) is worse than x on every sentence, but
    # against y its differences change sign: equivalent to y, reported so.
    x = [0.3, 0.3, 0.3, 0.3]
    y = [0.1, 0.5, 0.1, 0.5]
    z = [0.4, 0.4, 0.4, 0.4]
    result = compare_metrics({"x": x, "y": y, "z": z}, n_bootstrap=400, seed=2)
    assert result.bests == ("x", "y")
    row = result.for_metric("z")
    assert row.compared_with == "y"
    assert row.equivalent and row.ci_low < 0 < row.ci_high
    assert row.difference == pytest.approx(10.0, abs=1e-12)
    # Against x alone it would be significantly worse.
    alone = compare_metrics({"x": x, "z": z}, n_bootstrap=400, seed=2)
    assert not alone.for_metric("z").equivalent
    assert alone.for_metric("z").p_value < row.p_value


def test_without_bootstrap_nothing_is_tested():
    result = compare_metrics({"a": [0.1, 0.2], "b": [0.1, 0.2]}, n_bootstrap=0)
    assert result.best == "a"
    assert result.equivalent == ()
    assert math.isnan(result.for_metric("b").ci_low)
    assert result.to_dict()["metrics"][1]["ci_low"] is None


def test_the_same_seed_gives_the_same_answer():
    rng = np.random.default_rng(0)
    data = {f"m{i}": rng.uniform(size=50) for i in range(4)}
    first = compare_metrics(data, n_bootstrap=300, seed=9).to_dict()
    assert compare_metrics(data, n_bootstrap=300, seed=9).to_dict() == first


def test_normalised_ranks_are_what_orange_averages():
    # Ranks 2.5 (of 3 candidates) and 1 (of 1): 2.5 / 4 and 1 / 2.
    rankings = rank_sentences(
        [np.array([0.9, 0.5, 0.2]), np.array([0.1])],
        [0.5, 0.5],
        higher_is_better=True,
        curve_n=np.array([1]),
    )
    assert normalised_ranks(rankings).tolist() == pytest.approx([0.625, 0.5])


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        compare_metrics({})
    with pytest.raises(ValueError):
        compare_metrics({"a": [0.1, 0.2], "b": [0.1]})
    with pytest.raises(ValueError):
        compare_metrics({"a": [0.1, float("nan")]})


ranks = st.lists(
    st.floats(min_value=0.01, max_value=0.99), min_size=2, max_size=40
).map(np.array)


@settings(max_examples=40, deadline=None)
@given(ranks, st.integers(0, 2**16))
def test_identical_metrics_are_both_best(values, seed):
    # Issue 19 item 3 (before: the copy was "equivalent" with p = 1).
    result = compare_metrics(
        {"one": values, "copy": values.copy()}, n_bootstrap=50, seed=seed
    )
    assert result.best == "one" and result.bests == ("one", "copy")
    row = result.for_metric("copy")
    assert row.best and not row.equivalent and row.difference == 0.0
    assert row.p_value is None


@settings(max_examples=40, deadline=None)
@given(ranks, st.floats(min_value=0.001, max_value=0.5), st.integers(0, 2**16))
def test_a_metric_worse_on_every_sentence_is_never_equivalent(values, gap, seed):
    worse = values + gap
    result = compare_metrics(
        {"worse": worse, "better": values}, n_bootstrap=50, seed=seed
    )
    assert result.best == "better"
    assert result.equivalent == ()
    assert result.for_metric("worse").ci_low >= 100 * gap * (1 - 1e-9)
