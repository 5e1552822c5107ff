"""Pairs per second: the batch engine next to sacreBLEU and rouge-score.

A *pair* is one candidate scored against one reference. The engine scores
every candidate of some n-best lists against each of its sentence's
references as a single reference (bit masks 1, 2, 4, 8), from token ids, as
ORANGE uses it; the reference tools score a random sample of the same pairs
from text, one call per pair (sacreBLEU ``sentence_bleu`` with Lin & Och's
add-one smoothing = our ``bleus:n=4``; rouge-score's ``rougeL`` F =
our ``rouge-l``). The values on the sample must agree: rouge-score bit for
bit; sacreBLEU to 1e-9 on its 0-100 scale (it evaluates the same formula
with Python's ``math`` in another order, so the last bits differ).

The tools are imported here, inside functions, because they are benchmark
and test dependencies only (``sacrebleu``, ``rouge-score``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from scoring.batch.engine import subset_scores, token_view
from scoring.batch.grid import PairGrid, grid_from_texts
from scoring.bench.synthetic import SyntheticCorpus
from scoring.orange.sources import TokenSource
from scoring.registry import get_metric

BLEU_TOLERANCE = 1e-9  # on the 0-100 scale


@dataclass(frozen=True)
class ToolComparison:
    """One metric: the engine against one reference tool."""

    metric: str
    tool: str
    engine_pairs: int
    engine_seconds: float
    text_pairs: int
    engine_text_seconds: float  # the sample from text: tokenising included
    tool_seconds: float
    max_difference: float

    @property
    def engine_rate(self) -> float:
        return self.engine_pairs / self.engine_seconds

    @property
    def engine_text_rate(self) -> float:
        return self.text_pairs / self.engine_text_seconds

    @property
    def tool_rate(self) -> float:
        return self.text_pairs / self.tool_seconds


def _sample_pairs(
    grid: PairGrid, count: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` random (candidate index, reference column) pairs."""
    rng = np.random.default_rng(seed)
    total = grid.n_hyps * grid.max_refs
    chosen = rng.choice(total, size=min(count, total), replace=False)
    return chosen // grid.max_refs, chosen % grid.max_refs


def _timed(function, *args):
    started = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - started


def compare_tools(
    corpus: SyntheticCorpus, n_sentences: int, sample: int, seed: int = 1
) -> list[ToolComparison]:
    """Engine and tools on the pairs of the first ``n_sentences`` lists."""
    import sacrebleu
    from rouge_score import rouge_scorer

    source = TokenSource(corpus.nbest, corpus.references)
    grid, _ = source.grids(None, 0, n_sentences)
    masks = np.array([1 << k for k in range(grid.max_refs)], dtype=np.int64)
    hyps, columns = _sample_pairs(grid, sample, seed)
    groups = grid.hyp_groups[hyps]
    hyp_texts = [
        corpus.text(grid.hyp_tokens[grid.hyp_offsets[h] : grid.hyp_offsets[h + 1]])
        for h in hyps
    ]
    ref_texts = [corpus.text(corpus.references[g][k]) for g, k in zip(groups, columns)]

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    tools = {
        "bleus:n=4": (
            "sacreBLEU sentence_bleu",
            lambda h, r: (
                sacrebleu.sentence_bleu(
                    h, [r], smooth_method="add-k", smooth_value=1
                ).score
            ),
        ),
        "rouge-l": (
            "rouge-score rougeL",
            lambda h, r: scorer.score(r, h)["rougeL"].fmeasure,
        ),
    }
    comparisons = []
    for spec, (tool_name, tool) in tools.items():
        metric = get_metric(spec)
        subset_scores([metric], grid, masks)  # compile or load the kernels first
        scores, engine_seconds = _timed(
            lambda metric=metric: subset_scores([metric], grid, masks)[0]
        )
        tool_values, tool_seconds = _timed(
            lambda tool=tool: np.array(
                [tool(h, r) for h, r in zip(hyp_texts, ref_texts)]
            )
        )

        def from_text(metric=metric) -> np.ndarray:
            # Each sampled pair as its own group: tokenise, intern, score.
            text_grid = grid_from_texts(
                [[h] for h in hyp_texts], [[r] for r in ref_texts], token_view(metric)
            )
            return subset_scores([metric], text_grid, np.array([1], dtype=np.int64))[0][
                :, 0
            ]

        text_values, text_seconds = _timed(from_text)
        ours = scores[hyps, columns]
        difference = float(np.abs(ours - tool_values).max(initial=0.0))
        tolerance = BLEU_TOLERANCE if spec.startswith("bleu") else 0.0
        if difference > tolerance or not np.array_equal(text_values, ours):
            raise AssertionError(
                f"{spec}: engine and {tool_name} differ by up to {difference:g}"
            )
        comparisons.append(
            ToolComparison(
                metric=spec,
                tool=tool_name,
                engine_pairs=scores.size,
                engine_seconds=engine_seconds,
                text_pairs=len(hyps),
                engine_text_seconds=text_seconds,
                tool_seconds=tool_seconds,
                max_difference=difference,
            )
        )
    return comparisons


def format_comparisons(comparisons: list[ToolComparison]) -> str:
    lines = [
        f"{'metric':<10} {'engine pairs/s':>15} {'(from text)':>12} {'tool':<24} "
        f"{'tool pairs/s':>12} {'ratio':>8} {'max |diff|':>11}"
    ]
    for c in comparisons:
        ratio = c.engine_rate / c.tool_rate
        lines.append(
            f"{c.metric:<10} {c.engine_rate:>15,.0f} {c.engine_text_rate:>12,.0f} "
            f"{c.tool:<24} {c.tool_rate:>12,.0f} {ratio:>7,.0f}x "
            f"{c.max_difference:>11.1e}"
        )
    lines.append(
        "engine: ids of the n-best lists, every candidate x each reference alone; "
        "(from text): the sampled pairs one group each, tokenising included; "
        "tools: the sampled pairs from text, one call each."
    )
    return "\n".join(lines)
