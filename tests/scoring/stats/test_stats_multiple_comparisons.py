"""Holm / Bonferroni adjustment of all-pairs p-values, significance clusters
that respect it, and the paired randomisation test of human segment means.

Expected adjusted p-values are worked out by hand from the definitions
(Holm 1979: the i-th smallest of m p-values times m - i + 1, running maximum,
capped at 1) and compared with statsmodels' ``multipletests`` on random ones;
the cluster guarantee is checked on random p-value matrices (hypothesis).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.stats import (
    CORRECTIONS,
    adjust_p_values,
    compare_systems,
    holm_bonferroni,
    paired_mean_randomization_p_values,
    random_signs,
    significance_clusters,
    smallest_adjusted_p,
)
from tests.support import statsmodels_oracle

NAN = float("nan")


@pytest.mark.parametrize(
    ("p_values", "holm", "bonferroni"),
    [
        # The docstring's example.
        ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06], [0.03, 0.12, 0.09]),
        # Steps 0.05, 0.08, 0.09, 0.08 -> 0.09, 0.05 -> 0.09 (running maximum).
        (
            [0.01, 0.02, 0.03, 0.04, 0.05],
            [0.05, 0.08, 0.09, 0.09, 0.09],
            [0.05, 0.10, 0.15, 0.20, 0.25],
        ),
        # Unsorted input keeps its order; ties share the larger step.
        ([0.2, 0.01, 0.01], [0.2, 0.03, 0.03], [0.6, 0.03, 0.03]),
        # Capped at 1.
        ([0.6, 0.7], [1.0, 1.0], [1.0, 1.0]),
        # NaN (no test) stays NaN and is not counted: m = 2.
        ([NAN, 0.02, 0.5], [NAN, 0.04, 0.5], [NAN, 0.04, 1.0]),
        ([0.004], [0.004], [0.004]),
    ],
)
def test_holm_and_bonferroni_agree_with_hand_computed_values(
    p_values, holm, bonferroni
) -> None:
    p = np.array(p_values)
    np.testing.assert_allclose(holm_bonferroni(p, "holm"), holm, atol=1e-12)
    np.testing.assert_allclose(holm_bonferroni(p, "bonferroni"), bonferroni, atol=1e-12)
    np.testing.assert_array_equal(holm_bonferroni(p, "none"), p)


@pytest.mark.parametrize("method", ["holm", "bonferroni"])
def test_adjusted_p_values_agree_with_statsmodels(method) -> None:
    rng = np.random.default_rng(19)
    for m in (1, 2, 5, 66, 300):
        # Many small p-values and exact ties, as from 10,000 trials.
        p = np.round(rng.beta(0.3, 2.0, size=m), 4)
        expected = statsmodels_oracle.multipletests(p, method)
        np.testing.assert_allclose(
            holm_bonferroni(p, method), expected, rtol=0, atol=1e-15
        )


def test_an_unknown_correction_is_refused_with_the_valid_names() -> None:
    with pytest.raises(ValueError, match="holm, bonferroni, none"):
        holm_bonferroni(np.array([0.1]), "sidak")


def test_the_matrix_is_adjusted_as_one_family_of_all_pairs() -> None:
    # 3 systems: 3 pairs (0.001, 0.02, 0.04) -> Holm 0.003, 0.04, 0.04.
    raw = np.array([[NAN, 0.001, 0.04], [0.001, NAN, 0.02], [0.04, 0.02, NAN]])
    holm = adjust_p_values(raw, "holm")
    expected = np.array([[NAN, 0.003, 0.04], [0.003, NAN, 0.04], [0.04, 0.04, NAN]])
    np.testing.assert_allclose(holm, expected, atol=1e-12)
    bonferroni = adjust_p_values(raw, "bonferroni")
    np.testing.assert_allclose(bonferroni, np.minimum(raw * 3, 1.0), atol=1e-12)


def test_holm_joins_systems_that_raw_p_values_separate() -> None:
    # Raw p(A, B) = p(A, C) = 0.03, p(B, C) = 0.001. Holm over the 3 pairs:
    # 0.001 x 3 = 0.003, 0.03 x 2 = 0.06, 0.03 x 1 -> 0.06; so A and B no
    # longer differ and share the first cluster, while C stays apart from B.
    scores = np.array([3.0, 2.0, 1.0])
    raw = np.array([[NAN, 0.03, 0.03], [0.03, NAN, 0.001], [0.03, 0.001, NAN]])
    kwargs = {"higher_is_better": True, "alpha": 0.05}
    assert significance_clusters(scores, raw, **kwargs) == ((0,), (1,), (2,))
    holm = adjust_p_values(raw, "holm")
    assert significance_clusters(scores, holm, **kwargs) == ((0, 1), (2,))


@st.composite
def p_value_problems(draw):
    n = draw(st.integers(min_value=1, max_value=9))
    scores = draw(
        st.lists(
            st.floats(min_value=-50, max_value=50, allow_nan=False),
            min_size=n,
            max_size=n,
        )
    )
    upper = draw(
        st.lists(
            st.one_of(
                st.floats(min_value=0.0, max_value=1.0),
                st.sampled_from([0.0001, 0.01, 0.049, 0.05, 0.051]),
            ),
            min_size=n * (n - 1) // 2,
            max_size=n * (n - 1) // 2,
        )
    )
    p = np.full((n, n), np.nan)
    p[np.triu_indices(n, k=1)] = upper
    p.T[np.triu_indices(n, k=1)] = upper
    higher = draw(st.booleans())
    alpha = draw(st.sampled_from([0.01, 0.05, 0.1]))
    return np.array(scores), p, higher, alpha


@settings(max_examples=300, deadline=None)
@given(p_value_problems(), st.sampled_from(CORRECTIONS))
def test_no_cluster_holds_two_significantly_different_systems(
    problem, correction
) -> None:
    scores, raw, higher_is_better, alpha = problem
    adjusted = adjust_p_values(raw, correction)
    clusters = significance_clusters(
        scores, adjusted, higher_is_better=higher_is_better, alpha=alpha
    )
    flat = [system for cluster in clusters for system in cluster]
    # A partition of the systems, in rank order.
    assert sorted(flat) == list(range(scores.size))
    ranked = scores[flat] if higher_is_better else -scores[flat]
    assert all(ranked[:-1] >= ranked[1:])
    for cluster in clusters:
        for i, a in enumerate(cluster):
            for b in cluster[i + 1 :]:
                assert not adjusted[a, b] < alpha, (a, b, adjusted[a, b])
    # And no cluster is cut without cause: the first system of each cluster
    # differs significantly from a member of the cluster above it.
    for above, below in zip(clusters, clusters[1:]):
        assert (adjusted[below[0], list(above)] < alpha).any()
    # Holm never rejects less than Bonferroni, nor more than no correction.
    if correction == "holm":
        upper = np.triu_indices(scores.size, k=1)
        holm = adjusted[upper]
        assert np.all(holm >= raw[upper] - 1e-15)
        assert np.all(holm <= adjust_p_values(raw, "bonferroni")[upper] + 1e-15)


def test_paired_mean_randomization_counts_sign_flips_over_common_segments() -> None:
    # 3 systems x 6 segments; system 2 was not judged on segments 0-2.
    z = np.array(
        [
            [0.9, 0.5, 1.2, 0.3, 0.8, 1.0],
            [0.1, 0.4, 0.2, -0.5, 0.0, 0.3],
            [NAN, NAN, NAN, 0.2, 0.7, 0.1],
        ]
    )
    signs = random_signs(6, 400, 3)
    p = paired_mean_randomization_p_values(z, signs)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        common = ~np.isnan(z[a]) & ~np.isnan(z[b])
        d = (z[a] - z[b])[common]
        observed = abs(d.sum())
        # Brute force, one trial at a time.
        larger = sum(abs((row[common] * d).sum()) >= observed - 1e-12 for row in signs)
        assert p[a, b] == pytest.approx((larger + 1) / 401, abs=1e-12)
        assert p[b, a] == p[a, b]
    assert np.isnan(np.diag(p)).all()
    # System 0 beats 1 on all six segments: only the identity and its
    # mirror of 2^6 swaps are as extreme, p about 2/64.
    assert p[0, 1] < 0.06


def test_pairs_judged_on_no_common_segment_have_no_p_value() -> None:
    z = np.array([[1.0, NAN], [NAN, 0.0]])
    p = paired_mean_randomization_p_values(z, random_signs(2, 50, 1))
    assert np.isnan(p[0, 1]) and np.isnan(p[1, 0])


class RatioMetric:
    name = "ratio"
    higher_is_better = True

    @staticmethod
    def corpus_scores_from_statistics(summed: np.ndarray) -> np.ndarray:
        return 100.0 * summed[..., 0] / summed[..., 1]


def test_compare_systems_adjusts_both_tests_and_names_the_correction() -> None:
    rng = np.random.default_rng(0)
    lengths = rng.integers(5, 30, size=80)
    quality = np.array([0.50, 0.49, 0.40, 0.39])[:, None]
    matches = rng.binomial(lengths, np.broadcast_to(quality, (4, 80)))
    statistics = np.stack([matches, np.broadcast_to(lengths, matches.shape)], -1)
    for correction in CORRECTIONS:
        comparison = compare_systems(
            RatioMetric(),  # type: ignore[arg-type]
            ["a", "b", "c", "d"],
            list(statistics),
            n_samples=200,
            n_trials=300,
            seed=5,
            correction=correction,
        )
        assert comparison.correction == correction
        np.testing.assert_array_equal(
            comparison.bootstrap_p_adjusted,
            adjust_p_values(comparison.bootstrap_p, correction),
        )
        np.testing.assert_array_equal(
            comparison.ar_p_adjusted, adjust_p_values(comparison.ar_p, correction)
        )
        index = {name: i for i, name in enumerate(comparison.systems)}
        for clusters, adjusted in (
            (comparison.bootstrap_clusters, comparison.bootstrap_p_adjusted),
            (comparison.ar_clusters, comparison.ar_p_adjusted),
        ):
            for cluster in clusters:
                members = [index[name] for name in cluster]
                block = adjusted[np.ix_(members, members)]
                assert not (block < comparison.alpha).any()
        data = comparison.to_dict()
        assert data["correction"] == correction
        assert data["sided"] == "two-sided"
        assert data["interval"] == "two-sided percentile bootstrap"
    with pytest.raises(ValueError, match="unknown correction"):
        compare_systems(
            RatioMetric(),  # type: ignore[arg-type]
            ["a", "b"],
            list(statistics[:2]),
            n_samples=10,
            correction="sidak",
        )


@pytest.mark.parametrize(
    ("draws", "systems", "correction", "expected"),
    [
        # 23 systems: 253 pairs; 1,000 bootstrap resamples give p >= 1/1001.
        (1000, 23, "holm", 253 / 1001),
        (1000, 23, "bonferroni", 253 / 1001),
        (1000, 23, "none", 1 / 1001),
        (5059, 23, "holm", 253 / 5060),  # = 0.05: still nothing below 0.05
        (5060, 23, "holm", 253 / 5061),  # the first count that can separate
        (10, 3, "holm", 3 / 11),
        (2, 40, "bonferroni", 1.0),  # capped
    ],
)
def test_the_smallest_adjusted_p_value_of_a_monte_carlo_test(
    draws, systems, correction, expected
) -> None:
    assert smallest_adjusted_p(draws, systems, correction) == pytest.approx(
        expected, abs=1e-15
    )
