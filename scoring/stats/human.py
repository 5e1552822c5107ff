"""Aggregating human judgments per segment and per system, as WMT does.

WMT's direct assessment (Graham et al. 2016; WMT findings papers) first
standardises each judge's scores: z = (value - mean) / sd over *all* of that
judge's judgments (of one criterion), with the sample standard deviation
(``ddof=1``, R's ``sd``). The raw WMT21 files confirm it: every annotator's
z-scores there have mean 0 and sample standard deviation 1 to 1e-6. Then it
micro-averages: the score of a (system, segment) is the mean of its
judgments, and a system's score is the mean of its segment scores (each
judged segment counts once, however many judges saw it).

Worked example (one judge, values 2, 4, 6: mean 4, sd 2)::

    >>> import numpy as np
    >>> zscores(np.array([2.0, 4.0, 6.0]), np.zeros(3, dtype=np.int64))
    array([-1.,  0.,  1.])

A judge whose scores are all equal (or who made fewer than ``ddof + 1``
judgments) carries no information about relative quality; their z-scores
are 0.

A criterion listed in ``Judgments.as_given`` is aggregated as given: its
"standardised" values are its values. That is right for z-scores computed by
whoever published the file (WMT's ``da_seg.tsv`` column ``z``, the ``score``
of its ``ad-*-good-stnd.csv``) and for per-segment means of judges the file
does not name (``da_seg.tsv`` column ``raw``): standardising them as one
anonymous judge's would only rescale the file's means, and re-standardising
each annotator over a subset of the items WMT standardised over would move
WMT's figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.errors import ScoringError
from scoring.results import json_safe
from scoring.stats.arrays import freeze_arrays
from scoring.stats.judgments import Judgments


def zscores(values: np.ndarray, groups: np.ndarray, ddof: int = 1) -> np.ndarray:
    """Standardise ``values`` within each group: ``(J,), (J,) -> (J,)``.

    ``groups`` are non-negative integer labels (e.g. one per judge).
    """
    values = np.asarray(values, dtype=np.float64)
    groups = np.asarray(groups, dtype=np.int64)
    counts = np.bincount(groups)
    safe_counts = np.maximum(counts, 1)
    means = np.bincount(groups, weights=values) / safe_counts
    deviations = values - means[groups]
    sums_of_squares = np.bincount(groups, weights=deviations * deviations)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(sums_of_squares / (counts - ddof))
    usable = (counts > ddof) & (sd > 0)
    scale = np.where(usable, sd, 1.0)[groups]
    return np.where(usable[groups], deviations / scale, 0.0)


def standardise_per_judge(judgments: Judgments, ddof: int = 1) -> np.ndarray:
    """Per-judge z-scores of every judgment, per criterion: ``(J,)``; the
    values as given for a criterion of ``judgments.as_given``."""
    groups = judgments.judge_ids * len(judgments.criteria) + judgments.criterion_ids
    standardised = zscores(judgments.values, groups, ddof)
    given = [
        i for i, name in enumerate(judgments.criteria) if name in judgments.as_given
    ]
    if not given:
        return standardised
    as_given = np.isin(judgments.criterion_ids, given)
    return np.where(as_given, judgments.values, standardised)


@dataclass(frozen=True, eq=False)
class HumanScores:
    """Human scores of one criterion per (system, segment) and per system.

    Shapes: ``S`` systems judged on this criterion, ``G`` segments judged for
    at least one of them.
    """

    criterion: str
    standardised: bool  # True: per-judge z-scores; False: raw values
    systems: tuple[str, ...]
    segments: np.ndarray  # (G,) int64, sorted 1-based segment numbers
    segment_scores: np.ndarray  # (S, G) float64, NaN where not judged
    judgment_counts: np.ndarray  # (S, G) int64
    system_scores: np.ndarray  # (S,) float64, mean of the judged segments
    judged_segments: np.ndarray  # (S,) int64
    as_given: bool = False  # never standardised per judge (Judgments.as_given)

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def system_score(self, system: str) -> float:
        """The score of ``system`` (KeyError if it was not judged)."""
        return float(self.system_scores[self.systems.index(system)])

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe summary (system level; segment scores are large)."""
        return {
            "criterion": self.criterion,
            "standardised": self.standardised,
            "as_given": self.as_given,
            "systems": {
                name: {"score": json_safe(score), "judged_segments": int(count)}
                for name, score, count in zip(
                    self.systems, self.system_scores, self.judged_segments
                )
            },
        }


def human_scores(
    judgments: Judgments,
    criterion: str | None = None,
    *,
    standardise: bool = True,
    ddof: int = 1,
) -> HumanScores:
    """Aggregate one criterion (the only one when ``criterion`` is None).

    With ``standardise`` the per-judge z-scores are averaged, else the raw
    values. Raises :class:`ScoringError` for an unknown criterion.
    """
    criterion = _choose_criterion(judgments, criterion)
    values = standardise_per_judge(judgments, ddof) if standardise else judgments.values
    chosen = judgments.criterion_ids == judgments.criteria.index(criterion)
    system_ids = judgments.system_ids[chosen]
    present = np.unique(system_ids)  # systems judged on this criterion
    row_of_system = np.full(len(judgments.systems), -1, dtype=np.int64)
    row_of_system[present] = np.arange(present.size)
    segments, columns = np.unique(judgments.segments[chosen], return_inverse=True)
    shape = (present.size, segments.size)
    cells = np.ravel_multi_index((row_of_system[system_ids], columns), shape)
    size = shape[0] * shape[1]
    counts = np.bincount(cells, minlength=size).reshape(shape)
    sums = np.bincount(cells, weights=values[chosen], minlength=size).reshape(shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        segment_scores = np.where(counts > 0, sums / counts, np.nan)
    judged = (counts > 0).sum(axis=1)
    system_scores = np.nansum(segment_scores, axis=1) / np.maximum(judged, 1)
    return HumanScores(
        criterion=criterion,
        standardised=standardise,
        systems=tuple(judgments.systems[i] for i in present),
        segments=segments.astype(np.int64),
        segment_scores=segment_scores,
        judgment_counts=counts.astype(np.int64),
        system_scores=system_scores,
        judged_segments=judged.astype(np.int64),
        as_given=criterion in judgments.as_given,
    )


def _choose_criterion(judgments: Judgments, criterion: str | None) -> str:
    if criterion is None:
        if len(judgments.criteria) != 1:
            raise ScoringError(
                f"{judgments.source}: several criteria "
                f"({', '.join(judgments.criteria)}); choose one"
            )
        return judgments.criteria[0]
    if criterion not in judgments.criteria:
        raise ScoringError(
            f"{judgments.source}: no judgments of criterion {criterion!r}; "
            f"criteria: {', '.join(judgments.criteria) or '(none)'}"
        )
    return criterion
