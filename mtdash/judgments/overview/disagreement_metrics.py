"""Which metrics the disagreement explorer offers, and their sentence scores.

A leaderboard metric column is offered at its main signature (the one most
of its outputs' latest scores carry; outputs scored under another are left
out); an external metric (COMET...) with its description as signature.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.leaderboard.build import column_names, metric_decimals
from mtdash.evaluation.models import (
    CorpusScore,
    ExternalCorpusScore,
    ExternalMetric,
    ExternalSegmentScore,
    SegmentScore,
)
from scoring import MetricError, get_metric, list_metrics


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


def metric_scores(metric: MetricChoice) -> dict[tuple[int, int], float]:
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


def _higher_is_better(spec: str, signature: str) -> bool:
    try:
        return get_metric(spec).higher_is_better
    except MetricError:
        # A spec this version cannot read: its signature still names the metric.
        infos = {info.name: info for info in list_metrics()}
        info = infos.get(signature.partition("|")[0])
        return info.higher_is_better if info else True
