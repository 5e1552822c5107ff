"""Stored judgments as arrays, for the statistics of ``scoring.stats`` (WMT
aggregates, correlations, resampling): the one reader of the ``Judgment``
table that every page and job computing from human scores goes through."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from django.db.models import QuerySet

from mtdash.evaluation.models import TestSet
from mtdash.judgments.models import Criterion, Judgment
from mtdash.judgments.sources import in_use
from scoring.stats import Judgments


def stored_judgments(
    test_set: TestSet, output_ids: Iterable[int] | None = None
) -> Judgments:
    """Every judgment of the test set (of the outputs ``output_ids`` only,
    if given) from the sources in use, as :func:`read_judgments` gives them,
    ready for :func:`scoring.stats.human_scores` (raw means or per-judge
    z-scores; WMT's z as given)."""
    judgments = Judgment.objects.filter(output__test_set=test_set)
    if output_ids is not None:
        judgments = judgments.filter(output_id__in=list(output_ids))
    return read_judgments(
        judgments, source=test_set.name, as_given=as_given_criteria(test_set)
    )


def read_judgments(
    judgments: QuerySet[Judgment], *, source: str, as_given: frozenset[str]
) -> Judgments:
    """The judgments of the query from the sources in use, in stored order,
    as :func:`scoring.stats.parse_judgments` would read them from one file
    (segments 1-based, systems named as on the leaderboard, each judgment's
    line in the file it came from); ``source`` names them in messages and
    ``as_given`` are the criteria not standardised per judge."""
    rows = (
        in_use(judgments)
        .order_by("pk")
        .values_list(
            "index", "output__system__name", "judge", "criterion__name", "value", "line"
        )
    )
    names: dict[str, dict[str, int]] = {"system": {}, "judge": {}, "criterion": {}}
    table = []
    for index, system, judge, criterion, value, line in rows.iterator(
        chunk_size=20_000
    ):
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
        source=source,
        as_given=as_given,
    )


def as_given_criteria(test_set: TestSet) -> frozenset[str]:
    """Names of the test set's criteria aggregated as given (not
    standardised per judge: ``Criterion.as_given``)."""
    return frozenset(
        Criterion.objects.filter(test_set=test_set)
        .exclude(scale=Criterion.Scale.RAW)
        .values_list("name", flat=True)
    )
