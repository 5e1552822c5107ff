"""ORANGE's per-sentence steps for a block of equally shaped sentences at once.

:func:`scoring.orange.batched.rank_sentence_range` forms, for every metric
and sentence, the jackknife means of the candidates, the oracle score and
the ranking facts (:func:`scoring.orange.ranking.rank_sentences`) with a
handful of small NumPy calls per sentence: at paper scale 34 metrics x 872
sentences, Python overhead that holds the GIL while the other thread wants
it. When every sentence of a chunk has the same number of candidates N and
of references K (the paper's corpora, any fixed-size n-best list), the same
NumPy operations run on ``(S, ...)`` blocks instead:

- jackknife means: the mean over the K subset columns is a reduction along
  an outer axis, added in column order and divided by K, exactly as the
  per-sentence ``np.mean`` of the ``(K, N)`` block;
- oracle scores: the mean of the K "reference k against the others" values
  of each sentence, a reduction of K contiguous values per row as the
  per-sentence ``np.mean`` of K floats;
- ranking: ``isclose``, comparisons and cumulative counts element-wise on
  ``(S, N)``.

So the results equal the per-sentence path's (tests compare them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scoring.orange.above_reference import AboveReference
from scoring.orange.ranking import TIE_TOLERANCE, SentenceRankings


def uniform_shape(
    candidate_counts: np.ndarray, reference_counts: np.ndarray
) -> tuple[int, int] | None:
    """``(N, K)`` when every sentence has N candidates and K references,
    else ``None``."""
    if candidate_counts.size == 0:
        return None
    n, k = int(candidate_counts[0]), int(reference_counts[0])
    if (candidate_counts != n).any() or (reference_counts != k).any():
        return None
    return n, k


def block_candidate_scores(
    scores: np.ndarray, n_sentences: int, n_refs: int, all_references: bool
) -> np.ndarray:
    """Candidate scores ``(S, N)`` from the chunk's ``(S * N, subsets)``
    subset scores (jackknife mean, or the all-references column)."""
    by_sentence = scores.reshape(n_sentences, -1, scores.shape[1])
    if all_references:
        return by_sentence[:, :, -1].copy()
    # (S, K, N) C-ordered: per sentence the (K, N) block np.mean(axis=0) sees.
    columns = np.ascontiguousarray(by_sentence[:, :, :n_refs].transpose(0, 2, 1))
    return np.mean(columns, axis=1)


def block_oracle_scores(
    reference_scores: np.ndarray, n_sentences: int, n_refs: int
) -> np.ndarray:
    """Oracle scores ``(S,)``: per sentence the mean over k of reference k
    scored against all but k (column k of its row of ``(S * K, subsets)``)."""
    by_sentence = reference_scores.reshape(n_sentences, n_refs, -1)
    diagonal = np.ascontiguousarray(
        by_sentence[:, np.arange(n_refs), np.arange(n_refs)]
    )  # (S, K)
    return np.mean(diagonal, axis=1)


def rank_sentence_block(
    scores: np.ndarray,
    oracle_scores: np.ndarray,
    *,
    higher_is_better: bool,
    curve_n: np.ndarray,
    sentence_ids: Sequence[int],
) -> SentenceRankings:
    """:func:`scoring.orange.ranking.rank_sentences` for ``(S, N)`` scores
    (every sentence N candidates) and ``(S,)`` oracle scores."""
    n_sentences, n_candidates = scores.shape
    if n_candidates == 0:
        raise ValueError(f"sentence {sentence_ids[0]} has no candidates")
    oracles = oracle_scores[:, None]
    is_tied = np.isclose(scores, oracles, rtol=TIE_TOLERANCE, atol=TIE_TOLERANCE)
    is_better = ~is_tied & (
        (scores > oracles) if higher_is_better else (scores < oracles)
    )
    zeros = np.zeros((n_sentences, 1), dtype=np.int64)
    cumulative_better = np.concatenate((zeros, np.cumsum(is_better, axis=1)), axis=1)
    cumulative_tied = np.concatenate((zeros, np.cumsum(is_tied, axis=1)), axis=1)
    curve_n = np.asarray(curve_n, dtype=np.int64)
    first_n = np.minimum(curve_n, n_candidates)
    above = AboveReference.from_mask(is_better, scores)
    return SentenceRankings(
        sentence_ids=np.asarray(sentence_ids).astype(np.int64),
        oracle_scores=np.asarray(oracle_scores, dtype=np.float64),
        n_candidates=np.full(n_sentences, n_candidates, dtype=np.int64),
        better=cumulative_better[:, -1].copy(),
        tied=cumulative_tied[:, -1].copy(),
        curve_n=curve_n,
        curve_better=cumulative_better[:, first_n],
        curve_tied=cumulative_tied[:, first_n],
        above_reference=above,
    )
