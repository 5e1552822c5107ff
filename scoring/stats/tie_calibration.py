"""Tie calibration of a metric (Deutsch, Foster & Freitag 2023).

A metric rarely gives two translations exactly the same score, so under
acc_eq (or tau_23) it never earns the human ties. Tie calibration declares a
metric tie when ``|m_i - m_j| <= epsilon`` and picks the epsilon that
maximises the grouped statistic (the variants and groupings of
:mod:`scoring.stats.kendall_variants`).

The search is exact: the statistic only changes when epsilon reaches the
metric difference of a counted pair, where that pair turns from concordant,
discordant or human-tied into metric-tied or tied in both. So the candidates
are 0 and every distinct ``|m_i - m_j|``; with the pairs sorted by their
difference, the statistic at every candidate is one cumulative sum (each pair
weighted by 1 / (counted pairs in its group) / (groups with a pair)). Among
equal maxima the smallest epsilon wins; equality is decided exactly (the
per-group numerators are integers), not up to rounding. ``sample_rate`` < 1
searches a seeded random share of the candidates (0 always among them), as
mt-metrics-eval offers to save time; the statistic is then still computed on
every pair. The pairs come from :func:`~scoring.stats.kendall_pairs.pair_outcomes`
(:func:`calibrate_outcomes` takes them ready, e.g. to calibrate many metrics).

Worked example: one segment, human (2, 1, 1), metric (0.9, 0.6, 0.5). At
epsilon 0 the pairs are C, C, T_h: acc_eq = 2/3. At epsilon 0.1 the third
pair is tied in both: 3/3; at 0.3 the second turns metric-tied: 2/3::

    >>> import numpy as np
    >>> human = np.array([[2.0], [1.0], [1.0]])
    >>> metric = np.array([[0.9], [0.6], [0.5]])
    >>> best = calibrate_ties(metric, human, "acc23", group_by="item")
    >>> round(best.epsilon, 4), best.statistic, best.n_candidates
    (0.1, 1.0, 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.results import json_safe
from scoring.stats.kendall_pairs import PairOutcomes, outcome_statistic, pair_outcomes
from scoring.stats.kendall_variants import KendallVariant, check_choice
from scoring.stats.resampling import Seed, make_rng

CALIBRATED_VARIANTS = ("23", "acc23")
# Candidates whose rounded statistic is this close to the best are compared
# exactly (rounding in the sum is below 1e-15).
_NEAR = 1e-12


@dataclass(frozen=True)
class TieCalibration(KendallVariant):
    """The epsilon that maximises a grouped statistic, and the statistic.

    ``n_candidates`` counts the distinct thresholds (0 and every distinct
    |metric difference| of a counted pair), ``n_searched`` those searched
    (all of them unless ``sample_rate`` < 1). ``seed`` is None when no
    sampling happened or a Generator was given.
    """

    n_candidates: int
    n_searched: int
    sample_rate: float
    seed: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: the statistic's, and how the threshold was found."""
        return {
            **super().to_dict(),
            **json_safe(
                {
                    "n_candidates": self.n_candidates,
                    "n_searched": self.n_searched,
                    "sample_rate": self.sample_rate,
                    "seed": self.seed,
                }
            ),
        }


def _searched(n_candidates: int, sample_rate: float, seed: Seed | None) -> np.ndarray:
    """Indices of the candidates to search, ascending; 0 (epsilon 0) always."""
    if not 0 < sample_rate <= 1:
        raise ValueError(f"sample_rate must be in (0, 1], not {sample_rate!r}")
    if sample_rate == 1:
        return np.arange(n_candidates)
    if seed is None:
        raise ValueError("a sampled search needs an explicit seed")
    n_searched = max(1, math.ceil(sample_rate * n_candidates))
    others = make_rng(seed).choice(n_candidates - 1, size=n_searched - 1, replace=False)
    return np.concatenate([[0], np.sort(others) + 1])


