"""TER in the batch engine, equal to :mod:`scoring.metrics.ter.metric`.

TER's segment row is ``[edits to the closest reference, average reference
length]`` (:meth:`~scoring.metrics.common.edit_distance.ClosestEditRate.closest_row`:
the fewest edits over the references, the first on ties, and the subset's
mean length in words after TER's preprocessing). The compiled shift search
(:func:`scoring.batch.kernels_ter.ter_edits_grid`) gives every pair's edits
once; each subset's row is formed from them, and the metric's own
``sentence_scores_from_statistics`` makes the scores.

The grid must hold the words of the metric's
:attr:`~scoring.metrics.ter.metric.TER.preprocessor` (its token view), so TER
metrics with the same text settings share one grid and one kernel pass.
"""

from __future__ import annotations

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_ter import ter_edits_grid
from scoring.batch.ngram_family import subset_mean_lengths
from scoring.batch.subsets import membership, subset_min_first
from scoring.metrics.ter.beam import BEAM_WIDTH
from scoring.metrics.ter.metric import TER
from scoring.metrics.ter.preprocess import TerPreprocessor


def ter_grid_edits(grid: PairGrid) -> np.ndarray:
    """TERCOM edits of every (hypothesis, reference) pair: ``(H, K)`` int32
    (unused columns 0), as :func:`scoring.metrics.ter.shifts.ter_edits`."""
    return ter_edits_grid(
        grid.hyp_tokens,
        grid.hyp_offsets,
        grid.ref_tokens,
        grid.ref_offsets,
        grid.group_hyps,
        grid.group_refs,
        grid.vocabulary_size,
        BEAM_WIDTH,
    )


class TerFamily(MetricFamily[TER]):
    """TER metrics of one text preprocessing."""

    @staticmethod
    def handles(metric: object) -> bool:
        # The exact class: a subclass may compute its rows differently.
        return type(metric) is TER

    @staticmethod
    def token_view(metric: TER) -> TerPreprocessor:
        return metric.preprocessor

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence TER (percent) of every hypothesis against every subset:
        one ``(H, S)`` float64 array per metric."""
        member = membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)
        mean_ref_len = subset_mean_lengths(grid.pair_ref_lengths(), member)
        fewest, _ = subset_min_first(ter_grid_edits(grid), member)
        rows = np.stack([fewest, mean_ref_len], axis=-1)
        return [
            np.asarray(metric.sentence_scores_from_statistics(rows), dtype=np.float64)
            for metric in self.metrics
        ]
