"""Stored judgments and external scores as arrays, for the statistics of
``scoring.stats`` (WMT aggregates, correlations, resampling)."""

from __future__ import annotations

import numpy as np

from mtdash.evaluation.models import ExternalMetric, ExternalSegmentScore, TestSet
from mtdash.judgments.models import Criterion, Judgment
from mtdash.judgments.sources import in_use
from scoring.stats import Judgments


def stored_judgments(test_set: TestSet) -> Judgments:
    """Every judgment of the test set from the sources in use, as
    :func:`scoring.stats.parse_judgments` would read them from one file
    (segments 1-based), ready for :func:`scoring.stats.human_scores` (raw
    means or per-judge z-scores; WMT's z as given)."""
    rows = in_use(Judgment.objects.filter(output__test_set=test_set)).values_list(
        "index", "output__system__name", "judge", "criterion__name", "value", "line"
    )
    names: dict[str, dict[str, int]] = {"system": {}, "judge": {}, "criterion": {}}
    table = []
    for index, system, judge, criterion, value, line in rows.order_by("pk").iterator():
        ids = [
            names[field].setdefault(name, len(names[field]))
            for field, name in (
                ("system", system),
                ("judge", judge),
                ("criterion", criterion),
            )
        ]
        table.append((index + 1, *ids, value, line))
    array = np.array(table, dtype=np.float64).reshape(-1, 6)
    return Judgments(
        systems=tuple(names["system"]),
        judges=tuple(names["judge"]),
        criteria=tuple(names["criterion"]),
        segments=array[:, 0].astype(np.int64),
        system_ids=array[:, 1].astype(np.int64),
        judge_ids=array[:, 2].astype(np.int64),
        criterion_ids=array[:, 3].astype(np.int64),
        values=array[:, 4],
        lines=array[:, 5].astype(np.int64),
        source=test_set.name,
        as_given=as_given_criteria(test_set),
    )


def as_given_criteria(test_set: TestSet) -> frozenset[str]:
    """Names of the test set's criteria aggregated as given (not
    standardised per judge: ``Criterion.as_given``)."""
    return frozenset(
        Criterion.objects.filter(test_set=test_set)
        .exclude(scale=Criterion.Scale.RAW)
        .values_list("name", flat=True)
    )


def external_segment_scores(
    metric: ExternalMetric,
) -> tuple[tuple[str, ...], np.ndarray]:
    """Systems (by name) and their segment scores, ``(S, N)`` in segment
    order: a resample of segments is a column index, its corpus score the
    mean of the chosen columns."""
    rows = (
        ExternalSegmentScore.objects.filter(corpus_score__metric=metric)
        .order_by("corpus_score__output__system__name", "index")
        .values_list("corpus_score__output__system__name", "score")
    )
    systems: dict[str, list[float]] = {}
    for system, score in rows.iterator():
        systems.setdefault(system, []).append(score)
    return tuple(systems), np.array(list(systems.values()), dtype=np.float64)
