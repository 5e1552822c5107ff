"""One metric of the WMT meta-evaluation, pair by pair: the system pairs it
orders against the humans, and the segments that cost it acc_eq.

Every score reads "higher is better" (negate an error rate first, as
:mod:`~scoring.stats.wmt_protocol` does).

**System pairs** (:func:`system_pair_outcomes`), counted as
:func:`~scoring.stats.pairwise_accuracy.pairwise_accuracy` counts them. The
systems are put in human order, best first (equal human scores by name), and
every pair (A, B) has A before B, so human Δ = h_A - h_B >= 0 and
metric Δ = m_A - m_B. A pair's outcome:

- ``agree``: sign(metric Δ) = sign(human Δ): the metric puts A above B as
  the humans do, or ties two systems the humans tie (exact equality);
- ``disagree``: metric Δ < 0 < human Δ;
- ``metric tie``: metric Δ = 0 < human Δ;
- ``human tie``: human Δ = 0, metric Δ != 0.

The share of ``agree`` is the pairwise accuracy (a tie agrees only with a
tie). A system without a human or metric score (NaN) is in no pair.

**Segments** (:func:`segment_outcomes`): acc_eq grouped by item, the WMT
default (Deutsch, Foster & Freitag 2023), counted as
:mod:`~scoring.stats.kendall_variants` counts: in each segment, every pair of
systems with both human and both metric scores is concordant (C),
discordant (D), tied in both (T_hm), in the human scores only (T_h: exact
equality) or in the metric scores only (T_m: ``|m_i - m_j| <= epsilon``,
the metric's calibrated threshold). A segment's acc_eq is
(C + T_hm) / pairs; the metric's acc_eq is the mean over the segments with
at least one pair. Listed by discordant pairs (most first), the segments
show where the metric loses it; each names its *worst pair*, the
discordant pair with the largest metric |Δ| (the most confident mistake).

Worked example: systems a, b, c with human (3, 1, 1) and metric
(0.5, 0.7, 0.2); then two segments (the example of
:mod:`~scoring.stats.kendall_variants`) at epsilon 0.05::

    >>> import numpy as np
    >>> pairs = system_pair_outcomes(
    ...     np.array([0.5, 0.7, 0.2]), np.array([3.0, 1.0, 1.0]), ("a", "b", "c")
    ... )
    >>> [(p.first, p.second, p.outcome) for p in pairs.pairs]
    [('a', 'b', 'disagree'), ('a', 'c', 'agree'), ('b', 'c', 'human tie')]
    >>> round(pairs.accuracy, 4)
    0.3333
    >>> human = np.array([[2.0, 3.0], [1.0, 2.0], [1.0, 1.0]])
    >>> metric = np.array([[0.9, 0.7], [0.5, 0.8], [0.5, 0.1]])
    >>> segments = segment_outcomes(metric, human, 0.05, ("a", "b", "c"), (1, 2))
    >>> [(s.segment, s.concordant, s.discordant, s.both_ties) for s in segments.segments]
    [(1, 2, 0, 1), (2, 2, 1, 0)]
    >>> round(segments.acc_eq, 4)  # (3/3 + 2/3) / 2
    0.8333
    >>> worst = segments.by_discordant()[0].worst_pair
    >>> worst.first, worst.second, round(worst.metric_difference, 2)
    ('a', 'b', -0.1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.human import HumanScores
from scoring.stats.kendall_pairs import pair_outcomes
from scoring.stats.kendall_variants import (
    DISCORDANT,
    PairCounts,
    average_groups,
    group_counts,
    group_values,
    pair_codes,
)
from scoring.stats.pairwise_accuracy import pairwise_accuracy, system_names
from scoring.stats.scores_file import MetricScores

AGREE, DISAGREE, METRIC_TIE, HUMAN_TIE = "agree", "disagree", "metric tie", "human tie"
OUTCOMES = (AGREE, DISAGREE, METRIC_TIE, HUMAN_TIE)


@dataclass(frozen=True)
class SystemPairOutcome:
    """Systems ``first`` and ``second``, ``first`` ahead in human order:
    ``human_difference`` = h_first - h_second (>= 0), ``metric_difference``
    = m_first - m_second, and the ``outcome`` (one of :data:`OUTCOMES`)."""

    first: str
    second: str
    human_difference: float
    metric_difference: float
    outcome: str

    def to_dict(self) -> dict[str, Any]:
        return json_safe(
            {
                "first": self.first,
                "second": self.second,
                "human_difference": self.human_difference,
                "metric_difference": self.metric_difference,
                "outcome": self.outcome,
            }
        )


def _outcome(human_difference: float, metric_difference: float) -> str:
    human, metric = np.sign(human_difference), np.sign(metric_difference)
    if human == metric:  # pairwise_accuracy's agreement, ties included
        return AGREE
    if human == 0:
        return HUMAN_TIE
    return METRIC_TIE if metric == 0 else DISAGREE


@dataclass(frozen=True)
class SystemPairOutcomes:
    """Every pair of the systems kept, in human order (module docstring);
    ``accuracy`` the share of ``agree`` (0-1; NaN with no pair)."""

    pairs: tuple[SystemPairOutcome, ...]
    accuracy: float
    systems_used: tuple[str, ...]  # in human order, best first
    systems_left_out: tuple[str, ...]  # no human or no metric score

    @property
    def counts(self) -> dict[str, int]:
        """Pairs by outcome, every outcome named."""
        counts = dict.fromkeys(OUTCOMES, 0)
        for pair in self.pairs:
            counts[pair.outcome] += 1
        return counts

    def disagreements_first(self) -> list[SystemPairOutcome]:
        """The pairs with disagreements first (the largest metric |Δ|
        first), then metric ties, human ties and agreements."""
        rank = {DISAGREE: 0, METRIC_TIE: 1, HUMAN_TIE: 2, AGREE: 3}
        return sorted(
            self.pairs,
            key=lambda p: (rank[p.outcome], -abs(p.metric_difference)),
        )

    def to_dict(self) -> dict[str, Any]:
        return json_safe(
            {
                "accuracy": self.accuracy,
                "counts": self.counts,
                "systems_used": self.systems_used,
                "systems_left_out": self.systems_left_out,
                "pairs": [pair.to_dict() for pair in self.pairs],
            }
        )


def system_pair_outcomes(
    metric_system: np.ndarray,
    human_system: np.ndarray,
    systems: Sequence[str] | None = None,
) -> SystemPairOutcomes:
    """The outcome of every system pair: ``metric_system`` and
    ``human_system`` ``(S,)`` aligned by system, NaN where missing."""
    counted = pairwise_accuracy(metric_system, human_system, systems)
    metric = np.asarray(metric_system, dtype=np.float64)
    human = np.asarray(human_system, dtype=np.float64)
    names = system_names(systems, metric.size)
    kept = [names.index(name) for name in counted.systems_used]
    order = sorted(kept, key=lambda i: (-human[i], names[i]))
    pairs = []
    for a, first in enumerate(order):
        for second in order[a + 1 :]:
            human_difference = float(human[first] - human[second])
            metric_difference = float(metric[first] - metric[second])
            pairs.append(
                SystemPairOutcome(
                    first=names[first],
                    second=names[second],
                    human_difference=human_difference,
                    metric_difference=metric_difference,
                    outcome=_outcome(human_difference, metric_difference),
                )
            )
    return SystemPairOutcomes(
        pairs=tuple(pairs),
        accuracy=counted.accuracy,
        systems_used=tuple(names[i] for i in order),
        systems_left_out=counted.systems_left_out,
    )


@dataclass(frozen=True)
class SegmentOutcome:
    """One segment's pairs of systems by outcome, and its acc_eq (NaN
    without a pair). ``worst_pair``: its discordant pair of the largest
    metric |Δ|, None without a discordant pair."""

    segment: int
    concordant: int
    discordant: int
    human_ties: int
    metric_ties: int
    both_ties: int
    acc_eq: float
    worst_pair: SystemPairOutcome | None

    @property
    def n_pairs(self) -> int:
        return (
            self.concordant
            + self.discordant
            + self.both_ties
            + self.human_ties
            + self.metric_ties
        )

    @property
    def missed(self) -> int:
        """Pairs acc_eq counts against the metric: D + T_h + T_m."""
        return self.discordant + self.human_ties + self.metric_ties

    def to_dict(self) -> dict[str, Any]:
        return json_safe(
            {
                "segment": self.segment,
                "pairs": self.n_pairs,
                "concordant": self.concordant,
                "discordant": self.discordant,
                "both_ties": self.both_ties,
                "human_ties": self.human_ties,
                "metric_ties": self.metric_ties,
                "acc_eq": self.acc_eq,
                "worst_pair": self.worst_pair.to_dict() if self.worst_pair else None,
            }
        )


@dataclass(frozen=True)
class SegmentOutcomes:
    """Every segment in column order; ``acc_eq`` the item-grouped mean over
    the ``n_segments_with_pairs`` segments with a pair, at ``epsilon``."""

    segments: tuple[SegmentOutcome, ...]
    acc_eq: float
    epsilon: float
    n_segments_with_pairs: int
    counts: PairCounts

    def by_discordant(self) -> list[SegmentOutcome]:
        """The segments with a pair, most discordant pairs first (then most
        pairs missed, then by number)."""
        return sorted(
            (s for s in self.segments if s.n_pairs),
            key=lambda s: (-s.discordant, -s.missed, s.segment),
        )

    def to_dict(self, limit: int | None = None) -> dict[str, Any]:
        """JSON-safe form; ``segments`` as :meth:`by_discordant` lists
        them, the first ``limit`` only when given."""
        listed = self.by_discordant()
        return json_safe(
            {
                "acc_eq": self.acc_eq,
                "epsilon": self.epsilon,
                "segments_with_pairs": self.n_segments_with_pairs,
                "counts": self.counts.to_dict(),
                "segments": [s.to_dict() for s in listed[:limit]],
            }
        )


def segment_outcomes(
    metric_segment: np.ndarray,
    human_segment: np.ndarray,
    epsilon: float = 0.0,
    systems: Sequence[str] | None = None,
    segments: Sequence[int] | None = None,
) -> SegmentOutcomes:
    """acc_eq grouped by item, segment by segment: ``metric_segment`` and
    ``human_segment`` ``(S, G)``, NaN where missing; ``segments`` ``(G,)``
    labels the columns (default 1, 2, ...), ``systems`` the rows."""
    outcomes = pair_outcomes(metric_segment, human_segment, "item")
    n_systems, n_segments = np.shape(human_segment)
    names = system_names(systems, n_systems)
    labels = list(range(1, n_segments + 1)) if segments is None else list(segments)
    if len(labels) != n_segments:
        raise ScoringError(f"give one label per segment ({n_segments})")
    codes = pair_codes(outcomes.metric_differences, outcomes.human_signs, epsilon)
    counts = group_counts(codes, outcomes.groups, n_segments)  # (G, 5)
    values = group_values(counts, "acc23")
    mean, n_defined = average_groups(values)
    worst = _worst_pairs(outcomes, codes, np.asarray(human_segment, float), names)
    return SegmentOutcomes(
        segments=tuple(
            SegmentOutcome(
                segment=int(labels[g]),
                **PairCounts.from_array(counts[g : g + 1]).to_dict(),
                acc_eq=float(values[g]),
                worst_pair=worst.get(g),
            )
            for g in range(n_segments)
        ),
        acc_eq=float(mean),
        epsilon=float(epsilon),
        n_segments_with_pairs=int(n_defined),
        counts=PairCounts.from_array(counts),
    )


def _worst_pairs(outcomes, codes, human, names) -> dict[int, SystemPairOutcome]:
    """Segment index -> its discordant pair of the largest metric |Δ|."""
    chosen = np.flatnonzero(codes == DISCORDANT)
    if not chosen.size:
        return {}
    gaps = np.abs(outcomes.metric_differences[chosen])
    chosen = chosen[np.lexsort((-gaps, outcomes.groups[chosen]))]
    _, firsts = np.unique(outcomes.groups[chosen], return_index=True)
    n_segments = human.shape[1]
    flat = human.ravel()
    worst = {}
    for k in chosen[firsts]:
        first, second = outcomes.first_points[k], outcomes.second_points[k]
        metric_difference = float(outcomes.metric_differences[k])
        if outcomes.human_signs[k] < 0:  # human-better first
            first, second, metric_difference = second, first, -metric_difference
        worst[int(outcomes.groups[k])] = SystemPairOutcome(
            first=names[first // n_segments],
            second=names[second // n_segments],
            human_difference=float(flat[first] - flat[second]),
            metric_difference=metric_difference,
            outcome=DISAGREE,
        )
    return worst


@dataclass(frozen=True)
class MetricDrillDown:
    """One metric on one test set: its system pairs and segments."""

    metric: str
    negated: bool  # an error rate, negated so that higher is better
    system_pairs: SystemPairOutcomes
    segments: SegmentOutcomes

    def to_dict(self, limit: int | None = None) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "negated": self.negated,
            "system_pairs": self.system_pairs.to_dict(),
            "segments": self.segments.to_dict(limit),
        }


def drill_down_metric(
    scores: MetricScores,
    human: HumanScores,
    metric: str,
    systems: Sequence[str],
    epsilon: float,
) -> MetricDrillDown:
    """The drill-down of ``metric`` on the points the protocol used:
    ``systems`` (those of its result; each needs a human score), the
    segments of ``human`` as columns, the metric negated if lower is better
    (as :func:`~scoring.stats.wmt_protocol.run_protocol` reads them)."""
    if metric not in scores.metrics:
        raise ScoringError(f"no scores of metric {metric!r}")
    rows = [human.systems.index(system) for system in systems]
    sign = 1.0 if scores.higher_is_better[metric] else -1.0
    corpus = scores.corpus.get(metric, {})
    sentence = scores.sentence.get(metric, {})
    metric_system = np.array([corpus.get(s, np.nan) for s in systems], dtype=float)
    positions = human.segments - 1
    metric_segment = np.full((len(systems), positions.size), np.nan)
    for row, system in enumerate(systems):
        vector = sentence.get(system)
        if vector is not None:
            inside = positions < vector.size  # a short vector: NaN past its end
            metric_segment[row, inside] = vector[positions[inside]]
    return MetricDrillDown(
        metric=metric,
        negated=sign < 0,
        system_pairs=system_pair_outcomes(
            sign * metric_system, human.system_scores[rows], systems
        ),
        segments=segment_outcomes(
            sign * metric_segment,
            human.segment_scores[rows],
            epsilon,
            systems,
            human.segments.tolist(),
        ),
    )
