"""The batch scoring engine: sentence scores of millions of candidate/reference
pairs, equal to the per-pair metric code, for ORANGE at the paper's scale.

Texts are tokenised once per token view and interned to integer ids
(:mod:`scoring.batch.grid`); compiled kernels (Numba) compute per-pair or
per-subset statistics for whole groups of hypotheses at once
(``kernels_*``); family modules turn them into each metric's scores exactly
as its own code would (``*_family``); :mod:`scoring.batch.orange_batch`
runs ORANGE over chunks of sentences on threads.

Supported: BLEU/BLEUS, NIST, WER, PER, ROUGE-N/L/W/S/SU (every parameter);
:func:`supports` tells, and :func:`orange_metrics` sends other metrics to
the per-pair runner.
"""

from scoring.batch.engine import subset_scores, supports, token_view
from scoring.batch.orange_batch import (
    batch_rank_chunk,
    orange_batch,
    orange_metrics,
    rank_chunk_metrics,
)

__all__ = [
    "batch_rank_chunk",
    "orange_batch",
    "orange_metrics",
    "rank_chunk_metrics",
    "subset_scores",
    "supports",
    "token_view",
]
