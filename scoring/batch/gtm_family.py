"""GTM in the batch engine, equal to :mod:`scoring.metrics.gtm.metric`.

GTM 1.4 matches a hypothesis against the concatenation of a subset's
references in one greedy pass, so each (hypothesis, subset) is matched on
its own (:func:`scoring.batch.kernels_gtm.gtm_subset_matching`); the greedy
is the same for every exponent, so GTM10/20/30 of one tokenizer share it.
The statistics rows ``[mms, hyp_len, mean_ref_len]`` are the metric's own,
and its ``sentence_scores_from_statistics`` makes the scores.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_gtm import gtm_subset_matching
from scoring.metrics.gtm.metric import GTM


class GtmFamily(MetricFamily[GTM]):
    """GTM metrics of one tokenizer (any exponents), scored together."""

    @staticmethod
    def handles(metric: object) -> bool:
        # The exact class: a subclass may match differently.
        return type(metric) is GTM

    @staticmethod
    def token_view(metric: GTM) -> Callable[[str], tuple[str, ...]]:
        return metric.tokenizer

    def statistics(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """``[mms, hyp_len, mean_ref_len]`` of every hypothesis against every
        subset: one ``(H, S, 3)`` float64 array per metric."""
        exponents = sorted({float(metric.exponent) for metric in self.metrics})
        mms, mean_ref_len = gtm_subset_matching(
            grid.hyp_tokens,
            grid.hyp_offsets,
            grid.ref_tokens,
            grid.ref_offsets,
            grid.group_hyps,
            grid.group_refs,
            grid.vocabulary_size,
            np.asarray(masks, dtype=np.int64),
            np.asarray(exponents, dtype=np.float64),
        )
        hyp_len = np.broadcast_to(
            grid.hyp_lengths.astype(np.float64)[:, None], mean_ref_len.shape
        )
        return [
            np.stack(
                [
                    mms[:, :, exponents.index(float(metric.exponent))],
                    hyp_len,
                    mean_ref_len,
                ],
                axis=-1,
            )
            for metric in self.metrics
        ]

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence GTM F-measures (0–1): one ``(H, S)`` array per metric."""
        return self.scores_of_rows(self.statistics(grid, masks))
