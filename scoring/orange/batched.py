"""ORANGE through the batch engine: chunks of sentences, all metrics at once.

For each chunk of sentences and each token view, the candidates are scored
against every jackknife subset (and all references with the switch) and
the references against the others, by :func:`scoring.batch.engine.subset_scores`;
the jackknife means, oracle scores and rankings are then formed exactly as
:func:`scoring.orange.pairwise.score_sentence` forms them (the same NumPy calls on
the same shapes), so the result equals the per-pair path's. Chunks are
independent (:func:`rank_sentence_range`) and merge with
:func:`scoring.orange.ranking.merge_rankings`; :func:`orange_batch` runs them on a
pool of threads (the compiled kernels release the GIL).

Every function here takes only metrics the engine supports;
:mod:`scoring.orange.dispatch` decides which those are.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

import numpy as np

from scoring.base import Metric
from scoring.batch.engine import subset_scores, supports, token_view
from scoring.batch.grid import PairGrid
from scoring.batch.subsets import jackknife_masks
from scoring.errors import MetricError
from scoring.orange.options import OrangeOptions, ProgressCallback
from scoring.orange.prepare import for_sentences, prepare_metrics_for_source
from scoring.orange.ranking import (
    OrangeResult,
    SentenceRankings,
    curve_points,
    merge_rankings,
    rank_sentences,
    summarise,
)
from scoring.orange.ranking_blocks import (
    block_candidate_scores,
    block_oracle_scores,
    rank_sentence_block,
    uniform_shape,
)

# Candidates per chunk: large enough that kernel calls dominate the Python
# overhead, small enough that per-chunk arrays (H x K x weights) stay small
# and the threads get several chunks each.
DEFAULT_CHUNK_CANDIDATES = 32_768


class Source(Protocol):
    """What :func:`orange_batch` reads (see :mod:`scoring.orange.sources`)."""

    @property
    def n_sentences(self) -> int: ...

    @property
    def candidate_counts(self) -> np.ndarray: ...

    @property
    def reference_counts(self) -> np.ndarray: ...

    def grids(
        self, view: Hashable, start: int, stop: int
    ) -> tuple[PairGrid, PairGrid]: ...


def _candidate_scores(
    scores: np.ndarray, n_refs: int, all_references: bool
) -> np.ndarray:
    """One sentence's candidate scores from its ``(N, S)`` subset scores."""
    if all_references:
        return scores[:, -1].copy()
    # (K, N) C-ordered, as np.mean(list of K arrays, axis=0) sees it.
    return np.mean(np.ascontiguousarray(scores[:, :n_refs].T), axis=0)


def _rank_block(
    metric: Metric,
    candidate_scores: np.ndarray,
    reference_scores: np.ndarray,
    shape: tuple[int, int],
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
) -> SentenceRankings:
    """One metric's rankings of a chunk whose sentences all have N
    candidates and K references (:mod:`scoring.orange.ranking_blocks`)."""
    _, n_refs = shape
    n_sentences = len(sentence_ids)
    return rank_sentence_block(
        block_candidate_scores(
            candidate_scores, n_sentences, n_refs, options.all_references
        ),
        block_oracle_scores(reference_scores, n_sentences, n_refs),
        higher_is_better=metric.higher_is_better,
        curve_n=curve_n,
        sentence_ids=sentence_ids,
    )


def rank_sentence_range(
    metrics: Sequence[Metric],
    source: Source,
    start: int,
    stop: int,
    *,
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
) -> list[SentenceRankings]:
    """Rankings of sentences start..stop-1 for every metric (same order)."""
    metrics = for_sentences(metrics, sentence_ids)  # WNM: each one's document
    n_refs = source.reference_counts[start:stop]
    if (n_refs < 2).any():
        raise MetricError("ORANGE needs at least two references per sentence")
    max_refs = int(n_refs.max())
    masks = jackknife_masks(max_refs, options.all_references)
    views: dict[Hashable, list[int]] = {}
    for index, metric in enumerate(metrics):
        views.setdefault(token_view(metric), []).append(index)
    candidate_scores: list[np.ndarray | None] = [None] * len(metrics)
    reference_scores: list[np.ndarray | None] = [None] * len(metrics)
    for view, indices in views.items():
        candidates, references = source.grids(view, start, stop)
        chosen = [metrics[i] for i in indices]
        for i, values in zip(indices, subset_scores(chosen, candidates, masks)):
            candidate_scores[i] = values
        for i, values in zip(
            indices, subset_scores(chosen, references, masks[:max_refs])
        ):
            reference_scores[i] = values
    shape = uniform_shape(source.candidate_counts[start:stop], n_refs)
    if shape is not None:  # every sentence N candidates, K references
        return [
            _rank_block(metric, cands, refs, shape, sentence_ids, curve_n, options)
            for metric, cands, refs in zip(metrics, candidate_scores, reference_scores)
        ]
    group_hyps = np.concatenate(([0], np.cumsum(source.candidate_counts[start:stop])))
    group_refs = np.concatenate(([0], np.cumsum(n_refs)))
    rankings = []
    for metric, cands, refs in zip(metrics, candidate_scores, reference_scores):
        scores, oracles = [], []
        for i, k in enumerate(n_refs.tolist()):
            scores.append(
                _candidate_scores(
                    cands[group_hyps[i] : group_hyps[i + 1]], k, options.all_references
                )
            )
            # Reference k against all but k sits in column k of its row.
            parts = [refs[group_refs[i] + j, j] for j in range(k)]
            oracles.append(float(np.mean(parts)))
        rankings.append(
            rank_sentences(
                scores,
                oracles,
                higher_is_better=metric.higher_is_better,
                curve_n=curve_n,
                sentence_ids=sentence_ids,
            )
        )
    return rankings


