"""Precomputed analyses of each output for its system page.

The comparison job calls :func:`refresh` after every change; it stores, per
output (visible ones first, then hidden ones), one :class:`~mtdash.evaluation.models.TestSetAnalysis` of
kind ``output:<id>`` holding what is too slow for a request (tokenising
every sentence, reading every sentence score):

- per metric column: a histogram of the sentence scores, the number of
  sentences per sentence-score bucket, and the corpus score (from the summed
  sufficient statistics) and mean sentence score per reference-length bucket;
- word F-measure by reference word-frequency bucket, with the frequencies
  counted on the test set's references and on every uploaded word-count
  table (:class:`~mtdash.evaluation.models.WordCounts`).

The definitions are compare-mt's (:mod:`scoring.analysis.buckets`). An
output whose inputs digest (its scores, the word-count tables, the
tokenizer) did not change is skipped.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from mtdash.common.numbers import finite
from mtdash.common.server_metrics import server_metric
from mtdash.evaluation.leaderboard.build import column_names, decimals_for_scale
from mtdash.evaluation.models import (
    CorpusScore,
    Hypothesis,
    SegmentScore,
    SystemOutput,
    TestSet,
    TestSetAnalysis,
    WordCounts,
)
from mtdash.evaluation.services.statistics_store import unpack_statistics
from scoring import MetricError, get_tokenizer
from scoring import __version__ as SCORING_VERSION
from scoring.analysis import buckets
from scoring.language_defaults import tokenizer_for

ANALYSIS_VERSION = 1
KIND_PREFIX = "output:"
REFERENCE_FREQUENCIES = "references"


def analysis_kind(output_id: int) -> str:
    return f"{KIND_PREFIX}{output_id}"


def word_counts_key(word_counts_id: int) -> str:
    return f"counts:{word_counts_id}"


def tokenizer_name(test_set: TestSet) -> str:
    """The target language's tokenizer (13a for languages with spaces)."""
    return tokenizer_for(test_set.target_language) or "13a"


def latest_scores_by_column(test_set: TestSet, output_id: int) -> dict[str, int]:
    """Column name (as the leaderboard names it) -> CorpusScore id of the
    output's latest score in that column."""
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("pk", "output_id", "metric", "signature")
    )
    column_of = column_names([(metric, sig) for _, _, metric, sig in stored])
    latest: dict[str, int] = {}
    for pk, owner, metric, signature in stored:  # oldest first: the latest wins
        if owner == output_id:
            latest[column_of[metric, signature]] = pk
    return dict(sorted(latest.items()))


def refresh(test_set, visible_output_ids: list[int]) -> None:
    """Compute and store (TestSetAnalysis kind ``output:<id>``) what changed;
    called by the comparison job."""
    word_counts = list(
        WordCounts.objects.filter(test_set=test_set)
        .order_by("pk")
        .values_list("pk", "uploaded_at")
    )
    stored = dict(
        TestSetAnalysis.objects.filter(
            test_set=test_set, kind__startswith=KIND_PREFIX
        ).values_list("kind", "inputs")
    )
    context = _TestSetContext(test_set)
    existing = list(
        SystemOutput.objects.filter(test_set=test_set).values_list("pk", flat=True)
    )
    # Hidden outputs keep a system page (the leaderboard links to them), so
    # they are analysed too, after the visible ones.
    hidden = [pk for pk in sorted(existing) if pk not in set(visible_output_ids)]
    for output_id in [*visible_output_ids, *hidden]:
        columns = latest_scores_by_column(test_set, output_id)
        digest = _digest(test_set, output_id, columns, word_counts)
        if stored.get(analysis_kind(output_id)) == digest:
            continue
        TestSetAnalysis.objects.update_or_create(
            test_set=test_set,
            kind=analysis_kind(output_id),
            defaults={"inputs": digest, "data": _analyse(context, output_id, columns)},
        )
    TestSetAnalysis.objects.filter(
        test_set=test_set, kind__startswith=KIND_PREFIX
    ).exclude(kind__in=[analysis_kind(pk) for pk in existing]).delete()


def _digest(test_set, output_id, columns, word_counts) -> str:
    scores = list(
        CorpusScore.objects.filter(pk__in=columns.values())
        .order_by("pk")
        .values_list("pk", "computed_at")
    )
    parts = (
        ANALYSIS_VERSION,
        SCORING_VERSION,
        output_id,
        tokenizer_name(test_set),
        sorted(columns.items()),
        [(pk, str(at)) for pk, at in scores],
        [(pk, str(at)) for pk, at in word_counts],
    )
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


