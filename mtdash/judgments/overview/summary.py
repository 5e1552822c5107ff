"""The judgments of a test set aggregated as WMT does, per criterion.

Per (system, segment): the mean of its judgments, raw and with each judge's
values standardised first (z over all of that judge's judgments of the
criterion, sample sd); per system: the mean of its judged segments' means
(each segment counts once however many judges saw it). The numbers are
those of :func:`scoring.stats.human_scores`, which this module calls; it adds
the counts a reader needs (judgments, segments, judges) and the imports.

Worked example (one criterion, judges j1 and j2)::

    j1: sys A seg 1 = 4, sys B seg 1 = 2   -> j1 mean 3, sd 1.414; z = +0.707, -0.707
    j2: sys A seg 1 = 5, sys A seg 2 = 3   -> j2 mean 4, sd 1.414; z = +0.707, -0.707
    A seg 1: raw (4 + 5) / 2 = 4.5, z (0.707 + 0.707) / 2 = 0.707
    A: raw (4.5 + 3) / 2 = 3.75, z (0.707 - 0.707) / 2 = 0; B: raw 2, z -0.707
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtdash.common.exports import csv_text
from mtdash.evaluation.models import SystemOutput, TestSet
from mtdash.judgments.models import Criterion, Judgment, JudgmentImport
from mtdash.judgments.reading import read_judgments
from scoring.stats import Judgments, human_scores

SEGMENT_PAGE_SIZE = 25


@dataclass(frozen=True)
class SystemAggregate:
    system: str
    output_id: int
    n_judgments: int
    n_segments: int  # judged segments
    n_judges: int
    raw_mean: float  # mean of the judged segments' raw means
    z_mean: float  # the same of per-judge z-scores (WMT)

    def to_dict(self) -> dict:
        return {
            "system": self.system,
            "output_id": self.output_id,
            "judgments": self.n_judgments,
            "segments": self.n_segments,
            "judges": self.n_judges,
            "raw_mean": self.raw_mean,
            "z_mean": self.z_mean,
        }


@dataclass(frozen=True)
class SegmentAggregate:
    criterion: str
    segment: int  # 1-based line number
    system: str
    output_id: int
    # judgments of the cell: one per judge, but a WMT raw file's repeats
    # (Judgment.look > 1) count too, as WMT averages them in
    n_judges: int
    raw_mean: float
    z_mean: float

    def to_dict(self) -> dict:
        return {
            "criterion": self.criterion,
            "segment": self.segment,
            "system": self.system,
            "output_id": self.output_id,
            "judges": self.n_judges,
            "raw_mean": self.raw_mean,
            "z_mean": self.z_mean,
        }


@dataclass(frozen=True)
class CriterionAggregates:
    """One criterion's aggregates: systems ``(S,)``, judged cells ``(C,)``."""

    name: str
    range_label: str
    higher_is_better: bool
    systems: tuple[SystemAggregate, ...]  # best z mean first
    n_judgments: int
    n_judges: int
    # Judged (system, segment) cells, by segment then system name.
    cell_systems: np.ndarray  # (C,) int: index into ``systems``
    cell_segments: np.ndarray  # (C,) int: 1-based segment
    cell_judges: np.ndarray  # (C,) int
    cell_raw: np.ndarray  # (C,) float
    cell_z: np.ndarray  # (C,) float
    # Criterion.scale: "raw" (judges' values), "z" (WMT's z as given) or
    # "mean" (per-segment means as given); the last two have raw == z.
    scale: str = "raw"

    @property
    def as_given(self) -> bool:
        return self.scale != "raw"

    @property
    def score_label(self) -> str:
        """What ``z_mean`` is: "mean z", "WMT z" or "raw mean"."""
        return {"raw": "mean z", "z": "WMT z", "mean": "raw mean"}[self.scale]

    @property
    def n_cells(self) -> int:
        return int(self.cell_segments.size)

    def segment(self, position: int) -> SegmentAggregate:
        system = self.systems[int(self.cell_systems[position])]
        return SegmentAggregate(
            criterion=self.name,
            segment=int(self.cell_segments[position]),
            system=system.system,
            output_id=system.output_id,
            n_judges=int(self.cell_judges[position]),
            raw_mean=float(self.cell_raw[position]),
            z_mean=float(self.cell_z[position]),
        )

    def segments(self, start: int = 0, stop: int | None = None):
        stop = self.n_cells if stop is None else min(stop, self.n_cells)
        return [self.segment(i) for i in range(max(start, 0), stop)]

    def to_dict(self) -> dict:
        return {
            "criterion": self.name,
            "range": self.range_label,
            "higher_is_better": self.higher_is_better,
            "score": self.score_label,
            "judgments": self.n_judgments,
            "judges": self.n_judges,
            "judged_segments": self.n_cells,
            "systems": [system.to_dict() for system in self.systems],
        }


@dataclass(frozen=True)
class ImportRow:
    file_name: str
    layout: str
    imported_by: str
    imported_at: object  # datetime
    n_judgments: int
    n_skipped: int
    criteria: tuple[tuple[str, int], ...]  # (criterion, judgments)

    def to_dict(self) -> dict:
        return {
            "file": self.file_name,
            "layout": self.layout,
            "imported_by": self.imported_by,
            "imported_at": self.imported_at.isoformat(),
            "judgments": self.n_judgments,
            "skipped": self.n_skipped,
            "criteria": dict(self.criteria),
        }


