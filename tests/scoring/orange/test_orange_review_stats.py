"""Wilson intervals, Cohen's kappa and the paper's "confidently applied" criterion."""

import math

import pytest

from scoring.orange import cohen_kappa, confidently_applicable, wilson_interval


def test_wilson_by_hand():
    # 3 of 10, z = 1.96: centre (0.3 + 1.96^2/20) / (1 + 1.96^2/10), half width
    # 1.96 * sqrt(0.3*0.7/10 + 1.96^2/400) / (1 + 1.96^2/10).
    z = 1.959963984540054
    denominator = 1 + z * z / 10
    centre = (0.3 + z * z / 20) / denominator
    half = z * math.sqrt(0.021 + z * z / 400) / denominator
    low, high = wilson_interval(3, 10)
    assert low == pytest.approx(centre - half, abs=1e-12)
    assert high == pytest.approx(centre + half, abs=1e-12)
    assert (low, high) == pytest.approx((0.1078, 0.6032), abs=1e-4)


def test_wilson_edges():
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_kappa_by_hand():
    # Labels a a b b / a b b b: p_o = 3/4; p_e = (2*1 + 2*3) / 16 = 1/2;
    # kappa = (0.75 - 0.5) / 0.5 = 0.5.
    result = cohen_kappa(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    assert result.n_items == 4
    assert result.raw_agreement == 0.75
    assert result.kappa == pytest.approx(0.5, abs=1e-12)


def test_kappa_of_full_and_chance_agreement():
    # One and the same label throughout: p_e = 1, kappa 0/0 (scikit-learn: nan).
    single = cohen_kappa(["worse"] * 3, ["worse"] * 3)
    assert math.isnan(single.kappa) and single.raw_agreement == 1.0
    assert "single label 'worse'" in single.undefined
    # Opposite on every item of two balanced labels: p_o 0, p_e 1/2 -> -1.
    assert cohen_kappa(["a", "b"], ["b", "a"]).kappa == pytest.approx(-1.0)
    assert math.isnan(cohen_kappa([], []).kappa)


def test_confidently_applied_needs_a_small_upper_bound():
    # 0 good of 50: the upper Wilson bound is about 7.1 % < 10 %.
    assert confidently_applicable(0, 50).confident
    # 0 good of 10: upper bound 27.8 %: too few items to say.
    assert not confidently_applicable(0, 10).confident
    # 20 good of 100: clearly not small.
    verdict = confidently_applicable(20, 100)
    assert not verdict.confident and verdict.share_good == 0.2
    assert not confidently_applicable(0, 0).confident
