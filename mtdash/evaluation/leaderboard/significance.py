"""What the comparison job stored, as the leaderboard reads it: each
output's interval, significance cluster and rank range per column under the
chosen test and correction for multiple comparisons, how each column was
compared, and the human columns (WMT means and z-scores, their intervals and
clusters).

Every figure is named by its test: intervals are two-sided percentile
bootstrap intervals; both paired tests (and the human columns' randomisation
test) are two-sided; clusters respect the p-values adjusted by the chosen
correction (Holm by default) over all pairs of the column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mtdash.evaluation.models import MetricComparison
from scoring.stats import (
    CORRECTION_LABELS,
    CORRECTIONS,
    DEFAULT_CORRECTION,
    smallest_adjusted_p,
)

SIDED = "two-sided"
TESTS = ("bootstrap", "ar")  # paired bootstrap resampling, approximate randomisation
# Approximate randomisation by default: with its 10,000 trials the smallest
# p-value (1/10,001) stays below 0.05 after Holm's or Bonferroni's factor for
# every pair of up to 31 systems, while 1,000 bootstrap resamples can separate
# no pair at all from 50 pairs (11 systems) on.
DEFAULT_TEST = "ar"
TEST_LABELS = {
    "bootstrap": "paired bootstrap resampling",
    "ar": "paired approximate randomisation",
}
HUMAN_TEST = (
    "paired approximate randomisation over the segments judged for both systems"
)


def draws_needed(n_pairs: int, alpha: float) -> int:
    """The least N with n_pairs / (N + 1) < alpha (the guard absorbs the
    rounding of a quotient such as 253 / 0.05)."""
    return int(math.floor(n_pairs / alpha + 1e-9))


def chosen_test(value: str | None) -> str:
    """The test a request asks for (``?test=bootstrap|ar``), else the default
    (a column compared without trials falls back to the bootstrap)."""
    return value if value in TESTS else DEFAULT_TEST


def chosen_correction(value: str | None) -> str:
    """The correction a request asks for (``?correction=``), else Holm."""
    return value if value in CORRECTIONS else DEFAULT_CORRECTION


def correction_text(correction: str) -> str:
    """``Holm-adjusted``, ``Bonferroni-adjusted`` or ``uncorrected``, for
    legends: what the p-values behind the clusters are."""
    if correction == "none":
        return "uncorrected"
    return f"{CORRECTION_LABELS[correction]}-adjusted"


def stored_p_values(matrices: dict, key: str, correction: str) -> list | None:
    """The stored ``(S, S)`` matrix ``key`` (``bootstrap_p`` or ``ar_p``)
    adjusted by ``correction``; None if not stored (an older comparison)."""
    if correction == "none":
        return matrices.get(key)
    return matrices.get("adjusted", {}).get(correction, {}).get(key)


def stored_cluster(entry: dict, test: str, correction: str) -> list | None:
    """``[cluster, first rank, last rank]`` of one output, or None if the
    comparison was stored before clusters were kept per correction."""
    return entry.get("clusters", {}).get(test, {}).get(correction)


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


class PairwiseTestNaming:
    """What a family of all-pairs tests can tell, for legends and warnings:
    its test, correction and sides, and whether its draws can separate any
    pair. Mixed into dataclasses with ``test``, ``n_samples``, ``n_trials``,
    ``correction``, ``alpha`` and ``n_systems``."""

    test: str
    n_samples: int
    n_trials: int
    correction: str
    alpha: float
    n_systems: int  # a field, or a property of the class it is mixed into

    @property
    def test_label(self) -> str:
        return TEST_LABELS[self.test]

    @property
    def correction_label(self) -> str:
        return CORRECTION_LABELS[self.correction]

    @property
    def correction_text(self) -> str:
        return correction_text(self.correction)

    @property
    def sided(self) -> str:
        return SIDED

    @property
    def n_pairs(self) -> int:
        return self.n_systems * (self.n_systems - 1) // 2

    @property
    def n_draws(self) -> int:
        """Resamples (bootstrap) or trials (randomisation) behind the p-values."""
        return self.n_trials if self.test == "ar" else self.n_samples

    @property
    def smallest_p(self) -> float:
        """The smallest p-value the test can give after the correction
        (:func:`scoring.stats.smallest_adjusted_p`)."""
        return smallest_adjusted_p(self.n_draws, self.n_systems, self.correction)

    @property
    def cannot_separate(self) -> bool:
        """No pair can reach p < alpha: too few draws for so many pairs."""
        return self.n_systems > 1 and self.smallest_p >= self.alpha

    @property
    def draws_needed(self) -> int:
        """Draws for the smallest adjusted p-value to fall below alpha:
        the least N with m / (N + 1) < alpha."""
        return draws_needed(self.n_pairs, self.alpha)


@dataclass(frozen=True)
class ColumnComparison(PairwiseTestNaming):
    """How a column's intervals and clusters were computed, for legends."""

    test: str  # "bootstrap" (paired bootstrap resampling) or "ar"
    seed: int
    n_samples: int
    n_trials: int
    confidence: float
    alpha: float
    n_systems: int
    comparison_id: int
    correction: str = DEFAULT_CORRECTION  # of the p-values behind the clusters


