"""What the system page shows of one output: corpus scores with their
bootstrap intervals, the precomputed analyses, and one page of sentences.

Nothing here resamples or tokenises: intervals come from the comparison
job's :class:`~mtdash.evaluation.models.MetricComparison` rows, analyses
from :mod:`~mtdash.evaluation.systems.analyses`. The sentence table
is a handful of queries whatever the test set's size: the page's segment
numbers (sorted by ``ORDER BY`` on the chosen metric's sentence scores,
filtered by a substring search), then those rows' hypotheses and every
metric's scores for them in one query.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Q
from django.shortcuts import get_object_or_404

from mtdash.common.metric_specs import higher_is_better
from mtdash.common.numbers import finite
from mtdash.evaluation import access
from mtdash.evaluation.leaderboard.build import metric_decimals
from mtdash.evaluation.models import (
    CorpusScore,
    Hypothesis,
    MetricComparison,
    ReferenceSegment,
    Segment,
    SegmentScore,
    SystemOutput,
    TestSetAnalysis,
)
from mtdash.evaluation.systems.analyses import (
    analysis_kind,
    latest_scores_by_column,
)

PAGE_SIZE = 50
NUMBER = "number"  # sort key of the segment order


def get_output(user, pk: int) -> SystemOutput:
    """The output if its test set belongs to one of the user's teams, else 404."""
    outputs = SystemOutput.objects.filter(test_set__in=access.test_sets_of(user))
    return get_object_or_404(outputs.select_related("system", "test_set__team"), pk=pk)


@dataclass(frozen=True)
class CorpusScoreRow:
    """One metric's corpus score with its 95% bootstrap interval (``low`` and
    ``high`` None while the comparison job has not stored it)."""

    column: str
    score: float
    decimals: int
    signature: str
    sentence_signature: str
    higher_is_better: bool
    low: float | None = None
    high: float | None = None
    rank: tuple[int, int] | None = None  # rank range of the default test's cluster
    n_systems: int = 0

    @property
    def interval_pending(self) -> bool:
        return self.low is None or self.high is None

    @property
    def rank_text(self) -> str:
        if self.rank is None:
            return ""
        first, last = self.rank
        ranks = str(first) if first == last else f"{first}–{last}"
        return f"{ranks} of {self.n_systems}"


def corpus_score_rows(output: SystemOutput, columns: dict[str, int]):
    """A :class:`CorpusScoreRow` per column of ``columns`` (name -> score id)."""
    scores = CorpusScore.objects.filter(pk__in=columns.values()).only(
        "pk", "metric", "score", "signature", "sentence_signature"
    )
    by_pk = {score.pk: score for score in scores}
    comparisons = {
        column: (summary, signature, n)
        for column, summary, signature, n in MetricComparison.objects.filter(
            test_set_id=output.test_set_id, kind=MetricComparison.Kind.METRIC
        ).values_list("column", "summary", "signature", "output_ids")
    }
    rows = []
    for column, pk in columns.items():
        score = by_pk[pk]
        summary, signature, compared = comparisons.get(column, ({}, "", []))
        entry = summary.get(str(output.pk)) if signature == score.signature else None
        rows.append(
            CorpusScoreRow(
                column=column,
                score=score.score,
                decimals=metric_decimals(score.metric),
                signature=score.signature,
                sentence_signature=score.sentence_signature,
                higher_is_better=higher_is_better(score.metric),
                low=finite((entry or {}).get("low")),
                high=finite((entry or {}).get("high")),
                rank=_default_rank(entry),
                n_systems=len(compared),
            )
        )
    return rows


def stored_analysis(output: SystemOutput) -> dict | None:
    """The output's precomputed analyses, or None until the worker stored them."""
    return (
        TestSetAnalysis.objects.filter(
            test_set_id=output.test_set_id, kind=analysis_kind(output.pk)
        )
        .values_list("data", flat=True)
        .first()
    )


@dataclass(frozen=True)
class SentenceRow:
    number: int  # 1-based segment number
    hypothesis: str
    scores: tuple[float | None, ...]  # aligned with SentenceTable.columns


@dataclass(frozen=True)
class ColumnHeader:
    column: str
    decimals: int
    sort_link: str  # the ``sort`` value a click on the header asks for
    aria_sort: str  # "ascending", "descending" or "" (not sorted by it)


