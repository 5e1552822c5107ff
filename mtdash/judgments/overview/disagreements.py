"""The metric–human disagreement explorer: the judged segments where a
metric's sentence score and the judges' segment score disagree most.

Points are the judged (system, segment) cells of one criterion that the
metric scored. Over the points, both scores are standardised
(z = (x − mean) / sd, population sd), an error rate (lower is better) and a
criterion where lower is better are negated first so both read higher is
better, and the points are ranked by |metric z − human z|, largest first.
The human score of a cell is WMT's: the mean of its judges' per-judge
z-scores (:mod:`.overview`).

Worked example (three points, metric 0.1, 0.2, 0.3 and human −1, 0, 1 in
the same order agree: every difference is 0; swap the human scores to
1, 0, −1 and the first and last points differ by ±2.449, the middle by 0).

The ranking of a (metric, criterion) pair is stored in a
:class:`~mtdash.evaluation.models.TestSetAnalysis` keyed by a digest of its
inputs, so only the first view after new judgments or scores computes it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

from mtdash.evaluation.models import CorpusScore, ExternalCorpusScore, TestSetAnalysis
from mtdash.judgments.models import Criterion
from mtdash.judgments.overview.disagreement_metrics import (
    MetricChoice,
    NoSuchChoice,
    choose,
    metric_choices,
    metric_scores,
)
from mtdash.judgments.overview.disagreement_rows import Disagreement, disagreement_rows
from mtdash.judgments.overview.store import (
    cached_aggregates,
    judgments_digest,
    pack,
    store_analysis,
    unpack,
)

__all__ = ["MetricChoice", "NoSuchChoice", "choose", "metric_choices"]

PAGE_SIZE = 20


KIND_PREFIX = "disagreements:"


@dataclass(frozen=True)
class Standardised:
    """The points in ranked order (``P`` of them) and how they were scaled."""

    output_ids: np.ndarray  # (P,) int
    segments: np.ndarray  # (P,) int, 1-based
    metric: np.ndarray  # (P,) float, as scored
    human_z: np.ndarray  # (P,) float, mean per-judge z of the cell
    human_raw: np.ndarray  # (P,) float, mean raw value of the cell
    metric_sign: float  # −1 for an error rate, so higher reads better
    human_sign: float
    metric_mean: float  # of sign × metric
    metric_sd: float  # 0 when all points score the same
    human_mean: float
    human_sd: float

    def metric_standardised(self, i: int) -> float:
        return _z(self.metric_sign * self.metric[i], self.metric_mean, self.metric_sd)

    def human_standardised(self, i: int) -> float:
        return _z(self.human_sign * self.human_z[i], self.human_mean, self.human_sd)

    def difference(self, i: int) -> float:
        return self.metric_standardised(i) - self.human_standardised(i)


@dataclass(frozen=True)
class DisagreementPage:
    metric: MetricChoice
    criterion: Criterion
    n_points: int
    rows: tuple[Disagreement, ...]
    page: int
    n_pages: int
    page_size: int
    metric_negated: bool
    human_negated: bool


def standardised_points(test_set, metric: MetricChoice, criterion: Criterion):
    """The ranked points (:class:`Standardised`), from the cache when its
    inputs have not changed; ``None`` when no judged cell was scored."""
    inputs = _inputs_digest(test_set, metric, criterion)
    kind = (
        KIND_PREFIX
        + hashlib.sha256(f"{metric.name}\n{criterion.name}".encode()).hexdigest()[:32]
    )
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind=kind).first()
    if stored is None or stored.inputs != inputs:
        data = _compute(metric, criterion)
        store_analysis(test_set.pk, kind, inputs, data)
    else:
        data = stored.data
    if not data["n_points"]:
        return None
    return Standardised(
        output_ids=unpack(data["output_ids"], np.int64),
        segments=unpack(data["segments"], np.int64),
        metric=unpack(data["metric"], np.float64),
        human_z=unpack(data["human_z"], np.float64),
        human_raw=unpack(data["human_raw"], np.float64),
        **{key: data[key] for key in _SCALARS},
    )


def rank_points(
    metric: np.ndarray,
    human: np.ndarray,
    metric_higher_is_better: bool = True,
    human_higher_is_better: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standardise both ``(P,)`` arrays over the points (negating a
    lower-is-better one) and rank them: returns the metric's and the human
    z ``(P,)`` and the order ``(P,)`` of the largest |difference| first
    (ties keep the input order)."""
    metric_z = _standardise(metric * (1.0 if metric_higher_is_better else -1.0))
    human_z = _standardise(human * (1.0 if human_higher_is_better else -1.0))
    order = np.argsort(-np.abs(metric_z - human_z), kind="stable")
    return metric_z, human_z, order


