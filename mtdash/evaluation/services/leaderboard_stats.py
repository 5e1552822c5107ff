"""What the comparison job stored, as the leaderboard reads it: each
output's interval, significance cluster and rank range per column, how each
column was compared, and the human columns (WMT means and z-scores)."""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.models import MetricComparison


@dataclass(frozen=True)
class Significance:
    """One output's place in a column's stored comparison
    (:class:`~mtdash.evaluation.models.MetricComparison`)."""

    low: float | None  # bootstrap interval of the score
    high: float | None
    cluster: int  # 1 = the best group of systems no test separates
    first_rank: int  # every system of a cluster shares its range of ranks
    last_rank: int

    @property
    def rank_range(self) -> str:
        if self.first_rank == self.last_rank:
            return str(self.first_rank)
        return f"{self.first_rank}–{self.last_rank}"


@dataclass(frozen=True)
class ColumnComparison:
    """How a column's intervals and clusters were computed, for legends."""

    test: str  # "bootstrap" (paired bootstrap resampling) or "ar"
    seed: int
    n_samples: int
    n_trials: int
    confidence: float
    alpha: float
    n_systems: int
    comparison_id: int


@dataclass(frozen=True)
class HumanValue:
    """A system's human score on one criterion (WMT system level)."""

    mean: float  # raw mean of the judged segments' means
    z: float  # the same with per-judge z-scores
    low: float | None  # bootstrap interval of z over the judged segments
    high: float | None
    judged_segments: int
    judgments: int


@dataclass(frozen=True)
class HumanColumn:
    criterion: str
    values: dict[int, HumanValue]  # by output id
    n_samples: int
    seed: int


def read_significance(
    stored: list[MetricComparison], scores: dict[int, dict[str, float]], test: str
) -> tuple[dict[int, dict[str, Significance]], dict[str, ColumnComparison]]:
    """Each output's interval and cluster per column, from the stored
    comparisons; a score that changed since (a rescore the worker has not
    compared yet) gets none, so the page says it is pending."""
    by_output: dict[int, dict[str, Significance]] = {}
    comparisons: dict[str, ColumnComparison] = {}
    for comparison in stored:
        if comparison.kind == MetricComparison.Kind.HUMAN:
            continue
        key = test if comparison.n_trials > 0 else "bootstrap"
        comparisons[comparison.column] = ColumnComparison(
            test=key,
            seed=comparison.seed,
            n_samples=comparison.n_samples,
            n_trials=comparison.n_trials,
            confidence=comparison.confidence,
            alpha=comparison.alpha,
            n_systems=len(comparison.output_ids),
            comparison_id=comparison.pk,
        )
        for output_key, entry in comparison.summary.items():
            output_id = int(output_key)
            current = scores.get(output_id, {}).get(comparison.column)
            if current is None or not _same(current, entry.get("score")):
                continue
            first, last = entry[f"{key}_rank"]
            by_output.setdefault(output_id, {})[comparison.column] = Significance(
                low=entry.get("low"),
                high=entry.get("high"),
                cluster=entry[f"{key}_cluster"],
                first_rank=first,
                last_rank=last,
            )
    return by_output, comparisons


def _same(a: float, b: float | None) -> bool:
    return b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a))


def read_human_columns(stored: list[MetricComparison]) -> tuple[HumanColumn, ...]:
    columns = []
    for comparison in stored:
        if comparison.kind != MetricComparison.Kind.HUMAN:
            continue
        values = {
            int(output_id): HumanValue(
                mean=entry["score"],
                z=entry["z"],
                low=entry.get("low"),
                high=entry.get("high"),
                judged_segments=entry["judged_segments"],
                judgments=entry["judgments"],
            )
            for output_id, entry in comparison.summary.items()
        }
        columns.append(
            HumanColumn(
                comparison.column, values, comparison.n_samples, comparison.seed
            )
        )
    return tuple(sorted(columns, key=lambda column: column.criterion))
