"""Word-level edit distances shared by WER, PER, SER and TER.

- :func:`levenshtein` counts the insertions, deletions and substitutions
  (each cost 1) that turn one token sequence into another, bit-parallel
  (Myers 1999; Hyyrö 2001): one column of the dynamic programme is a few
  operations on Python integers used as bit vectors, whatever the reference
  length.
- :func:`bag_matches` counts the words two sequences share regardless of
  position (PER's matches).
- :func:`get_edit_tokenizer` gives the tokenizers these metrics accept: the
  shared ones of :mod:`scoring.tokenizers` plus ``ascii``, the splitting of
  the official WER.pl / PER.pl scripts (Perl ``\\s``, ASCII whitespace only,
  so U+00A0 and U+3000 stay inside a word).

>>> levenshtein("it is a guide".split(), "it is the guide to".split())
2
>>> bag_matches("a man saw he".split(), "he saw a man".split())
4
>>> get_edit_tokenizer("ascii")("10\\u00a0000 km ")
('10\\xa0000', 'km')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from scoring.errors import TokenizerError
from scoring.tokenizers import Tokenizer, get_tokenizer, list_tokenizers

# Perl's and Java's \s without Unicode rules: space, TAB, LF, VT, FF, CR.
ASCII_WHITESPACE = " \t\n\x0b\x0c\r"
_ASCII_WHITESPACE_RUN = re.compile("[" + re.escape(ASCII_WHITESPACE) + "]+")


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


def split_ascii_whitespace(text: str) -> tuple[str, ...]:
    """Tokens between runs of ASCII whitespace (as Perl ``split /\\s+/`` on a
    trimmed byte string): every other character, U+00A0 included, is part
    of a word."""
    return tuple(token for token in _ASCII_WHITESPACE_RUN.split(text) if token)


@dataclass(frozen=True)
class AsciiWhitespaceTokenizer(Tokenizer):
    """WER.pl / PER.pl tokens: split on ASCII whitespace only, nothing else.

    Unlike the shared tokenizers it does not strip Unicode whitespace at the
    end first (a trailing U+00A0 stays part of the last word, as in Perl).
    """

    name: ClassVar[str] = "ascii"
    description: ClassVar[str] = (
        "split on ASCII whitespace only (WER.pl, PER.pl): U+00A0 is no separator"
    )

    def __call__(self, text: str) -> tuple[str, ...]:
        if self.lowercase:
            text = text.lower()
        return split_ascii_whitespace(text)


EDIT_TOKENIZERS: tuple[str, ...] = (*list_tokenizers(), AsciiWhitespaceTokenizer.name)


def get_edit_tokenizer(name: str, lowercase: bool = False) -> Tokenizer:
    """A tokenizer of :mod:`scoring.tokenizers` or ``"ascii"``.

    Raises :class:`~scoring.errors.TokenizerError` listing every valid name.
    """
    if name == AsciiWhitespaceTokenizer.name:
        return AsciiWhitespaceTokenizer(lowercase=bool(lowercase))
    if name in list_tokenizers():
        return get_tokenizer(name, lowercase)
    raise TokenizerError(
        f"unknown tokenizer {name!r}; valid tokenizers: {', '.join(EDIT_TOKENIZERS)}"
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
