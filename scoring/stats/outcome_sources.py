"""Outcome swaps built from the per-pair results of the statistics modules.

Each builder turns several metrics' results into one
:class:`~scoring.stats.outcome_swaps.OutcomeSwap`:

- :func:`kendall_swap`: segment-level acc_eq, tau_23 or tau_b
  (:mod:`scoring.stats.kendall_variants`), each metric with its own epsilon,
  found by exact tie calibration (:mod:`scoring.stats.tie_calibration`) or
  given. This is WMT23/24's segment-level test (mt-metrics-eval's
  ``PairwisePermutationSigDiff``): a metric's pairs are coded once at its
  epsilon and the codes are swapped. acc_eq and tau_23 add a fixed amount
  per pair (1/0, +1/-1), so a draw is a masked sum; tau_b is recomputed
  from the swapped codes' counts per group;
- :func:`agreement_swap`: system-level pairwise accuracy, alone or pooled
  by counting pairs (:mod:`scoring.stats.pairwise_accuracy`), swapping each
  system pair's agreement;
- :func:`spa_swap`: soft pairwise accuracy (:mod:`scoring.stats.soft_pairwise`),
  swapping each system pair's term 1 - |p_h - p_m|.

Every metric must cover the same pairs (the same systems and segments
judged); a pair some metric did not score (NaN) is not counted for it, and
then tau is recomputed from the swapped codes rather than summed.

Worked example: one segment, human (2, 1, 1). X = (0.9, 0.6, 0.5) is
calibrated at epsilon 0.1 (C, C, T_hm: acc_eq 1); Y = (0.5, 0.6, 0.9) at 0.3
(T_m, D, T_hm: 1/3). Swapping the first pair gives X' (T_m, C, T_hm) and Y'
(C, D, T_hm), both 2/3::

    >>> swap = kendall_swap({"X": np.array([[0.9], [0.6], [0.5]]),
    ...                      "Y": np.array([[0.5], [0.6], [0.9]])},
    ...                     np.array([[2.0], [1.0], [1.0]]))
    >>> swap.values.round(4).tolist(), [round(e, 4) for e in swap.epsilons.values()]
    ([1.0, 0.3333], [0.1, 0.3])
    >>> swap.null_differences(np.array([[True, False, False]]), np.array([0]),
    ...                       np.array([1])).round(4).tolist()
    [[0.0]]
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from scoring.errors import ScoringError
from scoring.stats.kendall_pairs import (
    pair_outcomes,
    pair_scores,
    statistic_from_codes,
)
from scoring.stats.kendall_variants import NOT_COUNTED, pair_codes
from scoring.stats.metric_swaps import ACCURACY_RANGE, CORRELATION_RANGE
from scoring.stats.outcome_swaps import OutcomeSwap
from scoring.stats.pairwise_accuracy import PairwiseAccuracy, PooledPairwiseAccuracy
from scoring.stats.soft_pairwise import SoftPairwiseAccuracy
from scoring.stats.tie_calibration import calibrate_outcomes

STATISTIC_NAMES = {"acc23": "acc_eq", "23": "tau_23", "b": "tau_b"}


def _stacked(rows: list[np.ndarray], pairs: list[np.ndarray], what: str) -> np.ndarray:
    """Outcome rows of several metrics, checked to cover the same pairs."""
    if not rows:
        raise ScoringError(f"give the {what} of at least one metric")
    if any(not np.array_equal(p, pairs[0]) for p in pairs):
        raise ScoringError(
            f"every metric's {what} must cover the same pairs (score the same "
            "systems and segments, or drop what one metric lacks)"
        )
    return np.stack([np.asarray(row, dtype=np.float64) for row in rows])


def kendall_swap(
    metrics: Mapping[str, np.ndarray],
    human: np.ndarray,
    *,
    variant: str = "acc23",
    group_by: str = "item",
    epsilons: Mapping[str, float] | None = None,
    unit: str = "pair",
) -> OutcomeSwap:
    """A Kendall variant of several metrics ``(S, N)`` against ``human``
    ``(S, N)`` (NaN = missing), swapping pair codes.

    ``epsilons``: each metric's tie threshold; by default acc_eq and tau_23
    are tie-calibrated (the smallest epsilon that maximises the statistic)
    and tau_b uses 0. ``epsilons`` of the result lists those used.
    """
    if variant not in STATISTIC_NAMES:
        raise ScoringError(
            f"variant {variant!r} cannot be swapped pair by pair; valid: "
            f"{', '.join(STATISTIC_NAMES)} (tau_c needs distinct values)"
        )
    names = tuple(metrics)
    if not names:
        raise ScoringError("give the scores of at least one metric")
    # pair_outcomes lists the pairs of the human scores, in the same order
    # for every metric (a metric's NaN only makes a pair not counted).
    codes, used = [], {}
    for name in names:
        outcomes = pair_outcomes(np.asarray(metrics[name]), human, group_by)
        if epsilons is not None:
            epsilon = float(epsilons[name])
        elif variant == "b":
            epsilon = 0.0
        else:
            epsilon = calibrate_outcomes(outcomes, variant).epsilon
        used[name] = epsilon
        codes.append(
            pair_codes(outcomes.metric_differences, outcomes.human_signs, epsilon)
        )
    stacked = np.stack(codes)  # (M, P) int8 codes
    groups, n_groups = outcomes.groups, outcomes.n_groups
    # OutcomeSwap takes no labels for one group of every pair.
    labels = None if group_by == "none" else groups
    value_range = ACCURACY_RANGE if variant == "acc23" else CORRELATION_RANGE
    counted = (stacked != NOT_COUNTED).all(axis=0)
    if variant != "b" and (counted == (stacked != NOT_COUNTED).any(axis=0)).all():
        # Every metric counts the same pairs: each adds a fixed amount.
        swap = OutcomeSwap(
            pair_scores(stacked[:, counted].astype(np.int64), variant),
            names,
            groups=None if labels is None else labels[counted],
            grouping=group_by,
            unit=unit,
            statistic=STATISTIC_NAMES[variant],
            value_range=value_range,
            epsilons=used,
        )
    else:

        def statistic(batch: np.ndarray) -> np.ndarray:
            return statistic_from_codes(
                batch.astype(np.int64), groups, n_groups, variant
            )

        statistic.__name__ = STATISTIC_NAMES[variant]
        swap = OutcomeSwap(
            stacked,
            names,
            groups=labels,
            grouping=group_by,
            unit=unit,
            statistic=statistic,
            value_range=value_range,
            epsilons=used,
        )
    return swap


def agreement_swap(
    results: Mapping[str, PairwiseAccuracy | PooledPairwiseAccuracy],
    *,
    unit: str = "pair",
) -> OutcomeSwap:
    """Pairwise accuracy (alone or pooled by counting pairs) of several
    metrics, swapping per-system-pair agreements: the accuracy is the mean
    agreement over all pairs, one group. (WMT swaps system scores instead:
    :class:`~scoring.stats.metric_swaps.ScoreSwap` with
    ``statistic="pairwise_accuracy"``.)"""
    names = tuple(results)
    rows = [results[name].agreement for name in names]
    pairs = [_pair_keys(results[name]) for name in names]
    return OutcomeSwap(
        _stacked(rows, pairs, "agreements"),
        names,
        unit=unit,
        statistic="pairwise_accuracy",
    )


def _pair_keys(result: PairwiseAccuracy | PooledPairwiseAccuracy) -> np.ndarray:
    """(test set, system, system) of each pair a result's agreements cover."""
    if isinstance(result, PairwiseAccuracy):
        return result.pairs
    systems = [r.pairs for r in result.per_test_set] or [np.zeros((0, 2))]
    return np.column_stack([result.test_set_of_pair, np.concatenate(systems)])


def spa_swap(results: Mapping[str, SoftPairwiseAccuracy]) -> OutcomeSwap:
    """Soft pairwise accuracy of several metrics, swapping each system
    pair's term 1 - |p_h - p_m| between two metrics (SPA is their mean).
    WMT24 instead swapped segment scores and recomputed every p_m, a
    permutation test inside each draw; swapping the terms is the analogue
    of the per-pair test of acc_eq."""
    names = tuple(results)
    rows = [1.0 - results[name].pair_errors for name in names]
    pairs = [results[name].pairs for name in names]
    return OutcomeSwap(_stacked(rows, pairs, "pair errors"), names, statistic="spa")
