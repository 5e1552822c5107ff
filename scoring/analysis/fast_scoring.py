"""A system output's scores with the compiled kernels where they apply.

:func:`score_output` returns exactly what ``metric.score`` returns (the same
statistics, scores, signatures and details), computing the segment
statistics of METEOR, TER, chrF/chrF++, BLEU/BLEUS, NIST, WER, PER and ROUGE
with the batch engine
(:mod:`scoring.batch.segment_rows`: 10-50x faster than their per-pair
Python on a test set) and every other metric with its own code. The web
app's scoring jobs and per-reference diagnostics call it: a METEOR job with
paraphrases of 1,875 segments took minutes of per-pair alignment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from scoring.base import Metric
from scoring.results import MetricResult


def segment_statistics(
    metric: Metric, hypotheses, references, progress=None
) -> np.ndarray | None:
    """:func:`scoring.batch.segment_rows.segment_statistics`, imported on use:
    the kernels load Numba, which a web process importing this module (the
    scoring job service) must not (issue 24 item 6)."""
    from scoring.batch import segment_rows

    return segment_rows.segment_statistics(metric, hypotheses, references, progress)


def statistics(
    metric: Metric,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    progress: Callable[[float], None] | None = None,
    *,
    sources: Sequence[str] | None = None,
    document_ids: Sequence[str] | None = None,
) -> np.ndarray:
    """``metric.segment_statistics(...)``, through the kernels when they
    compute this metric."""
    found = _kernel_rows(
        metric, hypotheses, references, sources, document_ids, progress
    )
    if found is None:
        return metric.segment_statistics(
            hypotheses, references, progress=progress,
            sources=sources, document_ids=document_ids,
        )  # fmt: skip
    return found[1]


def score_output(
    metric: Metric,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    sentence: bool = False,
    progress: Callable[[float], None] | None = None,
    *,
    sources: Sequence[str] | None = None,
    document_ids: Sequence[str] | None = None,
) -> MetricResult:
    """``metric.score(...)``, through the kernels when they compute this
    metric (same arguments, same result)."""
    found = _kernel_rows(
        metric, hypotheses, references, sources, document_ids, progress
    )
    if found is None:
        return metric.score(  # by keyword, as callers of metric.score do
            hypotheses, references, sentence=sentence, progress=progress,
            sources=sources, document_ids=document_ids,
        )  # fmt: skip
    corpus, rows = found
    return metric.result_from_statistics(corpus, references, rows, sentence)


def _kernel_rows(metric, hypotheses, references, sources, document_ids, progress):
    """``(prepared corpus, rows)`` from the kernels, or None when they do not
    compute this metric (any object that is not a Metric, e.g. a wrapper,
    is left to its own ``score``)."""
    if not isinstance(metric, Metric) or type(metric).__name__ not in _KERNEL_ROWS:
        return None
    corpus = metric.prepare(hypotheses, references, sources, document_ids)
    rows = segment_statistics(metric, corpus.hypotheses, corpus.references, progress)
    return None if rows is None else (corpus, rows)


# The classes scoring.batch.segment_rows computes rows of (it checks the
# exact class again); named here so that other metrics never import it.
_KERNEL_ROWS = frozenset(
    {
        "Meteor",
        "TER",
        "CHRF",
        "CHRFPlusPlus",
        "BLEU",
        "BLEUS",
        "WER",
        "PER",
        "RougeN",
        "RougeL",
        "RougeW",
        "RougeS",
        "RougeSU",
        "NIST",
    }
)
