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

from mtdash.evaluation.models import (
    CorpusScore,
    Hypothesis,
    ReferenceSegment,
    Segment,
    SegmentScore,
    TestSetAnalysis,
)
from mtdash.evaluation.services.leaderboard import column_names, metric_decimals
from mtdash.judgments.models import (
    Criterion,
    ExternalCorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
    Judgment,
)
from mtdash.judgments.services.overview import criterion_aggregates, judgments_digest
from scoring import MetricError, get_metric, list_metrics

PAGE_SIZE = 20
KIND_PREFIX = "disagreements:"


class NoSuchChoice(LookupError):
    """An unknown metric or criterion; the message lists the valid ones."""


@dataclass(frozen=True)
class MetricChoice:
    name: str  # the leaderboard column
    signature: str  # the main signature (most of the column's latest scores)
    higher_is_better: bool
    external: bool
    # Latest score of each output in the column under the main signature:
    # output id -> CorpusScore id (ExternalCorpusScore id when external).
    score_ids: dict[int, int]
    decimals: int = 4


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
class JudgeValue:
    judge: str
    value: float


@dataclass(frozen=True)
class Disagreement:
    rank: int
    system: str
    output_id: int
    segment: int
    metric_score: float
    metric_standardised: float
    human_z: float
    human_raw: float
    human_standardised: float
    difference: float  # metric − human, standardised: > 0 the metric rates it higher
    source: str
    references: tuple[tuple[str, str], ...]  # (label, text)
    hypothesis: str
    judges: tuple[JudgeValue, ...]

    @property
    def metric_rates_higher(self) -> bool:
        return self.difference > 0

    def to_dict(self) -> dict:
        return {
            "rank": self.rank,
            "system": self.system,
            "output_id": self.output_id,
            "segment": self.segment,
            "metric_score": self.metric_score,
            "metric_standardised": self.metric_standardised,
            "human_z_mean": self.human_z,
            "human_raw_mean": self.human_raw,
            "human_standardised": self.human_standardised,
            "difference": self.difference,
            "source": self.source,
            "references": [{"label": lb, "text": t} for lb, t in self.references],
            "hypothesis": self.hypothesis,
            "judges": [{"judge": j.judge, "value": j.value} for j in self.judges],
        }


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


def metric_choices(test_set) -> list[MetricChoice]:
    """The leaderboard's metric columns at their main signature, then the
    external metrics, by name."""
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("pk", "output_id", "metric", "signature")
    )
    column_of = column_names([(metric, sig) for _, _, metric, sig in stored])
    latest: dict[str, dict[int, tuple[int, str, str]]] = {}
    for pk, output_id, metric, signature in stored:  # oldest first: latest wins
        latest.setdefault(column_of[metric, signature], {})[output_id] = (
            pk,
            metric,
            signature,
        )
    choices = []
    for name, by_output in sorted(latest.items()):
        counts: dict[str, int] = {}
        for _, _, signature in by_output.values():
            counts[signature] = counts.get(signature, 0) + 1
        main = min(counts, key=lambda s: (-counts[s], s))
        spec = next(metric for _, metric, sig in by_output.values() if sig == main)
        choices.append(
            MetricChoice(
                name=name,
                signature=main,
                higher_is_better=_higher_is_better(spec, main),
                external=False,
                score_ids={
                    o: pk for o, (pk, _, sig) in by_output.items() if sig == main
                },
                decimals=metric_decimals(spec),
            )
        )
    for metric in ExternalMetric.objects.filter(test_set=test_set).order_by("name"):
        score_ids = dict(
            ExternalCorpusScore.objects.filter(metric=metric).values_list(
                "output_id", "pk"
            )
        )
        choices.append(
            MetricChoice(
                name=metric.name,
                signature=metric.description,
                higher_is_better=metric.higher_is_better,
                external=True,
                score_ids=score_ids,
            )
        )
    return choices


