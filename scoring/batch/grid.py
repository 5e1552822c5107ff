"""The batch engine's input: hypotheses and references as token ids, in groups.

A :class:`PairGrid` holds H hypotheses and R references as integer token ids
(one shared interner, so equal ids mean equal tokens) with offsets, split
into G *groups*: every hypothesis of group g is scored against every
reference of group g. For ORANGE a group is one source sentence; its
hypotheses are either the n-best candidates or the references themselves
(each reference against the others).

The kernels return per-pair arrays of shape ``(H, K)`` where K is the largest
number of references in a group: column k holds the pair (hypothesis, k-th
reference of its group); columns past the group's own count are unused.

Shapes: ``hyp_offsets`` (H + 1,), ``ref_offsets`` (R + 1,), ``group_hyps`` and
``group_refs`` (G + 1,), all int64; tokens int32 in ``[0, vocabulary_size)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

Tokenize = Callable[[str], Sequence[str]]


class TokenInterner:
    """Maps tokens to consecutive integer ids (0, 1, 2, ...) as they appear."""

    def __init__(self, vocabulary: Sequence[str] = ()) -> None:
        self._ids: dict[str, int] = {}
        for token in vocabulary:
            self.intern([token])

    def intern(self, tokens: Iterable[str]) -> list[int]:
        ids = self._ids
        return [ids.setdefault(token, len(ids)) for token in tokens]

    @property
    def vocabulary(self) -> tuple[str, ...]:
        return tuple(self._ids)


def offsets_of(lengths: Iterable[int]) -> np.ndarray:
    """``[0, l0, l0 + l1, ...]`` as int64."""
    lengths = np.fromiter(lengths, dtype=np.int64)
    return np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)


def pack(sequences: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate int token arrays: ``(tokens int32, offsets int64)``."""
    offsets = offsets_of(len(sequence) for sequence in sequences)
    if not sequences:
        return np.zeros(0, dtype=np.int32), offsets
    return np.concatenate(sequences).astype(np.int32, copy=False), offsets


@dataclass(frozen=True)
class PairGrid:
    """Hypotheses x references by group (see the module docstring)."""

    hyp_tokens: np.ndarray
    hyp_offsets: np.ndarray
    ref_tokens: np.ndarray
    ref_offsets: np.ndarray
    group_hyps: np.ndarray
    group_refs: np.ndarray
    vocabulary_size: int
    # id -> token when known (NIST needs the id of the token "0").
    vocabulary: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.group_hyps.size != self.group_refs.size:
            raise ValueError("group_hyps and group_refs need one entry per group + 1")
        if self.group_hyps[-1] != self.n_hyps or self.group_refs[-1] != self.n_refs:
            raise ValueError("the groups must cover every hypothesis and reference")

    @property
    def n_hyps(self) -> int:
        return int(self.hyp_offsets.size - 1)

    @property
    def n_refs(self) -> int:
        return int(self.ref_offsets.size - 1)

    @property
    def n_groups(self) -> int:
        return int(self.group_hyps.size - 1)

    @property
    def refs_per_group(self) -> np.ndarray:
        """K_g of each group: ``(G,)`` int64."""
        return np.diff(self.group_refs)

    @property
    def max_refs(self) -> int:
        return int(self.refs_per_group.max()) if self.n_groups else 0

    @property
    def hyp_lengths(self) -> np.ndarray:
        """Tokens per hypothesis: ``(H,)`` int64."""
        return np.diff(self.hyp_offsets)

    @property
    def ref_lengths(self) -> np.ndarray:
        """Tokens per reference: ``(R,)`` int64."""
        return np.diff(self.ref_offsets)

    @property
    def hyp_groups(self) -> np.ndarray:
        """Group of each hypothesis: ``(H,)`` int64."""
        return np.repeat(np.arange(self.n_groups), np.diff(self.group_hyps))

    def pair_ref_lengths(self) -> np.ndarray:
        """Length of the k-th reference of each hypothesis's group: ``(H, K)``
        int64, 0 in unused columns."""
        table = np.zeros((self.n_groups, self.max_refs), dtype=np.int64)
        lengths = self.ref_lengths
        for k in range(self.max_refs):
            has = self.refs_per_group > k
            table[has, k] = lengths[self.group_refs[:-1][has] + k]
        return table[self.hyp_groups]

    def with_references_as_hypotheses(self) -> PairGrid:
        """The grid whose hypotheses are the references (each group's own)."""
        return PairGrid(
            hyp_tokens=self.ref_tokens,
            hyp_offsets=self.ref_offsets,
            ref_tokens=self.ref_tokens,
            ref_offsets=self.ref_offsets,
            group_hyps=self.group_refs,
            group_refs=self.group_refs,
            vocabulary_size=self.vocabulary_size,
            vocabulary=self.vocabulary,
        )


def grid_from_texts(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    tokenize: Tokenize,
    interner: TokenInterner | None = None,
) -> PairGrid:
    """Tokenise once and intern: ``hypotheses[g]`` are scored against
    ``references[g]`` (one group per index)."""
    if len(hypotheses) != len(references):
        raise ValueError("one list of references is needed per group")
    interner = TokenInterner() if interner is None else interner
    cache: dict[str, np.ndarray] = {}

    def ids(text: str) -> np.ndarray:
        found = cache.get(text)
        if found is None:
            found = np.asarray(interner.intern(tokenize(text)), dtype=np.int32)
            cache[text] = found
        return found

    hyp_tokens, hyp_offsets = pack(
        [ids(text) for group in hypotheses for text in group]
    )
    ref_tokens, ref_offsets = pack(
        [ids(text) for group in references for text in group]
    )
    return grid_of_groups(
        (hyp_tokens, hyp_offsets), (ref_tokens, ref_offsets),
        hypotheses, references, interner,
    )  # fmt: skip


def grid_of_groups(
    hyp_packed: tuple[np.ndarray, np.ndarray],
    ref_packed: tuple[np.ndarray, np.ndarray],
    hypotheses: Sequence[Sequence],
    references: Sequence[Sequence],
    interner: TokenInterner,
) -> PairGrid:
    """The grid of packed token ids ``(tokens, offsets)``, grouped as
    ``hypotheses[g]`` against ``references[g]``, in ``interner``'s ids."""
    return PairGrid(
        hyp_tokens=hyp_packed[0],
        hyp_offsets=hyp_packed[1],
        ref_tokens=ref_packed[0],
        ref_offsets=ref_packed[1],
        group_hyps=offsets_of(len(group) for group in hypotheses),
        group_refs=offsets_of(len(group) for group in references),
        vocabulary_size=max(1, len(interner.vocabulary)),
        vocabulary=interner.vocabulary,
    )
