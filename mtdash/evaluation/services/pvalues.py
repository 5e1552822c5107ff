"""The p-value matrix of one leaderboard column, read from its stored comparison."""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.models import MetricComparison, SystemOutput, TestSet
from mtdash.evaluation.services.leaderboard import metric_decimals


@dataclass(frozen=True)
class PValueRow:
    system: str
    output_id: int
    score: float
    low: float | None
    high: float | None
    rank_range: str
    # p-value against each system of the matrix (None on the diagonal), and
    # the share of bootstrap resamples in which this system beat the other.
    p_values: tuple[float | None, ...]
    wins: tuple[float | None, ...]


@dataclass(frozen=True)
class PValueMatrix:
    column: str
    test: str  # "bootstrap" or "ar"
    higher_is_better: bool
    decimals: int
    alpha: float
    seed: int
    n_samples: int
    n_trials: int
    signature: str
    rows: tuple[PValueRow, ...]  # best first

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(row.system for row in self.rows)


def pvalue_matrix(
    test_set: TestSet, column: str | None, test: str = "bootstrap"
) -> PValueMatrix | None:
    """The matrix of ``column`` (default: BLEU, else the first computed), or
    None if no comparison of that column is stored yet."""
    comparisons = MetricComparison.objects.filter(test_set=test_set).exclude(
        kind=MetricComparison.Kind.HUMAN
    )
    comparison = (
        comparisons.filter(column=column).first()
        or comparisons.filter(column="bleu").first()
        or comparisons.order_by("column").first()
    )
    if comparison is None:
        return None
    test = "ar" if test == "ar" and comparison.matrices.get("ar_p") else "bootstrap"
    names = dict(
        SystemOutput.objects.filter(pk__in=comparison.output_ids).values_list(
            "pk", "system__name"
        )
    )
    matrix = comparison.matrices[f"{test}_p"]
    wins = comparison.matrices["bootstrap_wins"]
    order = sorted(
        range(len(comparison.output_ids)),
        key=lambda i: comparison.summary[str(comparison.output_ids[i])]["score"],
        reverse=comparison.higher_is_better,
    )
    rows = []
    for i in order:
        output_id = comparison.output_ids[i]
        entry = comparison.summary[str(output_id)]
        first, last = entry[f"{test}_rank"]
        rows.append(
            PValueRow(
                system=names.get(output_id, f"output {output_id}"),
                output_id=output_id,
                score=entry["score"],
                low=entry.get("low"),
                high=entry.get("high"),
                rank_range=str(first) if first == last else f"{first}–{last}",
                p_values=tuple(matrix[i][j] for j in order),
                wins=tuple(wins[i][j] for j in order),
            )
        )
    return PValueMatrix(
        column=comparison.column,
        test=test,
        higher_is_better=comparison.higher_is_better,
        decimals=metric_decimals(comparison.column),
        alpha=comparison.alpha,
        seed=comparison.seed,
        n_samples=comparison.n_samples,
        n_trials=comparison.n_trials,
        signature=comparison.signature,
        rows=tuple(rows),
    )


def compared_columns(test_set: TestSet) -> list[str]:
    return list(
        MetricComparison.objects.filter(test_set=test_set)
        .exclude(kind=MetricComparison.Kind.HUMAN)
        .order_by("column")
        .values_list("column", flat=True)
    )
