"""Fleiss' kappa, weighted Cohen's kappa and the two-way absolute-agreement
ICC, against published examples and independent implementations:

- Fleiss (1971), Table 1 data (30 patients, 6 psychiatrists, 5 diagnoses;
  R ``irr::diagnoses``): kappa = 0.430 published, 0.4302445 from R's
  ``kappam.fleiss``; statsmodels' ``fleiss_kappa`` on every table;
- scikit-learn's ``cohen_kappa_score(weights="linear" | "quadratic")``
  (with ``labels`` = every point of the scale, since it measures weights
  between label positions and mtdash between values);
- Shrout & Fleiss (1979), Table 2 data (6 targets, 4 judges): their Table 4
  gives ICC(2,1) = .29 and ICC(2,4) = .62; pingouin 0.7.0's
  ``intraclass_corr`` gives ICC(A,1) = 0.2897637795 and ICC(A,k) =
  0.6200505476 (run once outside this project: pingouin is not a test
  dependency); the mean squares from statsmodels' two-way ANOVA (OLS with
  item and judge factors) on random tables.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.stats import (
    bootstrap_indices,
    fleiss_agreement,
    fleiss_kappa,
    icc_agreement,
    intraclass_correlation,
    percentile_interval,
    weighted_kappa,
    weighted_kappa_agreement,
)
from tests.scoring.support.icc_reference import icc_by_formula

# Fleiss (1971) via R irr::diagnoses: rows patients, columns raters 1-6.
DIAGNOSES = np.array(
    [
        [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5],
        [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3],
        [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4],
        [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
        [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
        [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2],
        [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5], [5, 5, 5, 5, 5, 5],
        [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
        [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5],
        [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
    ]
)  # fmt: skip
# Wikipedia's Fleiss example (10 items, 14 raters, 5 categories): 0.210.
WIKIPEDIA_TABLE = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]  # fmt: skip
SHROUT_FLEISS = np.array(
    [
        [9, 2, 5, 8],
        [6, 1, 3, 2],
        [8, 4, 6, 8],
        [7, 1, 2, 6],
        [10, 5, 6, 9],
        [6, 2, 4, 7],
    ]
)
# 12 items x 3 judges on a 1-5 scale (judge 2 rates about a point higher);
# pingouin 0.7.0: ICC(A,1) 0.643884892086, ICC(A,k) 0.844339622642.
TWELVE_BY_THREE = np.array(
    [
        [4, 5, 3], [4, 5, 4], [1, 3, 1], [5, 5, 4], [2, 4, 2], [4, 3, 4],
        [5, 5, 3], [2, 3, 2], [5, 5, 5], [1, 3, 1], [3, 2, 2], [3, 2, 1],
    ]
)  # fmt: skip


def triples(matrix):
    """(item, judge, value) triples of a table, NaN cells left out."""
    items, judges, values = [], [], []
    for (item, judge), value in np.ndenumerate(np.asarray(matrix, dtype=float)):
        if not np.isnan(value):
            items.append(item)
            judges.append(f"j{judge}")
            values.append(value)
    return items, judges, values


def count_table(matrix, levels):
    return np.array([[np.sum(row == c) for c in levels] for row in matrix])


def test_fleiss_kappa_of_fleiss_1971_equals_the_published_and_r_values():
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    counts = count_table(DIAGNOSES, range(1, 6))
    assert fleiss_kappa(counts) == pytest.approx(0.430, abs=5e-4)
    assert fleiss_kappa(counts) == pytest.approx(0.4302445, abs=1e-7)
    assert fleiss_kappa(counts) == pytest.approx(statsmodels_fleiss(counts), abs=1e-12)
    # from the raw ratings: every patient has 6 ratings, nothing is left out
    estimate = fleiss_agreement(*triples(DIAGNOSES), n_samples=200, seed=3)
    assert estimate.value == pytest.approx(0.4302445, abs=1e-7)
    assert (estimate.n_items, estimate.n_judges, estimate.n_values) == (30, 6, 180)
    assert estimate.note is None and estimate.undefined is None
    assert estimate.low < estimate.value < estimate.high


def test_fleiss_kappa_of_wikipedias_example_and_random_tables_equals_statsmodels():
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    assert fleiss_kappa(WIKIPEDIA_TABLE) == pytest.approx(0.210, abs=5e-4)
    rng = np.random.default_rng(8)
    for _ in range(20):
        raters = int(rng.integers(2, 8))
        ratings = rng.integers(0, 4, size=(int(rng.integers(3, 40)), raters))
        counts = count_table(ratings, range(4))
        assert fleiss_kappa(counts) == pytest.approx(
            statsmodels_fleiss(counts), abs=1e-12
        )


def test_fleiss_uses_the_items_with_the_most_common_number_of_raters():
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    matrix = DIAGNOSES.astype(float)
    matrix[:4, 5] = np.nan  # four patients with 5 ratings: left out
    matrix[4, 4:] = np.nan  # one with 4
    estimate = fleiss_agreement(*triples(matrix), n_samples=0)
    kept = count_table(DIAGNOSES[5:], range(1, 6))
    assert estimate.value == pytest.approx(statsmodels_fleiss(kept), abs=1e-12)
    assert estimate.n_items == 25 and estimate.n_values == 150
    assert "25 of 30 items" in estimate.note and "rated by 6 judges" in estimate.note
    assert estimate.low is None  # no resamples asked for


def test_fleiss_is_undefined_without_two_items_or_without_disagreement():
    one = fleiss_agreement([0, 0, 1], ["a", "b", "a"], [1, 2, 3], n_samples=10)
    assert one.value is None and "fewer than two items" in one.undefined
    same = fleiss_agreement([0, 0, 1, 1], ["a", "b"] * 2, [3, 3, 3, 3], n_samples=10)
    assert same.value is None and "one category" in same.undefined
    with pytest.raises(ValueError):
        fleiss_kappa([[2, 0], [1, 2]])  # 2 raters, then 3


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_equals_scikit_learn(weights):
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(21)
    scale = list(range(1, 6))
    for size in (5, 17, 60):
        truth = rng.integers(1, 6, size)
        first = np.clip(truth + rng.integers(-1, 2, size), 1, 5)
        second = np.clip(truth + rng.integers(-2, 2, size), 1, 5)
        expected = cohen_kappa_score(first, second, weights=weights, labels=scale)
        assert weighted_kappa(first, second, weights) == pytest.approx(
            expected, abs=1e-12
        )
    # Unused points of the scale (1, 2, 5 only): distances are between values.
    first, second = [1, 2, 5, 5, 2, 1], [2, 2, 5, 1, 5, 1]
    expected = cohen_kappa_score(first, second, weights=weights, labels=scale)
    assert weighted_kappa(first, second, weights) == pytest.approx(expected, abs=1e-12)


def test_weighted_kappa_by_hand_and_when_undefined():
    # 1 2 3 / 1 3 3, quadratic: sum w o = 1/3 (item 2, (2 - 3)^2 = 1); the
    # marginals (1/3, 1/3, 1/3) and (1/3, 0, 2/3) give sum w e by cells
    # (1,3) 4 * 2/9 + (2,1) 1 * 1/9 + (2,3) 1 * 2/9 + (3,1) 4 * 1/9 = 15/9;
    # kappa = 1 - (1/3) / (5/3) = 4/5.
    assert weighted_kappa([1, 2, 3], [1, 3, 3], "quadratic") == pytest.approx(
        0.8, abs=1e-12
    )
    assert np.isnan(weighted_kappa([4, 4, 4], [4, 4, 4], "linear"))
    assert weighted_kappa([1, 1], [2, 2], "linear") == pytest.approx(0.0)


def pairs_table():
    """Four judges on 30 items of a 1-5 scale, about a third missing."""
    rng = np.random.default_rng(13)
    truth = rng.integers(1, 6, 30)
    matrix = np.clip(truth[:, None] + rng.integers(-1, 2, (30, 4)), 1, 5).astype(float)
    matrix[rng.random((30, 4)) < 0.3] = np.nan
    return matrix


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_pairwise_weighted_kappa_is_the_mean_of_scikit_learns_per_pair(weights):
    from sklearn.metrics import cohen_kappa_score

    matrix = pairs_table()
    expected = []
    for a, b in itertools.combinations(range(4), 2):
        shared = ~np.isnan(matrix[:, a]) & ~np.isnan(matrix[:, b])
        expected.append(
            cohen_kappa_score(
                matrix[shared, a],
                matrix[shared, b],
                weights=weights,
                labels=range(1, 6),
            )
        )
    estimate = weighted_kappa_agreement(
        *triples(matrix), weights, n_samples=300, seed=4
    )
    assert estimate.method == f"kappa-{weights}"
    assert estimate.value == pytest.approx(np.mean(expected), abs=1e-12)
    assert estimate.n_judges == 4
    assert estimate.low < estimate.value < estimate.high
    assert estimate == weighted_kappa_agreement(
        *triples(matrix), weights, n_samples=300, seed=4
    )


def test_pairwise_weighted_kappa_bootstrap_resamples_items_as_a_loop_would():
    from sklearn.metrics import cohen_kappa_score

    matrix = pairs_table()
    estimate = weighted_kappa_agreement(
        *triples(matrix), "quadratic", n_samples=100, seed=9
    )
    in_use = np.flatnonzero((~np.isnan(matrix)).sum(axis=1) >= 2)
    samples = []
    for row in bootstrap_indices(len(in_use), 100, np.random.default_rng(9)):
        drawn = matrix[in_use[row]]
        kappas = []
        for a, b in itertools.combinations(range(4), 2):
            shared = ~np.isnan(drawn[:, a]) & ~np.isnan(drawn[:, b])
            if not shared.any():
                continue
            # scikit-learn, not the code under test, gives each resample's
            # kappas (undefined, NaN, when no disagreement is expected)
            with np.errstate(divide="ignore", invalid="ignore"):
                kappa = cohen_kappa_score(
                    drawn[shared, a],
                    drawn[shared, b],
                    weights="quadratic",
                    labels=range(1, 6),
                )
            if not np.isnan(kappa):
                kappas.append(kappa)
        samples.append(np.mean(kappas))
    low, high = percentile_interval(np.array(samples), 0.95)
    assert estimate.n_items == len(in_use)
    assert estimate.low == pytest.approx(float(low), abs=1e-12)
    assert estimate.high == pytest.approx(float(high), abs=1e-12)


def test_weighted_kappa_without_shared_items_is_undefined():
    estimate = weighted_kappa_agreement([0, 1, 2], ["a", "b", "c"], [1, 2, 3])
    assert estimate.value is None and "no two judges share 3" in estimate.undefined


def test_icc_of_shrout_and_fleiss_table_2_equals_their_table_4_and_pingouin():
    icc = intraclass_correlation(SHROUT_FLEISS)
    assert icc.single == pytest.approx(0.29, abs=5e-3)  # ICC(2,1)
    assert icc.average == pytest.approx(0.62, abs=5e-3)  # ICC(2,4)
    assert icc.single == pytest.approx(0.2897637795, abs=1e-9)
    assert icc.average == pytest.approx(0.6200505476, abs=1e-9)
    # Shrout & Fleiss Table 3: BMS 11.24, JMS 32.49, EMS 1.02
    assert icc.ms_rows == pytest.approx(11.24, abs=5e-3)
    assert icc.ms_columns == pytest.approx(32.49, abs=5e-3)
    assert icc.ms_error == pytest.approx(1.02, abs=5e-3)
    other = intraclass_correlation(TWELVE_BY_THREE)
    assert other.single == pytest.approx(0.643884892086, abs=1e-9)
    assert other.average == pytest.approx(0.844339622642, abs=1e-9)


def test_icc_mean_squares_equal_statsmodels_two_way_anova():
    import pandas as pd
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    rng = np.random.default_rng(17)
    for n, k in ((8, 3), (25, 5)):
        matrix = rng.normal(0, 1, (n, 1)) * 10 + rng.normal(0, 4, (n, k))
        matrix += np.arange(k) * 2.0  # judges differ in level
        frame = pd.DataFrame(
            [(i, j, matrix[i, j]) for i in range(n) for j in range(k)],
            columns=["item", "judge", "value"],
        )
        table = sm.stats.anova_lm(ols("value ~ C(item) + C(judge)", frame).fit())
        msr = table.loc["C(item)", "mean_sq"]
        msc = table.loc["C(judge)", "mean_sq"]
        mse = table.loc["Residual", "mean_sq"]
        icc = intraclass_correlation(matrix)
        assert (icc.ms_rows, icc.ms_columns, icc.ms_error) == pytest.approx(
            (msr, msc, mse), rel=1e-9
        )
        # McGraw & Wong (1996) Table 4, ICC(A,1) and ICC(A,k)
        single = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
        average = (msr - mse) / (msr + (msc - mse) / n)
        assert icc.single == pytest.approx(single, abs=1e-12)
        assert icc.average == pytest.approx(average, abs=1e-12)


def test_icc_uses_the_largest_complete_table_and_resamples_its_rows():
    matrix = np.vstack([TWELVE_BY_THREE, [[4, 5, 3], [2, 2, 2]]]).astype(float)
    matrix = np.hstack([matrix, np.full((14, 1), np.nan)])
    matrix[12, 2] = np.nan  # item 12: judges 0 and 1 only
    matrix[13, 1:3] = np.nan  # item 13: one rating
    matrix[0, 3] = 4.0  # a fourth judge rated item 0 only
    single, average = icc_agreement(*triples(matrix), n_samples=200, seed=6)
    assert (single.method, average.method) == ("icc-a1", "icc-ak")
    assert single.value == pytest.approx(0.643884892086, abs=1e-9)
    assert average.value == pytest.approx(0.844339622642, abs=1e-9)
    assert (single.n_items, single.n_judges, single.n_values) == (12, 3, 36)
    assert "12 of 13 items" in single.note and "same 3 judges" in single.note
    samples = []
    for row in bootstrap_indices(12, 200, np.random.default_rng(6)):
        samples.append(icc_by_formula(TWELVE_BY_THREE[row])[0])
    low, high = percentile_interval(np.array(samples), 0.95)
    assert single.low == pytest.approx(float(low), abs=1e-9)
    assert single.high == pytest.approx(float(high), abs=1e-9)


def test_icc_is_undefined_without_a_shared_item_or_without_variation():
    single, average = icc_agreement([0, 1], ["a", "b"], [3, 4], n_samples=10)
    assert single.value is None and average.value is None
    assert "no two items" in single.undefined
    flat = icc_agreement([0, 0, 1, 1], ["a", "b"] * 2, [3, 3, 3, 3], n_samples=10)
    assert flat[0].value is None and "same value" in flat[0].undefined
    with pytest.raises(ValueError):
        intraclass_correlation([[1, 2], [3, np.nan]])
