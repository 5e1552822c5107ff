"""Seeded resampling and percentile intervals."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import scoring.stats.resampling as resampling
from scoring.stats.resampling import (
    bootstrap_counts,
    bootstrap_indices,
    counts_from_indices,
    interval_positions,
    percentile_interval,
    random_signs,
)


def test_the_docstring_examples_hold() -> None:
    outcome = doctest.testmod(resampling)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_bootstrap_indices_are_sacrebleus_draws_for_the_same_seed() -> None:
    # sacreBLEU: rng = np.random.default_rng(seed); rng.choice(n, size=(R, n)).
    expected = np.random.default_rng(12345).choice(7, size=(5, 7), replace=True)
    assert np.array_equal(bootstrap_indices(7, 5, 12345), expected)


def test_the_same_seed_gives_the_same_resamples_and_another_seed_others() -> None:
    assert np.array_equal(bootstrap_counts(50, 20, 3), bootstrap_counts(50, 20, 3))
    assert not np.array_equal(bootstrap_counts(50, 20, 3), bootstrap_counts(50, 20, 4))


def test_resampling_leaves_the_global_numpy_random_state_alone() -> None:
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    bootstrap_counts(10, 10, 1)
    random_signs(10, 10, 1)
    assert np.array_equal(np.random.get_state()[1], before)


def test_a_generator_can_be_passed_instead_of_a_seed() -> None:
    counts = bootstrap_counts(10, 4, np.random.default_rng(9))
    assert np.array_equal(counts, bootstrap_counts(10, 4, 9))


def test_counts_say_how_often_each_item_was_drawn() -> None:
    indices = np.array([[0, 0, 2], [1, 2, 2]])
    assert counts_from_indices(indices, 3).tolist() == [[2, 0, 1], [0, 1, 2]]
    assert bootstrap_counts(9, 30, 1).sum(axis=1).tolist() == [9] * 30


def test_random_signs_are_sacrebleus_swap_mask_as_plus_and_minus_one() -> None:
    mask = np.random.default_rng(5).integers(2, size=(4, 6), dtype=bool)
    assert np.array_equal(random_signs(6, 4, 5), np.where(mask, 1.0, -1.0))


@pytest.mark.parametrize("bad_seed", [1.5, "1", None, True])
def test_a_seed_must_be_an_integer(bad_seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        bootstrap_counts(3, 3, bad_seed)  # type: ignore[arg-type]


def test_resampling_refuses_empty_inputs() -> None:
    with pytest.raises(ValueError):
        bootstrap_indices(0, 10, 1)
    with pytest.raises(ValueError):
        random_signs(3, 0, 1)


def test_interval_positions_follow_sacrebleus_one_fortieth_rule() -> None:
    for n_samples in (40, 100, 999, 1000, 1001, 10000):
        assert interval_positions(n_samples, 0.95) == (
            n_samples // 40,
            n_samples - n_samples // 40 - 1,
        )
    assert interval_positions(1000, 0.90) == (50, 949)


def test_percentile_interval_takes_order_statistics_per_column() -> None:
    samples = np.arange(1000, dtype=float)[::-1].reshape(1000, 1) * [1.0, 2.0]
    low, high = percentile_interval(samples, 0.95)
    assert low.tolist() == [25.0, 50.0] and high.tolist() == [974.0, 1948.0]


def test_percentile_interval_leaves_out_undefined_resamples() -> None:
    samples = np.r_[np.arange(40.0), [np.nan] * 10]
    low, high = percentile_interval(samples)
    assert (float(low), float(high)) == (1.0, 38.0)
    assert np.isnan(percentile_interval(np.full(5, np.nan))[0])
