"""WNM in the batch engine, with saliences fixed from the whole test set.

WNM weights every n-gram by the salience of its words in the reference
text of its *document*, and salience compares that document with the rest
of the test set (:mod:`scoring.metrics.wnm.salience`). ORANGE therefore binds
a WNM metric to the test set first (:mod:`scoring.orange.prepare`: all
references and the document ids) and, chunk by chunk, to the sentences it
scores (:meth:`WNM.for_sentences <scoring.metrics.wnm.metric.WNM.for_sentences>`):
group g of a grid is sentence ``metric.sentences[g]``, weighted by its
document's saliences, exactly as the per-pair path weights that sentence's
candidates (:func:`scoring.orange.pairwise.rank_chunk_pairwise`). An unbound
WNM is refused with the error the per-pair path gives it.

Each group's word weights become a row over the grid's token ids (looked up
through ``grid.vocabulary``; rows are shared by the groups of one document)
and :func:`scoring.batch.kernels_wnm.wnm_subset_statistics` adds the same
float products in the same order as the per-pair code, so the statistics,
and the scores the metric forms from them, are the same bits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from scoring.batch.family import MetricFamily
from scoring.batch.grid import PairGrid
from scoring.batch.kernels_wnm import wnm_subset_statistics
from scoring.errors import MetricError
from scoring.metrics.wnm.metric import WNM


def refuse_like_the_per_pair_path(metric: WNM) -> None:
    """Raise the ``MetricError`` the per-pair path raises for a WNM that is
    not bound to a test set's sentences (its input check: no document ids)."""
    metric.prepare([""], [[""]])


_recent_ids: list[tuple[tuple[str, ...], dict[str, int]]] = []
_lock = threading.Lock()


def _ids_of(vocabulary: tuple[str, ...]) -> dict[str, int]:
    """token -> id of ``vocabulary``; the last few are kept, since a run's
    chunks (and each chunk's two grids) often share one vocabulary."""
    with _lock:
        for known, ids in _recent_ids:
            if known is vocabulary:
                return ids
    ids = {token: index for index, token in enumerate(vocabulary)}
    with _lock:
        _recent_ids.insert(0, (vocabulary, ids))
        del _recent_ids[4:]
    return ids


def _token_weight_rows(metric: WNM, grid: PairGrid) -> tuple[np.ndarray, np.ndarray]:
    """``(rows (D, V) float64, row of each group (G,) int64)``: the weight of
    every token id for each distinct document of the grid's groups."""
    n_groups = grid.n_groups
    if metric.weights != "salience":  # unweighted: every word weighs 1
        rows = np.ones((1, grid.vocabulary_size), dtype=np.float64)
        return rows, np.zeros(n_groups, dtype=np.int64)
    if (grid.hyp_tokens.size or grid.ref_tokens.size) and not grid.vocabulary:
        raise MetricError("wnm in the batch engine needs the grid's vocabulary")
    id_of = _ids_of(grid.vocabulary)
    row_of_document: dict[object, int] = {}
    rows: list[np.ndarray] = []
    group_rows = np.empty(n_groups, dtype=np.int64)
    for group in range(n_groups):
        document = metric.test_set.document_of(metric.sentences[group])  # type: ignore[union-attr,index]
        if document not in row_of_document:
            row = np.zeros(grid.vocabulary_size, dtype=np.float64)
            for word, weight in metric.sentence_weights(group).items():  # type: ignore[union-attr]
                index = id_of.get(word)
                if index is not None:
                    row[index] = weight
            row_of_document[document] = len(rows)
            rows.append(row)
        group_rows[group] = row_of_document[document]
    if not rows:
        return np.zeros((1, grid.vocabulary_size), dtype=np.float64), group_rows
    return np.stack(rows), group_rows


class WnmFamily(MetricFamily[WNM]):
    """Every WNM setting; scores only metrics bound to the grid's sentences."""

    @staticmethod
    def handles(metric: object) -> bool:
        return type(metric) is WNM

    @staticmethod
    def token_view(metric: WNM) -> Callable[[str], tuple[str, ...]]:
        return metric.tokenizer

    def scores(self, grid: PairGrid, masks: np.ndarray) -> list[np.ndarray]:
        """``(H, S)`` sentence scores per metric (bound with ``for_sentences``)."""
        for metric in self.metrics:
            if metric.sentences is None:  # type: ignore[attr-defined]
                refuse_like_the_per_pair_path(metric)  # type: ignore[arg-type]
                raise MetricError(  # a WNM that needs no document ids
                    "wnm in the batch engine: bind it to the test set's sentences "
                    "first (scoring.orange.prepare.prepare_metrics, for_sentences)"
                )
            if len(metric.sentences) != grid.n_groups:  # type: ignore[attr-defined]
                raise MetricError(
                    f"wnm is bound to {len(metric.sentences)} sentences, "  # type: ignore[attr-defined]
                    f"the grid has {grid.n_groups} groups"
                )
        results = []
        for metric in self.metrics:
            rows, group_rows = _token_weight_rows(metric, grid)  # type: ignore[arg-type]
            statistics = wnm_subset_statistics(
                grid.hyp_tokens,
                grid.hyp_offsets,
                grid.ref_tokens,
                grid.ref_offsets,
                grid.group_hyps,
                grid.group_refs,
                grid.vocabulary_size,
                metric.max_order,  # type: ignore[attr-defined]
                np.asarray(masks, dtype=np.int64),
                rows,
                group_rows,
                metric.ngram_weight == "sum" and metric.weights == "salience",  # type: ignore[attr-defined]
            )
            results.append(
                np.asarray(
                    metric.sentence_scores_from_statistics(statistics), dtype=np.float64
                )
            )
        return results
