"""One page of the disagreement explorer: each ranked point with its
source, references, hypothesis and every judge's raw value (a few small
queries for the page's rows only)."""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.models import Hypothesis, ReferenceSegment, Segment
from mtdash.judgments.models import Criterion, Judgment


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


def disagreement_rows(test_set, points, criterion: Criterion, positions: range):
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
    for output_id, index, judge, value, look, kind in (
        Judgment.objects.filter(
            criterion=criterion, output_id__in=output_ids, index__in=indices
        )
        .order_by("judge", "look")
        .values_list("output_id", "index", "judge", "value", "look", "kind")
    ):
        # A judge's later look (WMT's REPEAT, an item met again) says so.
        if look > 1:
            judge += " (repeat)" if kind == Judgment.Kind.REPEAT else f" (look {look})"
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
