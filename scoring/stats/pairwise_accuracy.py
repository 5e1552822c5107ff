"""System-level pairwise accuracy of a metric against human scores.

Kocmi, Federmann, Grundkiewicz, Junczys-Dowmunt, Matsushita & Menezes (2021),
"To Ship or Not to Ship: An Extensive Evaluation of Automatic Metrics for
Machine Translation" (WMT 2021), section 3: for every pair of systems, the
metric *agrees* with the humans when the difference of its scores has the
sign of the difference of the human scores, and

    accuracy = |agreeing pairs| / |all pairs of systems|.

WMT's metrics task reports it at system level since 2022, pooled over all
language pairs by counting pairs (not by averaging the accuracies).

Ties follow NumPy's sign (as mt-metrics-eval's ``Agreement`` compares signs):
``sign(m_i - m_j) == sign(h_i - h_j)`` with sign 0 for a tie, so a tie agrees
only with a tie: a metric that ties two systems the humans separate
disagrees, and so does a metric that separates two systems the humans tie.

Inputs are two vectors aligned by system, ``(S,)``; NaN marks a system that
was not judged (human) or not scored (metric). Such a system is left out of
every pair and listed in the result. Pairs are all ``i < j`` among the
systems kept, in input order; ``pairs`` gives their input positions and
``agreement`` their outcome, so that a permutation test between two metrics
can swap per-pair outcomes.

Worked example (three systems; the metric swaps the last two)::

    >>> import numpy as np
    >>> result = pairwise_accuracy(np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]))
    >>> result.n_agreeing, result.n_pairs, round(result.accuracy, 4)
    (2, 3, 0.6667)
    >>> result.agreement.tolist()   # pairs (0, 1), (0, 2), (1, 2)
    [True, True, False]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays


def system_pairs(n_systems: int) -> np.ndarray:
    """Every pair ``(i, j)`` with ``i < j``, row by row: ``(S (S - 1) / 2, 2)``.

    >>> system_pairs(3).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    first, second = np.triu_indices(n_systems, k=1)
    return np.stack([first, second], axis=1).astype(np.int64)


def system_names(systems: Sequence[str] | None, n_systems: int) -> tuple[str, ...]:
    """The systems' names, or their positions ``"0"``, ``"1"``... when unnamed."""
    if systems is None:
        return tuple(str(position) for position in range(n_systems))
    names = tuple(str(name) for name in systems)
    if len(names) != n_systems:
        raise ScoringError(f"give one name per system ({n_systems}), not {len(names)}")
    return names


def _system_vector(values: np.ndarray, what: str) -> np.ndarray:
    vector = np.asarray(values, dtype=np.float64)
    if vector.ndim != 1:
        raise ScoringError(f"{what} scores must be a vector, one score per system")
    if np.isinf(vector).any():
        raise ScoringError(f"{what} scores must be finite or NaN (not judged)")
    return vector


