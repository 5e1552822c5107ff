"""ORANGE's one preparation step: fix what a metric takes from the whole test set.

ORANGE scores every candidate and every reference of a sentence against a
few references of that sentence at a time, and large runs split the
sentences into chunks scored apart (threads, Celery workers on other
machines). A metric that, by definition, counts something over the whole
test set would then count it over whatever piece it is handed. Two do:

- NIST: its information weights come from every reference segment of every
  reference set of the test set (Doddington 2002, mteval-v13a), so it is
  bound to the weights of all the test set's references
  (:meth:`scoring.metrics.ngram.nist.NIST.with_reference_corpus`);
- WNM: its salience weights compare each document's reference text with
  the rest of the test set, so it is bound to the saliences of every
  document and the document of every sentence
  (:meth:`scoring.metrics.wnm.metric.WNM.with_test_set`); this needs the test
  set's document ids (command line ``--docs``), and a chunk then binds it to
  its own sentences (:func:`for_sentences`) to pick each one's document.

:func:`prepare_metrics` does that for a set of metrics; the ORANGE entry
points (:func:`scoring.orange.dispatch.orange_metrics`,
:func:`~scoring.orange.dispatch.orange_for_metric`,
:func:`scoring.orange.batched.orange_batch`) call it with the references they
are given, and a caller that knows more of the test set than it ranks (the
command line reads whole reference files, a web job has the stored test
set) calls it first with all of them: a metric already bound is left as it
is. :func:`rank_chunk_metrics <scoring.orange.dispatch.rank_chunk_metrics>`
sees one chunk only and refuses an unbound metric (:func:`require_prepared`).
Other metrics pass through unchanged.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from scoring.base import Metric
from scoring.errors import MetricError
from scoring.metrics.ngram.nist import NIST
from scoring.metrics.ngram.nist_reference_weights import ReferenceWeights
from scoring.metrics.wnm.metric import WNM

Metrics = TypeVar("Metrics", Mapping[str, Metric], Sequence[Metric])


def needs_test_set_references(metric: Metric) -> bool:
    """True for a metric that still has to be bound to the test set (a NIST
    without fixed weights, a WNM without the test set's saliences)."""
    if isinstance(metric, NIST):
        return metric.reference_weights is None
    return isinstance(metric, WNM) and metric.test_set is None


def prepare_metric(
    metric: Metric,
    references: Sequence[Sequence[str | None]],
    document_ids: Sequence[Hashable] | None = None,
    sentence_ids: Sequence[int] | None = None,
) -> Metric:
    """``metric`` bound to the test set whose references are ``references``
    (``references[p]``: the K reference texts of the p-th sentence, every
    sentence of the test set, ``None`` for a missing one), whose documents
    are ``document_ids[p]`` and whose sentence ids (as ORANGE's chunks name
    them) are ``sentence_ids[p]`` (default ``p``); other metrics unchanged."""
    if not needs_test_set_references(metric):
        return metric
    if isinstance(metric, WNM):
        return metric.with_test_set(references, document_ids, sentence_ids)
    return metric.with_reference_corpus(references)  # type: ignore[attr-defined]


def prepare_metrics(
    metrics: Metrics,
    references: Sequence[Sequence[str | None]],
    document_ids: Sequence[Hashable] | None = None,
    sentence_ids: Sequence[int] | None = None,
) -> Metrics:
    """Every metric prepared with :func:`prepare_metric`, in the same shape
    (a dict keyed like ``metrics``, or a list in its order)."""

    def prepared(metric: Metric) -> Metric:
        return prepare_metric(metric, references, document_ids, sentence_ids)

    if isinstance(metrics, Mapping):
        return {name: prepared(m) for name, m in metrics.items()}  # type: ignore[return-value]
    return [prepared(metric) for metric in metrics]  # type: ignore[return-value]


def for_sentences(
    metrics: Sequence[Metric], sentence_ids: Sequence[int]
) -> list[Metric]:
    """Prepared metrics scoring the sentences ``sentence_ids`` (one per
    group of a batch grid, or the one sentence of a per-pair call): a WNM
    takes each sentence's document weights; others are unchanged."""
    return [
        metric.for_sentences(sentence_ids) if isinstance(metric, WNM) else metric
        for metric in metrics
    ]


def prepare_metrics_for_tokens(
    metrics: Metrics,
    references: Sequence[Sequence[Sequence[str]]],
    document_ids: Sequence[Hashable] | None = None,
    sentence_ids: Sequence[int] | None = None,
) -> Metrics:
    """As :func:`prepare_metrics` for references already split into tokens
    (``references[i][k]``: the tokens of reference k of sentence i, taken as
    every metric's tokenizer would give them, e.g. a
    :class:`~scoring.orange.sources.TokenSource`'s ids looked up in its
    vocabulary)."""
    by_order: dict[int, ReferenceWeights] = {}

    def prepared(metric: Metric) -> Metric:
        if not needs_test_set_references(metric):
            return metric
        if isinstance(metric, WNM):
            return metric.with_test_set_tokens(references, document_ids, sentence_ids)
        order = metric.max_order  # type: ignore[attr-defined]
        if order not in by_order:
            by_order[order] = ReferenceWeights.from_token_segments(
                (tokens for segment in references for tokens in segment), order
            )
        return metric.with_reference_weights(by_order[order])  # type: ignore[attr-defined]

    if isinstance(metrics, Mapping):
        return {name: prepared(metric) for name, metric in metrics.items()}  # type: ignore[return-value]
    return [prepared(metric) for metric in metrics]  # type: ignore[return-value]


def require_prepared(metrics: Sequence[Metric]) -> None:
    """Refuse metrics that still need the test set's references: a chunk of
    sentences cannot stand for the test set."""
    unbound = [metric.name for metric in metrics if needs_test_set_references(metric)]
    if unbound:
        raise MetricError(
            f"{', '.join(unbound)}: the weights come from every reference of the "
            "test set, not from one chunk of sentences; bind them first with "
            "scoring.orange.prepare.prepare_metrics(metrics, references of the "
            "whole test set, its document ids)"
        )


def prepare_metrics_for_source(
    metrics: Metrics,
    source: object,
    document_ids: Sequence[Hashable] | None = None,
    sentence_ids: Sequence[int] | None = None,
) -> Metrics:
    """As :func:`prepare_metrics` with the references of an ORANGE source
    (:mod:`scoring.orange.sources`): texts, or token ids with a vocabulary.
    The source should hold the whole test set; a caller that ranks only part
    of it prepares the metrics with all references first."""
    chosen = metrics.values() if isinstance(metrics, Mapping) else metrics
    if not any(needs_test_set_references(metric) for metric in chosen):
        return metrics
    references = getattr(source, "references", None)
    nbest = getattr(source, "nbest", None)
    if nbest is not None and references is not None:  # token ids (TokenSource)
        vocabulary = nbest.vocabulary
        if not vocabulary:
            raise MetricError(
                "NIST and WNM need the tokens of the references: this source has no "
                "vocabulary; bind the metrics with prepare_metrics first"
            )
        tokens = [
            [[vocabulary[i] for i in ids.tolist()] for ids in segment]
            for segment in references
        ]
        return prepare_metrics_for_tokens(metrics, tokens, document_ids, sentence_ids)
    if references is None:
        raise MetricError(
            "NIST and WNM need the references of the whole test set: bind the "
            "metrics with scoring.orange.prepare.prepare_metrics first"
        )
    return prepare_metrics(metrics, references, document_ids, sentence_ids)
