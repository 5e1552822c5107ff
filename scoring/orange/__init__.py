"""ORANGE (Lin & Och 2004): how well a metric ranks the references among
n-best candidates, with the jackknife, the cutoff curve and a bootstrap CI.

- :mod:`~scoring.orange.ranking`: oracle ranks, merging chunks, the summary;
- :mod:`~scoring.orange.nbest`: reading Moses n-best lists;
- :mod:`~scoring.orange.pairwise` and :mod:`~scoring.orange.batched`: the two
  ways of scoring candidates; :mod:`~scoring.orange.dispatch` chooses.
"""

from scoring.orange.comparison import (
    MetricComparison,
    OrangeComparison,
    compare_metrics,
    normalised_ranks,
)
from scoring.orange.curve_step import auto_curve_step
from scoring.orange.nbest import NBestEntry, NBestList, iter_nbest, open_nbest
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import (
    for_sentences,
    needs_test_set_references,
    prepare_metrics,
)
from scoring.orange.presentation import (
    ORANGE_INTERVAL,
    ORANGE_PAIRED_TEST,
    interval_decimals,
    paired_test_line,
    sentence_metric_name,
    single_candidate_warning,
    table_decimals,
)
from scoring.orange.ranking import (
    OrangeResult,
    SentenceRankings,
    curve_points,
    merge_rankings,
    summarise,
)
from scoring.orange.report_json import (
    DEFAULT_ABOVE_REFERENCE_LIMIT,
    AboveReferenceLimit,
    orange_json,
    paired_test_entry,
    parse_above_reference_limit,
)
from scoring.orange.review_stats import (
    SMALL_PORTION,
    ConfidenceVerdict,
    KappaResult,
    cohen_kappa,
    confidently_applicable,
    wilson_interval,
)

__all__ = [
    "NBestEntry",
    "NBestList",
    "OrangeOptions",
    "OrangeResult",
    "SentenceRankings",
    "curve_points",
    "iter_nbest",
    "merge_rankings",
    "open_nbest",
    "orange_for_metric",
    "orange_metrics",
    "prepare_metrics",
    "for_sentences",
    "needs_test_set_references",
    "rank_chunk_metrics",
    "rank_nbest_chunk",
    "nbest_words_from_bytes",
    "summarise",
    "MetricComparison",
    "OrangeComparison",
    "compare_metrics",
    "normalised_ranks",
    "SMALL_PORTION",
    "ConfidenceVerdict",
    "KappaResult",
    "cohen_kappa",
    "confidently_applicable",
    "wilson_interval",
    "auto_curve_step",
    "DEFAULT_ABOVE_REFERENCE_LIMIT",
    "AboveReferenceLimit",
    "orange_json",
    "paired_test_entry",
    "parse_above_reference_limit",
    "ORANGE_INTERVAL",
    "ORANGE_PAIRED_TEST",
    "interval_decimals",
    "paired_test_line",
    "sentence_metric_name",
    "single_candidate_warning",
    "table_decimals",
]

# The scoring entry points load the batch engine (Numba, ~0.2 s): only on use,
# so reading n-best lists or results (the web server, `python -m scoring
# score`) stays light.
_DISPATCH = (
    "orange_for_metric",
    "orange_metrics",
    "rank_chunk_metrics",
    "rank_nbest_chunk",
)
_READER = ("nbest_words_from_bytes",)


def __getattr__(name: str):
    if name in _DISPATCH:
        from scoring.orange import dispatch

        return getattr(dispatch, name)
    if name in _READER:
        from scoring.orange import nbest_stream

        return getattr(nbest_stream, name)
    raise AttributeError(f"module 'scoring.orange' has no attribute {name!r}")
