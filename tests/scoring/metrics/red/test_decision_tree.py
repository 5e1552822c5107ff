"""The CART tree of scoring.metrics.red.decision_tree on data whose answer is known."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from scoring.metrics.red.decision_tree import LEAF, DecisionTree, fit_tree


def test_it_finds_the_single_threshold_that_separates_two_classes() -> None:
    x = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 1])
    tree = fit_tree(x, y, n_classes=2)
    assert tree.feature.tolist() == [0, LEAF, LEAF]
    assert tree.threshold[0] == 2.5
    assert tree.counts.tolist() == [[2, 3], [2, 0], [0, 3]]


def test_it_learns_a_two_level_rule_and_ignores_a_noise_feature() -> None:
    # class 0 when x0 <= 0.5; else class 2 when x1 > 0.5, class 1 otherwise.
    grid = [0.1, 0.3, 0.7, 0.9]
    rows = [
        (a, b, noise) for a, b in itertools.product(grid, grid) for noise in (0.2, 0.8)
    ]
    x = np.array(rows)
    y = np.array([0 if a <= 0.5 else (2 if b > 0.5 else 1) for a, b, _ in rows])
    tree = fit_tree(x, y, n_classes=3, max_depth=4)
    assert tree.feature[0] == 0 and tree.threshold[0] == 0.5
    assert set(tree.feature[tree.feature != LEAF].tolist()) == {0, 1}
    assert (tree.predict(x) == y).all()
    assert tree.predict(
        np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.5], [1.0, 1.0, 0.5]])
    ).tolist() == [0, 1, 2]


def test_it_chooses_the_split_with_the_lowest_weighted_gini_by_hand() -> None:
    # y = 0 0 1 0 1 1 at x = 1..6. Cuts: after 2 -> (2 pure | 1 zero, 3 ones):
    # Gini (2*0 + 4*(1 - (1/4)^2 - (3/4)^2)) / 6 = 0.25; after 4 -> 0.25 as well
    # (mirror image); after 3 -> (3*(4/9) + 3*(4/9)) / 6 = 0.444. Ties go to the
    # lower threshold: 2.5.
    x = np.arange(1.0, 7.0)[:, None]
    y = np.array([0, 0, 1, 0, 1, 1])
    tree = fit_tree(x, y, n_classes=2, max_depth=1)
    assert tree.threshold[0] == 2.5


def test_ties_between_identical_features_go_to_the_lower_index() -> None:
    x = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]])
    tree = fit_tree(x, np.array([0, 0, 1, 1]), n_classes=2)
    assert tree.feature[0] == 0


def test_it_respects_max_depth_and_min_samples_leaf() -> None:
    rng = np.random.default_rng(7)
    x = rng.random((200, 3))
    y = rng.integers(0, 3, 200)
    shallow = fit_tree(x, y, 3, max_depth=2)
    leaves = shallow.apply(x)
    assert len(set(leaves.tolist())) <= 4
    large_leaves = fit_tree(x, y, 3, max_depth=10, min_samples_leaf=30)
    sizes = np.bincount(large_leaves.apply(x))
    assert sizes[sizes > 0].min() >= 30


def test_a_pure_node_or_constant_features_are_not_split() -> None:
    assert len(fit_tree(np.array([[1.0], [2.0]]), np.array([1, 1]), 2).feature) == 1
    assert len(fit_tree(np.array([[1.0], [1.0]]), np.array([0, 1]), 2).feature) == 1


def _brute_force_best_gini(x: np.ndarray, y: np.ndarray, n_classes: int) -> float:
    """Weighted child Gini of the best split, trying every cut of every feature."""

    def gini(labels: np.ndarray) -> float:
        shares = np.bincount(labels, minlength=n_classes) / len(labels)
        return 1.0 - float((shares**2).sum())

    best = np.inf
    for feature in range(x.shape[1]):
        for value in np.unique(x[:, feature])[:-1]:
            left = y[x[:, feature] <= value]
            right = y[x[:, feature] > value]
            best = min(
                best, (len(left) * gini(left) + len(right) * gini(right)) / len(y)
            )
    return best


@pytest.mark.parametrize("seed", range(5))
def test_the_root_split_is_as_good_as_an_exhaustive_search(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, (40, 3)).astype(float)
    y = rng.integers(0, 3, 40)
    tree = fit_tree(x, y, 3, max_depth=1)
    if tree.feature[0] == LEAF:
        pytest.skip("no split improves this sample")
    go_left = x[:, tree.feature[0]] <= tree.threshold[0]
    shares = [
        np.bincount(y[side], minlength=3) / side.sum() for side in (go_left, ~go_left)
    ]
    weighted = sum(
        side.sum() * (1 - (share**2).sum())
        for side, share in zip((go_left, ~go_left), shares)
    ) / len(y)
    assert weighted == pytest.approx(_brute_force_best_gini(x, y, 3), rel=1e-12)


def test_probabilities_and_the_expected_value_come_from_the_leaf_counts() -> None:
    x = np.array([[0.0], [0.0], [0.0], [1.0], [1.0], [1.0], [1.0]])
    y = np.array([0, 0, 1, 2, 2, 2, 1])
    tree = fit_tree(x, y, 3, max_depth=1)
    np.testing.assert_allclose(
        tree.predict_proba(np.array([[0.0], [1.0]])),
        [[2 / 3, 1 / 3, 0], [0, 1 / 4, 3 / 4]],
    )
    values = np.array([0.0, 0.5, 1.0])
    np.testing.assert_allclose(
        tree.expected_value(np.array([[0.0], [1.0]]), values), [1 / 6, 1 / 8 + 3 / 4]
    )


def test_a_tree_survives_a_json_round_trip_exactly() -> None:
    rng = np.random.default_rng(3)
    x = rng.random((100, 4))
    tree = fit_tree(x, rng.integers(0, 4, 100), 4, max_depth=4)
    again = DecisionTree.from_dict(json.loads(json.dumps(tree.to_dict())))
    assert again.to_dict() == tree.to_dict()
    np.testing.assert_array_equal(again.predict_proba(x), tree.predict_proba(x))


def test_the_same_data_always_gives_the_same_tree() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.random((300, 5)), rng.integers(0, 4, 300)
    assert fit_tree(x, y, 4).to_dict() == fit_tree(x.copy(), y.copy(), 4).to_dict()


@pytest.mark.parametrize(
    "data",
    [
        {"feature": [], "threshold": [], "left": [], "right": [], "counts": []},
        {
            "feature": [0],
            "threshold": [0.5, 1],
            "left": [1],
            "right": [2],
            "counts": [[1]],
        },
        {
            "feature": [0, -1],
            "threshold": [0.5, 0],
            "left": [5, -1],
            "right": [1, -1],
            "counts": [[1, 1], [1, 0]],
        },
    ],
)
def test_from_dict_rejects_a_malformed_tree(data: dict[str, list[object]]) -> None:
    with pytest.raises(ValueError, match="malformed"):
        DecisionTree.from_dict(data)


def test_fit_rejects_labels_outside_the_classes_and_empty_data() -> None:
    with pytest.raises(ValueError):
        fit_tree(np.array([[1.0]]), np.array([3]), 2)
    with pytest.raises(ValueError):
        fit_tree(np.zeros((0, 2)), np.zeros(0, dtype=int), 2)


def test_the_worked_example_in_the_module_docstring_holds() -> None:
    import doctest

    import scoring.metrics.red.decision_tree

    outcome = doctest.testmod(scoring.metrics.red.decision_tree)
    assert outcome.attempted > 0 and outcome.failed == 0