@dataclass(frozen=True)
class SegmentPage:
    criterion: CriterionAggregates
    rows: tuple[SegmentAggregate, ...]
    page: int
    n_pages: int
    page_size: int


def imports(test_set: TestSet) -> list[ImportRow]:
    batches = JudgmentImport.objects.filter(test_set=test_set).select_related(
        "imported_by"
    )
    return [
        ImportRow(
            file_name=batch.file_name,
            layout=batch.layout,
            imported_by=batch.imported_by.username if batch.imported_by else "",
            imported_at=batch.imported_at,
            n_judgments=batch.n_judgments,
            n_skipped=batch.n_skipped,
            criteria=tuple(
                (name, sum(systems.values()))
                for name, systems in sorted(batch.counts.items())
            ),
        )
        for batch in batches
    ]


def criterion_judgments(criterion: Criterion) -> tuple[Judgments, dict[str, int]]:
    """The criterion's judgments as :class:`scoring.stats.Judgments` (systems
    named as on the leaderboard), and each system's output id."""
    judgments = read_judgments(
        Judgment.objects.filter(criterion=criterion),
        source=criterion.name,
        as_given=frozenset([criterion.name] if criterion.as_given else []),
    )
    output_of = dict(
        SystemOutput.objects.filter(
            test_set_id=criterion.test_set_id, system__name__in=judgments.systems
        ).values_list("system__name", "pk")
    )
    return judgments, output_of


def criterion_aggregates(criterion: Criterion) -> CriterionAggregates | None:
    """Every aggregate of one criterion (``None`` if it has no judgments)."""
    judgments, output_of = criterion_judgments(criterion)
    if len(judgments) == 0:
        return None
    raw = human_scores(judgments, criterion.name, standardise=False)
    z = human_scores(judgments, criterion.name, standardise=True)
    judges_per_system = _judges_per_system(judgments)
    order = sorted(
        range(len(z.systems)),
        key=lambda row: (-_sortable(z.system_scores[row]), z.systems[row]),
    )
    systems = tuple(
        SystemAggregate(
            system=z.systems[row],
            output_id=output_of[z.systems[row]],
            n_judgments=int(z.judgment_counts[row].sum()),
            n_segments=int(z.judged_segments[row]),
            n_judges=judges_per_system[judgments.systems.index(z.systems[row])],
            raw_mean=float(raw.system_scores[row]),
            z_mean=float(z.system_scores[row]),
        )
        for row in order
    )
    # Cells in segment order, then by system name within a segment.
    position_of_row = np.empty(len(order), dtype=np.int64)
    by_name = sorted(range(len(order)), key=lambda i: systems[i].system)
    name_rank = np.empty(len(order), dtype=np.int64)
    name_rank[by_name] = np.arange(len(order))
    position_of_row[np.array(order)] = np.arange(len(order))
    rows, columns = np.nonzero(z.judgment_counts > 0)  # (C,) each
    positions = position_of_row[rows]
    cells = np.lexsort((name_rank[positions], z.segments[columns]))
    rows, columns, positions = rows[cells], columns[cells], positions[cells]
    return CriterionAggregates(
        name=criterion.name,
        range_label=criterion.range_label,
        higher_is_better=criterion.higher_is_better,
        systems=systems,
        n_judgments=len(judgments),
        n_judges=len(judgments.judges),
        cell_systems=positions,
        cell_segments=z.segments[columns],
        cell_judges=z.judgment_counts[rows, columns],
        cell_raw=raw.segment_scores[rows, columns],
        cell_z=z.segment_scores[rows, columns],
        scale=criterion.scale,
    )


def segment_page(
    aggregates: CriterionAggregates, page: int, page_size: int = SEGMENT_PAGE_SIZE
) -> SegmentPage:
    n_pages = max(1, math.ceil(aggregates.n_cells / page_size))
    page = min(max(page, 1), n_pages)
    start = (page - 1) * page_size
    rows = tuple(aggregates.segments(start, start + page_size))
    return SegmentPage(aggregates, rows, page, n_pages, page_size)


def systems_csv_text(criteria: list[CriterionAggregates]) -> str:
    """Every criterion's system aggregates, full precision, one row each."""
    rows = [
        [
            c.name,
            s.system,
            s.n_judgments,
            s.n_segments,
            s.n_judges,
            s.raw_mean,
            s.z_mean,
        ]
        for c in criteria
        for s in c.systems
    ]
    header = ["criterion", "system", "judgments", "segments", "judges"]
    return _csv([*header, "raw_mean", "z_mean"], rows)


def segments_csv_text(criteria: list[CriterionAggregates]) -> str:
    """Every judged (system, segment) cell of every criterion."""
    rows = [
        [r.criterion, r.segment, r.system, r.n_judges, r.raw_mean, r.z_mean]
        for c in criteria
        for r in c.segments()
    ]
    header = ["criterion", "segment", "system", "judges", "raw_mean", "z_mean"]
    return _csv(header, rows)


def _csv(header: list[str], rows: list[list]) -> str:
    """Names made safe for spreadsheets; numbers kept numbers, every digit."""
    return csv_text(header, rows)


def _judges_per_system(judgments: Judgments) -> list[int]:
    pairs = np.unique(
        np.stack([judgments.system_ids, judgments.judge_ids], axis=1), axis=0
    )
    return np.bincount(pairs[:, 0], minlength=len(judgments.systems)).tolist()


def _sortable(value: float) -> float:
    return value if math.isfinite(value) else -math.inf
