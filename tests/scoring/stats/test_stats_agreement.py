"""Agreement between judges: Krippendorff's alpha against his worked example
and a brute-force computation, pairwise Pearson against NumPy, the bootstrap
intervals' seeds, repeated and degraded items.

Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C:
4 observers (A-D) rate 12 units on a 1-5 scale with missing values; unit 12
has a single value (from B) and is not pairable, so n = 40 pairable values
remain. The paper gives alpha = 0.743 (nominal), 0.815 (ordinal) and 0.849
(interval). By hand for interval data: the coincidence matrix's marginals
are n_1 = 9, n_2 = 13, n_3 = 10, n_4 = 5, n_5 = 3 (n = 40); the observed
disagreement sums (c - k)^2 over the pairs within units, weighted by
1/(m_u - 1): unit 2 (3, 2, 2) gives 2 * 2 * 1/2 = 2, unit 6 (1, 2, 3, 4)
gives 2 * (1+4+9+1+4+1)/3 = 40/3, unit 8 (1, 1, 2, 1) 2 * 3 * 1/3 = 2,
total 52/3; the expected sum is 2 (n Q - S^2) with S = 9 + 26 + 30 + 20 +
15 = 100 and Q = 9 + 52 + 90 + 80 + 75 = 306, i.e. 2 (12240 - 10000) =
4480; alpha = 1 - 39 * (52/3) / 4480 = 1 - 676/4480 = 0.8491.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.stats import (
    alpha_agreement,
    degradation_test,
    krippendorff_alpha,
    pairwise_pearson,
    pearson_agreement,
    repeat_consistency,
)

NAN = float("nan")
KRIPPENDORFF_2011 = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    "C": [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
}
PUBLISHED = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849}


def triples(table: dict[str, list[float]]):
    items, judges, values = [], [], []
    for judge, row in table.items():
        for item, value in enumerate(row):
            if not np.isnan(value):
                items.append(item)
                judges.append(judge)
                values.append(value)
    return items, judges, values


def brute_force_alpha(items, values, level: str) -> float:
    """Alpha by its definition: every ordered pair of pairable values within
    a unit weighted 1/(m_u - 1), against every ordered pair of pairable
    values overall; the ordinal distance counts the values between."""
    units: dict = {}
    for item, value in zip(items, values):
        units.setdefault(item, []).append(value)
    pairable = [v for unit in units.values() if len(unit) > 1 for v in unit]
    n = len(pairable)

    def delta(c, k):
        if level == "nominal":
            return 0.0 if c == k else 1.0
        if level == "interval":
            return (c - k) ** 2
        low, high = min(c, k), max(c, k)
        between = sum(1 for v in pairable if low <= v <= high)
        return (between - (pairable.count(c) + pairable.count(k)) / 2) ** 2

    observed = sum(
        delta(unit[i], unit[j]) / (len(unit) - 1)
        for unit in units.values()
        if len(unit) > 1
        for i, j in itertools.permutations(range(len(unit)), 2)
    )
    expected = sum(
        delta(pairable[i], pairable[j]) for i, j in itertools.permutations(range(n), 2)
    )
    return 1 - (n - 1) * observed / expected


@pytest.mark.parametrize("level", sorted(PUBLISHED))
def test_alpha_equals_krippendorffs_published_example(level):
    items, judges, values = triples(KRIPPENDORFF_2011)
    alpha = krippendorff_alpha(items, judges, values, level)
    assert alpha == pytest.approx(PUBLISHED[level], abs=5e-4)


@pytest.mark.parametrize("level", sorted(PUBLISHED))
def test_alpha_equals_the_brute_force_definition_on_random_data(level):
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 6, size=40)
    items, judges, values = [], [], []
    for judge in range(5):
        for item in range(40):
            if rng.random() < 0.6:  # about 40% missing
                noisy = np.clip(truth[item] + rng.integers(-1, 2), 1, 5)
                items.append(item)
                judges.append(judge)
                values.append(float(noisy))
    expected = brute_force_alpha(items, values, level)
    assert krippendorff_alpha(items, judges, values, level) == pytest.approx(
        expected, abs=1e-9
    )
    # The definition gives the published numbers too.
    example_items, _, example_values = triples(KRIPPENDORFF_2011)
    assert brute_force_alpha(example_items, example_values, level) == pytest.approx(
        PUBLISHED[level], abs=5e-4
    )


def test_interval_alpha_of_continuous_values_equals_the_brute_force_one():
    rng = np.random.default_rng(3)
    items = np.repeat(np.arange(30), 3)
    judges = np.tile(np.arange(3), 30)
    values = rng.normal(50, 20, size=90).round(1) + np.repeat(rng.normal(0, 15, 30), 3)
    expected = brute_force_alpha(items.tolist(), values.tolist(), "interval")
    assert krippendorff_alpha(items, judges, values, "interval") == pytest.approx(
        expected, abs=1e-9
    )


def test_alpha_is_nan_without_pairable_values_and_one_for_perfect_agreement():
    assert np.isnan(krippendorff_alpha([0, 1, 2], [0, 0, 0], [1, 2, 3]))
    assert np.isnan(krippendorff_alpha([0, 0], [0, 1], [3, 3]))  # no variation
    perfect = krippendorff_alpha([0, 0, 1, 1], [0, 1, 0, 1], [2, 2, 5, 5], "ordinal")
    assert perfect == pytest.approx(1.0)


def test_alpha_bootstrap_is_seeded_and_brackets_the_estimate():
    items, judges, values = triples(KRIPPENDORFF_2011)
    first = alpha_agreement(items, judges, values, "ordinal", n_samples=500, seed=1)
    again = alpha_agreement(items, judges, values, "ordinal", n_samples=500, seed=1)
    other = alpha_agreement(items, judges, values, "ordinal", n_samples=500, seed=2)
    assert first == again
    assert (first.low, first.high) != (other.low, other.high)
    assert first.low <= first.value <= first.high
    assert (first.n_items, first.n_judges, first.n_values) == (11, 4, 40)


def test_alpha_bootstrap_resamples_items_as_a_plain_loop_would():
    items, judges, values = triples(KRIPPENDORFF_2011)
    estimate = alpha_agreement(items, judges, values, "interval", n_samples=200, seed=5)
    # Rebuild each resample by copying the drawn units under new unit codes.
    from scoring.stats import bootstrap_indices, percentile_interval

    pairable_units = sorted({i for i in items if items.count(i) > 1})
    draws = bootstrap_indices(len(pairable_units), 200, np.random.default_rng(5))
    alphas = []
    for row in draws:
        r_items, r_judges, r_values = [], [], []
        for position, unit_index in enumerate(row):
            unit = pairable_units[unit_index]
            for i, j, v in zip(items, judges, values):
                if i == unit:
                    r_items.append(position)
                    r_judges.append(j)
                    r_values.append(v)
        alphas.append(krippendorff_alpha(r_items, r_judges, r_values, "interval"))
    low, high = percentile_interval(np.array(alphas), 0.95)
    assert estimate.low == pytest.approx(float(low), abs=1e-9)
    assert estimate.high == pytest.approx(float(high), abs=1e-9)


def test_pairwise_pearson_is_the_mean_of_numpys_correlations_per_pair():
    rng = np.random.default_rng(11)
    truth = rng.uniform(0, 100, 25)
    table = {}
    for judge in "abc":
        rated = rng.random(25) < 0.8
        table[judge] = {
            item: float(np.clip(truth[item] + rng.normal(0, 15), 0, 100))
            for item in np.flatnonzero(rated)
        }
    items = [i for j in table for i in table[j]]
    judges = [j for j in table for _ in table[j]]
    values = [table[j][i] for j in table for i in table[j]]
    expected = []
    for a, b in itertools.combinations("abc", 2):
        shared = sorted(set(table[a]) & set(table[b]))
        x = [table[a][i] for i in shared]
        y = [table[b][i] for i in shared]
        expected.append(np.corrcoef(x, y)[0, 1])
    assert pairwise_pearson(items, judges, values) == pytest.approx(
        np.mean(expected), abs=1e-12
    )
    estimate = pearson_agreement(items, judges, values, n_samples=300, seed=4)
    assert estimate.value == pytest.approx(np.mean(expected), abs=1e-12)
    assert estimate.low < estimate.value < estimate.high
    assert estimate.n_judges == 3
    assert estimate == pearson_agreement(items, judges, values, n_samples=300, seed=4)


def test_pairs_with_too_few_shared_items_are_left_out():
    items = [0, 1, 0, 1, 2, 3, 4]
    judges = ["a", "a", "b", "b", "c", "c", "c"]
    values = [10, 20, 15, 30, 50, 60, 70]
    assert np.isnan(pairwise_pearson(items, judges, values, min_shared=3))
    assert pairwise_pearson(items, judges, values, min_shared=2) == pytest.approx(1)
    assert pearson_agreement(items, judges, values).value is None


def test_repeat_consistency_counts_differences_and_exact_repeats():
    result = repeat_consistency([4, 2, 5, 1], [4, 3, 5, 3])
    assert result.n_pairs == 4
    assert result.mean_absolute_difference == pytest.approx((0 + 1 + 0 + 2) / 4)
    assert result.exact_share == pytest.approx(0.5)
    expected = brute_force_alpha([0, 1, 2, 3] * 2, [4, 2, 5, 1, 4, 3, 5, 3], "interval")
    assert result.alpha == pytest.approx(expected, abs=1e-12)
    assert repeat_consistency([], []).n_pairs == 0


def test_degradation_test_passes_judges_who_rate_degraded_copies_lower():
    from scipy.stats import wilcoxon

    original = [80, 75, 90, 60, 70, 85]
    careful = [40, 60, 70, 45, 30, 50]
    result = degradation_test(original, careful)
    expected = wilcoxon(np.subtract(original, careful), alternative="greater")
    assert result.p_value == pytest.approx(expected.pvalue, abs=1e-12)
    assert result.passed and result.tested
    careless = [82, 70, 95, 58, 72, 85]
    assert degradation_test(original, careless).passed is False
    few = degradation_test([5, 4], [3, 4])
    assert (few.tested, few.passed, few.p_value) == (False, True, None)
    assert degradation_test([3, 3, 3, 3, 3], [3, 3, 3, 3, 3]).passed is False


@pytest.mark.parametrize("pair", ["en-de", "ro-en"])
def test_interval_alpha_of_mlqe_pe_da_ratings_equals_the_definition(pair):
    """MLQE-PE test20 (6 DA ratings per segment): alpha over the first 400
    segments equals its definition computed with NumPy's outer differences."""
    import ast
    import csv

    from tests.scoring.support.realdata import DATA_DIR

    path = (
        DATA_DIR
        / "mlqe-pe"
        / "direct-assessments"
        / pair
        / f"test20.{pair.replace('-', '')}.df.short.tsv"
    )
    if not path.exists():
        pytest.skip(f"{path} is not here (MLQE-PE is in the full data only)")
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    items, judges, values = [], [], []
    for row in rows[:400]:
        for position, score in enumerate(ast.literal_eval(row["scores"])):
            items.append(int(row["index"]))
            judges.append(position)
            values.append(float(score))
    x = np.array(values)
    units = np.array(items)
    squared = np.subtract.outer(x, x) ** 2  # (n, n)
    same_unit = np.equal.outer(units, units)
    m = np.bincount(units)[units]  # values in each value's unit
    observed = (squared * same_unit / (m[:, None] - 1)).sum()
    expected = squared.sum() / (len(x) - 1)
    definition = 1 - observed / expected
    assert krippendorff_alpha(items, judges, values, "interval") == pytest.approx(
        definition, abs=1e-9
    )
