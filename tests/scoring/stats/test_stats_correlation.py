"""Pearson, Spearman and Kendall tau with bootstrap intervals.

Expected values come from hand computation and from SciPy (an independent
implementation), including on every bootstrap resample, rebuilt from the
resample indices.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from scipy import stats

import scoring.stats.correlation as correlation_module
from scoring.stats.correlation import (
    bootstrap_correlation,
    correlate,
    weighted_correlations,
)
from scoring.stats.kendall import kendall_plan, weighted_tau
from scoring.stats.resampling import (
    bootstrap_indices,
    counts_from_indices,
    percentile_interval,
)
from tests.scoring.support.realdata import (
    WMT21_DIR,
    measured,
    require_full_data,
    segment_count,
)
from tests.scoring.support.stats_data import (
    BLEND_DIR,
    blend_human,
    blend_metric,
    official_scores,
    read_tsv,
    require,
)

SCIPY = {
    "pearson": lambda x, y: stats.pearsonr(x, y).statistic,
    "spearman": lambda x, y: stats.spearmanr(x, y).statistic,
    "kendall": lambda x, y: stats.kendalltau(x, y).statistic,
}
METHODS = list(SCIPY)


def test_the_docstring_examples_hold() -> None:
    outcome = doctest.testmod(correlation_module)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_hand_computed_coefficients_with_ties() -> None:
    # x = 1 2 2 3, y = 1 3 2 2. Pairs: (1,2) C, (1,3) C, (1,4) C, (2,3) tie x,
    # (2,4) D, (3,4) tie y: S = 3 - 1 = 2; tau-b = 2 / sqrt(5 * 5) = 0.4.
    x, y = np.array([1.0, 2.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0, 2.0])
    assert correlate(x, y, "kendall") == pytest.approx(0.4, abs=1e-15)
    # Ranks 1 2.5 2.5 4 and 1 4 2.5 2.5, centred -1.5 0 0 1.5 and -1.5 1.5 0 0:
    # Pearson of the ranks = 2.25 / sqrt(4.5 * 4.5) = 0.5.
    assert correlate(x, y, "spearman") == pytest.approx(0.5, abs=1e-15)
    # Centred x = -1 0 0 1, y = -1 1 0 0: cov 1, var 2 and 2 -> 0.5.
    assert correlate(x, y, "pearson") == pytest.approx(0.5, abs=1e-15)
    # tau-c = 2 S / (n^2 (m - 1) / m) with m = 3 distinct values = 4 / (16 * 2/3).
    assert correlate(x, y, "kendall", variant="c") == pytest.approx(0.375, abs=1e-15)


@pytest.mark.parametrize("method", METHODS)
def test_coefficients_agree_with_scipy_on_random_scores_with_ties(method: str) -> None:
    rng = np.random.default_rng(11)
    worst = 0.0
    for trial in range(100):
        n = int(rng.integers(2, 60))
        x = rng.integers(0, 6, n) if trial % 2 else rng.normal(50, 20, n)
        y = rng.integers(0, 4, n) + 0.1 * x
        ours, reference = correlate(x, y, method), SCIPY[method](x, y)
        if np.isnan(reference):
            assert np.isnan(ours)
        else:
            worst = max(worst, abs(ours - reference))
    assert worst < 1e-12


def test_tau_c_agrees_with_scipy() -> None:
    rng = np.random.default_rng(4)
    for _ in range(50):
        x, y = rng.integers(0, 5, 30), rng.integers(0, 3, 30)
        expected = stats.kendalltau(x, y, variant="c").statistic
        assert correlate(x, y, "kendall", variant="c") == pytest.approx(
            expected, abs=1e-12
        )


@pytest.mark.parametrize("method", METHODS)
def test_every_resample_agrees_with_scipy_on_the_resampled_points(method: str) -> None:
    rng = np.random.default_rng(5)
    x = np.round(rng.normal(size=40), 1)
    y = np.round(x + rng.normal(size=40), 0)
    indices = bootstrap_indices(40, 200, 7)
    samples = weighted_correlations(x, y, counts_from_indices(indices, 40), method)
    expected = np.array([SCIPY[method](x[row], y[row]) for row in indices])
    assert np.max(np.abs(samples - expected)) < 1e-12


def test_the_interval_is_the_percentile_interval_of_the_resampled_coefficients() -> (
    None
):
    rng = np.random.default_rng(6)
    x, y = rng.normal(size=30), rng.normal(size=30)
    estimate = bootstrap_correlation(x, y, "spearman", n_samples=400, seed=3)
    indices = bootstrap_indices(30, 400, 3)
    resampled = np.sort([SCIPY["spearman"](x[row], y[row]) for row in indices])
    assert estimate.low == pytest.approx(resampled[10], abs=1e-12)  # 400 // 40
    assert estimate.high == pytest.approx(resampled[389], abs=1e-12)
    assert estimate.coefficient == pytest.approx(SCIPY["spearman"](x, y), abs=1e-12)
    assert (estimate.n_points, estimate.n_samples, estimate.seed) == (30, 400, 3)


def test_the_same_seed_gives_the_same_interval() -> None:
    x, y = np.arange(12.0), np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8.0])
    first = bootstrap_correlation(x, y, "kendall", seed=42).to_dict()
    assert first == bootstrap_correlation(x, y, "kendall", seed=42).to_dict()
    assert first != bootstrap_correlation(x, y, "kendall", seed=43).to_dict()


def test_constant_scores_give_an_undefined_coefficient() -> None:
    x, y = np.ones(5), np.arange(5.0)
    for method in METHODS:
        assert np.isnan(correlate(x, y, method))
        estimate = bootstrap_correlation(x, y, method, n_samples=50)
        assert estimate.undefined_samples == 50 and np.isnan(estimate.low)
        assert estimate.to_dict()["coefficient"] is None


def test_resamples_that_draw_one_value_only_are_left_out_of_the_interval() -> None:
    # Three systems: some resamples draw a single system three times.
    estimate = bootstrap_correlation(
        np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]), n_samples=1000
    )
    assert 0 < estimate.undefined_samples < 1000
    assert -1.0 <= estimate.low <= estimate.high <= 1.0


def test_fewer_than_two_points_give_nan() -> None:
    assert np.isnan(correlate(np.array([1.0]), np.array([2.0])))


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="equal length"):
        correlate(np.arange(3.0), np.arange(4.0))
    with pytest.raises(ValueError, match="finite"):
        correlate(np.array([1.0, np.nan]), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="unknown correlation"):
        correlate(np.arange(3.0), np.arange(3.0), "cosine")
    with pytest.raises(ValueError, match="variant"):
        weighted_tau(kendall_plan(np.arange(3.0), np.arange(3.0)), np.ones((1, 3)), "a")


def test_pearson_is_exact_far_from_zero() -> None:
    # Scores near 1e6 with small spread: centring keeps the moments exact.
    rng = np.random.default_rng(8)
    x = 1e6 + rng.normal(size=100)
    y = 1e6 + x + rng.normal(size=100)
    assert correlate(x, y) == pytest.approx(SCIPY["pearson"](x, y), abs=1e-10)


# -- WMT21 system level: DA against the official BLEU and chrF --------------


def _system_level(pair: str, human_file: str, system_column: str) -> dict[str, float]:
    require(WMT21_DIR / pair / "human" / human_file)
    rows = read_tsv(WMT21_DIR / pair / "human" / human_file)
    return {row[system_column]: float(row["z"]) for row in rows}


@pytest.mark.parametrize(
    ("pair", "human_file", "n_systems"),
    [("en-de", "da_src_sys.tsv", 20), ("zh-en", "da_sys.tsv", 23)],
)
@pytest.mark.parametrize("metric", ["bleu-all", "chrf-all"])
def test_wmt21_system_level_da_correlations_agree_with_scipy(
    pair: str, human_file: str, n_systems: int, metric: str
) -> None:
    human = _system_level(pair, human_file, "system")
    automatic = official_scores(pair, metric)
    # translator-A/C (en-de) and HUMAN (zh-en) have no automatic score.
    systems = sorted(set(human) & set(automatic))
    assert len(systems) == n_systems
    x = np.array([automatic[s] for s in systems])
    y = np.array([human[s] for s in systems])
    for method in METHODS:
        estimate = bootstrap_correlation(x, y, method, n_samples=1000, seed=1)
        assert estimate.coefficient == pytest.approx(SCIPY[method](x, y), abs=1e-12)
        assert estimate.low <= estimate.coefficient <= estimate.high


@pytest.mark.parametrize(
    ("pair", "human_file", "metric", "expected"),
    [  # (Pearson, Spearman, Kendall tau-b), rounded; SciPy gives the same
        ("en-de", "da_src_sys.tsv", "bleu-all", (0.5569, 0.5564, 0.4526)),
        ("en-de", "da_src_sys.tsv", "chrf-all", (0.5590, 0.5429, 0.4421)),
        ("zh-en", "da_sys.tsv", "bleu-all", (0.6788, 0.5217, 0.3834)),
        ("zh-en", "da_sys.tsv", "chrf-all", (0.7211, 0.5781, 0.4466)),
    ],
)
def test_wmt21_system_level_values_quoted_in_the_report(
    pair: str, human_file: str, metric: str, expected: tuple[float, float, float]
) -> None:
    human = _system_level(pair, human_file, "system")
    automatic = official_scores(pair, metric)
    systems = sorted(set(human) & set(automatic))
    x = np.array([automatic[s] for s in systems])
    y = np.array([human[s] for s in systems])
    for method, value in zip(METHODS, expected):
        assert correlate(x, y, method) == pytest.approx(value, abs=5e-5)


# -- BLEND: 5360 DA-scored segments and the scores of 29 metrics -----------

BLEND_METRICS = [
    "BEER", "BLEU", "ENTF", "GTM-1", "GTM-2", "GTM-3", "METEOR-ex", "METEOR-pa",
    "METEOR-st", "METEOR-sy", "NIST", "Ol", "ROUGE-1", "ROUGE-2", "ROUGE-3",
    "ROUGE-4", "ROUGE-L", "ROUGE-SUstar", "ROUGE-Sstar", "ROUGE-W", "WER", "cTER",
    "nPER", "nTER", "nTERbase", "nTERp", "nTERp-A", "nWER",
]  # fmt: skip


def test_blend_dpmf_cannot_be_aligned_with_the_segments() -> None:
    # The 29th metric, DPMF, has 2935 scores for 5360 segments and no
    # segment ids: it is left out of the table.
    require_full_data("BLEND's scores/DPMF (not aligned with the segments)")
    assert blend_metric("DPMF").size == 2935


@pytest.mark.parametrize("method", METHODS)
def test_blend_segment_level_table_of_28_metrics_agrees_with_scipy(method: str) -> None:
    require(BLEND_DIR / "scores")
    human = blend_human()
    assert human.size == segment_count("blend-wmt15-16-da", full=5360)
    worst = 0.0
    for name in BLEND_METRICS:
        scores = blend_metric(name)
        worst = max(
            worst, abs(correlate(scores, human, method) - SCIPY[method](scores, human))
        )
    assert worst < 1e-12


def test_blend_segment_level_values_for_the_record() -> None:
    require(BLEND_DIR / "scores")
    human = blend_human()
    # Rounded values quoted in the report (SciPy agrees to 1e-12, above);
    # those of the first 210 segments kept in the fixtures.
    expected = measured(
        full={  # metric: (Pearson, Kendall tau-b)
            "METEOR-pa": (0.5692, 0.4016),
            "nTERp-A": (0.5816, 0.3965),
            "BLEU": (0.4941, 0.3196),
            "WER": (-0.4698, -0.3200),
        },
        fixtures={
            "METEOR-pa": (0.5225, 0.3796),
            "nTERp-A": (0.5687, 0.3966),
            "BLEU": (0.4805, 0.3135),
            "WER": (-0.3928, -0.2517),
        },
    )
    for name, (pearson, kendall) in expected.items():
        scores = blend_metric(name)
        assert correlate(scores, human, "pearson") == pytest.approx(pearson, abs=5e-5)
        assert correlate(scores, human, "kendall") == pytest.approx(kendall, abs=5e-5)


@pytest.mark.parametrize("method", METHODS)
def test_blend_bootstrap_resamples_agree_with_scipy_on_the_resampled_segments(
    method: str,
) -> None:
    require(BLEND_DIR / "scores")
    human, scores = blend_human(), blend_metric("METEOR-sy")
    indices = bootstrap_indices(human.size, 25, 1)
    samples = weighted_correlations(
        scores, human, counts_from_indices(indices, human.size), method
    )
    expected = [SCIPY[method](scores[row], human[row]) for row in indices]
    assert np.max(np.abs(samples - expected)) < 1e-12
    low, high = percentile_interval(samples)
    assert low < correlate(scores, human, method) < high
