"""The p-value matrix of one leaderboard column, read from its stored comparison.

Cells show the two-sided p-value of each pair adjusted by the chosen
correction over all pairs of the column (Holm by default, as the leaderboard's
clusters), with the raw p-value beside it when a correction applies.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.leaderboard.build import metric_decimals
from mtdash.evaluation.leaderboard.significance import (
    PairwiseTestNaming,
    chosen_correction,
    chosen_test,
    stored_cluster,
    stored_p_values,
)
from mtdash.evaluation.models import MetricComparison, SystemOutput, TestSet
from scoring.stats import DEFAULT_CORRECTION


@dataclass(frozen=True)
class PValueRow:
    system: str
    output_id: int
    score: float
    low: float | None
    high: float | None
    rank_range: str
    # p-value against each system of the matrix (None on the diagonal),
    # adjusted by the matrix's correction, the raw one, and the share of
    # bootstrap resamples in which this system beat the other.
    p_values: tuple[float | None, ...]
    wins: tuple[float | None, ...]
    raw_p_values: tuple[float | None, ...] = ()

    @property
    def cells(self) -> list[tuple[float | None, float | None, float | None]]:
        """(p-value, wins, raw p-value) against each system, for templates."""
        return list(zip(self.p_values, self.wins, self.raw_p_values, strict=True))


@dataclass(frozen=True)
class PValueMatrix(PairwiseTestNaming):
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
    correction: str = DEFAULT_CORRECTION
    # False for a comparison stored before p-values were adjusted: its
    # matrix is shown raw and says so.
    adjusted: bool = True

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(row.system for row in self.rows)

    @property
    def n_systems(self) -> int:
        return len(self.rows)

    @property
    def cannot_separate(self) -> bool:
        """Said only of adjusted p-values (an older, raw matrix says so)."""
        return self.adjusted and super().cannot_separate


def pvalue_matrix(
    test_set: TestSet,
    column: str | None,
    test: str | None = None,
    correction: str | None = None,
) -> PValueMatrix | None:
    """The matrix of ``column`` (default: BLEU, else the first computed)
    under ``test`` and ``correction`` (default Holm), or None if no
    comparison of that column is stored yet."""
    correction = chosen_correction(correction)
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
    wanted = chosen_test(test)
    test = "ar" if wanted == "ar" and comparison.matrices.get("ar_p") else "bootstrap"
    names = dict(
        SystemOutput.objects.filter(pk__in=comparison.output_ids).values_list(
            "pk", "system__name"
        )
    )
    raw = comparison.matrices[f"{test}_p"]
    matrix = stored_p_values(comparison.matrices, f"{test}_p", correction)
    adjusted = matrix is not None
    if matrix is None:  # stored before p-values were adjusted
        matrix = raw
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
        cluster = stored_cluster(entry, test, correction)
        first, last = cluster[1:] if cluster else (None, None)
        rows.append(
            PValueRow(
                system=names.get(output_id, f"output {output_id}"),
                output_id=output_id,
                score=entry["score"],
                low=entry.get("low"),
                high=entry.get("high"),
                rank_range=_rank_range(first, last),
                p_values=tuple(matrix[i][j] for j in order),
                wins=tuple(wins[i][j] for j in order),
                raw_p_values=tuple(raw[i][j] for j in order),
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
        correction=correction,
        adjusted=adjusted,
    )


def _rank_range(first: int | None, last: int | None) -> str:
    if first is None:
        return "–"  # stored before clusters were kept per correction
    return str(first) if first == last else f"{first}–{last}"


def compared_columns(test_set: TestSet) -> list[str]:
    return list(
        MetricComparison.objects.filter(test_set=test_set)
        .exclude(kind=MetricComparison.Kind.HUMAN)
        .order_by("column")
        .values_list("column", flat=True)
    )
