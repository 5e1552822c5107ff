"""Per system: errors by category × severity, and errors per 100 words.

Counts are over annotations: when three raters annotate a segment, each
rater's errors count (as in an MQM score, which averages them), and so do
the segment's words, once per annotation. So

    errors per 100 words = 100 × Σ errors / Σ target words

over the annotations kept by the filters (whose spans: the humans' or one
metric's; one annotator; one document). Errors without position (an MQM
Non-translation) and on the source side count; ``neutral`` marks do not
(MQM gives them weight 0: they are not errors), though the table shows
them.

Words are the tokens of the test set's target-language tokenizer (13a, so
a punctuation mark counts as a word; ``zh`` for Chinese, characters for
Japanese and Korean), counted once per output and cached.

A worked example: two raters annotate one 10-word segment of a system, r1
marks a major and a minor error, r2 one major: 3 errors over 20 words, 15
errors per 100 words; the table reads major 2, minor 1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet

from mtdash.evaluation.models import Hypothesis, Segment, SystemOutput, TestSet
from mtdash.evaluation.span_view.annotations import SEVERITY_ORDER
from mtdash.evaluation.systems.analyses import tokenizer_name
from mtdash.judgments.error_spans.options import HUMAN
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation
from scoring import __version__ as SCORING_VERSION
from scoring import get_tokenizer

NOT_ERRORS = frozenset({"neutral"})
NO_CATEGORY = "(no category)"
WORDS_CACHE_SECONDS = 7 * 24 * 3600  # an output's hypotheses never change


@dataclass(frozen=True)
class BreakdownFilters:
    """Whose spans (``source``: ``human`` or a metric's name), one
    annotator of them (blank: all) and one document (blank: all)."""

    source: str = HUMAN
    annotator: str = ""
    document: str = ""

    @classmethod
    def from_query(cls, query) -> BreakdownFilters:
        def value(name: str) -> str:
            return str(query.get(name, "")).strip()[:200]

        return cls(value("source") or HUMAN, value("annotator"), value("document"))

    def kept(self, test_set: TestSet, path: str = "") -> Q:
        """The condition on annotations (``path`` ``""``), or on spans
        through theirs (``path`` ``"annotation__"``): one join, no
        subquery of annotations."""
        if self.source == HUMAN:
            found = Q(**{f"{path}kind": ErrorSpanAnnotation.Kind.HUMAN})
            if self.annotator:
                found &= Q(**{f"{path}annotator": self.annotator})
        else:
            found = Q(
                **{
                    f"{path}kind": ErrorSpanAnnotation.Kind.METRIC,
                    f"{path}annotator": self.source,
                }
            )
        found &= Q(**{f"{path}output__test_set": test_set})
        if self.document:
            indices = Segment.objects.filter(
                test_set=test_set, document_id=self.document
            ).values("index")
            found &= Q(**{f"{path}index__in": indices})
        return found

    def annotations(self, test_set: TestSet) -> QuerySet[ErrorSpanAnnotation]:
        """The test set's annotations these filters keep."""
        return ErrorSpanAnnotation.objects.filter(self.kept(test_set))

    def spans(self, test_set: TestSet) -> QuerySet[ErrorSpan]:
        """The spans of those annotations."""
        return ErrorSpan.objects.filter(self.kept(test_set, "annotation__"))

    def query_items(self) -> dict[str, str]:
        items = {"source": self.source if self.source != HUMAN else ""}
        items.update(annotator=self.annotator, document=self.document)
        return {name: value for name, value in items.items() if value}

    @property
    def query(self) -> str:
        """``?source=…`` for a link to another page of spans ('' if none)."""
        items = self.query_items()
        return "?" + urlencode(items) if items else ""


@dataclass(frozen=True)
class ErrorBreakdown:
    """One system's errors: ``counts[(category, severity)]``, the
    annotations and distinct segments they come from, and the target words
    of those annotations (a segment's once per annotation)."""

    output_id: int
    system: str
    counts: dict[tuple[str, str], int]
    annotations: int
    segments: int
    words: int
    severities: tuple[str, ...] = field(default=())  # the columns to show

    @property
    def categories(self) -> list[str]:
        return sorted({c for c, _ in self.counts}, key=str.casefold)

    def count(self, category: str | None = None, severity: str | None = None) -> int:
        return sum(
            n
            for (c, s), n in self.counts.items()
            if (category is None or c == category)
            and (severity is None or s == severity)
        )

    @property
    def errors(self) -> int:
        """Every span but the neutral ones."""
        return sum(n for (_, s), n in self.counts.items() if s not in NOT_ERRORS)

    def per_100_words(self, severity: str | None = None) -> float | None:
        """Errors (of one severity) per 100 target words; None without words."""
        if not self.words:
            return None
        errors = self.errors if severity is None else self.count(severity=severity)
        return 100.0 * errors / self.words

    @property
    def rate(self) -> float | None:
        """Errors per 100 target words (for templates)."""
        return self.per_100_words()

    @property
    def severity_totals(self) -> list[int]:
        return [self.count(severity=s) for s in self.severities]

    def rows(self) -> list[tuple[str, list[tuple[str, int]], int]]:
        """(category, (severity, count) per severity column, total) for a
        table."""
        return [
            (
                category,
                [(s, self.count(category, s)) for s in self.severities],
                self.count(category),
            )
            for category in self.categories
        ]

    def to_dict(self) -> dict:
        return {
            "system": self.system,
            "annotations": self.annotations,
            "segments": self.segments,
            "words": self.words,
            "errors": self.errors,
            "errors_per_100_words": self.per_100_words(),
            "counts": [
                {"category": c, "severity": s, "errors": n}
                for (c, s), n in sorted(self.counts.items())
            ],
        }


def severity_columns(severities: set[str]) -> tuple[str, ...]:
    """The known severities in order of weight, then any others by name."""
    known = [s for s in SEVERITY_ORDER[1:] if s in severities]
    return (
        *known,
        *sorted(severities - set(SEVERITY_ORDER)),
        *(["neutral"] if "neutral" in severities else []),
    )


def breakdowns(
    test_set: TestSet,
    outputs: Sequence[SystemOutput],
    filters: BreakdownFilters,
) -> list[ErrorBreakdown]:
    """The errors of each of ``outputs`` (in that order) that have
    annotations under ``filters``."""
    ids = [o.pk for o in outputs]
    kept = filters.annotations(test_set).filter(output_id__in=ids)
    per_segment = kept.values("output_id", "index").annotate(n=Count("pk"))
    annotated: dict[int, dict[int, int]] = defaultdict(dict)
    for row in per_segment.order_by():
        annotated[row["output_id"]][row["index"]] = row["n"]
    counts: dict[int, Counter] = defaultdict(Counter)
    for row in (
        filters.spans(test_set)
        .filter(annotation__output_id__in=ids)
        .values("annotation__output_id", "category", "severity")
        .annotate(n=Count("pk"))
        .order_by()
    ):
        key = (row["category"] or NO_CATEGORY, row["severity"])
        counts[row["annotation__output_id"]][key] += row["n"]
    columns = severity_columns({s for c in counts.values() for _, s in c})
    tokenizer = tokenizer_name(test_set)
    found = []
    for output in outputs:
        segments = annotated.get(output.pk)
        if not segments:
            continue
        words = target_words(output, tokenizer)
        found.append(
            ErrorBreakdown(
                output_id=output.pk,
                system=output.system.name,
                counts=dict(counts[output.pk]),
                annotations=sum(segments.values()),
                segments=len(segments),
                words=sum(words[i] * n for i, n in segments.items() if i < len(words)),
                severities=columns,
            )
        )
    return found


def target_words(output: SystemOutput, tokenizer: str) -> list[int]:
    """Tokens of each hypothesis of the output (index order), cached: an
    output's hypotheses never change, and the key holds its upload time as
    well as its id (SQLite may give a rolled-back id again)."""
    stamp = output.created_at.timestamp()
    key = f"error-spans:words:{output.pk}:{stamp}:{tokenizer}:{SCORING_VERSION}"
    words = cache.get(key)
    if words is None:
        tokenize = get_tokenizer(tokenizer)
        texts = (
            Hypothesis.objects.filter(output_id=output.pk)
            .order_by("index")
            .values_list("text", flat=True)
        )
        words = [len(tokenize(text)) for text in texts.iterator()]
        cache.set(key, words, WORDS_CACHE_SECONDS)
    return words


def span_sources(test_set: TestSet) -> list[str]:
    """``human`` when people annotated the test set, then each metric with
    spans, by name."""
    kinds = ErrorSpanAnnotation.objects.filter(output__test_set=test_set)
    metrics = (
        kinds.filter(kind=ErrorSpanAnnotation.Kind.METRIC)
        .values_list("annotator", flat=True)
        .distinct()
        .order_by("annotator")
    )
    human = kinds.filter(kind=ErrorSpanAnnotation.Kind.HUMAN).exists()
    return [HUMAN] * human + list(metrics)


def human_annotators(test_set: TestSet) -> list[str]:
    return list(
        ErrorSpanAnnotation.objects.filter(
            output__test_set=test_set, kind=ErrorSpanAnnotation.Kind.HUMAN
        )
        .values_list("annotator", flat=True)
        .distinct()
        .order_by("annotator")
    )


def annotated_documents(output: SystemOutput) -> list[str]:
    """The document ids of the output's annotated segments, in test-set
    order (none when the test set has no document ids)."""
    indices = ErrorSpanAnnotation.objects.filter(output=output).values("index")
    ids = (
        Segment.objects.filter(test_set_id=output.test_set_id, index__in=indices)
        .exclude(document_id="")
        .order_by("index")
        .values_list("document_id", flat=True)
    )
    return list(dict.fromkeys(ids))


def category_filter(category: str) -> Q:
    """Spans of ``category`` or of its subcategories (``Accuracy`` keeps
    ``Accuracy/Omission``), as :func:`~mtdash.evaluation.span_view.filters.
    category_matches`; ``(no category)`` keeps spans without one."""
    if category == NO_CATEGORY:
        return Q(category="")
    return Q(category=category) | Q(category__startswith=category + "/")


def category_rows(
    found: Sequence[ErrorBreakdown],
) -> list[tuple[str, list[int], int]]:
    """(category, errors of each system in ``found``'s order, total), the
    categories with most errors first."""
    categories = {c for b in found for c in b.categories}
    rows = []
    for category in categories:
        counts = [b.count(category) for b in found]
        rows.append((category, counts, sum(counts)))
    return sorted(rows, key=lambda row: (-row[2], row[0].casefold()))
