"""ROUGE-N/L/W/S/SU in the batch engine, equal to :mod:`scoring.metrics.rouge.metrics`.

One :class:`RougeFamily` serves every ROUGE metric that reads text the same
way (same :class:`~scoring.metrics.rouge.preprocess.RougeTextProcessor`): the LCS
lengths, the weighted LCS of all requested weights (per counting mode), the
skip-bigram hits of all requested skip limits and the n-gram hits are each
computed in one kernel pass over the grid. Each metric then turns them into
the per-pair counts of its ``pair_counts`` (hits, reference total,
hypothesis total, selector) and combines the references of each subset by
its ``multiref`` rule and :func:`scoring.metrics.rouge.stats.segment_row`'s
arithmetic, vectorised, in the same order of operations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.batch.exact_math import libm_power, python_powers, round5
from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_edit import bag_matches_grid
from scoring.batch.kernels_lcs import lcs_grid, wlcs_grid
from scoring.batch.kernels_ngram import clipped_pair_matches
from scoring.batch.kernels_skip import skip_bigram_hits
from scoring.batch.kernels_wlcs import wlcs_grid_all_weights
from scoring.batch.subsets import (
    membership,
    subset_first_best,
    subset_sums,
    take_columns,
)
from scoring.metrics.rouge.base import RougeBase
from scoring.metrics.rouge.metrics import RougeL, RougeN, RougeS, RougeSU, RougeW
from scoring.metrics.rouge.preprocess import RougeTextProcessor
from scoring.metrics.rouge.stats import MEASURE_COLUMNS

# From this many ROUGE-W weights on, wlcs_grid_all_weights beats one
# wlcs_grid pass per weight (its walk costs about 2.7 single-weight passes,
# each further weight about 0.3).
FEWEST_WEIGHTS_FOR_ONE_WALK = 4


@dataclass(frozen=True)
class PairCountArrays:
    """Per-pair counts of one metric, as ``pair_counts`` gives them: ``(H, K)``."""

    hits: np.ndarray
    reference_total: np.ndarray
    hypothesis_total: np.ndarray
    selector: np.ndarray | None  # only "best" reads it; None otherwise


def _ratio(hits: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``hits / total``, 0 where total is 0 (``rouge_base.ratio``)."""
    safe = np.where(total != 0, total, 1.0)
    return np.where(total != 0, hits / safe, 0.0)