def choose(choices: list, name: str | None, what: str):
    """The choice called ``name`` (the first one when no name is given)."""
    if not choices:
        raise NoSuchChoice(f"the test set has no {what} yet")
    if not name:
        return choices[0]
    for choice in choices:
        if choice.name == name:
            return choice
    names = ", ".join(choice.name for choice in choices)
    raise NoSuchChoice(f"no {what} named {name!r}; choose one of: {names}")


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
        TestSetAnalysis.objects.update_or_create(
            test_set=test_set, kind=kind, defaults={"inputs": inputs, "data": data}
        )
    else:
        data = stored.data
    if not data["output_ids"]:
        return None
    return Standardised(
        output_ids=np.array(data["output_ids"], dtype=np.int64),
        segments=np.array(data["segments"], dtype=np.int64),
        metric=np.array(data["metric"], dtype=np.float64),
        human_z=np.array(data["human_z"], dtype=np.float64),
        human_raw=np.array(data["human_raw"], dtype=np.float64),
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
    rows = _rows(test_set, points, criterion, positions) if points else ()
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
    aggregates = criterion_aggregates(criterion)
    scores = _metric_scores(metric)
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
        return {"output_ids": [], **dict.fromkeys(_SCALARS, 0.0)}
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
        "output_ids": cell_outputs[chosen][order].tolist(),
        "segments": aggregates.cell_segments[chosen][order].tolist(),
        "metric": metric_array[order].tolist(),
        "human_z": human_z[order].tolist(),
        "human_raw": aggregates.cell_raw[chosen][order].tolist(),
        "metric_sign": metric_sign,
        "human_sign": human_sign,
        "metric_mean": metric_mean,
        "metric_sd": metric_sd,
        "human_mean": human_mean,
        "human_sd": human_sd,
    }


def _metric_scores(metric: MetricChoice) -> dict[tuple[int, int], float]:
    """(output id, 0-based index) -> the metric's sentence score."""
    output_of = {
        score_id: output_id for output_id, score_id in metric.score_ids.items()
    }
    model = ExternalSegmentScore if metric.external else SegmentScore
    rows = model.objects.filter(corpus_score_id__in=list(output_of)).values_list(
        "corpus_score_id", "index", "score"
    )
    return {
        (output_of[score_id], index): score
        for score_id, index, score in rows.iterator(chunk_size=10000)
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
            "v1",
            metric.name,
            str(metric.higher_is_better),
            criterion.name,
            str(criterion.higher_is_better),
            judgments_digest(test_set, criterion),
            repr(sorted((pk, str(stamp)) for pk, stamp in stamps)),
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _rows(test_set, points: Standardised, criterion: Criterion, positions: range):
    pairs = [
        (int(points.output_ids[i]), int(points.segments[i]) - 1) for i in positions
    ]
    indices = sorted({index for _, index in pairs})
    output_ids = sorted({output_id for output_id, _ in pairs})
    sources = dict(
        Segment.objects.filter(test_set=test_set, index__in=indices).values_list(
            "index", "source"
        )
    )
    references: dict[int, list[tuple[str, str]]] = {}
    for index, label, text in (
        ReferenceSegment.objects.filter(
            reference_set__test_set=test_set, index__in=indices
        )
        .order_by("reference_set__label")
        .values_list("index", "reference_set__label", "text")
    ):
        references.setdefault(index, []).append((label, text))
    hypotheses = {
        (output_id, index): text
        for output_id, index, text in Hypothesis.objects.filter(
            output_id__in=output_ids, index__in=indices
        ).values_list("output_id", "index", "text")
    }
    systems = dict(
        test_set.outputs.filter(pk__in=output_ids).values_list("pk", "system__name")
    )
    judges: dict[tuple[int, int], list[JudgeValue]] = {}
    for output_id, index, judge, value in (
        Judgment.objects.filter(
            criterion=criterion, output_id__in=output_ids, index__in=indices
        )
        .order_by("judge")
        .values_list("output_id", "index", "judge", "value")
    ):
        judges.setdefault((output_id, index), []).append(JudgeValue(judge, value))
    return tuple(
        Disagreement(
            rank=i + 1,
            system=systems.get(output_id, ""),
            output_id=output_id,
            segment=index + 1,
            metric_score=float(points.metric[i]),
            metric_standardised=points.metric_standardised(i),
            human_z=float(points.human_z[i]),
            human_raw=float(points.human_raw[i]),
            human_standardised=points.human_standardised(i),
            difference=points.difference(i),
            source=sources.get(index, ""),
            references=tuple(references.get(index, ())),
            hypothesis=hypotheses.get((output_id, index), ""),
            judges=tuple(judges.get((output_id, index), ())),
        )
        for i, (output_id, index) in zip(positions, pairs)
    )


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


def _higher_is_better(spec: str, signature: str) -> bool:
    try:
        return get_metric(spec).higher_is_better
    except MetricError:
        # A spec this version cannot read: its signature still names the metric.
        infos = {info.name: info for info in list_metrics()}
        info = infos.get(signature.partition("|")[0])
        return info.higher_is_better if info else True