@dataclass
class _TestSetContext:
    """What every output of a test set shares, computed once per refresh."""

    test_set: TestSet

    @cached_property
    def tokenize(self):
        return get_tokenizer(tokenizer_name(self.test_set))

    @cached_property
    def reference_labels(self) -> list[str]:
        return list(
            self.test_set.reference_sets.order_by("label").values_list(
                "label", flat=True
            )
        )

    @cached_property
    def references(self) -> list[list[tuple[str, ...]]]:
        """Tokens per reference stream, per segment."""
        return [
            [self.tokenize(text) for text in stream]
            for stream in self.test_set.reference_streams()
        ]

    def references_of(self, output_id: int) -> list[list[tuple[str, ...]]]:
        """The streams an output is scored against: a human translation's own
        reference left out."""
        own = (
            SystemOutput.objects.filter(pk=output_id)
            .values_list("reference__label", flat=True)
            .first()
        )
        return [
            stream
            for label, stream in zip(self.reference_labels, self.references)
            if label != own
        ]

    @cached_property
    def length_buckets(self) -> np.ndarray:
        """Each segment's reference-length bucket (mean over references)."""
        lengths = np.mean(
            [[len(tokens) for tokens in stream] for stream in self.references], axis=0
        )
        return buckets.bucket_indices(lengths, buckets.LENGTH_CUTOFFS)

    @cached_property
    def frequency_tables(self) -> list[tuple[str, str, dict]]:
        """(key, name, word -> count) for each source of word frequencies."""
        tables = [
            (
                REFERENCE_FREQUENCIES,
                "the test set's references",
                buckets.count_words(t for stream in self.references for t in stream),
            )
        ]
        for pk, name, counts in (
            WordCounts.objects.filter(test_set=self.test_set)
            .order_by("pk")
            .values_list("pk", "name", "counts")
        ):
            tables.append((word_counts_key(pk), name, counts))
        return tables


def _analyse(context: _TestSetContext, output_id: int, columns: dict) -> dict:
    hypotheses = [
        context.tokenize(text)
        for text in Hypothesis.objects.filter(output_id=output_id)
        .order_by("index")
        .values_list("text", flat=True)
    ]
    n_segments = len(hypotheses)
    word_accuracy = []
    references = context.references_of(output_id)
    if references and all(len(s) == n_segments for s in references):
        for key, name, counts in context.frequency_tables:
            result = buckets.word_accuracy_by_frequency(hypotheses, references, counts)
            word_accuracy.append({"key": key, "name": name, **result.to_dict()})
    metrics = {}
    for column, corpus_score_id in columns.items():
        analysis = _metric_analysis(context, corpus_score_id, n_segments)
        if analysis is not None:
            metrics[column] = analysis
    return {
        "version": ANALYSIS_VERSION,
        "tokenizer": tokenizer_name(context.test_set),
        "n_segments": n_segments,
        "metrics": metrics,
        "word_accuracy": word_accuracy,
    }


def _metric_analysis(context, corpus_score_id: int, n_segments: int) -> dict | None:
    corpus_score = CorpusScore.objects.get(pk=corpus_score_id)
    scores = np.array(
        SegmentScore.objects.filter(corpus_score_id=corpus_score_id)
        .order_by("index")
        .values_list("score", flat=True),
        dtype=np.float64,
    )
    if scores.size != n_segments or n_segments == 0:
        return None  # no sentence scores (an external score, an old row)
    try:
        metric = server_metric(corpus_score.metric, signature=corpus_score.signature)
        scale, higher, score_fn = (
            float(metric.scale),
            bool(metric.higher_is_better),
            metric.corpus_scores_from_statistics,
        )
    except MetricError:  # a spec this version cannot read: no corpus scores
        scale, higher, score_fn = (100.0 if np.nanmax(scores) > 1 else 1.0), True, None
    statistics = unpack_statistics(corpus_score.statistics)
    if statistics is not None and statistics.shape[0] != n_segments:
        statistics = None
    cutoffs = buckets.score_cutoffs(scale, scores.tolist())
    score_labels = buckets.bucket_labels(cutoffs, integer=False)
    by_score = buckets.bucket_sentences(
        buckets.bucket_indices(scores, cutoffs), score_labels, scores
    )
    by_length = buckets.bucket_sentences(
        context.length_buckets,
        buckets.bucket_labels(buckets.LENGTH_CUTOFFS),
        scores,
        statistics,
        score_fn,
    )
    return {
        "corpus_score_id": corpus_score_id,
        "spec": corpus_score.metric,
        "sentence_signature": corpus_score.sentence_signature,
        "higher_is_better": higher,
        "scale": finite(scale),
        "decimals": decimals_for_scale(scale),
        "histogram": buckets.score_histogram(scores, scale).to_dict(),
        "score_buckets": by_score.to_dict(),
        "length_buckets": by_length.to_dict(),
    }
