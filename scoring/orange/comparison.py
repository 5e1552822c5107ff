"""A paired test between metrics ranked on the same sentences (ORANGE Tables 2–6).

ORANGE is the mean over sentences of r_i = Rank_i / (N_i + 1). Two metrics
ranked on the same n-best lists give two numbers per sentence, so they are
compared *paired*: the per-sentence differences d_i = r_i(m) - r_i(best) are
resampled with replacement (the same seeded draws for every metric), and the
95% percentile interval of the mean difference decides. The best metrics
are those with the lowest ORANGE: every metric within
:data:`TIE_TOLERANCE` of it is best (two metrics that rank every sentence
alike, or whose ranks average to the same value, tie; none is "the first in
list order"). A metric whose interval contains 0 is *statistically
equivalent* to the best (the paper's gray cells), otherwise significantly
worse; with several best metrics it is tested against each and reported
against the one it is least distinguishable from (``compared_with``: any it
is equivalent to, else the largest p), as :mod:`scoring.stats.best_metric`
does for correlations. The two-sided p-value is
``min(1, 2 * min(P*(mean d <= 0), P*(mean d >= 0)))`` over the resamples,
with the +1 correction (never exactly 0).

Worked example (3 sentences, normalised ranks)::

    a: [0.2, 0.2, 0.2]  ORANGE 20 %   <- best
    b: [0.4, 0.6, 0.5]  ORANGE 50 %   d = [0.2, 0.4, 0.3]: every resample > 0
    -> b is significantly worse; a is alone best.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from scoring.orange.ranking import SentenceRankings

# Resample draws held in memory at once (rows x sentences of int64 counts).
_BLOCK_CELLS = 2_000_000
# ORANGE means (normalised ranks, 0-1) this close (absolute) to the lowest tie
# with it, and resampled mean differences this close to 0 are 0: the same
# ranks summed in another order differ, if at all, in the last bits (the
# correlations' scoring.stats.best_metric uses 1e-12 alike).
TIE_TOLERANCE = 1e-12


def normalised_ranks(rankings: SentenceRankings) -> np.ndarray:
    """Rank_i / (N_i + 1) per sentence, what ORANGE averages: ``(S,)`` float64."""
    return rankings.ranks / (rankings.n_candidates + 1)


@dataclass(frozen=True)
class MetricComparison:
    """One metric against the best; percentages 0–100 (ORANGE points)."""

    metric: str
    orange: float  # percent
    difference: float  # ORANGE(metric) - ORANGE(best), percent, >= 0
    ci_low: float  # 95% bootstrap interval of the difference (NaN: no bootstrap)
    ci_high: float
    p_value: float | None  # None for a best metric
    best: bool  # ORANGE ties the lowest (within TIE_TOLERANCE)
    equivalent: bool  # not best, and the interval contains 0
    compared_with: str | None = None  # the best metric the test was against


@dataclass(frozen=True)
class OrangeComparison:
    """The best metrics and those statistically equivalent to them."""

    best: str  # the first best metric in the order given (see ``bests``)
    metrics: tuple[MetricComparison, ...]  # in the order given
    n_sentences: int
    n_bootstrap: int
    seed: int
    confidence: float

    @property
    def bests(self) -> tuple[str, ...]:
        """Every best metric: those whose ORANGE ties the lowest."""
        return tuple(m.metric for m in self.metrics if m.best)

    @property
    def equivalent(self) -> tuple[str, ...]:
        return tuple(m.metric for m in self.metrics if m.equivalent)

    def for_metric(self, metric: str) -> MetricComparison:
        return next(m for m in self.metrics if m.metric == metric)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (NaN intervals become None)."""
        rows = []
        for row in self.metrics:
            item = asdict(row)
            for key in ("ci_low", "ci_high"):
                if item[key] != item[key]:
                    item[key] = None
            rows.append(item)
        return {
            "best": self.best,
            "bests": list(self.bests),
            "equivalent": list(self.equivalent),
            "metrics": rows,
            "n_sentences": self.n_sentences,
            "n_bootstrap": self.n_bootstrap,
            "seed": self.seed,
            "confidence": self.confidence,
        }


