"""A paired test between metrics ranked on the same sentences (ORANGE Tables 2–6).

ORANGE is the mean over sentences of r_i = Rank_i / (N_i + 1). Two metrics
ranked on the same n-best lists give two numbers per sentence, so they are
compared *paired*: the per-sentence differences d_i = r_i(m) - r_i(best) are
resampled with replacement (the same seeded draws for every metric), and the
95% percentile interval of the mean difference decides. The best metric is
the one with the lowest ORANGE (the first in order on a tie); a metric whose
interval contains 0 is *statistically equivalent* to it (the paper's gray
cells), otherwise significantly worse. The two-sided p-value is
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
    p_value: float | None  # None for the best metric itself
    best: bool
    equivalent: bool  # not best, and the interval contains 0


@dataclass(frozen=True)
class OrangeComparison:
    """The best metric and those statistically equivalent to it."""

    best: str
    metrics: tuple[MetricComparison, ...]  # in the order given
    n_sentences: int
    n_bootstrap: int
    seed: int
    confidence: float

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
    """Paired bootstrap of every metric against the one with the lowest ORANGE.

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
    best = int(np.argmin(means))  # the first of tied lowest
    differences = matrix - matrix[best]
    resampled = _bootstrap_means(differences, n_bootstrap, seed)
    tail = (1 - confidence) / 2
    rows = []
    for m, name in enumerate(names):
        is_best = m == best
        low = high = float("nan")
        p_value: float | None = None
        equivalent = False
        if resampled is not None:
            low, high = np.quantile(resampled[:, m], [tail, 1 - tail])
            if not is_best:
                below = np.count_nonzero(resampled[:, m] <= 0)
                above = np.count_nonzero(resampled[:, m] >= 0)
                p_value = min(1.0, 2 * (min(below, above) + 1) / (n_bootstrap + 1))
                equivalent = bool(low <= 0 <= high)
        rows.append(
            MetricComparison(
                metric=name,
                orange=float(100 * means[m]),
                difference=float(100 * (means[m] - means[best])),
                ci_low=float(100 * low),
                ci_high=float(100 * high),
                p_value=p_value,
                best=is_best,
                equivalent=equivalent,
            )
        )
    return OrangeComparison(
        best=names[best],
        metrics=tuple(rows),
        n_sentences=int(matrix.shape[1]),
        n_bootstrap=n_bootstrap,
        seed=seed,
        confidence=confidence,
    )


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
