"""p-values of the block t-test and Williams' test against figures that do not
come from SciPy (which computes them): closed forms worked by hand, the
finite sums of Abramowitz & Stegun for integer degrees of freedom, and
printed t-tables.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
import pytest

from scoring.stats.best_metric import williams_p_value
from scoring.stats.blocks import block_t_test


def t_tail(t: float, df: int) -> float:
    """P(T > t) for t >= 0 and integer df >= 1, from the finite sums of
    Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df) for
    A(t|df) = P(|T| < t), with theta = arctan(t / sqrt(df))."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2:
        # 2/pi (theta + sin cos (1 + 2/3 cos^2 + 2*4/(3*5) cos^4 + ...)), up to cos^(df - 3)
        term, series = 1.0, 0.0
        for k in range(1, (df - 1) // 2 + 1):
            series += term
            term *= cos2 * (2 * k) / (2 * k + 1)
        inside = 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * series)
    else:
        # sin (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ...), up to cos^(df - 2)
        term, series = 1.0, 0.0
        for k in range(1, df // 2 + 1):
            series += term
            term *= cos2 * (2 * k - 1) / (2 * k)
        inside = math.sin(theta) * series
    return (1 - inside) / 2


def t_tail_even_exact(t: float, df: int) -> float:
    """P(T > t) for even df by 26.7.4 in 50-digit decimal arithmetic: with
    sin = t / sqrt(t^2 + df) and cos^2 = df / (t^2 + df) all 16 digits of a
    float are right for any df, down to tails of about 1e-30."""
    with localcontext() as context:
        context.prec = 50
        t_, nu = Decimal(t), Decimal(df)
        sine, cos2 = t_ / (t_ * t_ + nu).sqrt(), nu / (t_ * t_ + nu)
        term, series = Decimal(1), Decimal(0)
        for k in range(1, df // 2 + 1):
            series += term
            term *= cos2 * (2 * k - 1) / (2 * k)
        return float((1 - sine * series) / 2)


def test_the_reference_sums_are_the_closed_forms_for_one_and_two_df() -> None:
    for t in (0.0, 0.3, 1.0, 3.0, 12.5):
        assert t_tail(t, 1) == pytest.approx(0.5 - math.atan(t) / math.pi, abs=1e-15)
        assert t_tail(t, 2) == pytest.approx(
            0.5 - t / (2 * math.sqrt(t * t + 2)), abs=1e-15
        )


def test_the_block_tests_worked_example_by_hand() -> None:
    # Differences [1, 2, 0]: t = sqrt(3) on 2 df, where
    # P(T > t) = 1/2 - t / (2 sqrt(t^2 + 2)) = 1/2 - sqrt(3) / (2 sqrt(5)).
    test = block_t_test(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 3.0]]), ["a", "b"])
    assert test.p_values[1] == pytest.approx(
        0.5 - math.sqrt(3) / (2 * math.sqrt(5)), rel=1e-12
    )
    assert test.p_values[1] == pytest.approx(0.112701665379258, abs=1e-15)


def test_two_blocks_give_a_cauchy_tail() -> None:
    # Differences [1, 2]: mean 1.5, sd 1/sqrt(2), t = 3 on 1 df (Cauchy):
    # P(T > 3) = 1/2 - arctan(3) / pi; a negative direction gives the same p.
    test = block_t_test(np.array([[1.0, 2.0], [2.0, 4.0], [1.0, 2.0]]), ["a", "b", "c"])
    assert test.t[1] == pytest.approx(3.0, rel=1e-15)
    assert test.p_values[1] == pytest.approx(0.5 - math.atan(3) / math.pi, rel=1e-12)
    assert test.t[2] == pytest.approx(-3.0, rel=1e-15)
    assert test.p_values[2] == test.p_values[1]


@pytest.mark.parametrize(
    ("t", "one_sided"), [(1.729, 0.05), (2.093, 0.025), (2.539, 0.01), (2.861, 0.005)]
)
def test_twenty_blocks_follow_the_printed_t_table_for_19_df(
    t: float, one_sided: float
) -> None:
    # A t-table's row for 19 df (three decimals); the BLEU paper's "1.7 is
    # 95 % significant" is its first entry. Block differences with mean
    # t / sqrt(20) and sample sd 1 have exactly that t.
    z = np.linspace(-1.0, 1.0, 20)
    differences = t / math.sqrt(20) + (z - z.mean()) / z.std(ddof=1)
    test = block_t_test(np.stack([np.zeros(20), differences]), ["a", "b"])
    assert test.t[1] == pytest.approx(t, rel=1e-12)
    assert test.p_values[1] == pytest.approx(one_sided, abs=5e-5)