def _best_index(
    untied: np.ndarray,
    tied: np.ndarray,
    group_sizes: np.ndarray,
    flipped: np.ndarray,
) -> int:
    """Index into ``flipped`` of the smallest threshold with the largest
    statistic.

    Pairs sorted by |metric difference|; ``untied``/``tied`` the
    integer numerator each pair adds when its metric scores are apart/tied;
    ``group_sizes`` the counted pairs of its group; ``flipped`` ``(K,)`` how
    many of the sorted pairs are metric-tied at each searched threshold.
    The statistic times the number of groups is sum_s N_s / s over the group
    sizes s, N_s the integer numerator summed over groups of size s.
    """
    delta = tied - untied
    sizes = np.unique(group_sizes)
    if sizes.size == 1:  # every group alike (e.g. no missing score)
        split = [np.arange(group_sizes.size)]
    else:
        by_size = np.argsort(group_sizes, kind="stable")  # keeps the gap order
        starts = np.searchsorted(group_sizes[by_size], sizes)
        split = np.split(by_size, starts[1:])
    numerators = []  # per size: N_s at every searched threshold, (K,) int64
    values = np.zeros(flipped.size)
    for size, positions in zip(sizes, split, strict=True):
        prefix = np.concatenate([[0], np.cumsum(delta[positions])])
        # Pairs of this size among the first `flipped` of all pairs.
        flipped_here = (
            flipped
            if positions.size == group_sizes.size
            else np.searchsorted(positions, flipped)
        )
        numerator = untied[positions].sum() + prefix[flipped_here]
        numerators.append(numerator)
        values += numerator / size
    best = values.max()
    near = np.flatnonzero(values >= best - _NEAR * max(1.0, abs(best)))
    if near.size == 1:
        return int(near[0])
    # Equal after rounding: compare sum_s N_s * (L / s) exactly in Python ints.
    common = math.lcm(*(int(size) for size in sizes))
    exact = [
        sum(
            int(n[k]) * (common // int(s))
            for n, s in zip(numerators, sizes, strict=True)
        )
        for k in near
    ]
    return int(near[exact.index(max(exact))])


def calibrate_outcomes(
    outcomes: PairOutcomes,
    variant: str = "acc23",
    sample_rate: float = 1.0,
    seed: Seed | None = None,
) -> TieCalibration:
    """The epsilon that maximises ``variant`` (``acc23`` or ``23``) over the
    pairs of ``outcomes``; the smallest such epsilon if several tie.

    ``sample_rate`` in (0, 1]: the share of candidate thresholds searched
    (seeded by ``seed``, required below 1). Time O(P log P).
    """
    check_choice(variant, CALIBRATED_VARIANTS, "calibrated variant")
    counted = ~np.isnan(outcomes.metric_differences)
    differences = outcomes.metric_differences[counted]
    signs = outcomes.human_signs[counted]
    groups = outcomes.groups[counted]
    gaps = np.abs(differences)
    order = np.argsort(gaps)  # pairs of equal gaps flip together: any order
    differences, signs, groups, gaps = (
        differences[order],
        signs[order],
        groups[order],
        gaps[order],
    )
    # Candidates: 0 and each distinct gap, with how many pairs are tied there.
    run_ends = np.flatnonzero(np.r_[gaps[1:] != gaps[:-1], gaps.size > 0]) + 1
    candidates, tied_pairs = gaps[run_ends - 1], run_ends
    if not (candidates.size and candidates[0] == 0):
        candidates, tied_pairs = np.r_[0.0, candidates], np.r_[0, tied_pairs]
    searched = _searched(candidates.size, sample_rate, seed)
    best_epsilon = 0.0
    if gaps.size:
        human_tied = signs == 0
        agree = ~human_tied & ((differences > 0) == (signs > 0))
        if variant == "acc23":
            untied, tied = agree.astype(np.int64), human_tied.astype(np.int64)
        else:
            untied = np.where(agree, 1, -1)
            tied = np.where(human_tied, 1, -1)
        group_sizes = np.bincount(groups, minlength=outcomes.n_groups)[groups]
        best = _best_index(untied, tied, group_sizes, tied_pairs[searched])
        best_epsilon = float(candidates[searched[best]])
    result = outcome_statistic(outcomes, variant, best_epsilon)
    return TieCalibration(
        statistic=result.statistic,
        variant=variant,
        group_by=outcomes.group_by,
        epsilon=best_epsilon,
        n_groups=result.n_groups,
        n_pairs=result.n_pairs,
        n_dropped=result.n_dropped,
        counts=result.counts,
        n_candidates=int(candidates.size),
        n_searched=int(searched.size),
        sample_rate=float(sample_rate),
        seed=seed if isinstance(seed, int) and sample_rate < 1 else None,
    )


def calibrate_ties(
    metric: np.ndarray,
    human: np.ndarray,
    variant: str = "acc23",
    group_by: str = "item",
    sample_rate: float = 1.0,
    seed: Seed | None = None,
) -> TieCalibration:
    """Tie-calibrated ``variant`` of ``metric`` against ``human``.

    ``metric``, ``human``: ``(systems, segments)`` floats, NaN = missing.
    The smallest epsilon wins among equal maxima. The pairs are held in
    memory (see :class:`PairOutcomes`): pooled or by system, their number
    grows with the square of the segments.
    """
    check_choice(variant, CALIBRATED_VARIANTS, "calibrated variant")
    return calibrate_outcomes(
        pair_outcomes(metric, human, group_by), variant, sample_rate, seed
    )
