"""Hypothesis texts of a large n-best list, kept compactly, decoded on demand.

Python strings of a 1024-best list cost several times the file's size; the
ranking works on token ids, and only a few texts are ever shown (the
candidates ranked above the references). So the texts stay as the bytes of
the file as read, with the byte range of each stripped hypothesis
(:class:`TextBlock`); :class:`CandidateTexts` finds candidate c's block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TextBlock:
    """Texts of consecutive candidates: ``data[starts[j]:stops[j]]`` (UTF-8)."""

    data: bytes
    starts: np.ndarray  # (C_block,) int64
    stops: np.ndarray  # (C_block,) int64

    @classmethod
    def from_strings(cls, texts: Sequence[str]) -> TextBlock:
        encoded = [text.encode("utf-8") for text in texts]
        stops = np.cumsum([len(e) for e in encoded], dtype=np.int64)
        starts = stops - np.asarray([len(e) for e in encoded], dtype=np.int64)
        return cls(b"".join(encoded), starts, stops)

    def __len__(self) -> int:
        return int(self.starts.size)

    def text(self, j: int) -> str:
        return self.data[int(self.starts[j]) : int(self.stops[j])].decode("utf-8")


class CandidateTexts:
    """The texts of candidates 0..C-1, in file order, over several blocks."""

    def __init__(self, blocks: Sequence[TextBlock]) -> None:
        self._blocks = [block for block in blocks if len(block)]
        self._firsts = np.cumsum([0] + [len(b) for b in self._blocks], dtype=np.int64)

    def __len__(self) -> int:
        return int(self._firsts[-1])

    def __getitem__(self, candidate: int) -> str:
        if not 0 <= candidate < len(self):
            raise IndexError(candidate)
        block = int(np.searchsorted(self._firsts, candidate, side="right")) - 1
        return self._blocks[block].text(candidate - int(self._firsts[block]))

    def slice(self, start: int, stop: int) -> list[str]:
        """Texts of candidates ``start..stop-1``."""
        return [self[c] for c in range(start, stop)]


class DroppedTexts(CandidateTexts):
    """The texts of ``count`` candidates that were not kept: a run that
    needs none (every metric ranked from token ids, nothing printed per
    candidate) frees the file's bytes. Reading one is a programming error."""

    def __init__(self, count: int) -> None:
        super().__init__([])
        self._count = count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, candidate: int) -> str:
        raise RuntimeError(
            "the candidates' texts were not kept (read_nbest_words(keep_texts=False))"
        )


class SentenceTexts(Sequence):
    """``texts[i]``: the candidate texts of the i-th sentence (a tuple),
    decoded when asked; what the per-pair path reads as n-best lists."""

    def __init__(self, texts: CandidateTexts, sentence_offsets: np.ndarray) -> None:
        self._texts = texts
        self._offsets = sentence_offsets.tolist()

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return tuple(self._texts.slice(self._offsets[i], self._offsets[i + 1]))
