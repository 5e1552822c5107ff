"""Word-level edit distances shared by WER, PER, SER and TER.

- :func:`levenshtein` counts the insertions, deletions and substitutions
  (each cost 1) that turn one token sequence into another, bit-parallel
  (Myers 1999; Hyyrö 2001): one column of the dynamic programme is a few
  operations on Python integers used as bit vectors, whatever the reference
  length.
- :func:`bag_matches` counts the words two sequences share regardless of
  position (PER's matches).
- :func:`error_rates` divides edits by lengths, as TERCOM does for empty references.

>>> levenshtein("it is a guide".split(), "it is the guide to".split())
2
>>> bag_matches("a man saw he".split(), "he saw a man".split())
4
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar

import numpy as np


def reference_masks(ref: Sequence[Hashable]) -> dict[Hashable, int]:
    """Bit ``i`` of ``masks[word]`` is set where ``ref[i] == word``."""
    masks: dict[Hashable, int] = {}
    for position, word in enumerate(ref):
        masks[word] = masks.get(word, 0) | (1 << position)
    return masks


def levenshtein_with_masks(
    hyp: Sequence[Hashable], masks: dict[Hashable, int], ref_length: int
) -> int:
    """Word Levenshtein distance of ``hyp`` to the reference behind ``masks``
    (see :func:`reference_masks`); reuse the masks for many hypotheses."""
    if ref_length == 0:
        return len(hyp)
    full = (1 << ref_length) - 1
    last = 1 << (ref_length - 1)
    # plus / minus: rows where the current column goes up / down by one.
    plus, minus, score = full, 0, ref_length
    for word in hyp:
        equal = masks.get(word, 0)
        vertical = equal | minus
        horizontal = (((equal & plus) + plus) ^ plus) | equal
        h_plus = minus | (full & ~(horizontal | plus))
        h_minus = plus & horizontal
        if h_plus & last:
            score += 1
        elif h_minus & last:
            score -= 1
        # Row 0 grows by one per column (D[0][j] = j): shift in a +1.
        h_plus = ((h_plus << 1) | 1) & full
        h_minus = (h_minus << 1) & full
        plus = h_minus | (full & ~(vertical | h_plus))
        minus = h_plus & vertical
    return score


def levenshtein(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> int:
    """Insertions + deletions + substitutions turning ``hyp`` into ``ref``."""
    return levenshtein_with_masks(hyp, reference_masks(ref), len(ref))


def bag_matches(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> int:
    """Σ_w min(count_hyp(w), count_ref(w)): words matched ignoring order."""
    ref_counts = Counter(ref)
    return sum(
        min(count, ref_counts[word])
        for word, count in Counter(hyp).items()
        if word in ref_counts
    )


def error_rates(edits: np.ndarray, lengths: np.ndarray, scale: float) -> np.ndarray:
    """``scale * edits / lengths`` elementwise, shapes ``(...)``.

    Where a length is 0 (empty references) the rate is ``scale`` when there
    are edits and 0 when there are none, as in TERCOM and sacreBLEU.
    """
    edits = np.asarray(edits, dtype=np.float64)
    lengths = np.asarray(lengths, dtype=np.float64)
    safe = np.where(lengths > 0, lengths, 1.0)
    empty = np.where(edits > 0, scale, 0.0)
    return np.where(lengths > 0, scale * edits / safe, empty)


class ClosestEditRate:
    """What WER and TER share: per segment ``[edits to the closest reference,
    average reference length]`` (float64); corpus rate = 100 * pooled edits /
    pooled lengths, sentence rate the same on one row (a mixin of the metric
    dataclasses, listed before :class:`~scoring.base.Metric`)."""

    scale: ClassVar[float]
    statistics_dtype: ClassVar[type] = np.float64

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return ("edits", "ref_len")

    @staticmethod
    def closest_row(
        hyp: Sequence[Hashable],
        refs: Sequence[Sequence[Hashable]],
        distance: Callable[[Sequence[Hashable], Sequence[Hashable]], float],
    ) -> list[float]:
        edits = min(distance(hyp, ref) for ref in refs)
        return [edits, sum(len(ref) for ref in refs) / len(refs)]

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus rate, percent: ``(..., 2) -> (...)``."""
        summed = np.asarray(summed, dtype=np.float64)
        return error_rates(summed[..., 0], summed[..., 1], self.scale)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence rate, percent: ``(..., 2) -> (...)``."""
        return self.corpus_scores_from_statistics(statistics)
