"""WER, PER and SER in the batch engine, equal to :mod:`scoring.metrics.edit.wer`,
:mod:`scoring.metrics.edit.per` and :mod:`scoring.metrics.edit.ser`.

WER and PER use the closest reference of a subset (fewest edits or errors,
the first on ties) and the subset's *average* reference length, so they
follow from per-pair edit distances / bag-of-words matches; SER's segment is
correct when some reference of the subset has the hypothesis's tokens (edit
distance 0). The metric's own ``sentence_scores_from_statistics`` makes the
scores from the rows.
"""

from __future__ import annotations

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_edit import bag_matches_grid, levenshtein_grid
from scoring.batch.ngram_family import subset_mean_lengths
from scoring.batch.subsets import membership, subset_min_first, take_columns
from scoring.metrics.edit.per import PER
from scoring.metrics.edit.ser import SER
from scoring.metrics.edit.wer import WER
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


class ErrorRateFamily(MetricFamily[WER | PER | SER]):
    """WER, PER and SER metrics of one tokenizer."""

    @staticmethod
    def handles(metric: object) -> bool:
        return type(metric) in (WER, PER, SER)

    @staticmethod
    def token_view(metric: WER | PER | SER) -> Tokenizer:
        return metric.tokenizer

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Sentence WER/PER/SER (percent) of every hypothesis against every
        subset: one ``(H, S)`` array per metric."""
        return self.scores_of_rows(self.statistics_rows(grid, masks))

    def statistics_rows(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Each metric's ``segment_row`` of every hypothesis against every
        subset: one ``(H, S, n_stats)`` array per metric."""
        member = membership(masks, grid.refs_per_group[grid.hyp_groups], grid.max_refs)
        ref_lengths = grid.pair_ref_lengths()
        mean_ref_len = subset_mean_lengths(ref_lengths, member)
        hyp_lengths = grid.hyp_lengths
        edits = matches = None
        results = []
        for metric in self.metrics:
            if isinstance(metric, (WER, SER)) and edits is None:
                edits = levenshtein_grid(*_grid_args(grid))
            if isinstance(metric, WER):
                fewest, _ = subset_min_first(edits, member)
                rows = np.stack([fewest, mean_ref_len], axis=-1)
            elif isinstance(metric, SER):
                matched = (member & (edits == 0)[:, :, None]).any(axis=1)
                rows = np.stack(
                    [np.where(matched, 0, 1), np.ones_like(matched, dtype=np.int64)],
                    axis=-1,
                )
            else:
                if matches is None:
                    matches = bag_matches_grid(*_grid_args(grid), False)
                errors = np.maximum(hyp_lengths[:, None], ref_lengths) - matches
                fewest, column = subset_min_first(errors, member)
                rows = np.stack(
                    [
                        fewest,
                        take_columns(matches, column).astype(np.float64),
                        np.broadcast_to(hyp_lengths[:, None], fewest.shape).astype(
                            np.float64
                        ),
                        take_columns(ref_lengths, column).astype(np.float64),
                        mean_ref_len,
                    ],
                    axis=-1,
                )
            results.append(rows)
        return results
