"""Stored judgments as arrays, for the statistics of ``scoring.stats`` (WMT
aggregates, correlations, resampling): the one reader of the ``Judgment``
table that every page and job computing from human scores goes through."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from django.db.models import QuerySet

from mtdash.common.rows import collector_paused, value_columns
from mtdash.evaluation.models import SystemOutput, TestSet
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
    # Ids, not names: fewer joins and strings; names are looked up once.
    rows = (
        in_use(judgments)
        .order_by("pk")
        .values_list("index", "output_id", "judge", "criterion_id", "value", "line")
    )
    index, output, judge, criterion, value, line = value_columns(rows, 6)
    n = len(index)
    system_of = dict(
        SystemOutput.objects.filter(pk__in=set(output)).values_list(
            "pk", "system__name"
        )
    )
    name_of = dict(
        Criterion.objects.filter(pk__in=set(criterion)).values_list("pk", "name")
    )
    with collector_paused():
        systems, system_ids = _numbered([system_of[o] for o in output])
        judges, judge_ids = _numbered(judge)
        criteria, criterion_ids = _numbered([name_of[c] for c in criterion])
    return Judgments(
        systems=systems,
        judges=judges,
        criteria=criteria,
        segments=np.fromiter(index, dtype=np.int64, count=n) + 1,
        system_ids=system_ids,
        judge_ids=judge_ids,
        criterion_ids=criterion_ids,
        values=np.fromiter(value, dtype=np.float64, count=n),
        lines=np.fromiter(line, dtype=np.int64, count=n),
        source=source,
        as_given=as_given,
    )


def _numbered(names) -> tuple[tuple[str, ...], np.ndarray]:
    """(the distinct names in order of first appearance, each row's number)."""
    number = {name: i for i, name in enumerate(dict.fromkeys(names))}
    ids = np.fromiter(map(number.__getitem__, names), dtype=np.int64, count=len(names))
    return tuple(number), ids


def as_given_criteria(test_set: TestSet) -> frozenset[str]:
    """Names of the test set's criteria aggregated as given (not
    standardised per judge: ``Criterion.as_given``)."""
    return frozenset(
        Criterion.objects.filter(test_set=test_set)
        .exclude(scale=Criterion.Scale.RAW)
        .values_list("name", flat=True)
    )
