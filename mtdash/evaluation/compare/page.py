"""Two outputs of a test set side by side: what the compare page shows.

Everything here reads stored rows: sentence scores (``SegmentScore``), the
p-values the comparison job stored (``MetricComparison``) and the texts of
one page of sentences. Only that page is tokenised in a request (about
7 ms for 20 sentences); the n-grams that improve and worsen most over the
whole set need every sentence tokenised (about 0.7 s for 3,000), so they
are computed on their own request (:func:`ngram_table_for`, fetched by the
page's script) and cached under the outputs' ids and their latest scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator

from mtdash.common.metric_specs import higher_is_better
from mtdash.evaluation.leaderboard.build import column_names, metric_decimals
from mtdash.evaluation.leaderboard.significance import (
    correction_text,
    stored_p_values,
)
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    Hypothesis,
    MetricComparison,
    ReferenceSegment,
    Segment,
    SegmentScore,
    SystemOutput,
    TestSet,
)
from scoring import Tokenizer, get_tokenizer
from scoring import __version__ as SCORING_VERSION
from scoring.analysis.pairwise import MarkedToken, NgramTable, highlight_pair
from scoring.analysis.pairwise import ngram_table as build_ngram_table
from scoring.language_defaults import tokenizer_for
from scoring.stats import DEFAULT_CORRECTION

PAGE_SIZE = 20
# The leaderboard's default correction, shown beside the pair's own p-values.
CORRECTION = DEFAULT_CORRECTION
NGRAM_CACHE_SECONDS = 24 * 3600
ORDERS = {"b": "B better first", "a": "A better first", "index": "test set order"}


class CompareError(Exception):
    """A request the page cannot answer (shown with status 400)."""


def pick_output(test_set: TestSet, value: str, letter: str) -> SystemOutput:
    """The output with id ``value`` if it belongs to ``test_set``."""
    try:
        pk = int(value)
    except ValueError:
        raise CompareError(f"Output {letter}: {value!r} is not an output id.") from None
    output = (
        SystemOutput.objects.filter(test_set=test_set, pk=pk)
        .select_related("system")
        .first()
    )
    if output is None:
        raise CompareError(
            f"Output {letter}: there is no output {pk} in the test set "
            f"“{test_set.name}”; pick one of its outputs."
        )
    return output


@dataclass(frozen=True)
class SentenceColumn:
    """A leaderboard column both outputs have sentence scores for."""

    name: str
    higher_is_better: bool
    decimals: int
    score_ids: tuple[int, int]  # CorpusScore of A, of B

    @property
    def better_word(self) -> str:
        return "higher" if self.higher_is_better else "lower"


def scored_columns(test_set: TestSet, a: int, b: int) -> dict[str, dict[int, int]]:
    """Column (named as on the leaderboard) -> output id -> its latest
    CorpusScore id, for the outputs ``a`` and ``b``."""
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("pk", "output_id", "metric", "signature")
    )
    column_of = column_names([(metric, sig) for _, _, metric, sig in stored])
    latest: dict[str, dict[int, int]] = {}
    for pk, output_id, metric, signature in stored:  # oldest first: latest wins
        if output_id in (a, b):
            latest.setdefault(column_of[metric, signature], {})[output_id] = pk
    return dict(sorted(latest.items()))


def sentence_columns(
    scored: dict[str, dict[int, int]], a: int, b: int
) -> dict[str, SentenceColumn]:
    """The ``scored`` columns with sentence scores for both outputs."""
    with_sentences = set(
        SegmentScore.objects.filter(
            corpus_score_id__in=[pk for ids in scored.values() for pk in ids.values()],
            index=0,
        ).values_list("corpus_score_id", flat=True)
    )
    columns = {}
    for name, ids in scored.items():
        if a in ids and b in ids and {ids[a], ids[b]} <= with_sentences:
            columns[name] = SentenceColumn(
                name, higher_is_better(name), metric_decimals(name), (ids[a], ids[b])
            )
    return columns


def default_column(columns: dict[str, SentenceColumn]) -> str | None:
    """BLEU when there, like the leaderboard; else the first by name."""
    if "bleu" in columns:
        return "bleu"
    return next(iter(columns), None)


@dataclass(frozen=True)
class SentenceScores:
    """Both outputs' sentence scores under one column, in segment order."""

    column: SentenceColumn
    a: tuple[float, ...]
    b: tuple[float, ...]

    def improvement(self, index: int) -> float:
        """How much better B is than A on a sentence (> 0: B is better)."""
        delta = self.b[index] - self.a[index]
        return delta if self.column.higher_is_better else -delta

    def order(self, order: str) -> list[int]:
        """Sentence indices: by B's improvement over A (``b``: largest
        first, ``a``: smallest first; ties in test set order) or as is."""
        indices = range(len(self.a))
        if order == "index":
            return list(indices)
        sign = -1 if order == "b" else 1

        def key(i: int) -> tuple[float, int]:
            value = self.improvement(i)
            return (math.inf if math.isnan(value) else sign * value, i)

        return sorted(indices, key=key)

    def tally(self) -> dict[str, int]:
        """How many sentences each output scores better on."""
        values = [self.improvement(i) for i in range(len(self.a))]
        return {
            "b": sum(v > 0 for v in values),
            "a": sum(v < 0 for v in values),
            "tie": sum(v == 0 for v in values),
        }


