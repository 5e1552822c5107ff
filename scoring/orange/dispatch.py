"""The one place that chooses between the batch engine and the per-pair path.

Metrics the batch engine supports (:func:`scoring.batch.engine.supports`:
BLEU/BLEUS, NIST, WER, PER, SER, ROUGE, TER, chrF/chrF++, GTM, METEOR, WNM,
RED)
are ranked by it; every other metric, or every metric with
``per_pair=True``, goes pair by pair through its own code. Both give the same numbers (the batch tests compare them).

- :func:`rank_chunk_metrics`: one chunk of sentences, several metrics, in
  this thread (one Celery chunk of a distributed job);
  :func:`rank_nbest_chunk` the same for a chunk read as word ids (what the
  web's chunks do: tokens per distinct word, as the command line);
- :func:`orange_metrics`: a whole run, the engine's chunks on threads;
- :func:`orange_for_metric`: one metric, optionally split into chunks as
  workers would split it.

The whole-run entry points first bind what a metric counts over the whole
test set (NIST's information weights, WNM's saliences) to the references
(and document ids) they are given
(:func:`scoring.orange.prepare.prepare_metrics`; metrics a caller bound to a
larger test set stay as they are); a chunk cannot do that, so
:func:`rank_chunk_metrics` wants them bound already.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

import numpy as np

from scoring.base import Metric
from scoring.batch.engine import supports, token_view
from scoring.errors import MetricError
from scoring.orange.batched import (
    DEFAULT_CHUNK_CANDIDATES,
    Source,
    orange_batch,
    rank_source,
)
from scoring.orange.candidate_texts import SentenceTexts
from scoring.orange.nbest_stream import NBestWords
from scoring.orange.options import OrangeOptions, ProgressCallback
from scoring.orange.pairwise import rank_chunk_pairwise
from scoring.orange.prepare import prepare_metric, prepare_metrics, require_prepared
from scoring.orange.ranking import (
    OrangeResult,
    SentenceRankings,
    curve_points,
    merge_rankings,
    summarise,
)
from scoring.orange.sources import TextSource, pretokenized_source


def on_engine(metric: Metric, per_pair: bool = False) -> bool:
    """Whether ``metric`` is ranked by the batch engine."""
    return not per_pair and supports(metric)


def _check_lengths(candidates: Sequence, references: Sequence) -> None:
    if len(candidates) != len(references):
        raise MetricError(
            f"{len(candidates)} n-best lists but references for "
            f"{len(references)} sentences"
        )


def rank_chunk_metrics(
    metrics: Sequence[Metric],
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
    per_pair: bool = False,
    chunk_candidates: int = DEFAULT_CHUNK_CANDIDATES,
) -> list[SentenceRankings]:
    """Rankings of one chunk of sentences (``references[i]`` = the K of
    sentence i) for every metric, in order. Metrics that count over the
    whole test set must be bound to it first (``prepare_metrics``)."""
    _check_lengths(candidates, references)
    return _rank_chunk(
        metrics,
        candidates,
        references,
        lambda chosen: TextSource(candidates, references),
        sentence_ids=sentence_ids,
        curve_n=curve_n,
        options=options,
        per_pair=per_pair,
        chunk_candidates=chunk_candidates,
    )


def rank_nbest_chunk(
    metrics: Sequence[Metric],
    nbest: NBestWords,
    references: Sequence[Sequence[str]],
    *,
    curve_n: np.ndarray,
    options: OrangeOptions,
    per_pair: bool = False,
    chunk_candidates: int = DEFAULT_CHUNK_CANDIDATES,
) -> list[SentenceRankings]:
    """As :func:`rank_chunk_metrics` for a chunk read as word ids
    (:func:`scoring.orange.nbest_stream.nbest_words_from_bytes`):
    ``references[i]`` are the K of ``nbest``'s i-th sentence. The engine's
    metrics get their tokens per distinct word as the command line does
    (:func:`scoring.orange.token_views.pretokenized_source`), not per
    candidate text; the rankings are the same."""
    _check_lengths(nbest.sentence_ids, references)
    return _rank_chunk(
        metrics,
        SentenceTexts(nbest.texts, nbest.sentence_offsets),
        references,
        lambda chosen: pretokenized_source(
            nbest, references, [token_view(metric) for metric in chosen]
        ),
        sentence_ids=nbest.sentence_ids.tolist(),
        curve_n=curve_n,
        options=options,
        per_pair=per_pair,
        chunk_candidates=chunk_candidates,
    )


def _rank_chunk(
    metrics: Sequence[Metric],
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    engine_source: Callable[[Sequence[Metric]], Source],
    *,
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
    per_pair: bool,
    chunk_candidates: int,
) -> list[SentenceRankings]:
    """The engine's metrics together from ``engine_source(them)``, the
    others pair by pair from the texts; rankings in the metrics' order."""
    require_prepared(metrics)
    engine = (
        [i for i, metric in enumerate(metrics) if on_engine(metric, per_pair)]
        if len(candidates)
        else []
    )
    rankings: list[SentenceRankings | None] = [None] * len(metrics)
    if engine:
        chosen = [metrics[i] for i in engine]
        ranked = rank_source(
            chosen,
            engine_source(chosen),
            sentence_ids=sentence_ids,
            curve_n=curve_n,
            options=options,
            chunk_candidates=chunk_candidates,
        )
        for index, result in zip(engine, ranked):
            rankings[index] = result
    for index, metric in enumerate(metrics):
        if rankings[index] is None:
            rankings[index] = rank_chunk_pairwise(
                metric,
                candidates,
                references,
                sentence_ids=sentence_ids,
                curve_n=curve_n,
                options=options,
            )
    return rankings  # type: ignore[return-value]