def skip_bigram_total(lengths: np.ndarray, max_skip: int | None) -> np.ndarray:
    """Skip-bigrams of a sentence of each length under a limit (float64):
    C(m, 2) without one, sum over i of min(d + 1, m - 1 - i) with one."""
    m = np.asarray(lengths, dtype=np.int64)
    if max_skip is None:
        return (m * (m - 1) // 2).astype(np.float64)
    reach = max_skip + 1
    full = np.maximum(m - reach, 0)  # starts with every partner in reach
    partial = np.minimum(m, reach)  # the last ones: 0 + 1 + ... + (partial - 1)
    return (full * reach + partial * (partial - 1) // 2).astype(np.float64)


class RougeFamily(MetricFamily[RougeBase]):
    """The ROUGE metrics of one text processor, scored together."""

    @staticmethod
    def handles(metric: object) -> bool:
        # Exact classes: a subclass may count pairs differently.
        return type(metric) in (RougeN, RougeL, RougeW, RougeS, RougeSU)

    @staticmethod
    def token_view(metric: RougeBase) -> RougeTextProcessor:
        return metric.processor

    # -- kernels shared by the metrics -------------------------------------

    def _kernel_results(self, grid: PairGrid) -> dict[object, np.ndarray]:
        args = (
            grid.hyp_tokens,
            grid.hyp_offsets,
            grid.ref_tokens,
            grid.ref_offsets,
            grid.group_hyps,
            grid.group_refs,
            grid.vocabulary_size,
        )
        longest = int(
            max(grid.hyp_lengths.max(initial=0), grid.ref_lengths.max(initial=0))
        )
        results: dict[object, np.ndarray] = {}
        if any(type(metric) is RougeL for metric in self.metrics):
            results["lcs"] = lcs_grid(*args)
        for mode in (False, True):
            weights = sorted(
                {
                    float(m.weight)
                    for m in self.metrics
                    if isinstance(m, RougeW) and m.rouge155 == mode
                }
            )
            if weights:
                powers = np.stack([python_powers(longest + 2, w) for w in weights])
                # Many weights share one table walk; up to three are faster
                # in the plain kernel (same values: tested; measured on the
                # benchmark's corpus, 1 weight 1.6 s against 4.3 s).
                if mode or len(weights) < FEWEST_WEIGHTS_FOR_ONE_WALK:
                    hits = wlcs_grid(*args, powers, mode)
                else:
                    hits = wlcs_grid_all_weights(*args, powers)
                for index, weight in enumerate(weights):
                    results[("wlcs", mode, weight)] = hits[:, :, index]
        skips = {m.max_skip for m in self.metrics if isinstance(m, RougeS)}
        if skips:
            finite = sorted(s for s in skips if s is not None)
            limits = finite + ([-1] if None in skips else [])
            hits = skip_bigram_hits(*args, np.asarray(limits, dtype=np.int64))
            for index, limit in enumerate(finite + ([None] if None in skips else [])):
                results[("skip", limit)] = hits[:, :, index]
        for drop_last in {m.rouge155 for m in self.metrics if isinstance(m, RougeSU)}:
            results[("unigrams", drop_last)] = bag_matches_grid(*args, drop_last)
        for order in {m.order for m in self.metrics if isinstance(m, RougeN)}:
            results[("ngram", order)] = clipped_pair_matches(*args, order)
        return results

    # -- per metric ----------------------------------------------------------

    def _pair_counts(
        self, metric: RougeBase, grid: PairGrid, results: dict[object, np.ndarray]
    ) -> PairCountArrays:
        m = grid.pair_ref_lengths().astype(np.float64)  # (H, K)
        best = metric.multiref == "best"  # only "best" picks by a selector
        selector = None
        n = np.broadcast_to(grid.hyp_lengths.astype(np.float64)[:, None], m.shape)
        if isinstance(metric, RougeN):
            hits = results[("ngram", metric.order)].astype(np.float64)
            reference_total = np.maximum(m - metric.order + 1, 0.0)
            hypothesis_total = np.maximum(n - metric.order + 1, 0.0)
            if best:
                selector = self._rounded_selector(metric, _ratio(hits, reference_total))
        elif isinstance(metric, RougeW):
            weight = float(metric.weight)
            hits = results[("wlcs", metric.rouge155, weight)]
            longest = int(max(m.max(initial=0), n.max(initial=0))) + 1
            powers = python_powers(longest, weight)
            reference_weight = powers[m.astype(np.int64)]
            if metric.rouge155:
                reference_total = np.array([x**weight for x in powers.tolist()])[
                    m.astype(np.int64)
                ]
            else:
                reference_total = reference_weight
            hypothesis_total = powers[n.astype(np.int64)]
            if best:
                selector = libm_power(_ratio(hits, reference_weight), 1 / weight)
        elif isinstance(metric, RougeS):
            hits = results[("skip", metric.max_skip)].astype(np.float64)
            reference_total = skip_bigram_total(m, metric.max_skip)
            hypothesis_total = skip_bigram_total(n, metric.max_skip)
            if isinstance(metric, RougeSU):
                unigrams = results[("unigrams", metric.rouge155)]
                hits = hits + unigrams
                dropped = 1.0 if metric.rouge155 else 0.0
                reference_total = reference_total + np.maximum(m - dropped, 0.0)
                hypothesis_total = hypothesis_total + np.maximum(n - dropped, 0.0)
            if best:
                selector = self._rounded_selector(metric, _ratio(hits, reference_total))
        else:  # ROUGE-L
            hits = results["lcs"].astype(np.float64)
            reference_total, hypothesis_total = m, n
            if best:
                selector = _ratio(hits, m)
        return PairCountArrays(
            hits, reference_total, np.array(hypothesis_total), selector
        )

    @staticmethod
    def _rounded_selector(metric: RougeBase, recall: np.ndarray) -> np.ndarray:
        """ROUGE-1.5.5 compares rounded recalls for N/S/SU under ``best``."""
        return (
            round5(recall) if metric.rouge155 and metric.multiref == "best" else recall
        )

    def _subset_scores(
        self, metric: RougeBase, counts: PairCountArrays, member: np.ndarray
    ) -> np.ndarray:
        """Sentence score against each subset, ``(H, S)``."""
        column = MEASURE_COLUMNS[metric.measure]
        # One column, not the stacked rows: stacking them cost ORANGE on
        # Table 7 about 3 s of CPU.
        return np.asarray(
            self._subset_columns(metric, counts, member)[column], dtype=np.float64
        )

    def _subset_rows(
        self, metric: RougeBase, counts: PairCountArrays, member: np.ndarray
    ) -> np.ndarray:
        """``segment_row`` against each subset, vectorised: ``(H, S, 7)``
        ``[hits, reference_total, hypothesis_total, R, P, F, 1]``."""
        columns = self._subset_columns(metric, counts, member)
        arrays = [np.asarray(column, dtype=np.float64) for column in columns]
        return np.stack([*arrays, np.ones_like(arrays[3])], axis=-1)

    def _subset_columns(
        self, metric: RougeBase, counts: PairCountArrays, member: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """The first six columns of :meth:`_subset_rows`, each ``(H, S)``."""
        if metric.multiref == "best":
            assert counts.selector is not None  # set for "best"
            column = subset_first_best(counts.selector, member)
            hits = take_columns(counts.hits, column)
            reference_total = take_columns(counts.reference_total, column)
            hypothesis_total = take_columns(counts.hypothesis_total, column)
        else:
            hits = subset_sums(counts.hits, member)
            reference_total = subset_sums(counts.reference_total, member)
            hypothesis_total = subset_sums(counts.hypothesis_total, member)
        recall = _ratio(hits, reference_total)
        precision = _ratio(hits, hypothesis_total)
        weight = metric._inverse_weight()
        if weight is not None:
            recall = np.where(reference_total != 0, libm_power(recall, 1 / weight), 0.0)
            precision = np.where(
                hypothesis_total != 0, libm_power(precision, 1 / weight), 0.0
            )
        alpha = metric.effective_alpha
        if metric.rouge155:
            recall, precision = round5(recall), round5(precision)
        denominator = (1 - alpha) * precision + alpha * recall
        safe = np.where(denominator > 0, denominator, 1.0)
        f_value = np.where(denominator > 0, (precision * recall) / safe, 0.0)
        if metric.rouge155:
            f_value = round5(f_value)
        return (hits, reference_total, hypothesis_total, recall, precision, f_value)

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence scores (0-1) of every hypothesis against every subset,
        one ``(H, S)`` array per metric."""
        results = self._kernel_results(grid)
        refs_per_hyp = grid.refs_per_group[grid.hyp_groups]
        member = membership(masks, refs_per_hyp, grid.max_refs)
        return [
            self._subset_scores(
                metric, self._pair_counts(metric, grid, results), member
            )
            for metric in self.metrics
        ]

    def statistics_rows(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Each metric's ``segment_row`` of every hypothesis against every
        subset: one ``(H, S, 7)`` float64 array per metric."""
        results = self._kernel_results(grid)
        refs_per_hyp = grid.refs_per_group[grid.hyp_groups]
        member = membership(masks, refs_per_hyp, grid.max_refs)
        return [
            self._subset_rows(metric, self._pair_counts(metric, grid, results), member)
            for metric in self.metrics
        ]
