"""The leaderboard of a test set: one row per system output, one column per metric."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mtdash.evaluation.models import ScoringJob, SystemOutput, TestSet
from scoring import get_metric


@dataclass(frozen=True)
class MetricColumn:
    name: str
    signature: str
    higher_is_better: bool
    scale: float  # scores lie in [0, scale]: 1.0 or 100.0 (NIST: unbounded)

    @property
    def decimals(self) -> int:
        """Digits worth showing: 2 on the 0–100 scale, 4 on the 0–1 scale."""
        return 2 if self.scale >= 10 else 4


@dataclass(frozen=True)
class LeaderboardRow:
    system: str
    output_id: int
    scores: dict[str, float] = field(default_factory=dict)
    job_status: str = ""
    job_id: int | None = None
    rank: int | None = None
    # Scores aligned with Leaderboard.columns (None where not scored yet).
    cells: tuple[float | None, ...] = ()


@dataclass(frozen=True)
class Leaderboard:
    test_set_id: int
    columns: tuple[MetricColumn, ...]
    rows: tuple[LeaderboardRow, ...]

    @property
    def primary_metric(self) -> str | None:
        return self.columns[0].name if self.columns else None

    def display_rows(self) -> list[tuple[LeaderboardRow, list[tuple[float | None, MetricColumn]]]]:
        """Each row with its cells paired with their columns, for templates."""
        return [(row, list(zip(row.cells, self.columns))) for row in self.rows]


def build_leaderboard(test_set: TestSet, rank_by: str | None = None) -> Leaderboard:
    """Rows ranked by ``rank_by`` (default: BLEU if present, else the first
    metric by name), best first; outputs without that score come last."""
    outputs = (
        SystemOutput.objects.filter(test_set=test_set)
        .select_related("system")
        .prefetch_related("corpus_scores")
    )
    latest_jobs = {}
    for job in ScoringJob.objects.filter(output__test_set=test_set).order_by("created_at"):
        latest_jobs[job.output_id] = job
    signatures: dict[str, str] = {}
    rows = []
    for output in outputs:
        scores = {}
        for corpus_score in output.corpus_scores.all():
            scores[corpus_score.metric] = corpus_score.score
            signatures.setdefault(corpus_score.metric, corpus_score.signature)
        job = latest_jobs.get(output.pk)
        rows.append(
            LeaderboardRow(
                system=output.system.name,
                output_id=output.pk,
                scores=scores,
                job_status=job.status if job else "",
                job_id=job.pk if job else None,
            )
        )
    columns = tuple(_column(name, signatures[name]) for name in _column_order(signatures, rank_by))
    return Leaderboard(test_set.pk, columns, _ranked(rows, columns))


def _column_order(signatures: dict[str, str], rank_by: str | None) -> list[str]:
    names = sorted(signatures)
    primary = rank_by if rank_by in signatures else ("bleu" if "bleu" in names else None)
    if primary:
        names.remove(primary)
        names.insert(0, primary)
    return names


def _column(name: str, signature: str) -> MetricColumn:
    metric = get_metric(name)
    return MetricColumn(name, signature, metric.higher_is_better, float(metric.scale))


def _ranked(rows: list[LeaderboardRow], columns: tuple[MetricColumn, ...]):
    if not columns:
        return tuple(sorted(rows, key=lambda row: row.system))
    primary = columns[0]
    sign = -1.0 if primary.higher_is_better else 1.0
    scored = [row for row in rows if primary.name in row.scores]
    unscored = sorted((row for row in rows if primary.name not in row.scores), key=lambda r: r.system)
    scored.sort(key=lambda row: (sign * row.scores[primary.name], row.system))
    ranks = [(rank, row) for rank, row in enumerate(scored, start=1)]
    ranks += [(None, row) for row in unscored]
    return tuple(
        replace(row, rank=rank, cells=tuple(row.scores.get(c.name) for c in columns))
        for rank, row in ranks
    )
