"""Where the batch ORANGE run gets its token ids: texts or ready-made ids.

A *source* hands out, for a range of sentences and a token view, two
:class:`~scoring.batch.grid.PairGrid` s: the candidates against their
sentence's references, and the references against each other. Each call
builds independent arrays (its own interner), so chunks can be scored in
parallel threads without sharing mutable state. ``candidate_counts`` and
``reference_counts`` give N_i and K_i of every sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from scoring.batch.grid import (
    PairGrid,
    TokenInterner,
    grid_from_texts,
    grid_of_groups,
    offsets_of,
    pack,
)
from scoring.metrics.ter.preprocess import TerPreprocessor
from scoring.orange.nbest import TokenizedNBest
from scoring.orange.nbest_stream import NBestWords
from scoring.orange.token_views import (
    candidate_tokens,
    splits_at_whitespace,
    texts_tokens,
    whole_texts_tokens,
)
from scoring.tokenizers.registry import WhitespaceTokenizer

# Views that lower-case and split at most: cheaper per text than per word.
_ONLY_SPLIT = (WhitespaceTokenizer, TerPreprocessor)


@dataclass(frozen=True)
class TextSource:
    """n-best lists and references as text; tokenised per view and chunk.

    ``candidates[i]``: the candidates of sentence i in the system's order;
    ``references[i]``: its K_i references.
    """

    candidates: Sequence[Sequence[str]]
    references: Sequence[Sequence[str]]

    @property
    def n_sentences(self) -> int:
        return len(self.candidates)

    @cached_property
    def candidate_counts(self) -> np.ndarray:
        """N_i per sentence: ``(S,)`` int64."""
        return np.array([len(c) for c in self.candidates], dtype=np.int64)

    @cached_property
    def reference_counts(self) -> np.ndarray:
        """K_i per sentence: ``(S,)`` int64."""
        return np.array([len(r) for r in self.references], dtype=np.int64)

    # Each view's tokens of each distinct candidate word, shared by the
    # chunks (threads): see :func:`scoring.orange.token_views.texts_tokens`.
    _word_tokens: dict[Hashable, dict[str, tuple]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def grids(self, view: Hashable, start: int, stop: int) -> tuple[PairGrid, PairGrid]:
        candidates, references = (
            self.candidates[start:stop],
            self.references[start:stop],
        )
        tokenize: Callable[[str], Sequence[str]] = view  # type: ignore[assignment]
        texts = [text for group in candidates for text in group]
        interner = TokenInterner()
        found = None
        if splits_at_whitespace(view) and type(view) not in _ONLY_SPLIT:
            # Each distinct word tokenised once (the views that only split
            # cost less text by text than making a Python string per word).
            found = texts_tokens(
                texts, view, interner, self._word_tokens.setdefault(view, {})
            )
        elif hasattr(view, "many"):  # tokenises many texts at once
            found = whole_texts_tokens(texts, view, interner)
        if found is None:
            grid = grid_from_texts(candidates, references, tokenize)
        else:
            ref_tokens, ref_offsets = pack(
                [
                    np.asarray(interner.intern(tokenize(text)), dtype=np.int32)
                    for group in references
                    for text in group
                ]
            )
            grid = grid_of_groups(
                found, (ref_tokens, ref_offsets), candidates, references, interner
            )
        # The references were interned with the candidates: same ids.
        return grid, grid.with_references_as_hypotheses()


@dataclass(frozen=True)
class TokenSource:
    """Candidates and references already as token ids (one interner for
    both), e.g. :mod:`scoring.bench.synthetic`'s corpora or a saved
    :class:`~scoring.orange.nbest.TokenizedNBest`. The ids stand for the tokens every
    view would produce, so the view is ignored: use it only when all the
    metrics' tokenisers leave these tokens as they are."""

    nbest: TokenizedNBest
    references: Sequence[Sequence[np.ndarray]]  # [i][k]: int32 ids

    @property
    def n_sentences(self) -> int:
        return int(self.nbest.sentence_offsets.size - 1)

    @cached_property
    def candidate_counts(self) -> np.ndarray:
        """N_i per sentence: ``(S,)`` int64."""
        return np.diff(self.nbest.sentence_offsets)

    @cached_property
    def reference_counts(self) -> np.ndarray:
        """K_i per sentence: ``(S,)`` int64."""
        return np.array([len(r) for r in self.references], dtype=np.int64)

    def grids(self, view: Hashable, start: int, stop: int) -> tuple[PairGrid, PairGrid]:
        nbest = self.nbest
        first, last = (
            int(nbest.sentence_offsets[start]),
            int(nbest.sentence_offsets[stop]),
        )
        token_start = int(nbest.candidate_offsets[first])
        token_stop = int(nbest.candidate_offsets[last])
        ref_tokens, ref_offsets = pack(
            [r for refs in self.references[start:stop] for r in refs]
        )
        candidates = PairGrid(
            hyp_tokens=nbest.tokens[token_start:token_stop],
            hyp_offsets=nbest.candidate_offsets[first : last + 1] - token_start,
            ref_tokens=ref_tokens,
            ref_offsets=ref_offsets,
            group_hyps=nbest.sentence_offsets[start : stop + 1] - first,
            group_refs=offsets_of(len(refs) for refs in self.references[start:stop]),
            vocabulary_size=1
            + max(
                len(nbest.vocabulary) - 1,
                int(nbest.tokens[token_start:token_stop].max(initial=0)),
                int(ref_tokens.max(initial=0)),
            ),
            vocabulary=nbest.vocabulary,
        )
        return candidates, candidates.with_references_as_hypotheses()


