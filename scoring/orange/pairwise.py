"""ORANGE's per-pair path: every candidate scored by the metric's own code.

Every metric goes through its own ``segment_statistics``, so this path is
exact by construction and serves any registered metric; the batch engine
(:mod:`scoring.orange.batched`) gives the same numbers far faster for the
metrics it supports. :mod:`scoring.orange.dispatch` chooses between them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scoring.base import Metric
from scoring.errors import MetricError
from scoring.orange.options import OrangeOptions, ProgressCallback
from scoring.orange.prepare import for_sentences
from scoring.orange.ranking import SentenceRankings, rank_sentences


def sentence_scores(
    metric: Metric, texts: Sequence[str], references: Sequence[str]
) -> np.ndarray:
    """Sentence scores of each text against the same references: ``(len(texts),)``."""
    streams = [[reference] * len(texts) for reference in references]
    statistics = metric.segment_statistics(list(texts), streams)
    return np.asarray(
        metric.sentence_scores_from_statistics(statistics), dtype=np.float64
    )


def score_sentence(
    metric: Metric,
    candidates: Sequence[str],
    references: Sequence[str],
    all_references: bool,
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


def rank_chunk_pairwise(
    metric: Metric,
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    *,
    sentence_ids: Sequence[int],
    curve_n: np.ndarray,
    options: OrangeOptions,
    progress: ProgressCallback | None = None,
) -> SentenceRankings:
    """Rankings of one chunk of sentences (``references[i]`` = the K of
    sentence i), every pair through the metric's own code."""
    scores, oracles = [], []
    for i, (sentence_candidates, sentence_references) in enumerate(
        zip(candidates, references)
    ):
        # WNM weighs with the sentence's own document's saliences.
        (sentence_metric,) = for_sentences([metric], [sentence_ids[i]])
        candidate_scores, oracle = score_sentence(
            sentence_metric,
            sentence_candidates,
            sentence_references,
            options.all_references,
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
