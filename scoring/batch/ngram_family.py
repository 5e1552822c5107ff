"""BLEU/BLEUS and NIST in the batch engine, equal to :mod:`scoring.metrics.ngram.bleu` and
:mod:`scoring.metrics.ngram.nist`.

Both clip a hypothesis's n-grams by their largest count in any *single*
reference of the subset, so they cannot be derived from pairwise
statistics: the kernels take the subsets' bit masks and clip against each
subset directly. The engine builds each metric's statistics rows
(``[hyp_len, ref_len, matches/info_1..N, totals_1..N]`` per hypothesis and
subset) and lets the metric's own vectorised
``sentence_scores_from_statistics`` turn them into scores, so smoothing and
brevity penalties are the metric's code, not a copy.

NIST's information weights are those the per-pair path gets. A NIST bound
to a reference corpus's weights (ORANGE binds the test set's,
:func:`scoring.orange.prepare.prepare_metrics`) looks each reference n-gram
up in that table (:mod:`scoring.batch.nist_fixed_weights`, then
:func:`scoring.batch.kernels_nist.nist_fixed_information`). An unbound NIST
computes them, as its ``_statistics`` does, from all references of the
scored corpus, which for one sentence scored against a subset are that
subset's references (repeated once per hypothesis, which leaves every count
ratio, and so every weight, unchanged).
"""

from __future__ import annotations

import math

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_ngram import clipped_subset_matches, nist_subset_information
from scoring.batch.kernels_nist import nist_fixed_information
from scoring.batch.nist_fixed_weights import reference_ngram_weights
from scoring.batch.subsets import membership
from scoring.metrics.ngram.bleu import BLEU, BLEUS
from scoring.metrics.ngram.nist import NIST
from scoring.metrics.ngram.nist_reference_weights import ReferenceWeights
from scoring.tokenizers import Tokenizer


def _grid_args(grid: PairGrid) -> tuple:
    return (
        grid.hyp_tokens,
        grid.hyp_offsets,
        grid.ref_tokens,
        grid.ref_offsets,
        grid.group_hyps,
        grid.group_refs,
        grid.vocabulary_size,
    )


def ngram_totals(hyp_lengths: np.ndarray, max_order: int) -> np.ndarray:
    """Hypothesis n-grams per order: ``(H,) -> (H, N)`` int64."""
    orders = np.arange(1, max_order + 1)
    return np.maximum(hyp_lengths[:, None] - orders[None, :] + 1, 0).astype(np.int64)


def closest_reference_lengths(
    hyp_lengths: np.ndarray, ref_lengths: np.ndarray, member: np.ndarray
) -> np.ndarray:
    """Per subset, the reference length closest to the hypothesis length,
    the shorter on ties (:func:`scoring.metrics.common.ngrams.closest_reference_length`):
    ``(H,), (H, K), (H, K, S) -> (H, S)`` int64."""
    longest = int(ref_lengths.max(initial=0)) + 1
    key = np.abs(ref_lengths - hyp_lengths[:, None]) * longest + ref_lengths  # (H, K)
    big = np.iinfo(np.int64).max
    # One reference at a time: a running minimum over (H, S) arrays is
    # about twice as fast as one reduction across the middle axis of an
    # (H, K, S) array (Table 7's BLEU: a tenth of its CPU).
    best = np.full((member.shape[0], member.shape[2]), big, dtype=np.int64)
    for k in range(member.shape[1]):
        np.minimum(best, np.where(member[:, k, :], key[:, k, None], big), out=best)
    return best % longest


def subset_mean_lengths(ref_lengths: np.ndarray, member: np.ndarray) -> np.ndarray:
    """``sum(lengths) / count`` over each subset: ``(H, S)`` float64."""
    total = (ref_lengths[:, :, None] * member).sum(axis=1)
    return total / member.sum(axis=1)


class BleuFamily(MetricFamily[BLEU]):
    """BLEU and BLEUS metrics of one tokenizer; one kernel pass up to the
    largest order."""

    @staticmethod
    def handles(metric: object) -> bool:
        # Exact classes: a subclass may compute its statistics differently.
        return type(metric) in (BLEU, BLEUS)

    @staticmethod
    def token_view(metric: BLEU) -> Tokenizer:
        return metric.tokenizer

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence BLEU (0-100) of every hypothesis against every subset:
        one ``(H, S)`` array per metric."""
        return self.scores_of_rows(self.statistics_rows(grid, masks))

    def statistics_rows(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Each metric's ``segment_row`` of every hypothesis against every
        subset: one ``(H, S, n_stats)`` int64 array per metric."""
        largest = max(metric.max_order for metric in self.metrics)
        matches = clipped_subset_matches(*_grid_args(grid), largest, masks)  # (H, S, N)
        hyp_lengths = grid.hyp_lengths
        member = membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)
        ref_len = closest_reference_lengths(
            hyp_lengths, grid.pair_ref_lengths(), member
        )
        totals = ngram_totals(hyp_lengths, largest)
        n_subsets = masks.size
        lengths = np.broadcast_to(hyp_lengths[:, None], ref_len.shape)
        results = []
        for metric in self.metrics:
            order = metric.max_order
            rows = np.concatenate(
                [
                    lengths[:, :, None],
                    ref_len[:, :, None],
                    matches[:, :, :order].astype(np.int64),
                    np.broadcast_to(
                        totals[:, None, :order], (len(hyp_lengths), n_subsets, order)
                    ),
                ],
                axis=2,
            )
            results.append(rows)
        return results


class NistFamily(MetricFamily[NIST]):
    """NIST metrics of one tokenizer; one kernel pass per maximum order."""

    @staticmethod
    def handles(metric: object) -> bool:
        return type(metric) is NIST

    @staticmethod
    def token_view(metric: NIST) -> Tokenizer:
        return metric.tokenizer

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence NIST of every hypothesis against every subset: one
        ``(H, S)`` array per metric."""
        return self.scores_of_rows(self.statistics_rows(grid, masks))

    def statistics_rows(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Each metric's ``segment_row`` of every hypothesis against every
        subset: one ``(H, S, n_stats)`` float64 array per metric."""
        zero_token = grid.vocabulary.index("0") if "0" in grid.vocabulary else -1
        hyp_lengths = grid.hyp_lengths
        member = membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)
        mean_ref_len = subset_mean_lengths(grid.pair_ref_lengths(), member)
        # Keyed by order and the bound weights (None: each subset's own).
        information: dict[tuple[int, ReferenceWeights | None], np.ndarray] = {}
        results = []
        for metric in self.metrics:
            order = metric.max_order
            fixed = metric.reference_weights
            if (order, fixed) not in information:
                if fixed is None:
                    information[order, fixed] = nist_subset_information(
                        *_grid_args(grid), order, masks, zero_token, math.log(2)
                    )
                else:
                    information[order, fixed] = nist_fixed_information(
                        *_grid_args(grid),
                        order,
                        masks,
                        reference_ngram_weights(grid, fixed, order),
                    )
            totals = ngram_totals(hyp_lengths, order).astype(np.float64)
            rows = np.concatenate(
                [
                    np.broadcast_to(
                        hyp_lengths.astype(np.float64)[:, None, None],
                        mean_ref_len.shape + (1,),
                    ),
                    mean_ref_len[:, :, None],
                    information[order, fixed],
                    np.broadcast_to(totals[:, None, :], mean_ref_len.shape + (order,)),
                ],
                axis=2,
            )
            results.append(rows)
        return results