def sentence_scores(column: SentenceColumn) -> SentenceScores:
    rows = SegmentScore.objects.filter(corpus_score_id__in=column.score_ids)
    by_score: dict[int, list[float]] = {pk: [] for pk in column.score_ids}
    for pk, score in rows.order_by("corpus_score_id", "index").values_list(
        "corpus_score_id", "score"
    ):
        by_score[pk].append(math.nan if score is None else score)
    a, b = (tuple(by_score[pk]) for pk in column.score_ids)
    if len(a) != len(b):
        raise CompareError(f"The two outputs' {column.name} scores do not line up.")
    return SentenceScores(column, a, b)


def page_of(ordered: list[int], page: str | None, focus: str | None) -> Page:
    """The page asked for, or the one holding sentence number ``focus``."""
    paginator = Paginator(ordered, PAGE_SIZE)
    if focus and focus.isdigit() and 0 < int(focus) <= len(ordered):
        return paginator.page(ordered.index(int(focus) - 1) // PAGE_SIZE + 1)
    return paginator.get_page(page)


Highlighted = list[tuple[str, str]]  # (token, css classes) for the template


@dataclass(frozen=True)
class SentencePair:
    number: int  # 1-based, as people count sentences
    source: str
    score_a: float
    score_b: float
    improvement: float
    hypothesis_a: Highlighted
    hypothesis_b: Highlighted
    references: list[tuple[str, Highlighted]]  # (label, tokens)
    # One row per annotator of A's and B's spans (span_view.rows.AnnotationRow)
    error_spans: tuple = ()

    @property
    def delta(self) -> float:
        return self.score_b - self.score_a

    @property
    def better(self) -> str:
        return "B" if self.improvement > 0 else "A" if self.improvement < 0 else ""


def target_tokenizer(test_set: TestSet) -> Tokenizer:
    """The target language's tokenizer (13a unless it calls for another)."""
    return get_tokenizer(tokenizer_for(test_set.target_language) or "13a")


def sentence_pairs(
    test_set: TestSet,
    a: SystemOutput,
    b: SystemOutput,
    scores: SentenceScores,
    indices: list[int],
) -> list[SentencePair]:
    """The sentences ``indices`` (in that order) with highlighted tokens."""
    tokenize = target_tokenizer(test_set)
    sources = dict(
        Segment.objects.filter(test_set=test_set, index__in=indices).values_list(
            "index", "source"
        )
    )
    hypotheses = {
        (output_id, index): text
        for output_id, index, text in Hypothesis.objects.filter(
            output_id__in=(a.pk, b.pk), index__in=indices
        ).values_list("output_id", "index", "text")
    }
    references: dict[int, list[tuple[str, str]]] = {}
    for index, label, text in (
        ReferenceSegment.objects.filter(
            reference_set__test_set=test_set, index__in=indices
        )
        .order_by("reference_set__label")
        .values_list("index", "reference_set__label", "text")
    ):
        references.setdefault(index, []).append((label, text))
    pairs = []
    for index in indices:
        refs = references.get(index, [])
        marked = highlight_pair(
            tokenize(hypotheses.get((a.pk, index), "")),
            tokenize(hypotheses.get((b.pk, index), "")),
            [tokenize(text) for _, text in refs],
        )
        pairs.append(
            SentencePair(
                number=index + 1,
                source=sources.get(index, ""),
                score_a=scores.a[index],
                score_b=scores.b[index],
                improvement=scores.improvement(index),
                hypothesis_a=_css(marked.hypothesis_a),
                hypothesis_b=_css(marked.hypothesis_b),
                references=[
                    (label, _css(tokens))
                    for (label, _), tokens in zip(refs, marked.references)
                ],
            )
        )
    return pairs


def _css(tokens: tuple[MarkedToken, ...]) -> Highlighted:
    """``n2-improving`` means: part of an improving bigram (the page shows
    the classes of one order at a time)."""
    return [
        (
            token.token,
            " ".join(
                f"n{n}-{label}" for n, label in enumerate(token.labels, 1) if label
            ),
        )
        for token in tokens
    ]


@dataclass(frozen=True)
class SignificanceRow:
    """One metric's scores of A and B with the stored paired tests.

    ``bootstrap_p`` / ``ar_p`` are two-sided p-values of this pair alone (a
    comparison chosen in advance needs no correction); ``*_adjusted`` are the
    same adjusted by ``correction`` over all pairs of the leaderboard's column,
    as its clusters use them. The verdict follows the pair's own p-values.
    """

    column: str
    higher_is_better: bool
    decimals: int
    a: dict | None = None  # summary entry: score, low, high
    b: dict | None = None
    bootstrap_p: float | None = None
    ar_p: float | None = None
    alpha: float = 0.05
    missing: str = ""  # why there is no test for this pair
    bootstrap_p_adjusted: float | None = None
    ar_p_adjusted: float | None = None
    correction: str = DEFAULT_CORRECTION
    n_pairs: int = 0  # pairs of the column's family (all visible outputs)

    @property
    def correction_text(self) -> str:
        return correction_text(self.correction)

    @property
    def delta(self) -> float | None:
        if self.a is None or self.b is None:
            return None
        return self.b["score"] - self.a["score"]

    @property
    def better(self) -> str:
        delta = self.delta
        if not delta:
            return ""
        return "B" if (delta > 0) == self.higher_is_better else "A"

    @property
    def bootstrap_significant(self) -> bool:
        return self.bootstrap_p is not None and self.bootstrap_p < self.alpha

    @property
    def ar_significant(self) -> bool:
        return self.ar_p is not None and self.ar_p < self.alpha


def significance_rows(
    test_set: TestSet,
    a: SystemOutput,
    b: SystemOutput,
    scored: dict[str, dict[int, int]],
) -> list[SignificanceRow]:
    """Every metric column's stored paired tests for A and B, or why not
    (also for the ``scored`` columns no comparison has been stored for)."""
    comparisons = list(
        MetricComparison.objects.filter(
            test_set=test_set,
            kind__in=(MetricComparison.Kind.METRIC, MetricComparison.Kind.EXTERNAL),
        )
    )
    stored = {comparison.column for comparison in comparisons}
    for name, ids in scored.items():
        if name not in stored and a.pk in ids and b.pk in ids:
            comparisons.append(
                MetricComparison(
                    column=name,
                    higher_is_better=higher_is_better(name),
                    output_ids=[],
                    alpha=settings.MTDASH_COMPARISON_ALPHA,
                )
            )
    comparisons.sort(key=lambda comparison: comparison.column)
    pending = ComparisonJob.objects.filter(
        test_set=test_set,
        status__in=(ComparisonJob.Status.QUEUED, ComparisonJob.Status.RUNNING),
    ).exists()
    rows = []
    for comparison in comparisons:
        decimals = metric_decimals(comparison.column)
        ids = list(comparison.output_ids)
        base = dict(
            column=comparison.column,
            higher_is_better=comparison.higher_is_better,
            decimals=decimals,
            alpha=comparison.alpha,
        )
        if a.pk in ids and b.pk in ids:
            i, j = ids.index(a.pk), ids.index(b.pk)
            ar = comparison.matrices.get("ar_p")
            matrices = comparison.matrices
            adjusted_bootstrap = stored_p_values(matrices, "bootstrap_p", CORRECTION)
            adjusted_ar = stored_p_values(matrices, "ar_p", CORRECTION)
            rows.append(
                SignificanceRow(
                    **base,
                    a=comparison.summary.get(str(a.pk)),
                    b=comparison.summary.get(str(b.pk)),
                    bootstrap_p=comparison.matrices["bootstrap_p"][i][j],
                    ar_p=ar[i][j] if ar else None,
                    bootstrap_p_adjusted=(
                        adjusted_bootstrap[i][j] if adjusted_bootstrap else None
                    ),
                    ar_p_adjusted=adjusted_ar[i][j] if adjusted_ar else None,
                    correction=CORRECTION,
                    n_pairs=len(ids) * (len(ids) - 1) // 2,
                )
            )
            continue
        rows.append(SignificanceRow(**base, missing=_why_missing(a, b, ids, pending)))
    return rows


def _why_missing(a: SystemOutput, b: SystemOutput, ids: list, pending: bool) -> str:
    hidden = [letter for letter, o in (("A", a), ("B", b)) if o.hidden]
    if hidden:
        return (
            f"{' and '.join(hidden)} hidden: hidden outputs are left out "
            "of the significance tests"
        )
    if pending:
        return "not compared yet: the comparison job is pending"
    if not ids:
        return "not compared yet: no comparison job has run since it was scored"
    absent = [letter for letter, o in (("A", a), ("B", b)) if o.pk not in ids]
    return (
        f"no comparable score for {' and '.join(absent)} (not scored with this "
        "metric, or under another signature)"
    )


def ngram_cache_key(test_set: TestSet, a: SystemOutput, b: SystemOutput) -> str:
    """Changes with the outputs and whenever either is scored again."""
    latest = [
        CorpusScore.objects.filter(output=o)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
        for o in (a, b)
    ]
    tokenizer = tokenizer_for(test_set.target_language) or "13a"
    return f"compare-ngrams:{a.pk}:{b.pk}:{latest[0]}:{latest[1]}:{tokenizer}:{SCORING_VERSION}"


def cached_ngram_table(
    test_set: TestSet, a: SystemOutput, b: SystemOutput
) -> NgramTable | None:
    data = cache.get(ngram_cache_key(test_set, a, b))
    return None if data is None else NgramTable.from_dict(data)


def ngram_table_for(test_set: TestSet, a: SystemOutput, b: SystemOutput) -> NgramTable:
    """The whole set's most improving and worsening n-grams (cached)."""
    key = ngram_cache_key(test_set, a, b)
    data = cache.get(key)
    if data is None:
        tokenize = target_tokenizer(test_set)
        hypotheses_a, hypotheses_b = (
            [tokenize(text) for text in output.hypotheses()] for output in (a, b)
        )
        # Human translations leave their own reference out (they would
        # match it word for word).
        own = {a.reference_id, b.reference_id} - {None}
        streams = [
            [tokenize(text) for text in stream]
            for stream in test_set.reference_streams(
                test_set.reference_sets.exclude(pk__in=own).order_by("label")
            )
        ]
        sentences = (
            (hyp_a, hyp_b, [stream[i] for stream in streams])
            for i, (hyp_a, hyp_b) in enumerate(zip(hypotheses_a, hypotheses_b))
        )
        data = build_ngram_table(sentences).to_dict()
        cache.set(key, data, NGRAM_CACHE_SECONDS)
    return NgramTable.from_dict(data)
