"""A small CART classification tree in NumPy (Breiman et al. 1984), for RED.

Binary splits ``x[feature] <= threshold`` chosen greedily by the largest
decrease of Gini impurity ``1 - sum_c p_c^2``; thresholds halfway between
neighbouring distinct values. Growth stops at ``max_depth``, below
``min_samples_split`` samples, when no split leaves ``min_samples_leaf``
samples on each side, or when the best decrease (in impurity times the
node's share of the samples) is below ``min_impurity_decrease``.

Training is deterministic: ties go to the lower feature index, then the
lower threshold, so the same data always gives the same tree (RED's shipped
model is checked against a retraining).

Every node keeps its class counts, so a leaf predicts a distribution; RED
scores a segment by the expected grade under it.

Worked example: x = [1, 2, 3, 4], y = [0, 0, 1, 1]. The root's Gini is
1 - (1/2)^2 - (1/2)^2 = 0.5; the split x <= 2.5 leaves two pure halves
(Gini 0), the best decrease (0.5), so the tree is one split and two leaves.

>>> tree = fit_tree(np.array([[1.0], [2.0], [3.0], [4.0]]), np.array([0, 0, 1, 1]), 2)
>>> tree.feature.tolist(), tree.threshold.tolist()
([0, -1, -1], [2.5, 0.0, 0.0])
>>> tree.predict(np.array([[0.0], [2.6]])).tolist()
[0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

LEAF = -1


@dataclass(frozen=True, eq=False)
class DecisionTree:
    """A fitted tree as parallel arrays over ``n_nodes`` (node 0 is the root).

    Attributes:
        feature: ``(n_nodes,)`` split feature, ``-1`` at leaves.
        threshold: ``(n_nodes,)`` go left when ``x[feature] <= threshold``.
        left, right: ``(n_nodes,)`` child node indices, ``-1`` at leaves.
        counts: ``(n_nodes, n_classes)`` training samples of each class.
    """

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    counts: np.ndarray

    @property
    def n_classes(self) -> int:
        """Number of classes (grades)."""
        return int(self.counts.shape[1])

    def apply(self, x: np.ndarray) -> np.ndarray:
        """Leaf index of each sample: ``(n_samples, n_features) -> (n_samples,)``."""
        x = np.asarray(x, dtype=np.float64)
        nodes = np.zeros(len(x), dtype=np.int64)
        active = self.feature[nodes] != LEAF
        while active.any():
            current = nodes[active]
            values = x[np.flatnonzero(active), self.feature[current]]
            go_left = values <= self.threshold[current]
            nodes[active] = np.where(go_left, self.left[current], self.right[current])
            active = self.feature[nodes] != LEAF
        return nodes

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """Class distribution of each sample's leaf: ``(n_samples, n_classes)``."""
        counts = self.counts[self.apply(x)]
        return counts / counts.sum(axis=1, keepdims=True)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Most frequent class of each sample's leaf (ties: the lower class)."""
        return np.argmax(self.counts[self.apply(x)], axis=1)

    def expected_value(self, x: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``sum_c P(c | leaf) * values[c]`` per sample: ``(n_samples,)``.

        Summed row by row (not a matrix product, whose rounding may depend
        on the batch size), so one sample scores the same alone or in a batch.
        """
        return (self.predict_proba(x) * np.asarray(values, dtype=np.float64)).sum(
            axis=1
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (floats survive a JSON round trip exactly)."""
        return {
            "feature": self.feature.tolist(),
            "threshold": self.threshold.tolist(),
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "counts": self.counts.tolist(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DecisionTree:
        """Inverse of :meth:`to_dict`; raises ``ValueError`` on a malformed tree."""
        tree = cls(
            feature=np.asarray(data["feature"], dtype=np.int64),
            threshold=np.asarray(data["threshold"], dtype=np.float64),
            left=np.asarray(data["left"], dtype=np.int64),
            right=np.asarray(data["right"], dtype=np.int64),
            counts=np.asarray(data["counts"], dtype=np.float64),
        )
        n_nodes = len(tree.feature)
        shapes_agree = all(
            len(array) == n_nodes for array in (tree.threshold, tree.left, tree.right)
        )
        if not n_nodes or not shapes_agree or tree.counts.ndim != 2:
            raise ValueError("malformed tree: arrays of different lengths")
        if len(tree.counts) != n_nodes:
            raise ValueError("malformed tree: arrays of different lengths")
        inner = tree.feature != LEAF
        children = np.concatenate((tree.left[inner], tree.right[inner]))
        if children.size and (children.min() <= 0 or children.max() >= n_nodes):
            raise ValueError("malformed tree: a child index is out of range")
        return tree


@dataclass
class _Node:
    feature: int = LEAF
    threshold: float = 0.0
    left: int = LEAF
    right: int = LEAF
    counts: np.ndarray | None = None


def _gini_of_counts(counts: np.ndarray) -> np.ndarray:
    """Gini impurity of class counts ``(..., n_classes) -> (...)``."""
    totals = counts.sum(axis=-1)
    shares = counts / np.maximum(totals, 1)[..., None]
    return 1.0 - (shares**2).sum(axis=-1)


def _best_split(
    x: np.ndarray, onehot: np.ndarray, min_samples_leaf: int
) -> tuple[float, int, float] | None:
    """(weighted child impurity, feature, threshold) of the best split of a node.

    ``x``: ``(n, n_features)``; ``onehot``: ``(n, n_classes)``.
    """
    n = len(x)
    best: tuple[float, int, float] | None = None
    sizes = np.arange(1, n)  # samples on the left for a cut after position k - 1
    allowed = (sizes >= min_samples_leaf) & (n - sizes >= min_samples_leaf)
    for feature in range(x.shape[1]):
        order = np.argsort(x[:, feature], kind="stable")
        values = x[order, feature]
        left_counts = np.cumsum(onehot[order], axis=0)[:-1]  # (n - 1, n_classes)
        right_counts = left_counts[-1] + onehot[order[-1]] - left_counts
        impurity = (
            sizes * _gini_of_counts(left_counts)
            + (n - sizes) * _gini_of_counts(right_counts)
        ) / n
        valid = allowed & (values[:-1] < values[1:])
        if not valid.any():
            continue
        candidates = np.flatnonzero(valid)
        k = candidates[np.argmin(impurity[candidates])]
        if best is None or impurity[k] < best[0]:
            low, high = values[k], values[k + 1]
            threshold = low + (high - low) / 2
            if not low <= threshold < high:  # neighbouring floats: keep low
                threshold = low
            best = (float(impurity[k]), feature, float(threshold))
    return best


def fit_tree(
    x: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    max_depth: int = 6,
    min_samples_split: int = 2,
    min_samples_leaf: int = 1,
    min_impurity_decrease: float = 0.0,
) -> DecisionTree:
    """Grow a CART tree on ``x`` ``(n_samples, n_features)`` and classes ``y``.

    ``y`` holds integers in ``[0, n_classes)``. See the module docstring for
    the stopping rules; ``min_impurity_decrease`` is measured like
    scikit-learn's: (node impurity - weighted child impurity) * node share.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if x.ndim != 2 or len(x) != len(y) or len(x) == 0:
        raise ValueError("x must be (n_samples, n_features) with one class per sample")
    if y.min() < 0 or y.max() >= n_classes:
        raise ValueError(f"classes must lie in [0, {n_classes})")
    onehot = np.eye(n_classes)[y]
    nodes: list[_Node] = []
    stack = [(np.arange(len(x)), 0, len(nodes))]
    nodes.append(_Node())
    while stack:
        samples, depth, index = stack.pop()
        node = nodes[index]
        node.counts = onehot[samples].sum(axis=0)
        n = len(samples)
        if depth >= max_depth or n < min_samples_split or n < 2 * min_samples_leaf:
            continue
        split = _best_split(x[samples], onehot[samples], min_samples_leaf)
        if split is None:
            continue
        impurity, feature, threshold = split
        decrease = (float(_gini_of_counts(node.counts)) - impurity) * n / len(x)
        if decrease <= 0 or decrease < min_impurity_decrease:
            continue
        go_left = x[samples, feature] <= threshold
        node.feature, node.threshold = feature, threshold
        node.left, node.right = len(nodes), len(nodes) + 1
        nodes.extend((_Node(), _Node()))
        # Children are numbered when created; the stack only decides which
        # one grows first (the left one), so the numbering is deterministic.
        stack.append((samples[~go_left], depth + 1, node.right))
        stack.append((samples[go_left], depth + 1, node.left))
    return DecisionTree(
        feature=np.array([node.feature for node in nodes], dtype=np.int64),
        threshold=np.array([node.threshold for node in nodes], dtype=np.float64),
        left=np.array([node.left for node in nodes], dtype=np.int64),
        right=np.array([node.right for node in nodes], dtype=np.int64),
        counts=np.array([node.counts for node in nodes], dtype=np.float64),
    )