@dataclass(frozen=True)
class ViewTokens:
    """One token view's ids of a whole n-best list and its references.

    Shapes: T candidate tokens, C candidates, S sentences.
    """

    hyp_tokens: np.ndarray  # (T,) int32
    hyp_offsets: np.ndarray  # (C + 1,) int64: tokens of candidate c
    references: tuple[tuple[np.ndarray, ...], ...]  # [i][k]: int32 ids
    vocabulary: tuple[str, ...]  # id -> token


@dataclass(frozen=True)
class PretokenizedSource:
    """Candidates and references tokenised once per view for a whole run
    (:func:`scoring.orange.token_views.pretokenized_source` builds it from a
    file), so the engine's chunks only slice arrays. ``grids`` accepts only
    the views it was built for."""

    sentence_offsets: np.ndarray  # (S + 1,) int64: candidates of sentence s
    views: dict[Hashable, ViewTokens]

    @property
    def n_sentences(self) -> int:
        return int(self.sentence_offsets.size - 1)

    @cached_property
    def candidate_counts(self) -> np.ndarray:
        """N_i per sentence: ``(S,)`` int64."""
        return np.diff(self.sentence_offsets)

    @cached_property
    def reference_counts(self) -> np.ndarray:
        """K_i per sentence: ``(S,)`` int64."""
        any_view = next(iter(self.views.values()))
        return np.array([len(r) for r in any_view.references], dtype=np.int64)

    def grids(self, view: Hashable, start: int, stop: int) -> tuple[PairGrid, PairGrid]:
        tokens = self.views[view]
        first, last = (
            int(self.sentence_offsets[start]),
            int(self.sentence_offsets[stop]),
        )
        token_start = int(tokens.hyp_offsets[first])
        token_stop = int(tokens.hyp_offsets[last])
        references = tokens.references[start:stop]
        ref_tokens, ref_offsets = pack([r for refs in references for r in refs])
        candidates = PairGrid(
            hyp_tokens=tokens.hyp_tokens[token_start:token_stop],
            hyp_offsets=tokens.hyp_offsets[first : last + 1] - token_start,
            ref_tokens=ref_tokens,
            ref_offsets=ref_offsets,
            group_hyps=self.sentence_offsets[start : stop + 1] - first,
            group_refs=offsets_of(len(refs) for refs in references),
            vocabulary_size=max(1, len(tokens.vocabulary)),
            vocabulary=tokens.vocabulary,
        )
        return candidates, candidates.with_references_as_hypotheses()


def pretokenized_source(
    nbest: NBestWords,
    references: Sequence[Sequence[str]],
    views: Iterable[Hashable],
) -> PretokenizedSource:
    """Every candidate and reference as token ids for each of ``views``.

    ``references[i]`` are the K_i references of the i-th sentence of
    ``nbest`` (by position).
    """
    if len(references) != nbest.sentence_ids.size:
        raise ValueError("one list of references is needed per sentence")
    tokens_by_view = {}
    for view in dict.fromkeys(views):
        interner = TokenInterner()
        hyp_tokens, hyp_offsets = candidate_tokens(nbest, view, interner)
        reference_tokens = tuple(
            tuple(
                np.asarray(interner.intern(view(text)), dtype=np.int32) for text in refs
            )
            for refs in references
        )
        tokens_by_view[view] = ViewTokens(
            hyp_tokens, hyp_offsets, reference_tokens, interner.vocabulary
        )
    return PretokenizedSource(nbest.sentence_offsets, tokens_by_view)
