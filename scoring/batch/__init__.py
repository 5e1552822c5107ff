"""The batch scoring engine: sentence scores of millions of candidate/reference
pairs, equal to the per-pair metric code, for ORANGE at the paper's scale.

Texts are tokenised once per token view and interned to integer ids
(:mod:`scoring.batch.grid`); compiled kernels (Numba) compute per-pair or
per-subset statistics for whole groups of hypotheses at once
(``kernels_*``); family modules turn them into each metric's scores exactly
as its own code would (``*_family``, each a
:class:`~scoring.batch.family.MetricFamily`); :mod:`scoring.batch.engine` is the
entry point (:func:`~scoring.batch.engine.supports`,
:func:`~scoring.batch.engine.subset_scores`).

Supported: BLEU/BLEUS, NIST, WER, PER, ROUGE-N/L/W/S/SU, chrF/chrF++, TER,
METEOR (every parameter).
The engine knows nothing of ORANGE: :mod:`scoring.orange` uses it.
"""

from scoring.batch.kernel_cache import key_cache_by_source

key_cache_by_source()
