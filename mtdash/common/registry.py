"""Where a higher app adds to work that a lower app owns.

The apps' layers point down (README "Architecture"): ``evaluation`` never
imports ``judgments`` or ``orange``. Yet the comparison job that ``evaluation``
runs must also compute the human columns of the leaderboard and refresh the
correlation tables, and a deletion's confirmation page counts the judgments
and n-best lists that go with it. So the higher app registers what it adds
(in its ``AppConfig.ready``), and the lower app calls whatever is registered,
in registration order. Registering the same callable twice keeps one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

# (test set, {visible output id: system name}) -> (kind, column, (digest
# parts, compute(options) -> stored fields or None)) for each column.
ColumnSource = Callable[[Any, dict[int, str]], Iterable[tuple]]
# (test set, visible output ids): refresh a precomputed analysis.
AnalysisRefresher = Callable[[Any, list[int]], None]


@dataclass(frozen=True)
class DeletionCount:
    """A noun and how many rows of it a deletion removes: ``of_outputs``
    counts for a queryset of outputs, ``of_test_set`` for a test set (only
    what hangs on the test set itself; its outputs are counted apart)."""

    noun: str
    of_outputs: Callable[[Any], int] | None = None
    of_test_set: Callable[[Any], int] | None = None


_column_sources: list[ColumnSource] = []
_analysis_refreshers: list[AnalysisRefresher] = []
_deletion_counts: list[DeletionCount] = []


def _add(registered: list, item) -> None:
    if item not in registered:
        registered.append(item)


def register_leaderboard_columns(source: ColumnSource) -> None:
    """Columns the comparison job computes besides the metrics' own."""
    _add(_column_sources, source)


def leaderboard_column_sources() -> tuple[ColumnSource, ...]:
    return tuple(_column_sources)


def register_analysis_refresher(refresh: AnalysisRefresher) -> None:
    """An analysis the comparison job refreshes after the columns."""
    _add(_analysis_refreshers, refresh)


def analysis_refreshers() -> tuple[AnalysisRefresher, ...]:
    return tuple(_analysis_refreshers)


def register_deletion_count(count: DeletionCount) -> None:
    """Rows a deletion's confirmation page counts besides the lower app's."""
    _add(_deletion_counts, count)


def deletion_counts() -> tuple[DeletionCount, ...]:
    return tuple(_deletion_counts)


# (output ids, segment indices) -> the error-span annotations of those
# segments, as ``mtdash.evaluation.span_view.SentenceAnnotation`` values.
SentenceAnnotationSource = Callable[[list[int], list[int]], Iterable[Any]]
_sentence_annotation_sources: list[SentenceAnnotationSource] = []


def register_sentence_annotations(source: SentenceAnnotationSource) -> None:
    """Annotations the sentence and compare pages show with a sentence."""
    _add(_sentence_annotation_sources, source)


def sentence_annotation_sources() -> tuple[SentenceAnnotationSource, ...]:
    return tuple(_sentence_annotation_sources)
