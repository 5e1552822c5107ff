"""How ORANGE results are presented, the same way by the CLI, the JSON and
the web: the name of the interval, the warning for lists that cannot rank
anything, how many decimals make an average rank's interval visible, and
what a sentence BLEU is (its smoothing).
"""

from __future__ import annotations

import math
from functools import lru_cache

from scoring.errors import MetricError
from scoring.registry import canonical_spec, get_metric

# What ``ci_low``/``ci_high`` (average rank) and ``orange_ci_low``/``high``
# are: :func:`scoring.orange.summarise` takes ``numpy.percentile`` (linear
# interpolation) at 2.5 and 97.5 of the means of resampled sentences.
ORANGE_INTERVAL = (
    "95% bootstrap percentile interval over sentences, two-sided "
    "(2.5th and 97.5th percentiles of the resampled means, interpolated)"
)

# What ``best``, ``equivalent``, ``difference_*`` and ``p_value`` come from
# (:func:`scoring.orange.compare_metrics`), named alike by the command line,
# the JSON, the web page, its exports and the API, so no reader has to guess
# whether p is one- or two-sided.
ORANGE_PAIRED_TEST = {
    "test": "paired bootstrap of the per-sentence differences of rank/(N+1)",
    "sides": "two-sided",
    "rule": (
        "every metric tying the lowest ORANGE (within 1e-12) is best; "
        "equivalent to the best when the 95% percentile interval of the "
        "difference contains 0, otherwise significantly worse; p is twice the "
        "smaller share of resampled mean differences on one side of 0; with "
        "several best metrics, against the one a metric is least "
        "distinguishable from"
    ),
}


def paired_test_line() -> str:
    """The paired test in one line, for the table's footer and exports."""
    test = ORANGE_PAIRED_TEST
    return f"{test['test']}, {test['sides']}: {test['rule']}"


# How each sentence smoothing of BLEU is named (sacreBLEU's methods).
_SENTENCE_SMOOTHING = {
    "none": "unsmoothed",
    "floor": "floor-smoothed",
    "exp": "exp-smoothed",
    "mteval": "mteval-smoothed",
}


@lru_cache(maxsize=512)
def sentence_metric_name(spec: str) -> str:
    """What the metric is where its spec does not say it: ORANGE scores
    sentences, so its BLEU is a smoothed sentence BLEU (named by its
    smoothing), not the corpus BLEU that ``bleu`` reads as; ``""`` for every
    other metric (and for a spec the registry cannot read).

    >>> sentence_metric_name("bleus:n=4"), sentence_metric_name("wer")
    ('BLEU (add-one sentence)', '')
    >>> sentence_metric_name("bleu:sentence_smooth=exp")
    'BLEU (exp-smoothed sentence)'
    """
    try:
        metric = get_metric(spec)
        family = canonical_spec(metric).partition(":")[0]
    except MetricError:
        return ""
    if family not in ("bleu", "bleus"):
        return ""
    method = metric.sentence_smooth
    value = metric.sentence_smooth_value
    if method == "add-k":
        k = 1 if value is None else value
        return f"BLEU (add-{'one' if k == 1 else f'{k:g}'} sentence)"
    return f"BLEU ({_SENTENCE_SMOOTHING.get(method, method)} sentence)"


def single_candidate_warning(max_candidates: int) -> str | None:
    """A warning when no sentence has more than one candidate, else ``None``.

    With N = 1 the oracle's rank is 1, 1.5 or 2, so each sentence adds 50%,
    75% or 100% to ORANGE: it only says whether the metric prefers the one
    candidate to the references, not how it ranks them among alternatives.

    >>> single_candidate_warning(5) is None
    True
    """
    if max_candidates > 1:
        return None
    return (
        "Every sentence of this n-best list has only one candidate: the "
        "references are ranked against a single translation, so ORANGE can "
        "only be 50%, 75% or 100% per sentence and does not measure how a "
        "metric ranks the references among alternatives. Use n-best lists "
        "with several candidates per sentence."
    )


def interval_decimals(
    value: float, low: float | None, high: float | None, minimum: int = 2
) -> int:
    """Decimals (at least ``minimum``, at most 6) at which each end of the
    interval prints differently from ``value``; an end equal to the value
    (or missing, or NaN) cannot differ and is ignored.

    >>> interval_decimals(1.4, 1.396, 1.404)
    3
    >>> interval_decimals(38.2, 30.5, 45.1)
    2
    """
    bounds = [
        bound
        for bound in (low, high)
        if bound is not None and math.isfinite(bound) and bound != value
    ]
    for decimals in range(minimum, 7):
        shown = f"{value:.{decimals}f}"
        if all(f"{bound:.{decimals}f}" != shown for bound in bounds):
            return decimals
    return 6


def table_decimals(rows) -> int:
    """One number of decimals for a column of ``(value, low, high)``, so the
    column lines up: the largest any row needs."""
    return max((interval_decimals(*row) for row in rows), default=2)