@dataclass(frozen=True, eq=False)
class PairwiseAccuracy:
    """Pairwise accuracy of one metric on one test set.

    ``accuracy`` is a share (0-1; NaN with fewer than two systems kept).
    ``pairs`` ``(P, 2)`` holds the input positions of the systems of each
    pair and ``agreement`` ``(P,)`` whether the metric agreed on it; both are
    kept for paired tests between metrics and are not part of ``to_dict``.
    """

    accuracy: float
    n_pairs: int
    n_agreeing: int
    systems_used: tuple[str, ...]
    systems_without_human: tuple[str, ...]
    systems_without_metric: tuple[str, ...]
    pairs: np.ndarray
    agreement: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def systems_left_out(self) -> tuple[str, ...]:
        """Every system left out, without a human score or a metric score."""
        return self.systems_without_human + self.systems_without_metric

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN becomes None)."""
        return json_safe(
            {
                "accuracy": self.accuracy,
                "n_pairs": self.n_pairs,
                "n_agreeing": self.n_agreeing,
                "systems_used": self.systems_used,
                "systems_left_out": {
                    "no_human_score": self.systems_without_human,
                    "no_metric_score": self.systems_without_metric,
                },
            }
        )


def pairwise_accuracy(
    metric_scores: np.ndarray,
    human_scores: np.ndarray,
    systems: Sequence[str] | None = None,
) -> PairwiseAccuracy:
    """Share of system pairs ordered alike by the metric and the humans.

    ``metric_scores`` and ``human_scores`` are ``(S,)``, aligned by system,
    NaN where a system has no score; both higher-is-better (negate an error
    rate first). ``systems`` names them (default: their positions).
    """
    metric = _system_vector(metric_scores, "metric")
    human = _system_vector(human_scores, "human")
    if metric.shape != human.shape:
        raise ScoringError("metric and human scores must have one entry per system")
    names = system_names(systems, metric.size)
    judged = ~np.isnan(human)
    scored = ~np.isnan(metric)
    kept = np.flatnonzero(judged & scored)
    pairs = kept[system_pairs(kept.size)]  # (P, 2) input positions
    first, second = pairs[:, 0], pairs[:, 1]
    agreement = np.sign(metric[first] - metric[second]) == np.sign(
        human[first] - human[second]
    )
    n_pairs, n_agreeing = int(pairs.shape[0]), int(agreement.sum())
    return PairwiseAccuracy(
        accuracy=n_agreeing / n_pairs if n_pairs else float("nan"),
        n_pairs=n_pairs,
        n_agreeing=n_agreeing,
        systems_used=tuple(names[i] for i in kept),
        systems_without_human=tuple(names[i] for i in np.flatnonzero(~judged)),
        systems_without_metric=tuple(
            names[i] for i in np.flatnonzero(judged & ~scored)
        ),
        pairs=pairs,
        agreement=agreement,
    )


@dataclass(frozen=True, eq=False)
class PooledPairwiseAccuracy:
    """Pairwise accuracy pooled over test sets by counting pairs.

    ``accuracy`` = (agreeing pairs of all test sets) / (pairs of all test
    sets), so a test set weighs by its number of system pairs.
    ``agreement`` ``(P,)`` concatenates the test sets' agreement vectors in
    the order of ``test_sets``, and ``test_set_of_pair`` ``(P,)`` gives the
    index of each pair's test set.
    """

    accuracy: float
    n_pairs: int
    n_agreeing: int
    test_sets: tuple[str, ...]
    per_test_set: tuple[PairwiseAccuracy, ...]
    agreement: np.ndarray
    test_set_of_pair: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form with each test set's counts (NaN becomes None)."""
        return json_safe(
            {
                "accuracy": self.accuracy,
                "n_pairs": self.n_pairs,
                "n_agreeing": self.n_agreeing,
                "test_sets": {
                    name: result.to_dict()
                    for name, result in zip(self.test_sets, self.per_test_set)
                },
            }
        )


def pooled_pairwise_accuracy(
    results: Mapping[str, PairwiseAccuracy],
) -> PooledPairwiseAccuracy:
    """Pool the pairwise accuracies of several test sets (e.g. language pairs).

    Two test sets with 2 of 3 and 5 of 6 pairs agreeing pool to 7 / 9, not
    to the mean of 0.667 and 0.833::

        >>> import numpy as np
        >>> small = pairwise_accuracy(np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]))
        >>> large = pairwise_accuracy(np.arange(4.0), np.array([0.0, 2.0, 1.0, 3.0]))
        >>> pooled = pooled_pairwise_accuracy({"en-de": small, "zh-en": large})
        >>> pooled.n_agreeing, pooled.n_pairs, round(pooled.accuracy, 4)
        (7, 9, 0.7778)
    """
    names = tuple(results)
    per_test_set = tuple(results[name] for name in names)
    n_pairs = sum(result.n_pairs for result in per_test_set)
    n_agreeing = sum(result.n_agreeing for result in per_test_set)
    agreement = np.concatenate(
        [result.agreement for result in per_test_set] or [np.zeros(0, dtype=bool)]
    )
    test_set_of_pair = np.repeat(
        np.arange(len(names), dtype=np.int64),
        [result.n_pairs for result in per_test_set],
    )
    return PooledPairwiseAccuracy(
        accuracy=n_agreeing / n_pairs if n_pairs else float("nan"),
        n_pairs=n_pairs,
        n_agreeing=n_agreeing,
        test_sets=names,
        per_test_set=per_test_set,
        agreement=agreement,
        test_set_of_pair=test_set_of_pair,
    )