def orange_for_metric(
    metric: Metric,
    metric_name: str,
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    options: OrangeOptions = OrangeOptions(),
    *,
    sentence_ids: Sequence[int] | None = None,
    document_ids: Sequence[Hashable] | None = None,
    chunk_size: int | None = None,
    progress: ProgressCallback | None = None,
    per_pair: bool = False,
) -> OrangeResult:
    """ORANGE of one metric; ``chunk_size`` splits the work as workers would;
    ``per_pair`` scores pair by pair even where the batch engine could;
    ``document_ids[p]``: the document of the p-th sentence (WNM needs them)."""
    n_sentences = len(candidates)
    _check_lengths(candidates, references)
    ids = list(range(n_sentences)) if sentence_ids is None else list(sentence_ids)
    # Before any chunk: chunks get the weights of every reference, not theirs.
    metric = prepare_metric(metric, references, document_ids, ids)
    curve_n = curve_points(max(len(c) for c in candidates), options.curve_step)
    size = chunk_size or n_sentences
    parts = []
    for start in range(0, n_sentences, size):
        stop = min(start + size, n_sentences)
        parts.extend(
            rank_chunk_metrics(
                [metric],
                candidates[start:stop],
                references[start:stop],
                sentence_ids=ids[start:stop],
                curve_n=curve_n,
                options=options,
                per_pair=per_pair,
            )
        )
        if progress is not None:
            progress(stop / n_sentences)
    return summarise(
        merge_rankings(parts),
        metric=metric_name,
        n_bootstrap=options.n_bootstrap,
        seed=options.seed,
    )


def orange_metrics(
    metrics: Mapping[str, Metric],
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    options: OrangeOptions = OrangeOptions(),
    *,
    sentence_ids: Sequence[int] | None = None,
    document_ids: Sequence[Hashable] | None = None,
    per_pair: bool = False,
    progress: Callable[[str, float], None] | None = None,
    engine_source: Callable[[Sequence[Metric]], Source] | None = None,
) -> dict[str, OrangeResult]:
    """ORANGE of every metric (keyed by name, in the given order): the
    engine's metrics together on threads, the others one by one, pair by
    pair. ``progress(label, fraction)``. ``engine_source(engine metrics)``
    gives the engine its token ids when the caller has them ready (e.g.
    :func:`scoring.orange.token_views.pretokenized_source`); by default the
    texts are tokenised chunk by chunk. ``document_ids[p]``: the document of
    the p-th sentence (WNM needs them)."""
    _check_lengths(candidates, references)
    ids = list(range(len(candidates))) if sentence_ids is None else list(sentence_ids)
    metrics = prepare_metrics(metrics, references, document_ids, ids)
    engine = {n: m for n, m in metrics.items() if on_engine(m, per_pair)}
    results: dict[str, OrangeResult] = {}
    if engine:
        report = None if progress is None else (lambda f: progress("batch engine", f))
        results.update(
            orange_batch(
                engine,
                TextSource(candidates, references)
                if engine_source is None
                else engine_source(list(engine.values())),
                options,
                sentence_ids=sentence_ids,
                progress=report,
            )
        )
    for name, metric in metrics.items():
        if name not in engine:
            report = None if progress is None else (lambda f, n=name: progress(n, f))
            results[name] = orange_for_metric(
                metric,
                name,
                candidates,
                references,
                options,
                sentence_ids=sentence_ids,
                progress=report,
                per_pair=True,
            )
    return {name: results[name] for name in metrics}
