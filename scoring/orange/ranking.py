"""ORANGE (Lin & Och 2004): where a metric ranks the references in n-best lists.

For source sentence i with candidates h_1..h_N (in the system's order) and
K >= 2 references, the *oracle score* o_i is the mean over k of the metric of
reference r_k against the other K - 1 references, and each candidate's score
is the mean over k of its metric against the same K - 1 references (a
jackknife, so candidates and references are judged against equally many
references; ``jackknife_mean`` does the averaging). Then

    Rank_i = 1 + #{candidates strictly better than o_i}
               + 1/2 * #{candidates tied with o_i}            (mid-rank)
    ORANGE = (1/S) * sum_i Rank_i / (N_i + 1)                   (eq. 10)

which is eq. 10's sum_i Rank_i / (S (N + 1)) when every list has N
candidates; a shorter list is ranked among what it has and normalised by its
own N_i + 1. Lower ORANGE is better: the metric puts the references nearer
the top. Worked example (higher is better, oracle 0.5)::

    candidates [0.9, 0.5, 0.2]  ->  1 + 1 better + 1/2 tied = 2.5,  2.5 / 4
    candidates [0.1]            ->  1 + 0 better            = 1.0,  1.0 / 2
    ORANGE = (0.625 + 0.5) / 2 = 56.25 %,  average rank 1.75

The work splits by sentence: ``rank_sentences`` on any chunk of sentences,
``merge_rankings`` of the chunks in sentence order, then ``summarise`` gives
the same result as one run over everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.orange.above_reference import AboveReference, AboveReferenceItems

# Scores closer than this count as tied: jackknife means of the same values
# summed in another order may differ in the last bits.
TIE_TOLERANCE = 1e-9


def jackknife_mean(scores_without_reference: np.ndarray) -> np.ndarray:
    """Mean over the held-out reference: ``(..., K) -> (...)``."""
    return np.asarray(scores_without_reference, dtype=np.float64).mean(axis=-1)


def curve_points(max_candidates: int, step: int) -> np.ndarray:
    """List lengths n of the cutoff curve: 1, step, 2*step, ..., N (int64)."""
    if max_candidates < 1 or step < 1:
        raise ValueError("the n-best size and the curve step must be positive")
    points = np.arange(step, max_candidates + 1, step, dtype=np.int64)
    return np.unique(np.concatenate(([1], points, [max_candidates])))


@dataclass(frozen=True)
class SentenceRankings:
    """Per-sentence ranking facts of one metric, for a chunk of sentences.

    Shapes: ``S`` sentences of the chunk, ``P`` curve points.
    """

    sentence_ids: np.ndarray  # (S,) int64, ids of the sentences ranked
    oracle_scores: np.ndarray  # (S,) float64
    n_candidates: np.ndarray  # (S,) int64, N_i
    better: np.ndarray  # (S,) int64, candidates strictly better than o_i
    tied: np.ndarray  # (S,) int64, candidates tied with o_i
    curve_n: np.ndarray  # (P,) int64, list lengths of the curve
    curve_better: np.ndarray  # (S, P) int64, better among the first n
    curve_tied: np.ndarray  # (S, P) int64, tied among the first n
    # Per sentence: (candidate index, score) of every candidate above o_i,
    # as arrays (per-sentence tuples of pairs are accepted and converted).
    above_reference: AboveReference

    def __post_init__(self) -> None:
        if not isinstance(self.above_reference, AboveReference):
            object.__setattr__(
                self, "above_reference", AboveReference.from_pairs(self.above_reference)
            )

    @property
    def ranks(self) -> np.ndarray:
        """Rank of the oracle in each list, 1-based mid-ranks: ``(S,)``."""
        return 1.0 + self.better + 0.5 * self.tied


def rank_sentences(
    candidate_scores: Sequence[np.ndarray],
    oracle_scores: Sequence[float],
    *,
    higher_is_better: bool,
    curve_n: np.ndarray,
    sentence_ids: Sequence[int] | None = None,
) -> SentenceRankings:
    """Rank each sentence's oracle score among its candidates' scores.

    ``candidate_scores[i]`` has shape ``(N_i,)`` in the system's order (use
    ``jackknife_mean`` first for the jackknife); ``oracle_scores[i]`` is o_i.
    """
    if len(candidate_scores) != len(oracle_scores):
        raise ValueError("one oracle score is needed per sentence")
    n_sentences = len(candidate_scores)
    ids = np.arange(n_sentences) if sentence_ids is None else np.asarray(sentence_ids)
    curve_n = np.asarray(curve_n, dtype=np.int64)
    better = np.zeros(n_sentences, dtype=np.int64)
    tied = np.zeros(n_sentences, dtype=np.int64)
    counts = np.zeros(n_sentences, dtype=np.int64)
    curve_better = np.zeros((n_sentences, len(curve_n)), dtype=np.int64)
    curve_tied = np.zeros((n_sentences, len(curve_n)), dtype=np.int64)
    above_counts = np.zeros(n_sentences, dtype=np.int64)
    above_indices: list[np.ndarray] = []
    above_scores: list[np.ndarray] = []
    for i, (scores, oracle) in enumerate(zip(candidate_scores, oracle_scores)):
        scores = np.asarray(scores, dtype=np.float64)
        if scores.ndim != 1 or scores.size == 0:
            raise ValueError(f"sentence {ids[i]} has no candidates")
        is_tied = np.isclose(scores, oracle, rtol=TIE_TOLERANCE, atol=TIE_TOLERANCE)
        is_better = ~is_tied & (
            (scores > oracle) if higher_is_better else (scores < oracle)
        )
        counts[i], better[i], tied[i] = scores.size, is_better.sum(), is_tied.sum()
        # Counts among the first n candidates, for every curve point at once.
        cumulative_better = np.concatenate(([0], np.cumsum(is_better)))
        cumulative_tied = np.concatenate(([0], np.cumsum(is_tied)))
        first_n = np.minimum(curve_n, scores.size)
        curve_better[i] = cumulative_better[first_n]
        curve_tied[i] = cumulative_tied[first_n]
        indices = np.flatnonzero(is_better)
        above_counts[i] = indices.size
        above_indices.append(indices)
        above_scores.append(scores[indices])
    return SentenceRankings(
        sentence_ids=ids.astype(np.int64),
        oracle_scores=np.asarray(oracle_scores, dtype=np.float64),
        n_candidates=counts,
        better=better,
        tied=tied,
        curve_n=curve_n,
        curve_better=curve_better,
        curve_tied=curve_tied,
        above_reference=AboveReference(
            np.concatenate(([0], np.cumsum(above_counts))).astype(np.int64),
            np.concatenate([np.zeros(0, dtype=np.int64), *above_indices]).astype(
                np.int64
            ),
            np.concatenate([np.zeros(0), *above_scores]).astype(np.float64),
        ),
    )


def merge_rankings(parts: Sequence[SentenceRankings]) -> SentenceRankings:
    """Concatenate chunk results (in sentence order) into one."""
    if not parts:
        raise ValueError("nothing to merge")
    curve_n = parts[0].curve_n
    if any(not np.array_equal(part.curve_n, curve_n) for part in parts):
        raise ValueError("chunks were ranked with different curve points")

    def joined(name: str) -> np.ndarray:
        return np.concatenate([getattr(part, name) for part in parts])

    return SentenceRankings(
        sentence_ids=joined("sentence_ids"),
        oracle_scores=joined("oracle_scores"),
        n_candidates=joined("n_candidates"),
        better=joined("better"),
        tied=joined("tied"),
        curve_n=curve_n,
        curve_better=np.vstack([part.curve_better for part in parts]),
        curve_tied=np.vstack([part.curve_tied for part in parts]),
        above_reference=AboveReference.concatenate(
            [part.above_reference for part in parts]
        ),
    )


@dataclass(frozen=True)
class OrangeResult:
    """ORANGE of one metric; percentages are 0-100, ranks 1-based."""

    metric: str
    orange: float  # percent
    avg_rank: float
    ci_low: float  # 95% bootstrap CI of the average rank
    ci_high: float
    orange_ci_low: float  # the same resamples, as ORANGE percent
    orange_ci_high: float
    n_sentences: int
    n_short: int  # sentences with fewer candidates than the longest list
    max_candidates: int
    n_bootstrap: int
    seed: int
    curve: tuple[tuple[int, float], ...]  # (n, ORANGE percent using first n)
    # Per sentence {"sentence", "oracle_score", "candidates": [{"index",
    # "score"}, ...]}: an AboveReferenceItems (arrays, dicts made when read)
    # or any sequence of such dicts (e.g. read back from the database).
    above_reference: Sequence[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["curve"] = [list(point) for point in self.curve]
        data["above_reference"] = list(self.above_reference)
        return data


def summarise(
    rankings: SentenceRankings, *, metric: str, n_bootstrap: int = 1000, seed: int = 1
) -> OrangeResult:
    """ORANGE, average rank, their bootstrap CIs over sentences, the curve."""
    ranks = rankings.ranks
    normalised = ranks / (rankings.n_candidates + 1)
    n_sentences = len(ranks)
    if n_sentences == 0:
        raise ValueError("no sentences to summarise")
    rng = np.random.default_rng(seed)
    low = high = orange_low = orange_high = float("nan")
    if n_bootstrap > 0:
        rank_means = np.empty(n_bootstrap)
        orange_means = np.empty(n_bootstrap)
        # Draw in blocks so 1000 x (hundreds of thousands) never sits in memory.
        block = max(1, 2_000_000 // n_sentences)
        for start in range(0, n_bootstrap, block):
            stop = min(start + block, n_bootstrap)
            sample = rng.integers(0, n_sentences, size=(stop - start, n_sentences))
            rank_means[start:stop] = ranks[sample].mean(axis=1)
            orange_means[start:stop] = normalised[sample].mean(axis=1)
        low, high = np.percentile(rank_means, [2.5, 97.5])
        orange_low, orange_high = 100 * np.percentile(orange_means, [2.5, 97.5])
    first_n = np.minimum(rankings.curve_n[None, :], rankings.n_candidates[:, None])
    curve_ranks = 1.0 + rankings.curve_better + 0.5 * rankings.curve_tied
    curve_values = 100 * (curve_ranks / (first_n + 1)).mean(axis=0)
    above = AboveReferenceItems(
        np.asarray(rankings.sentence_ids, dtype=np.int64),
        np.asarray(rankings.oracle_scores, dtype=np.float64),
        rankings.above_reference,
    )
    max_candidates = int(rankings.n_candidates.max())
    return OrangeResult(
        metric=metric,
        orange=float(100 * normalised.mean()),
        avg_rank=float(ranks.mean()),
        ci_low=float(low),
        ci_high=float(high),
        orange_ci_low=float(orange_low),
        orange_ci_high=float(orange_high),
        n_sentences=n_sentences,
        n_short=int((rankings.n_candidates < max_candidates).sum()),
        max_candidates=max_candidates,
        n_bootstrap=n_bootstrap,
        seed=seed,
        curve=tuple(zip(rankings.curve_n.tolist(), curve_values.tolist())),
        above_reference=above,
    )