def disagreement_page(
    test_set,
    metric: MetricChoice,
    criterion: Criterion,
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> DisagreementPage:
    points = standardised_points(test_set, metric, criterion)
    n_points = 0 if points is None else int(points.segments.size)
    n_pages = max(1, math.ceil(n_points / page_size))
    page = min(max(page, 1), n_pages)
    start = (page - 1) * page_size
    positions = range(start, min(start + page_size, n_points))
    rows = disagreement_rows(test_set, points, criterion, positions) if points else ()
    return DisagreementPage(
        metric=metric,
        criterion=criterion,
        n_points=n_points,
        rows=rows,
        page=page,
        n_pages=n_pages,
        page_size=page_size,
        metric_negated=not metric.higher_is_better,
        human_negated=not criterion.higher_is_better,
    )


_SCALARS = (
    "metric_sign",
    "human_sign",
    "metric_mean",
    "metric_sd",
    "human_mean",
    "human_sd",
)


def _compute(metric: MetricChoice, criterion: Criterion) -> dict:
    """The ranked points as JSON-safe lists (what the cache stores)."""
    aggregates = cached_aggregates(criterion)
    scores = metric_scores(metric)
    keep, metric_values = [], []
    if aggregates is not None:
        output_ids = np.array([s.output_id for s in aggregates.systems])
        cell_outputs = output_ids[aggregates.cell_systems]
        for i, (output_id, segment) in enumerate(
            zip(cell_outputs.tolist(), aggregates.cell_segments.tolist())
        ):
            value = scores.get((output_id, segment - 1))
            if value is not None and math.isfinite(value):
                keep.append(i)
                metric_values.append(value)
    if not keep:
        return {"n_points": 0, **dict.fromkeys(_SCALARS, 0.0)}
    chosen = np.array(keep)
    metric_array = np.array(metric_values, dtype=np.float64)
    human_z = aggregates.cell_z[chosen]
    _, _, order = rank_points(
        metric_array, human_z, metric.higher_is_better, criterion.higher_is_better
    )
    metric_sign = 1.0 if metric.higher_is_better else -1.0
    human_sign = 1.0 if criterion.higher_is_better else -1.0
    metric_mean, metric_sd = _spread(metric_sign * metric_array)
    human_mean, human_sd = _spread(human_sign * human_z)
    return {
        "n_points": len(keep),
        "output_ids": pack(cell_outputs[chosen][order], np.int64),
        "segments": pack(aggregates.cell_segments[chosen][order], np.int64),
        "metric": pack(metric_array[order], np.float64),
        "human_z": pack(human_z[order], np.float64),
        "human_raw": pack(aggregates.cell_raw[chosen][order], np.float64),
        "metric_sign": metric_sign,
        "human_sign": human_sign,
        "metric_mean": metric_mean,
        "metric_sd": metric_sd,
        "human_mean": human_mean,
        "human_sd": human_sd,
    }


def _inputs_digest(test_set, metric: MetricChoice, criterion: Criterion) -> str:
    if metric.external:
        stamps = ExternalCorpusScore.objects.filter(pk__in=metric.score_ids.values())
        stamps = stamps.values_list("pk", "imported_at")
    else:
        stamps = CorpusScore.objects.filter(pk__in=metric.score_ids.values())
        stamps = stamps.values_list("pk", "computed_at")
    text = "|".join(
        [
            "v2",
            metric.name,
            str(metric.higher_is_better),
            criterion.name,
            str(criterion.higher_is_better),
            judgments_digest(criterion),
            repr(sorted((pk, str(stamp)) for pk, stamp in stamps)),
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _spread(values: np.ndarray) -> tuple[float, float]:
    """Mean and population sd; sd 0 when the values are equal up to rounding
    (the mean of equal floats can differ from them in the last bit)."""
    mean = float(np.mean(values))
    sd = float(np.std(values))
    return mean, (sd if sd > 1e-12 * max(1.0, abs(mean)) else 0.0)


def _standardise(values: np.ndarray) -> np.ndarray:
    if values.size == 0:
        return np.zeros(0)
    mean, sd = _spread(values)
    if sd == 0.0:
        return np.zeros_like(values, dtype=np.float64)
    return (values - mean) / sd


def _z(value: float, mean: float, sd: float) -> float:
    return 0.0 if sd == 0.0 else (float(value) - mean) / sd
