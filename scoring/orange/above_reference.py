"""The candidates a metric ranks above the references, held as arrays.

ORANGE keeps, per sentence, every candidate whose score beats the oracle
score (its index in the n-best order and its score): the JSON lists the best
K of them and the web stores them all. On a corpus whose candidates are
close to the references, that is millions of candidates over 34 metrics
(4.3 M on 872 x 1024-best lists made by perturbing the references). As
Python tuples and dicts they took about 1.5 GB and a good share of the
run's time in allocation and garbage collection; here they are three arrays
per chunk (:class:`AboveReference`), and the per-sentence view a caller
iterates (tuples of ``(index, score)``, or the result's dicts through
:class:`AboveReferenceItems`) is made one sentence at a time when asked.
The values are the same Python ints and floats as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


def _position(i: int, length: int) -> int:
    """Index ``i`` of a sequence of ``length`` items, negative from the end."""
    position = i + length if i < 0 else i
    if not 0 <= position < length:
        raise IndexError(i)
    return position


@dataclass(frozen=True, eq=False)
class AboveReference(Sequence):
    """Per sentence of a chunk, the candidates above the oracle score, in
    n-best order: sentence s has ``indices[offsets[s]:offsets[s + 1]]``
    with ``scores`` alongside. Reads as a sequence of tuples of
    ``(candidate index, score)`` pairs, one tuple per sentence."""

    offsets: np.ndarray  # (S + 1,) int64
    indices: np.ndarray  # (A,) int64
    scores: np.ndarray  # (A,) float64

    @classmethod
    def from_pairs(
        cls, per_sentence: Iterable[Iterable[tuple[int, float]]]
    ) -> AboveReference:
        """From the per-sentence tuples of ``(index, score)`` pairs."""
        counts, indices, scores = [], [], []
        for pairs in per_sentence:
            pairs = list(pairs)
            counts.append(len(pairs))
            indices.extend(int(index) for index, _ in pairs)
            scores.extend(float(score) for _, score in pairs)
        return cls(
            np.concatenate(([0], np.cumsum(counts, dtype=np.int64))).astype(np.int64),
            np.asarray(indices, dtype=np.int64),
            np.asarray(scores, dtype=np.float64),
        )

    @classmethod
    def from_mask(cls, is_above: np.ndarray, scores: np.ndarray) -> AboveReference:
        """From a ``(S, N)`` mask of the candidates above and their
        ``(S, N)`` scores (every sentence N candidates)."""
        rows, columns = np.nonzero(is_above)
        n_sentences = is_above.shape[0]
        return cls(
            np.searchsorted(rows, np.arange(n_sentences + 1)).astype(np.int64),
            columns.astype(np.int64),
            np.asarray(scores, dtype=np.float64)[rows, columns],
        )

    @classmethod
    def concatenate(cls, parts: Sequence[AboveReference]) -> AboveReference:
        """The parts' sentences one after the other."""
        if not parts:
            return cls.from_pairs([])
        starts = np.cumsum([0] + [int(part.offsets[-1]) for part in parts[:-1]])
        return cls(
            np.concatenate(
                [parts[0].offsets[:1]]
                + [part.offsets[1:] + start for part, start in zip(parts, starts)]
            ).astype(np.int64),
            np.concatenate([part.indices for part in parts]).astype(np.int64),
            np.concatenate([part.scores for part in parts]).astype(np.float64),
        )

    @property
    def counts(self) -> np.ndarray:
        """Candidates above the oracle per sentence: ``(S,)`` int64."""
        return np.diff(self.offsets)

    def __len__(self) -> int:
        return int(self.offsets.size - 1)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        i = _position(i, len(self))
        start, stop = int(self.offsets[i]), int(self.offsets[i + 1])
        return tuple(
            zip(self.indices[start:stop].tolist(), self.scores[start:stop].tolist())
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AboveReference):
            return (
                np.array_equal(self.offsets, other.offsets)
                and np.array_equal(self.indices, other.indices)
                and np.array_equal(self.scores, other.scores)
            )
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return tuple(self) == tuple(tuple(pairs) for pairs in other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, eq=False)
class AboveReferenceItems(Sequence):
    """A result's ``above_reference``: per sentence the dict
    ``{"sentence", "oracle_score", "candidates": [{"index", "score"}, ...]}``,
    made when read; the arrays behind it serve the JSON directly
    (:func:`best_first`)."""

    sentence_ids: np.ndarray  # (S,) int64
    oracle_scores: np.ndarray  # (S,) float64
    above: AboveReference

    def __len__(self) -> int:
        return int(self.sentence_ids.size)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        i = _position(i, len(self))
        return {
            "sentence": int(self.sentence_ids[i]),
            "oracle_score": float(self.oracle_scores[i]),
            "candidates": [
                {"index": index, "score": score} for index, score in self.above[i]
            ],
        }

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AboveReferenceItems):
            return (
                np.array_equal(self.sentence_ids, other.sentence_ids)
                and np.array_equal(self.oracle_scores, other.oracle_scores)
                and self.above == other.above
            )
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class BestFirst:
    """Per sentence, the first ``limit`` candidates above the oracle, best
    first: ``pairs[offsets[s]:offsets[s + 1]]`` are sentence s's
    ``[index, score]`` lists; ``counts`` all the candidates above."""

    offsets: list[int]
    pairs: list[list[Any]]
    counts: list[int]


def best_first(items: AboveReferenceItems, limit: int | None) -> BestFirst:
    """Every sentence's candidates best first, ties in n-best order, cut to
    ``limit`` (``None``: all). Every candidate listed beats the oracle
    score, so the first one's side of it tells which way is better (lower
    scores first when it is below), as
    :func:`scoring.orange.report_json.metric_entry` decides from the
    dicts."""
    above = items.above
    counts = above.counts
    n_sentences = counts.size
    rows = np.repeat(np.arange(n_sentences), counts)
    listed = counts > 0
    lower = np.zeros(n_sentences, dtype=bool)
    lower[listed] = (
        above.scores[above.offsets[:-1][listed]] < items.oracle_scores[listed]
    )
    key = np.where(lower[rows], above.scores, -above.scores)
    order = np.lexsort((above.indices, key, rows))
    position = np.arange(order.size) - above.offsets[:-1][rows]
    if limit is not None:
        order = order[position < limit]
    kept = np.minimum(counts, limit) if limit is not None else counts
    pairs = [
        [index, score]
        for index, score in zip(
            above.indices[order].tolist(), above.scores[order].tolist()
        )
    ]
    offsets = np.concatenate(([0], np.cumsum(kept))).tolist()
    return BestFirst(offsets, pairs, counts.tolist())
