"""Stored corpus scores for the cross-test-set readability tables: which
spec a user asked for, and every visible output's scores by system name."""

from __future__ import annotations

from mtdash.common.metric_specs import stored_spec
from mtdash.evaluation.models import CorpusScore, TestSet
from scoring import MetricError, canonical_spec, get_metric


def check_spec(metric: str, spec: str) -> str:
    """The canonical form of ``spec``, which must be a spec of ``metric``."""
    try:
        canonical = canonical_spec(spec)
        name = get_metric(canonical).name
    except MetricError as error:
        raise ValueError(f"{metric}: {error}") from None
    if name != metric:
        raise ValueError(f"{metric}: {spec!r} is a {name} spec, not a {metric} one")
    return canonical


def stored_scores(
    chosen: list[TestSet] | tuple[TestSet, ...],
) -> list[tuple[int, str, str, float]]:
    """(test set id, system name, canonical spec, score) of visible outputs,
    oldest first, so a later score of the same spec replaces an earlier one."""
    rows = (
        CorpusScore.objects.filter(output__test_set__in=chosen, output__hidden=False)
        .order_by("computed_at", "pk")
        .values_list("output__test_set_id", "output__system__name", "metric", "score")
    )
    return [
        (ts, system, stored_spec(metric), score) for ts, system, metric, score in rows
    ]
