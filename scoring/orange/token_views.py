"""Each metric's tokens of a whole n-best list, derived once per distinct word.

The engine groups metrics by *token view* (the callable text -> tokens a
metric applies, :func:`scoring.batch.engine.token_view`) and needs, per
view, every candidate as token ids. Tokenising 900,000 candidates in Python
once per view is what made a paper-scale run slow; but the usual views
tokenise each whitespace-separated word on its own:

    view(text) == concat(view(word) for word in text.split())

holds for whitespace splitting, the 13a tokenizer (with or without case
folding), TER's words without normalising or dropping punctuation, and
ROUGE's default preprocessing on them (whose punctuation filter
and stemming act per token). Their rules look only at neighbouring
characters, and every rule that looks across a space matches the same way
at the space padding each word alone: splitting off ASCII punctuation,
periods and commas next to non-digits, a dash after a digit, the four SGML
entities and ``<skipped>`` (which hold no space), and ``str.lower()`` (whose
one context rule, the Greek final sigma, stops at whitespace). For those
views (:func:`splits_at_whitespace`) each distinct word of the file is
tokenised once and the candidates' tokens are gathered with NumPy; any other
view tokenises each candidate's text exactly as the metric would. The
references (a few thousand texts) always go through the view itself, into
the same vocabulary. Tests compare both ways on real and adversarial text.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import chain

import numpy as np

from scoring.batch.grid import TokenInterner
from scoring.metrics.rouge.preprocess import RougeTextProcessor
from scoring.metrics.ter.preprocess import TerPreprocessor
from scoring.orange.nbest_stream import NBestWords
from scoring.tokenizers.registry import Mteval13aTokenizer, WhitespaceTokenizer

# Words gathered per NumPy step: bounds the index arrays (8 bytes a token).
_WORDS_PER_STEP = 1 << 22
# Candidate texts tokenised per step when a view reads whole texts.
_TEXTS_PER_STEP = 1 << 15


def splits_at_whitespace(view: Hashable) -> bool:
    """Whether ``view`` tokenises each whitespace-separated word on its own
    (see the module docstring); other views get the exact per-text path."""
    if type(view) in (WhitespaceTokenizer, Mteval13aTokenizer):
        return True
    if type(view) is TerPreprocessor:  # lower-cased and split, nothing else
        return not (view.normalize or view.no_punct or view.tercom)
    return (
        type(view) is RougeTextProcessor
        and view.preprocess == "default"
        and view.tokenize in ("13a", "none")
    )


def _word_table(
    vocabulary: Sequence[str], view, interner: TokenInterner
) -> tuple[np.ndarray, np.ndarray]:
    """Tokens of every distinct word: ``(offsets (V + 1,) int64, ids int32)``."""
    pieces = [interner.intern(view(word)) for word in vocabulary]
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    flat = [token for piece in pieces for token in piece]
    return (
        np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        np.asarray(flat, dtype=np.int32),
    )


def _gather(
    words: np.ndarray, word_offsets: np.ndarray, word_tokens: np.ndarray
) -> np.ndarray:
    """Concatenated tokens of ``words`` (word ids) through the word table."""
    lengths = np.diff(word_offsets)
    if (lengths == 1).all() and np.array_equal(
        word_tokens, np.arange(word_tokens.size, dtype=np.int32)
    ):
        return words  # every word is one token with the word's own id
    parts = []
    for start in range(0, words.size, _WORDS_PER_STEP):
        chunk = words[start : start + _WORDS_PER_STEP]
        counts = lengths[chunk]
        ends = np.cumsum(counts)
        shift = np.repeat(word_offsets[chunk] - (ends - counts), counts)
        parts.append(word_tokens[np.arange(int(ends[-1]) if ends.size else 0) + shift])
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def candidate_tokens(
    nbest: NBestWords, view, interner: TokenInterner
) -> tuple[np.ndarray, np.ndarray]:
    """``(tokens (T,) int32, offsets (C + 1,) int64)`` of every candidate."""
    if splits_at_whitespace(view):
        word_offsets, word_tokens = _word_table(nbest.vocabulary, view, interner)
        tokens = _gather(nbest.words, word_offsets, word_tokens)
        lengths = np.diff(word_offsets)
        if (lengths == 1).all():  # one token a word: the words' offsets
            return tokens.astype(np.int32, copy=False), nbest.word_offsets
        ends = np.concatenate(([0], np.cumsum(lengths[nbest.words])))
        return tokens.astype(np.int32, copy=False), ends[nbest.word_offsets]
    texts = nbest.texts
    parts = [
        whole_texts_tokens(
            [texts[c] for c in range(start, min(start + _TEXTS_PER_STEP, n))],
            view,
            interner,
        )
        for n in [nbest.n_candidates]
        for start in range(0, n, _TEXTS_PER_STEP)
    ]
    if not parts:
        return np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64)
    tokens = np.concatenate([part[0] for part in parts])
    ends = np.cumsum([0] + [part[1][-1] for part in parts])
    offsets = np.concatenate(
        [[0]] + [part[1][1:] + end for part, end in zip(parts, ends[:-1])]
    )
    return tokens, offsets.astype(np.int64)


def whole_texts_tokens(
    texts: Sequence[str], view, interner: TokenInterner
) -> tuple[np.ndarray, np.ndarray]:
    """``(tokens (T,) int32, offsets (len(texts) + 1,) int64)``: each text
    through the view itself, or its ``many`` (texts -> each one's tokens,
    the same, e.g. METEOR's words normalised many texts at a time) when it
    has one."""
    many = getattr(view, "many", None)
    pieces = many(texts) if many is not None else [view(text) for text in texts]
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    tokens = np.asarray(
        interner.intern(chain.from_iterable(pieces)), dtype=np.int32
    ).reshape(-1)
    return tokens, np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)


def texts_tokens(
    texts: Sequence[str], view, interner: TokenInterner, cache: dict[str, tuple]
) -> tuple[np.ndarray, np.ndarray] | None:
    """``(tokens (T,) int32, offsets (len(texts) + 1,) int64)`` of texts for a
    view that splits at whitespace, each distinct word tokenised once
    (``cache``: word -> the view's tokens, may be shared by threads; dict
    operations are atomic, a word computed twice is computed alike). None
    when a text holds a line break, whose ``"-\\n"`` joins two words."""
    if any("\n" in text for text in texts):
        return None
    split = [text.split() for text in texts]
    counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
    flat = list(chain.from_iterable(split))
    # Distinct words in order of appearance, numbered (C loops, no Python
    # per word: a chunk holds about a million words).
    vocabulary = tuple(dict.fromkeys(flat))
    word_ids = dict(zip(vocabulary, range(len(vocabulary))))
    words = np.fromiter(map(word_ids.__getitem__, flat), np.int32, len(flat))
    missing = [word for word in vocabulary if word not in cache]
    cache.update(zip(missing, map(view, missing)))
    word_offsets, word_tokens = _word_table(vocabulary, cache.__getitem__, interner)
    tokens = _gather(words, word_offsets, word_tokens).astype(np.int32, copy=False)
    ends = np.concatenate(([0], np.cumsum(np.diff(word_offsets)[words])))
    return tokens, ends[np.concatenate(([0], np.cumsum(counts)))].astype(np.int64)