def rank_source(
    metrics: Sequence[Metric],
    source: Source,
    *,
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
    chunk_candidates: int = DEFAULT_CHUNK_CANDIDATES,
) -> list[SentenceRankings]:
    """Rankings of every sentence of ``source`` (ids ``sentence_ids``) for
    several engine-supported metrics at once, range by range of about
    ``chunk_candidates`` candidates, in this thread (e.g. one Celery chunk of
    a job): they share one tokenisation per view and their kernel passes.
    One :class:`SentenceRankings` per metric, in order."""
    ids = list(sentence_ids)
    parts = [
        rank_sentence_range(
            metrics,
            source,
            start,
            stop,
            sentence_ids=ids[start:stop],
            curve_n=curve_n,
            options=options,
        )
        for start, stop in chunk_bounds(source.candidate_counts, chunk_candidates)
    ]
    return [merge_rankings([part[k] for part in parts]) for k in range(len(metrics))]


def available_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunk_bounds(n_candidates: np.ndarray, target: int) -> list[tuple[int, int]]:
    """Consecutive sentence ranges of about ``target`` candidates each."""
    bounds = []
    start = 0
    total = 0
    for i, count in enumerate(n_candidates.tolist()):
        total += count
        if total >= target:
            bounds.append((start, i + 1))
            start, total = i + 1, 0
    if start < len(n_candidates):
        bounds.append((start, len(n_candidates)))
    return bounds


def orange_batch(
    metrics: Mapping[str, Metric],
    source: Source,
    options: OrangeOptions = OrangeOptions(),
    *,
    sentence_ids: Sequence[int] | None = None,
    document_ids: Sequence[Hashable] | None = None,
    chunk_candidates: int = DEFAULT_CHUNK_CANDIDATES,
    workers: int | None = None,
    progress: ProgressCallback | None = None,
) -> dict[str, OrangeResult]:
    """ORANGE of supported metrics keyed by name, equal to the per-pair
    path's result for each. ``workers`` threads (default:
    the CPUs available) score chunks of about ``chunk_candidates``.
    Metrics are prepared with the source's references and ``document_ids``
    (one per sentence of the source; WNM needs them)
    (:func:`scoring.orange.prepare.prepare_metrics_for_source`)."""
    names = list(metrics)
    # NIST's weights, WNM's saliences from all the source's references,
    # before any chunk.
    n_sentences = source.n_sentences
    ids = list(range(n_sentences)) if sentence_ids is None else list(sentence_ids)
    metrics = prepare_metrics_for_source(metrics, source, document_ids, ids)
    chosen = [metrics[name] for name in names]
    unsupported = [name for name, metric in zip(names, chosen) if not supports(metric)]
    if unsupported:
        raise MetricError(
            f"the batch engine does not support: {', '.join(unsupported)}"
        )
    if n_sentences == 0:
        raise MetricError("no n-best lists to rank")
    n_candidates = source.candidate_counts
    if (n_candidates == 0).any():
        raise MetricError(
            f"sentence {ids[int(np.argmin(n_candidates))]} has no candidates"
        )
    curve_n = curve_points(int(n_candidates.max()), options.curve_step)
    bounds = chunk_bounds(n_candidates, chunk_candidates)
    workers = workers or available_cpus()
    done = [0]
    lock = threading.Lock()

    def run(bound: tuple[int, int]) -> list[SentenceRankings]:
        start, stop = bound
        result = rank_sentence_range(
            chosen,
            source,
            start,
            stop,
            sentence_ids=ids[start:stop],
            curve_n=curve_n,
            options=options,
        )
        with lock:
            done[0] += stop - start
            if progress is not None:
                progress(done[0] / n_sentences)
        return result

    if workers <= 1 or len(bounds) == 1:
        parts = [run(bound) for bound in bounds]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(run, bounds))
    return {
        name: summarise(
            merge_rankings([part[index] for part in parts]),
            metric=name,
            n_bootstrap=options.n_bootstrap,
            seed=options.seed,
        )
        for index, name in enumerate(names)
    }
