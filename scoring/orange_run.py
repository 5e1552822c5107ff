"""ORANGE of metrics over n-best lists, scored with the metric code.

The per-pair path (``per_pair=True``) runs every metric through its own
``segment_statistics``, so it is exact by construction and serves any
registered metric. By default, metrics the batch engine supports
(:func:`scoring.batch.supports`: BLEU/BLEUS, NIST, WER, PER, ROUGE) are
scored by it instead: the same numbers, computed hundreds of times faster
from integer token ids with compiled kernels; tests compare the two paths.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.base import Metric
from scoring.errors import MetricError
from scoring.orange import (
    OrangeResult,
    SentenceRankings,
    curve_points,
    merge_rankings,
    rank_sentences,
    summarise,
)

ProgressCallback = Callable[[float], None]


@dataclass(frozen=True)
class OrangeOptions:
    all_references: bool = False  # score candidates against all K references
    curve_step: int = 64
    n_bootstrap: int = 1000
    seed: int = 1


def sentence_scores(
    metric: Metric, texts: Sequence[str], references: Sequence[str]
) -> np.ndarray:
    """Sentence scores of each text against the same references: ``(len(texts),)``."""
    streams = [[reference] * len(texts) for reference in references]
    statistics = metric.segment_statistics(list(texts), streams)
    return np.asarray(metric.sentence_scores_from_statistics(statistics), dtype=np.float64)


def score_sentence(
    metric: Metric, candidates: Sequence[str], references: Sequence[str], all_references: bool
) -> tuple[np.ndarray, float]:
    """Candidate scores ``(N,)`` and the oracle score of one source sentence.

    The oracle is the mean over k of reference k against the other K - 1;
    candidates get the mean over k against the same K - 1 (the jackknife), or
    one score against all K with ``all_references``.
    """
    if len(references) < 2:
        raise MetricError("ORANGE needs at least two references per sentence")
    held_out_scores = []
    oracle_parts = []
    for k, reference in enumerate(references):
        others = [r for j, r in enumerate(references) if j != k]
        oracle_parts.append(sentence_scores(metric, [reference], others)[0])
        if not all_references:
            held_out_scores.append(sentence_scores(metric, candidates, others))
    if all_references:
        candidate_scores = sentence_scores(metric, candidates, references)
    else:
        candidate_scores = np.mean(held_out_scores, axis=0)
    return candidate_scores, float(np.mean(oracle_parts))


def rank_chunk(
    metric: Metric,
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
    progress: ProgressCallback | None = None,
    per_pair: bool = False,
) -> SentenceRankings:
    """Rankings of one chunk of sentences (``references[i]`` = the K of sentence i).

    The batch engine ranks them when it supports ``metric``, unless
    ``per_pair``; the result is the same.
    """
    if not per_pair:
        from scoring.batch import batch_rank_chunk  # compiled kernels: load on use

        ranked = batch_rank_chunk(
            metric, candidates, references,
            sentence_ids=sentence_ids, curve_n=curve_n, options=options,
        )
        if ranked is not None:
            if progress is not None:
                progress(1.0)
            return ranked
    scores, oracles = [], []
    for i, (sentence_candidates, sentence_references) in enumerate(zip(candidates, references)):
        candidate_scores, oracle = score_sentence(
            metric, sentence_candidates, sentence_references, options.all_references
        )
        scores.append(candidate_scores)
        oracles.append(oracle)
        if progress is not None:
            progress((i + 1) / len(candidates))
    return rank_sentences(
        scores,
        oracles,
        higher_is_better=metric.higher_is_better,
        curve_n=curve_n,
        sentence_ids=sentence_ids,
    )


def orange(
    metric: Metric,
    metric_name: str,
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    options: OrangeOptions = OrangeOptions(),
    *,
    sentence_ids: Sequence[int] | None = None,
    chunk_size: int | None = None,
    progress: ProgressCallback | None = None,
    per_pair: bool = False,
) -> OrangeResult:
    """ORANGE of one metric; ``chunk_size`` splits the work as workers would;
    ``per_pair`` scores pair by pair even where the batch engine could."""
    n_sentences = len(candidates)
    if n_sentences != len(references):
        raise MetricError(
            f"{n_sentences} n-best lists but references for {len(references)} sentences"
        )
    ids = list(range(n_sentences)) if sentence_ids is None else list(sentence_ids)
    curve_n = curve_points(max(len(c) for c in candidates), options.curve_step)
    size = chunk_size or n_sentences
    parts = []
    for start in range(0, n_sentences, size):
        stop = min(start + size, n_sentences)
        parts.append(
            rank_chunk(
                metric,
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
