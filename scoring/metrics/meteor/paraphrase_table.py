"""METEOR's paraphrase table as integer arrays, with phrase lookups.

The table has 5.3 million entries (English). Held as a Python dict of word
tuples it cost about 16 s of CPU to build and 2 GB of memory in every
process; as arrays it loads from a cache file in a fraction of a second
(:mod:`scoring.metrics.meteor.paraphrase_store`) and is what the compiled
kernels read anyway (:mod:`scoring.batch.kernels_meteor_paraphrase`).

Layout: ``words`` (id -> word); phrases (the keys first, ids
``0 .. n_keys - 1`` in file order, then the paraphrases that are not keys)
are numbered, ``phrase_offsets (P + 1,)`` / ``phrase_tokens`` give their
word ids; ``para_offsets (P + 1,)`` / ``para_phrases`` list each key's
paraphrases in file order; ``slot_keys`` is an open-addressing hash of the
keys (FNV-1a over the word ids, linear probing: the kernels' hash, checked
by the tests against ``build_phrase_hash``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

Phrase = tuple[str, ...]

_FNV_OFFSET = 14695981039346656037
_FNV_PRIME = 1099511628211
# Paraphrase lists remembered per table (the per-pair matcher asks for the
# same common words in nearly every sentence); cleared when this full.
_MEMO_LIMIT = 1 << 16


@dataclass(frozen=True, eq=False)
class ParaphraseTable:
    """Phrase -> paraphrases (in file order); ``max_len`` bounds lookups.

    ``phrases`` answers ``get(phrase)`` like the dict it replaces."""

    words: tuple[str, ...]
    slot_keys: np.ndarray
    para_offsets: np.ndarray
    para_phrases: np.ndarray
    phrase_offsets: np.ndarray
    phrase_tokens: np.ndarray
    max_len: int
    n_keys: int
    _memo: dict[int, tuple[Phrase, ...]] = field(
        default_factory=dict, init=False, repr=False
    )

    @classmethod
    def from_mapping(
        cls, phrases: Mapping[Phrase, Sequence[Phrase]]
    ) -> ParaphraseTable:
        """The table of ``phrases`` (insertion order is file order)."""
        return _arrays_of(phrases)

    def kernel_tuple(self) -> tuple:
        """The arrays the compiled matcher takes
        (:mod:`scoring.batch.kernels_meteor_paraphrase`)."""
        return (self.slot_keys, self.para_offsets, self.para_phrases,
                self.phrase_offsets, self.phrase_tokens, self.max_len)  # fmt: skip

    @cached_property
    def word_ids(self) -> dict[str, int]:
        """Word -> id (the kernels' word ids)."""
        return {word: index for index, word in enumerate(self.words)}

    @cached_property
    def key_ids(self) -> dict[Phrase, int]:
        """Key phrase -> key id, built on the first lookup in Python (about
        0.3 s for English; the kernels never need it)."""
        n_keys = self.n_keys
        offsets = self.phrase_offsets[: n_keys + 1].tolist()
        words = self.words
        tokens = [words[t] for t in self.phrase_tokens[: offsets[-1]].tolist()]
        return {
            tuple(tokens[offsets[key] : offsets[key + 1]]): key for key in range(n_keys)
        }

    @property
    def phrases(self) -> PhraseView:
        return PhraseView(self)

    def paraphrases(self, phrase: Phrase) -> tuple[Phrase, ...] | None:
        """The paraphrases of ``phrase`` in file order; None if not a key."""
        key = self.key_ids.get(phrase)
        if key is None:
            return None
        memo = self._memo
        found = memo.get(key)
        if found is None:
            found = self._paraphrases_of_key(key)
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    @cached_property
    def _views(self) -> tuple[memoryview, memoryview, memoryview, memoryview]:
        """The offset and id arrays as memoryviews: a lookup reads a few
        dozen integers, and a memoryview hands out Python ints without a
        NumPy step per read (the English table's 430,000 keys took 6.4 s
        of CPU with NumPy gathers, 3.6 s this way)."""
        arrays = (self.para_offsets, self.para_phrases,
                  self.phrase_offsets, self.phrase_tokens)  # fmt: skip
        return tuple(memoryview(np.ascontiguousarray(array)) for array in arrays)

    def _tokens(self, phrase_id: int) -> list[int]:
        _, _, offsets, tokens = self._views
        return tokens[offsets[phrase_id] : offsets[phrase_id + 1]].tolist()

    def _paraphrases_of_key(self, key: int) -> tuple[Phrase, ...]:
        para_offsets, para_phrases, offsets, tokens = self._views
        words = self.words
        ids = para_phrases[para_offsets[key] : para_offsets[key + 1]].tolist()
        return tuple([
            tuple([words[t] for t in tokens[offsets[p] : offsets[p + 1]].tolist()])
            for p in ids
        ])  # fmt: skip


class PhraseView(Mapping[Phrase, tuple[Phrase, ...]]):
    """The table read as a mapping phrase -> paraphrases (keys in file order)."""

    def __init__(self, table: ParaphraseTable) -> None:
        self._table = table

    def __getitem__(self, phrase: Phrase) -> tuple[Phrase, ...]:
        found = self._table.paraphrases(tuple(phrase))
        if found is None:
            raise KeyError(phrase)
        return found

    def get(self, phrase, default=None):  # type: ignore[override]
        found = self._table.paraphrases(tuple(phrase))
        return default if found is None else found

    def __contains__(self, phrase: object) -> bool:
        return phrase in self._table.key_ids

    def __iter__(self) -> Iterator[Phrase]:
        table = self._table
        words = table.words
        for key in range(len(self)):
            yield tuple(words[token] for token in table._tokens(key))

    def __len__(self) -> int:
        return self._table.n_keys


def phrase_hash(
    phrase_offsets: np.ndarray, phrase_tokens: np.ndarray, n_keys: int
) -> np.ndarray:
    """``slot_keys`` for keys ``0 .. n_keys - 1``, inserted in id order: the
    same array as the kernels' ``build_phrase_hash``."""
    n_slots = 1 << max(4, (2 * n_keys).bit_length())
    starts = phrase_offsets[:n_keys]
    lengths = phrase_offsets[1 : n_keys + 1] - starts
    state = np.full(n_keys, _FNV_OFFSET, dtype=np.uint64)
    for position in range(int(lengths.max(initial=0))):
        active = np.flatnonzero(lengths > position)
        token = phrase_tokens[starts[active] + position].astype(np.uint64)
        state[active] = (state[active] ^ (token + np.uint64(1))) * np.uint64(_FNV_PRIME)
    mask = n_slots - 1
    slots: list[int] = [-1] * n_slots
    for key, slot in enumerate((state & np.uint64(mask)).tolist()):
        while slots[slot] != -1:
            slot = (slot + 1) & mask
        slots[slot] = key
    return np.asarray(slots, dtype=np.int64)


def _arrays_of(table: Mapping[Phrase, Sequence[Phrase]]) -> ParaphraseTable:
    # Keys first: ids 0 .. n_keys - 1. Flat comprehensions, not a loop of
    # generators: the table has 5 million paraphrases.
    phrase_ids = {key: index for index, key in enumerate(table)}
    n_keys = len(phrase_ids)
    paraphrase_lists = table.values()
    para_lengths = np.fromiter(map(len, paraphrase_lists), dtype=np.int64, count=n_keys)
    new_id = phrase_ids.setdefault
    para_phrases = [
        new_id(phrase, len(phrase_ids))
        for paraphrases in paraphrase_lists
        for phrase in paraphrases
    ]
    words: dict[str, int] = {}
    tokens = [words.setdefault(w, len(words)) for phrase in phrase_ids for w in phrase]
    phrase_offsets = np.zeros(len(phrase_ids) + 1, dtype=np.int64)
    phrase_offsets[1:] = np.cumsum([len(phrase) for phrase in phrase_ids])
    phrase_tokens = np.asarray(tokens, dtype=np.int64)
    para_offsets = np.zeros(len(phrase_ids) + 1, dtype=np.int64)
    para_offsets[1 : n_keys + 1] = np.cumsum(para_lengths)
    para_offsets[n_keys + 1 :] = para_offsets[n_keys]
    return ParaphraseTable(
        words=tuple(words),
        slot_keys=phrase_hash(phrase_offsets, phrase_tokens, n_keys),
        para_offsets=para_offsets,
        para_phrases=np.asarray(para_phrases, dtype=np.int64),
        phrase_offsets=phrase_offsets,
        phrase_tokens=phrase_tokens,
        max_len=max(map(len, table), default=0),
        n_keys=n_keys,
    )
