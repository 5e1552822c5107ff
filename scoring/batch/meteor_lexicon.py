"""What METEOR knows about each word, as arrays over a grid's vocabulary.

The compiled METEOR kernel (:mod:`scoring.batch.kernels_meteor`) never sees
a string: for the grid's vocabulary (token id -> word) it gets function-word
flags, stem ids, WordNet synset ids and paraphrase-table word ids, computed
here with the metric's own functions (its stemmer,
:func:`scoring.metrics.meteor.stages.synonym_sets`, its function-word list)
and remembered across chunks. The paraphrase table is held as the kernels'
integer arrays already (:mod:`scoring.metrics.meteor.paraphrase_table`,
loaded from a cache file), with its word -> id dict built once per table.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from scoring.metrics.meteor.config import MeteorConfig
from scoring.metrics.meteor.stages import synonym_sets

_LOCK = threading.Lock()


def empty_paraphrase_tuple() -> tuple:
    """Kernel arguments of "no paraphrase table"."""
    empty = np.zeros(0, dtype=np.int64)
    return (np.full(16, -1, dtype=np.int64), np.zeros(1, dtype=np.int64), empty,
            np.zeros(1, dtype=np.int64), empty, 0)  # fmt: skip


@dataclass
class MeteorLexicon:
    """Per-word facts of one METEOR configuration, cached by word."""

    config: MeteorConfig
    _stems: dict[str, int] = field(default_factory=dict)
    _stem_ids: dict[str, int] = field(default_factory=dict)
    _synsets: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def function_flags(self, vocabulary: Sequence[str]) -> np.ndarray:
        """1 where ``word.lower()`` is a function word: ``(V,)`` int64."""
        words = self.config.function_words
        return np.fromiter(
            (word.lower() in words for word in vocabulary),
            dtype=np.int64,
            count=len(vocabulary),
        )

    def stem_ids(self, vocabulary: Sequence[str]) -> np.ndarray:
        """Equal ids for equal stems: ``(V,)`` int64 (0 without a stemmer)."""
        stem = self.config.stemmer
        if stem is None:
            return np.zeros(len(vocabulary), dtype=np.int64)
        ids = np.empty(len(vocabulary), dtype=np.int64)
        with _LOCK:  # Snowball stemmers are not re-entrant
            for index, word in enumerate(vocabulary):
                found = self._stems.get(word)
                if found is None:
                    found = self._stem_ids.setdefault(stem(word), len(self._stem_ids))
                    self._stems[word] = found
                ids[index] = found
        return ids

    def synsets(self, vocabulary: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Sorted synset ids of each word as CSR: ``(V + 1,)``, ``(total,)``."""
        wordnet = self.config.wordnet_data
        lists: list[tuple[int, ...]] = []
        for word in vocabulary:
            found = self._synsets.get(word)
            if found is None:
                found = tuple(sorted(synonym_sets(word, wordnet))) if wordnet else ()
                self._synsets[word] = found
            lists.append(found)
        offsets = np.zeros(len(vocabulary) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(ids) for ids in lists])
        flat = np.fromiter(
            (i for ids in lists for i in ids), dtype=np.int64, count=int(offsets[-1])
        )
        return offsets, flat

    def table_ids(self, vocabulary: Sequence[str]) -> tuple[np.ndarray, tuple]:
        """Each word's paraphrase-table id (-1: unused) and the kernel's table."""
        table = self.config.paraphrase_table
        if table is None:
            return np.full(len(vocabulary), -1, dtype=np.int64), (
                empty_paraphrase_tuple()
            )
        words = table.word_ids
        ids = np.fromiter(
            (words.get(word, -1) for word in vocabulary),
            dtype=np.int64,
            count=len(vocabulary),
        )
        return ids, table.kernel_tuple()


_LEXICONS: dict[int, MeteorLexicon] = {}


def lexicon_for(config: MeteorConfig) -> MeteorLexicon:
    """The cached lexicon of a configuration (configs are built once each)."""
    with _LOCK:
        found = _LEXICONS.get(id(config))
        if found is None or found.config is not config:
            found = MeteorLexicon(config)
            _LEXICONS[id(config)] = found
        return found