@dataclass(frozen=True)
class SentenceTable:
    columns: tuple[str, ...]
    decimals: tuple[int, ...]
    rows: tuple[SentenceRow, ...]
    sort: str  # "number", "-number", "<column>" or "-<column>"
    query: str
    page: int
    n_pages: int
    n_matching: int

    @property
    def sort_column(self) -> str:
        return self.sort.removeprefix("-")

    @property
    def descending(self) -> bool:
        return self.sort.startswith("-")

    def sort_link(self, column: str) -> str:
        """The ``sort`` value a click on ``column``'s header asks for: the
        other direction when it is the current sort, else ascending."""
        if column == self.sort_column and not self.descending:
            return f"-{column}"
        return column

    def header(self, column: str, decimals: int = 0) -> ColumnHeader:
        sorted_here = column == self.sort_column
        return ColumnHeader(
            column,
            decimals,
            self.sort_link(column),
            ("descending" if self.descending else "ascending") if sorted_here else "",
        )

    @property
    def number_header(self) -> ColumnHeader:
        return self.header(NUMBER)

    @property
    def headers(self) -> list[ColumnHeader]:
        return [self.header(c, d) for c, d in zip(self.columns, self.decimals)]

    def display_rows(self) -> list[tuple[SentenceRow, list[tuple[float | None, int]]]]:
        """Each row with its scores paired with their columns' decimals."""
        return [(row, list(zip(row.scores, self.decimals))) for row in self.rows]


def sentence_table(
    output: SystemOutput,
    columns: dict[str, int],
    sort: str = NUMBER,
    query: str = "",
    page: int = 1,
) -> SentenceTable:
    """One page (:data:`PAGE_SIZE` rows) of the output's sentences.

    ``sort`` names a column of ``columns`` (ascending) or ``-column``
    (descending), or ``number``; an unknown one falls back to ``number``.
    ``query`` keeps segments whose hypothesis, source or any reference
    contains it (case-insensitive).
    """
    query = query.strip()
    column = sort.removeprefix("-")
    if column != NUMBER and column not in columns:
        sort, column = NUMBER, NUMBER
    direction = "-" if sort.startswith("-") else ""
    matching = _matching_indices(output, query) if query else None
    if column == NUMBER:
        ordered = Hypothesis.objects.filter(output=output)
        order = (f"{direction}index",)
    else:
        ordered = SegmentScore.objects.filter(corpus_score_id=columns[column])
        order = (f"{direction}score", "index")
    if matching is not None:
        ordered = ordered.filter(index__in=matching)
    n_matching = ordered.count()
    n_pages = max(1, math.ceil(n_matching / PAGE_SIZE))
    page = min(max(page, 1), n_pages)
    start = (page - 1) * PAGE_SIZE
    indices = list(
        ordered.order_by(*order).values_list("index", flat=True)[
            start : start + PAGE_SIZE
        ]
    )
    return SentenceTable(
        columns=tuple(columns),
        decimals=tuple(metric_decimals(spec) for spec in _specs(columns)),
        rows=_rows(output, columns, indices),
        sort=sort,
        query=query,
        page=page,
        n_pages=n_pages,
        n_matching=n_matching,
    )


def _specs(columns: dict[str, int]) -> list[str]:
    specs = dict(
        CorpusScore.objects.filter(pk__in=columns.values()).values_list("pk", "metric")
    )
    return [specs[pk] for pk in columns.values()]


def _matching_indices(output: SystemOutput, query: str):
    """Segment indices (a subquery) whose hypothesis, source or a reference
    contains ``query``."""
    in_sources = Segment.objects.filter(
        test_set_id=output.test_set_id, source__icontains=query
    ).values("index")
    in_references = ReferenceSegment.objects.filter(
        reference_set__test_set_id=output.test_set_id, text__icontains=query
    ).values("index")
    return (
        Hypothesis.objects.filter(output=output)
        .filter(
            Q(text__icontains=query)
            | Q(index__in=in_sources)
            | Q(index__in=in_references)
        )
        .values("index")
    )


def _rows(output, columns: dict[str, int], indices: list[int]):
    texts = dict(
        Hypothesis.objects.filter(output=output, index__in=indices).values_list(
            "index", "text"
        )
    )
    position = {pk: i for i, pk in enumerate(columns.values())}
    scores: dict[int, list[float | None]] = {i: [None] * len(columns) for i in indices}
    for corpus_score_id, index, value in SegmentScore.objects.filter(
        corpus_score_id__in=list(columns.values()), index__in=indices
    ).values_list("corpus_score_id", "index", "score"):
        scores[index][position[corpus_score_id]] = value
    return tuple(
        SentenceRow(index + 1, texts.get(index, ""), tuple(scores[index]))
        for index in indices
    )


def output_columns(output: SystemOutput) -> dict[str, int]:
    """Column name -> the output's latest CorpusScore id in it."""
    return latest_scores_by_column(output.test_set, output.pk)


def _default_rank(entry: dict | None) -> tuple[int, int] | None:
    """The rank range the leaderboard shows by default: approximate
    randomisation's, the bootstrap's for a column compared without trials."""
    for test in ("ar", "bootstrap"):
        if entry and entry.get(f"{test}_rank"):
            return tuple(entry[f"{test}_rank"])
    return None