def test_block_p_values_follow_the_finite_sums_for_any_number_of_blocks() -> None:
    rng = np.random.default_rng(4)
    for n_blocks in (*range(2, 41), 100, 1000):
        scores = rng.normal(0, 1, size=(3, n_blocks)) + [[0.0], [0.3], [-0.1]]
        test = block_t_test(scores, ["a", "b", "c"])
        for i in (1, 2):
            assert test.p_values[i] == pytest.approx(
                t_tail(abs(test.t[i]), n_blocks - 1), abs=1e-13
            )


def williams_t(r12: float, r13: float, r23: float, n: int) -> float:
    """Williams' t (Williams 1959; Graham & Baldwin 2014, eq. 3) on n - 3 df."""
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    return (
        (r12 - r13)
        * math.sqrt((n - 1) * (1 + r23))
        / math.sqrt(2 * (n - 1) / (n - 3) * k + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    )


def test_williams_worked_example_on_two_df_by_hand() -> None:
    # r12 0.9, r13 0.6, r23 0.7, n 5: K = 1 - .81 - .36 - .49 + 2*.9*.7*.6
    # = 0.096; t = 0.3 sqrt(4 * 1.7) / sqrt(4 * 0.096 + 0.75^2 * 0.3^3)
    # = 0.78230429 / 0.63181287 = 1.2381899 on 2 df, and
    # P(T > t) = 1/2 - t / (2 sqrt(t^2 + 2)) = 0.1706343.
    t = 0.3 * math.sqrt(6.8) / math.sqrt(0.384 + 0.5625 * 0.027)
    assert t == pytest.approx(1.2381899, abs=1e-7)
    assert t == pytest.approx(williams_t(0.9, 0.6, 0.7, 5), rel=1e-14)
    p = williams_p_value(0.9, 0.6, 0.7, 5)
    assert p == pytest.approx(0.5 - t / (2 * math.sqrt(t * t + 2)), rel=1e-12)
    assert p == pytest.approx(0.1706343, abs=1e-7)


def test_williams_docstring_example_against_the_table_and_the_sums() -> None:
    # t = 2.178 on 27 df lies between the table's 2.052 (2.5 %) and 2.473 (1 %).
    t = williams_t(0.9, 0.8, 0.85, 30)
    assert t == pytest.approx(2.178, abs=5e-4)
    p = williams_p_value(0.9, 0.8, 0.85, 30)
    assert 0.01 < p < 0.025
    assert p == pytest.approx(t_tail(t, 27), rel=1e-12)


def test_williams_p_values_follow_the_finite_sums() -> None:
    rng = np.random.default_rng(5)
    checked = 0
    for n in (*range(4, 60), 200, 1000, 5360):
        r12, r13 = rng.uniform(0.3, 0.99, 2)
        r23 = rng.uniform(0.5, 0.99)
        if 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13 <= 0:
            continue
        t = williams_t(r12, r13, r23, n)
        expected = t_tail(t, n - 3) if t >= 0 else 1 - t_tail(-t, n - 3)
        assert williams_p_value(r12, r13, r23, n) == pytest.approx(expected, abs=1e-13)
        checked += 1
    assert checked > 30


def test_williams_keeps_full_precision_with_thousands_of_points() -> None:
    # Sentence-level tables pool thousands of segments (WMT21 ru-en DA: 8926
    # points); a t tail computed through lgamma loses digits there (1e-11
    # relative on these cases).
    cases = [(8927, 0.31, 0.29, 0.9), (8927, 0.31, 0.30, 0.8), (20003, 0.5, 0.49, 0.9)]
    for n, r12, r13, r23 in cases:
        t = williams_t(r12, r13, r23, n)
        p = williams_p_value(r12, r13, r23, n)
        assert 1e-6 < p < 0.06
        assert p == pytest.approx(t_tail_even_exact(t, n - 3), rel=1e-13)