def compare_metrics(
    normalised: Mapping[str, np.ndarray] | Sequence[tuple[str, np.ndarray]],
    *,
    n_bootstrap: int = 1000,
    seed: int = 1,
    confidence: float = 0.95,
) -> OrangeComparison:
    """Paired bootstrap of every metric against those with the lowest ORANGE
    (every metric tying it is best; see the module docstring).

    ``normalised`` maps a metric name to its per-sentence normalised ranks
    (:func:`normalised_ranks`), all over the same sentences in the same
    order. With ``n_bootstrap == 0`` no metric is marked equivalent (nothing
    was tested) and intervals are NaN.
    """
    items = list(normalised.items() if isinstance(normalised, Mapping) else normalised)
    if not items:
        raise ValueError("no metrics to compare")
    if not 0 < confidence < 1:
        raise ValueError("the confidence level lies strictly between 0 and 1")
    names = [name for name, _ in items]
    if len(set(names)) != len(names):
        raise ValueError("metric names must be distinct")
    matrix = np.vstack([np.asarray(r, dtype=np.float64) for _, r in items])
    if matrix.ndim != 2 or matrix.shape[1] == 0:
        raise ValueError("every metric needs the same, non-empty list of sentences")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("normalised ranks must be finite")
    means = matrix.mean(axis=1)
    lowest = float(means.min())
    bests = np.flatnonzero(means <= lowest + TIE_TOLERANCE).tolist()
    # Each best's differences, resampled with the same draws (the same seed).
    resampled = {
        b: _bootstrap_means(matrix - matrix[b], n_bootstrap, seed) for b in bests
    }
    tail = (1 - confidence) / 2
    rows = []
    for m, name in enumerate(names):
        if m in bests:
            # Against itself: a difference of 0, nothing to test.
            interval = float("nan") if resampled[m] is None else 0.0
            rows.append(
                MetricComparison(
                    metric=name,
                    orange=float(100 * means[m]),
                    difference=0.0,
                    ci_low=interval,
                    ci_high=interval,
                    p_value=None,
                    best=True,
                    equivalent=False,
                )
            )
            continue
        outcomes = [
            _against(means, resampled[b], m, b, n_bootstrap, tail) for b in bests
        ]
        # The weakest evidence that this metric is worse: equivalent to any
        # best first, then the largest p (the first best on a tie).
        b, equivalent, p_value, low, high = max(
            outcomes, key=lambda o: (o[1], -1.0 if o[2] is None else o[2])
        )
        rows.append(
            MetricComparison(
                metric=name,
                orange=float(100 * means[m]),
                difference=float(100 * (means[m] - means[b])),
                ci_low=float(100 * low),
                ci_high=float(100 * high),
                p_value=p_value,
                best=False,
                equivalent=equivalent,
                compared_with=names[b],
            )
        )
    return OrangeComparison(
        best=names[bests[0]],
        metrics=tuple(rows),
        n_sentences=int(matrix.shape[1]),
        n_bootstrap=n_bootstrap,
        seed=seed,
        confidence=confidence,
    )


def _against(
    means: np.ndarray,
    resampled: np.ndarray | None,
    m: int,
    best: int,
    n_bootstrap: int,
    tail: float,
) -> tuple[int, bool, float | None, float, float]:
    """(best, equivalent, two-sided p, interval) of metric ``m`` against one
    best metric, from the resampled mean differences ``m - best``."""
    if resampled is None:
        return best, False, None, float("nan"), float("nan")
    column = resampled[:, m]
    column = np.where(np.abs(column) <= TIE_TOLERANCE, 0.0, column)
    low, high = np.quantile(column, [tail, 1 - tail])
    below = np.count_nonzero(column <= 0)
    above = np.count_nonzero(column >= 0)
    p_value = min(1.0, 2 * (min(below, above) + 1) / (n_bootstrap + 1))
    return best, bool(low <= 0 <= high), p_value, float(low), float(high)


def _bootstrap_means(
    differences: np.ndarray, n_bootstrap: int, seed: int
) -> np.ndarray | None:
    """Mean difference per resample and metric: ``(B, M)``; the same draws
    for every metric (that is what makes the test paired)."""
    if n_bootstrap < 0:
        raise ValueError("bootstrap samples must be >= 0")
    if n_bootstrap == 0:
        return None
    n_metrics, n_sentences = differences.shape
    rng = np.random.default_rng(seed)
    means = np.empty((n_bootstrap, n_metrics))
    block = max(1, _BLOCK_CELLS // n_sentences)
    for start in range(0, n_bootstrap, block):
        stop = min(start + block, n_bootstrap)
        rows = stop - start
        draws = rng.integers(0, n_sentences, size=(rows, n_sentences))
        # How often each sentence was drawn, per resample: a matrix product
        # then averages every metric's differences at once.
        flat = (np.arange(rows)[:, None] * n_sentences + draws).ravel()
        counts = np.bincount(flat, minlength=rows * n_sentences).reshape(rows, -1)
        means[start:stop] = counts @ differences.T / n_sentences
    return means
