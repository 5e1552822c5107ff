"""Degenerate agreement figures are undefined, with a reason, not a number.

- Krippendorff's alpha of a single pairable item is 0 by construction (its
  pairs are both the observed and the expected disagreement: for values a, b
  D_o = D_e = (a - b)^2), so one repeat says nothing about consistency.
- Cohen's kappa when both annotators used one and the same label is 0/0
  (p_e = 1); scikit-learn's ``cohen_kappa_score`` returns nan there.
"""

from __future__ import annotations

import math
import warnings

import pytest

from scoring.orange import cohen_kappa
from scoring.stats import alpha_agreement, krippendorff_alpha, repeat_consistency


def test_one_repeat_gives_no_intra_annotator_alpha_but_its_reason():
    result = repeat_consistency([4], [2])
    assert result.n_pairs == 1
    assert result.alpha is None
    assert "single repeat" in result.undefined
    assert result.mean_absolute_difference == 2.0 and result.exact_share == 0.0
    assert result.to_dict()["alpha"] is None
    assert result.to_dict()["undefined"] == result.undefined


def test_two_repeats_give_alpha_and_no_reason():
    # Items (4, 2) and (5, 5): S = 16, Q = 70, n = 4: expected 2 (4*70 - 256)
    # = 48; observed: item 1 gives 2 * (4 - 2)^2 / 1 = 8, item 2 nothing;
    # alpha = 1 - 3 * 8 / 48 = 0.5.
    result = repeat_consistency([4, 5], [2, 5])
    assert result.alpha == pytest.approx(0.5, abs=1e-12)
    assert result.undefined is None


def test_no_repeats_and_constant_repeats_are_undefined_with_their_reasons():
    assert repeat_consistency([], []).undefined == "no repeated items"
    constant = repeat_consistency([3, 3], [3, 3])
    assert constant.alpha is None and "same value" in constant.undefined


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_of_a_single_pairable_item_is_undefined(level):
    # Before: 0.0 (or 1 - 0/0) whatever the three ratings were.
    assert math.isnan(
        krippendorff_alpha([7, 7, 7, 8], [0, 1, 2, 0], [1, 3, 5, 2], level)
    )
    estimate = alpha_agreement([7, 7, 8], [0, 1, 0], [1, 3, 2], level, n_samples=20)
    assert estimate.value is None and estimate.low is None
    assert estimate.n_items == 1
    assert "single item" in estimate.undefined
    assert estimate.to_dict()["undefined"] == estimate.undefined


def test_alpha_with_two_items_is_still_computed():
    alpha = krippendorff_alpha([0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 2, 3])
    assert alpha == pytest.approx(1 - 3 * 2 / 22, abs=1e-12)


def test_kappa_of_one_shared_label_is_nan_as_in_scikit_learn():
    from sklearn.metrics import cohen_kappa_score

    first = second = ["good"] * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        reference = cohen_kappa_score(first, second)
    assert math.isnan(reference)
    result = cohen_kappa(first, second)
    assert math.isnan(result.kappa)
    assert result.raw_agreement == 1.0
    assert "single label 'good'" in result.undefined


@pytest.mark.parametrize(
    "first, second",
    [
        ("aaaa", "bbbb"),  # one label each, different: p_e = 0, kappa 0
        ("aabb", "abbb"),
        ("abcab", "abcba"),
        ("aaab", "aaaa"),
    ],
)
def test_kappa_equals_scikit_learn_elsewhere(first, second):
    from sklearn.metrics import cohen_kappa_score

    result = cohen_kappa(list(first), list(second))
    assert result.kappa == pytest.approx(
        cohen_kappa_score(list(first), list(second)), abs=1e-12
    )
    assert result.undefined is None