@dataclass(frozen=True)
class HumanValue:
    """A system's human score on one criterion (WMT system level)."""

    mean: float  # raw mean of the judged segments' means
    z: float  # the same with per-judge z-scores
    low: float | None  # bootstrap interval of z over the judged segments
    high: float | None
    judged_segments: int
    judgments: int
    # Significance cluster of z (1 = best) and the ranks it shares, under the
    # column's correction; None where not computed (one system, older data).
    cluster: int | None = None
    first_rank: int | None = None
    last_rank: int | None = None

    @property
    def rank_range(self) -> str:
        if self.first_rank is None:
            return ""
        if self.first_rank == self.last_rank:
            return str(self.first_rank)
        return f"{self.first_rank}–{self.last_rank}"


@dataclass(frozen=True)
class HumanColumn:
    criterion: str
    values: dict[int, HumanValue]  # by output id
    n_samples: int
    seed: int
    n_trials: int = 0  # randomisation trials behind the clusters (0: none)
    confidence: float = 0.95
    alpha: float = 0.05
    correction: str = DEFAULT_CORRECTION
    comparison_id: int | None = None
    test: str = HUMAN_TEST
    # human:<criterion>|<scale>|WMT micro-average|sources:<a.csv; campaign x>
    signature: str = ""

    @property
    def score_label(self) -> str:
        """ "z" (mean of per-judge z-scores), "WMT z" or "raw mean" (as given)."""
        if "|WMT z as given|" in self.signature:
            return "WMT z"
        return "raw mean" if "|raw means as given|" in self.signature else "z"

    @property
    def sources(self) -> str:
        """The imports and campaigns the column was computed from."""
        return self.signature.partition("|sources:")[2]

    @property
    def correction_text(self) -> str:
        return correction_text(self.correction)

    @property
    def has_clusters(self) -> bool:
        return any(value.cluster is not None for value in self.values.values())

    @property
    def cannot_separate(self) -> bool:
        """No pair can reach p < alpha with so few trials for so many pairs."""
        n = len(self.values)
        return (
            self.has_clusters
            and n > 1
            and smallest_adjusted_p(self.n_trials, n, self.correction) >= self.alpha
        )


def read_significance(
    stored: list[MetricComparison],
    scores: dict[int, dict[str, float]],
    test: str,
    correction: str = DEFAULT_CORRECTION,
) -> tuple[dict[int, dict[str, Significance]], dict[str, ColumnComparison]]:
    """Each output's interval and cluster per column under ``test`` and
    ``correction``, from the stored comparisons; a score that changed since
    (a rescore the worker has not compared yet), or a comparison stored
    before clusters were kept per correction, gets none, so the page says it
    is pending."""
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
            correction=correction,
        )
        for output_key, entry in comparison.summary.items():
            output_id = int(output_key)
            current = scores.get(output_id, {}).get(comparison.column)
            if current is None or not _same(current, entry.get("score")):
                continue
            cluster = stored_cluster(entry, key, correction)
            if cluster is None:
                continue
            by_output.setdefault(output_id, {})[comparison.column] = Significance(
                low=entry.get("low"),
                high=entry.get("high"),
                cluster=cluster[0],
                first_rank=cluster[1],
                last_rank=cluster[2],
            )
    return by_output, comparisons


def _same(a: float, b: float | None) -> bool:
    return b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a))


def read_human_columns(
    stored: list[MetricComparison], correction: str = DEFAULT_CORRECTION
) -> tuple[HumanColumn, ...]:
    columns = []
    for comparison in stored:
        if comparison.kind != MetricComparison.Kind.HUMAN:
            continue
        values = {}
        for output_id, entry in comparison.summary.items():
            cluster = stored_cluster(entry, "ar", correction) or [None] * 3
            values[int(output_id)] = HumanValue(
                mean=entry["score"],
                z=entry["z"],
                low=entry.get("low"),
                high=entry.get("high"),
                judged_segments=entry["judged_segments"],
                judgments=entry["judgments"],
                cluster=cluster[0],
                first_rank=cluster[1],
                last_rank=cluster[2],
            )
        columns.append(
            HumanColumn(
                comparison.column,
                values,
                comparison.n_samples,
                comparison.seed,
                n_trials=comparison.n_trials,
                confidence=comparison.confidence,
                alpha=comparison.alpha,
                correction=correction,
                comparison_id=comparison.pk,
                signature=comparison.signature,
            )
        )
    return tuple(sorted(columns, key=lambda column: column.criterion))
