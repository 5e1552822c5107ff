"""METEOR's sufficient statistics and score formula.

Statistics of one segment (integers), for ``M`` matching modules::

    [hyp_len, ref_len, hyp_function_words, ref_function_words,
     (hyp_content_k, ref_content_k, hyp_function_k, ref_function_k) for k < M,
     chunks, hyp_matched, ref_matched]

Lengths and matches are in words; ``*_content_k`` / ``*_function_k`` count
the matched content / function words of module ``k`` on each side. Summing
rows gives METEOR's pooled corpus statistics (its "Final score"); as in
METEOR 1.5, a perfectly matched segment adds no chunks to the pool.

Score (Denkowski & Lavie; with α = 0.9, β = 3, γ = 0.5, no function words and
unit weights it is Banerjee & Lavie 2005)::

    P = Σ_k w_k (δ·hyp_content_k + (1−δ)·hyp_function_k)
        / (δ·hyp_content_words + (1−δ)·hyp_function_words)
    R = the same on the reference side
    Fmean = P·R / (α·P + (1−α)·R)
    frag = chunks / matches   (matches = mean of both sides; METEOR 1.x: 0 for
                               a perfect match in one chunk)
    score = Fmean · (1 − γ·frag^β), 0 when undefined

Worked example (lecture notes): P = 5/8, R = 5/14, 3 chunks of 5 matches,
α = 0.9, β = 3, γ = 0.5: Fmean = 0.3731; with the notes' fragmentation
(3−1)/(5−1) = 0.5 the penalty is 0.0625 and the score 0.3498 (with the
paper's 3/5 it is 0.3328).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.metrics.meteor.align import count_chunks
from scoring.metrics.meteor.stages import Match


@dataclass(frozen=True)
class MeteorFormula:
    """α, β, γ, δ, the per-module weights and the fragmentation rules.

    ``fragmentation`` is ``"ratio"`` (chunks/matches, the paper and the jar)
    or ``"lecture"`` ((chunks−1)/(matches−1), the lecture notes' example).
    """

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, ...]
    fragmentation: str = "ratio"
    # METEOR 1.x gives a perfect match (all words, one chunk) no penalty;
    # Banerjee & Lavie 2005 (and NLTK) penalise it by γ/matches^β.
    perfect_unpenalised: bool = True

    def statistics_names(self) -> tuple[str, ...]:
        per_module = tuple(
            f"{side}_{kind}_{k}"
            for k in range(len(self.weights))
            for side, kind in (
                ("hyp", "content"), ("ref", "content"),
                ("hyp", "function"), ("ref", "function"),
            )
        )  # fmt: skip
        return (
            ("hyp_len", "ref_len", "hyp_function_words", "ref_function_words")
            + per_module
            + ("chunks", "hyp_matched", "ref_matched")
        )

    def scores(self, statistics: np.ndarray) -> np.ndarray:
        """Scores on 0–1: ``(..., n_stats) -> (...)``."""
        s = np.asarray(statistics, dtype=np.float64)
        n = len(self.weights)
        delta = self.delta
        hyp_len, ref_len, hyp_fw, ref_fw = s[..., 0], s[..., 1], s[..., 2], s[..., 3]
        per_module = s[..., 4 : 4 + 4 * n].reshape(s.shape[:-1] + (n, 4))
        chunks, hyp_matched, ref_matched = s[..., -3], s[..., -2], s[..., -1]
        weights = np.asarray(self.weights)
        hyp_weighted_len = delta * (hyp_len - hyp_fw) + (1.0 - delta) * hyp_fw
        ref_weighted_len = delta * (ref_len - ref_fw) + (1.0 - delta) * ref_fw
        hyp_weighted = (per_module[..., 0] * weights * delta).sum(-1) + (
            per_module[..., 2] * weights * (1.0 - delta)
        ).sum(-1)
        ref_weighted = (per_module[..., 1] * weights * delta).sum(-1) + (
            per_module[..., 3] * weights * (1.0 - delta)
        ).sum(-1)
        hyp_total = per_module[..., 0].sum(-1) + per_module[..., 2].sum(-1)
        ref_total = per_module[..., 1].sum(-1) + per_module[..., 3].sum(-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = hyp_weighted / hyp_weighted_len
            recall = ref_weighted / ref_weighted_len
            fmean = 1.0 / ((1.0 - self.alpha) / precision + self.alpha / recall)
            matches = (hyp_matched + ref_matched) / 2.0
            if self.fragmentation == "lecture":
                frag = np.where(matches > 1, (chunks - 1.0) / (matches - 1.0), 0.0)
            else:
                frag = chunks / matches
            perfect = (hyp_total == hyp_len) & (ref_total == ref_len) & (chunks == 1)
            if self.perfect_unpenalised:
                frag = np.where(perfect, 0.0, frag)
            score = fmean * (1.0 - self.gamma * frag**self.beta)
        score = np.where(np.isnan(score), 0.0, score)
        return np.maximum(score, 0.0)


def alignment_row(
    hyp: Sequence[str],
    ref: Sequence[str],
    matches: Sequence[Match],
    n_modules: int,
    function_words: frozenset[str],
    pool_like_meteor: bool = True,
) -> list[int]:
    """Statistics of one hypothesis/reference pair from its alignment.

    With ``pool_like_meteor`` a perfect match (every word, one chunk) records
    0 chunks: METEOR 1.5 leaves such segments out of the pooled chunk count
    (``MeteorStats.addStats``), and its segment score is unchanged (0/m = 0).
    """
    hyp_function = [word.lower() in function_words for word in hyp]
    ref_function = [word.lower() in function_words for word in ref]
    per_module = [0] * (4 * n_modules)
    hyp_matched = ref_matched = 0
    for match in matches:
        base = 4 * match.module
        for i in range(match.hyp_start, match.hyp_start + match.hyp_len):
            per_module[base + (2 if hyp_function[i] else 0)] += 1
        for j in range(match.ref_start, match.ref_start + match.ref_len):
            per_module[base + (3 if ref_function[j] else 1)] += 1
        hyp_matched += match.hyp_len
        ref_matched += match.ref_len
    chunks = count_chunks(matches)
    perfect = hyp_matched == len(hyp) and ref_matched == len(ref) and chunks == 1
    if pool_like_meteor and perfect:
        chunks = 0
    return [
        len(hyp),
        len(ref),
        sum(hyp_function),
        sum(ref_function),
        *per_module,
        chunks,
        hyp_matched,
        ref_matched,
    ]
