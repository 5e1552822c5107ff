"""The pairs behind a grouped Kendall variant, for tests that swap them.

:func:`pair_outcomes` lists, for one metric, every pair of a grouping (see
:mod:`scoring.stats.kendall_variants`) whose two human scores are present:
its group, its two points, the metric difference m_i - m_j and the human
order sign(h_i - h_j). Two metrics scored against the same human scores get
the same pairs in the same order, so a permutation test between them can
swap pair outcomes (PERM-BOTH for tie-calibrated acc_eq, where each metric
keeps its own epsilon): code each metric's pairs at its epsilon with
:func:`~scoring.stats.kendall_variants.pair_codes`, mix the codes as a draw
says, and score every draw at once with :func:`statistic_from_codes`; or
turn codes into what each pair adds to the group's numerator
(:func:`pair_scores`) when every metric counts the same pairs, for a
weighted sum.

Worked example: one segment, human (2, 1, 1); metric X (0.9, 0.6, 0.5) with
epsilon 0.1 gets C, C, T_hm; metric Y (0.5, 0.6, 0.9) gets D, D, T_h. A draw
that gives X' the outcome of Y on pair 2, and one on pair 3::

    >>> import numpy as np
    >>> from scoring.stats.kendall_variants import pair_codes
    >>> human = np.array([[2.0], [1.0], [1.0]])
    >>> x = pair_outcomes(np.array([[0.9], [0.6], [0.5]]), human)
    >>> x.metric_differences.round(2).tolist(), x.human_signs.tolist()
    ([0.3, 0.4, 0.1], [1, 1, 0])
    >>> x_codes = pair_codes(x.metric_differences, x.human_signs, epsilon=0.1)
    >>> y = pair_outcomes(np.array([[0.5], [0.6], [0.9]]), human)
    >>> y_codes = pair_codes(y.metric_differences, y.human_signs)
    >>> x_codes.tolist(), y_codes.tolist()  # C C T_hm, D D T_h
    ([0, 0, 4], [1, 1, 2])
    >>> swap = np.array([[False, True, False], [False, False, True]])
    >>> statistic_from_codes(np.where(swap, y_codes, x_codes), x.groups, 1).round(4)
    array([0.6667, 0.6667])
    >>> pair_scores(x_codes, "23").tolist()
    [1.0, 1.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from scoring.stats.kendall_variants import (
    VARIANTS,
    KendallVariant,
    PairCounts,
    average_groups,
    by_group,
    check_choice,
    check_scores,
    group_counts,
    group_values,
    pair_codes,
    pair_rows,
)

# What a pair adds to its group's numerator, by code + 1 (NOT_COUNTED first;
# then C, D, T_h, T_m, T_hm).
_PAIR_SCORES = {
    "acc23": np.array([np.nan, 1.0, 0.0, 0.0, 0.0, 1.0]),
    "23": np.array([np.nan, 1.0, -1.0, -1.0, -1.0, 1.0]),
}


@dataclass(frozen=True, eq=False)
class PairOutcomes:
    """Every pair of a grouping whose two human scores are present.

    Arrays are ``(P,)``, pairs ordered by group: ``groups`` the group index
    (item: segment, system: system, none: 0), ``first_points`` and
    ``second_points`` the flat point indices ``system * n_segments +
    segment``, ``metric_differences`` m_first - m_second (NaN where the
    metric misses one side: such a pair is not counted), ``human_signs``
    sign(h_first - h_second) as int8. ``n_possible`` counts all pairs of the
    grouping, missing scores or not. Memory is about 33 bytes a pair.
    """

    group_by: str
    n_groups: int
    n_possible: int
    groups: np.ndarray
    first_points: np.ndarray
    second_points: np.ndarray
    metric_differences: np.ndarray
    human_signs: np.ndarray

    def __post_init__(self) -> None:
        # Arrays that own their data and are read-only already (those of
        # pair_outcomes) are kept: no copy of millions of pairs.
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray) and (
                value.flags.writeable or not value.flags.owndata
            ):
                value = np.array(value, copy=True)
                value.setflags(write=False)
                object.__setattr__(self, field.name, value)


def pair_outcomes(
    metric: np.ndarray, human: np.ndarray, group_by: str = "item"
) -> PairOutcomes:
    """The pairs of ``group_by`` with both human scores, for one metric.

    ``metric``, ``human``: ``(systems, segments)`` floats, NaN = missing.
    """
    metric, human = check_scores(metric, human)
    m, h = by_group(metric, group_by), by_group(human, group_by)
    points = by_group(np.arange(metric.size).reshape(metric.shape), group_by)
    n_members, n_groups = m.shape
    n_possible = n_groups * n_members * (n_members - 1) // 2
    # A member without a human score in any group is in no listed pair.
    present = (~np.isnan(h)).any(axis=1)
    m, h, points = m[present], h[present], points[present]
    n_members = m.shape[0]
    parts: list[tuple[np.ndarray, ...]] = []
    for first, second in pair_rows(n_members, n_groups):
        human_differences = h[first] - h[second]  # (B, G)
        groups, rows = np.nonzero(~np.isnan(human_differences.T))  # by group
        parts.append(
            (
                groups,
                points[first[rows], groups],
                points[second[rows], groups],
                m[first[rows], groups] - m[second[rows], groups],
                np.sign(human_differences[rows, groups]).astype(np.int8),
            )
        )
    if parts:
        columns = [np.concatenate(column) for column in zip(*parts, strict=True)]
    else:
        empty = np.zeros(0, dtype=np.int64)
        columns = [empty, empty, empty, np.zeros(0), np.zeros(0, dtype=np.int8)]
    if len(parts) > 1 and n_groups > 1:  # each batch is ordered by group
        order = np.argsort(columns[0], kind="stable")
        columns = [column[order] for column in columns]
    for column in columns:
        column.setflags(write=False)
    groups, first_points, second_points, differences, signs = columns
    return PairOutcomes(
        group_by=group_by,
        n_groups=n_groups,
        n_possible=n_possible,
        groups=groups.astype(np.int64, copy=False),
        first_points=first_points.astype(np.int64, copy=False),
        second_points=second_points.astype(np.int64, copy=False),
        metric_differences=differences,
        human_signs=signs,
    )


def statistic_from_codes(
    codes: np.ndarray, groups: np.ndarray, n_groups: int, variant: str = "acc23"
) -> np.ndarray:
    """The grouped statistic from pair codes: ``(..., P) -> (...)``.

    ``codes`` from :func:`~scoring.stats.kendall_variants.pair_codes` (a
    leading axis holds e.g. one row per permutation draw), ``groups``
    ``(P,)`` the group of each pair (fastest in group order, as
    :class:`PairOutcomes` has them). Variants b, 23, acc23: tau_c needs the
    distinct values, not pair outcomes.
    """
    if check_choice(variant, VARIANTS, "Kendall variant") == "c":
        raise ValueError("tau_c cannot be computed from pair outcomes alone")
    counts = group_counts(codes, groups, n_groups)
    mean, _ = average_groups(group_values(counts, variant))
    return mean


def pair_scores(codes: np.ndarray, variant: str = "acc23") -> np.ndarray:
    """What each pair adds to its group's numerator: codes ``(..., P)`` ->
    float64 ``(..., P)``.

    acc_eq: 1 for C and T_hm, else 0; tau_23: +1 for C and T_hm, else -1;
    NaN for a pair not counted. When every row counts the same pairs, the
    grouped statistic is ``sum_k c_k score_k`` with c_k = 1 / (G n_g) for a
    pair of a group of n_g counted pairs out of G groups with a pair.
    """
    table = _PAIR_SCORES[check_choice(variant, tuple(_PAIR_SCORES), "variant")]
    return table[np.asarray(codes, dtype=np.int64) + 1]


def outcome_statistic(
    outcomes: PairOutcomes, variant: str = "acc23", epsilon: float = 0.0
) -> KendallVariant:
    """The grouped statistic of the pairs in ``outcomes`` at ``epsilon``
    (variants b, 23, acc23), as
    :func:`~scoring.stats.kendall_variants.kendall_variant` gives it."""
    if check_choice(variant, VARIANTS, "Kendall variant") == "c":
        raise ValueError("tau_c cannot be computed from pair outcomes alone")
    codes = pair_codes(outcomes.metric_differences, outcomes.human_signs, epsilon)
    counts = group_counts(codes, outcomes.groups, outcomes.n_groups)  # (G, 5)
    statistic, n_defined = average_groups(group_values(counts, variant))
    n_pairs = int(counts.sum())
    return KendallVariant(
        statistic=float(statistic),
        variant=variant,
        group_by=outcomes.group_by,
        epsilon=float(epsilon),
        n_groups=int(n_defined),
        n_pairs=n_pairs,
        n_dropped=outcomes.n_possible - n_pairs,
        counts=PairCounts.from_array(counts),
    )
