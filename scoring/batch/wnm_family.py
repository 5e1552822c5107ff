"""WNM in the batch engine: what the per-pair ORANGE path gives, no more.

WNM weights every n-gram by the salience of its words in the reference
text of its *document*, and salience compares that document with the rest
of the corpus (:mod:`scoring.metrics.wnm.salience`), so WNM needs document
ids (``WNM.requires``). ORANGE has none: an n-best list is a list of source
sentences, and the per-pair path (:func:`scoring.orange.pairwise.sentence_scores`)
calls ``segment_statistics`` with the candidates and one reference subset
only, which WNM refuses with ``MetricError("wnm needs document ids ...")``
(the web's ORANGE form refuses WNM for the same reason). That refusal is
the ground truth the engine matches: :class:`WnmFamily` raises the very
error the metric's own input check raises, before any scoring, so an ORANGE
run that includes WNM stops with the same message whichever path it takes.

Inventing documents would give numbers the per-pair code does not, and
none that mean much: each per-pair call sees one source sentence, so the
only documents it could have are that sentence's, and in a corpus of one
document every word occurs in every document (``df = N``), so every
salience, and every weighted score, is 0. Real saliences need the test
set's documents, which an n-best list does not carry. A WNM setting that
needed no document ids would not be taken here (:meth:`WnmFamily.handles`)
and would go pair by pair.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scoring.base import Metric
from scoring.batch.grid import PairGrid
from scoring.errors import MetricError
from scoring.metrics.wnm.metric import WNM


def refuse_like_the_per_pair_path(metric: Metric) -> None:
    """Raise the ``MetricError`` that the metric's own input check raises
    for ORANGE's input (candidates and references, no document ids)."""
    metric.prepare([""], [[""]])


class WnmFamily:
    """WNM metrics that need document ids (every setting today)."""

    def __init__(self, metrics: Sequence[Metric]) -> None:
        self.metrics = tuple(metrics)

    @staticmethod
    def handles(metric: object) -> bool:
        return type(metric) is WNM and "document_ids" in metric.requires

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """Never scores: raises the per-pair path's ``MetricError``."""
        for metric in self.metrics:
            refuse_like_the_per_pair_path(metric)
        raise MetricError(  # not reached while WNM requires document ids
            "wnm needs document ids, which ORANGE does not provide"
        )
