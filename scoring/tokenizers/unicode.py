"""Unicode-aware tokenizers: ``intl`` (mteval-v14 international) and ``char``.

``intl``
    The international tokenisation of ``mteval-v14.pl`` as sacreBLEU
    implements it (``tokenize="intl"``): a punctuation character (Unicode
    category P*) is split off unless it has a number (category N*) on both
    sides, and every symbol (category S*) is split off. No entity is
    unescaped. Like mteval-v14 and sacreBLEU, a number followed by a period
    at the very end of the segment keeps its period (``"1999."`` is one
    token), because nothing follows the period.
``char``
    Every non-whitespace character is a token (sacreBLEU ``char``), for
    languages written without spaces such as Chinese and Japanese.

The categories come from Python's :mod:`unicodedata` (Unicode 14.0 with
Python 3.11); sacreBLEU uses the third-party ``regex`` module, whose tables
may be newer, so the two can only differ on characters assigned after
Unicode 14.0.

>>> from scoring.tokenizers import get_tokenizer
>>> get_tokenizer("intl")("«Hallo», sagte er — 3,5 €.")
('«', 'Hallo', '»', ',', 'sagte', 'er', '—', '3,5', '€', '.')
>>> get_tokenizer("char")("我爱 你。")
('我', '爱', '你', '。')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.tokenizers.base import Tokenizer


class _CategoryLetters(dict[int, str]):
    """``str.translate`` table: code point -> ``"N"`` (number), ``"P"``
    (punctuation), ``"S"`` (symbol) or ``"x"``; filled on first sight of a
    character, so no table of all of Unicode is built."""

    def __missing__(self, code_point: int) -> str:
        initial = unicodedata.category(chr(code_point))[0]
        letter = initial if initial in "NPS" else "x"
        self[code_point] = letter
        return letter


_CATEGORY_LETTERS = _CategoryLetters()

# mteval-v14's three substitutions, written over the category letters (one
# letter per character, so match positions carry over to the text):
#   s/(\P{N})(\p{P})/$1 $2 /g   punctuation after a non-number,
#   s/(\p{P})(\P{N})/ $1 $2/g   punctuation before a non-number,
#   s/(\p{S})/ $1 /g           symbols.
# Each pass runs on the output of the one before, and a match consumes the
# neighbouring character (deciding what the next match can see), exactly as
# Perl's and Python's left-to-right global substitution do.
_INTL_PASSES: tuple[tuple[re.Pattern[str], Callable[[str], str]], ...] = (
    (re.compile("[^N]P"), lambda pair: f"{pair[0]} {pair[1]} "),
    (re.compile("P[^N]"), lambda pair: f" {pair[0]} {pair[1]}"),
    (re.compile("S"), lambda symbol: f" {symbol} "),
)


@lru_cache(maxsize=2**16)
def _intl_tokens(text: str) -> tuple[str, ...]:
    """Tokenise one (already case-folded) segment; cached because reference
    segments are tokenised once per system."""
    for pattern, rewrite in _INTL_PASSES:
        letters = text.translate(_CATEGORY_LETTERS)
        pieces = []
        end = 0
        for match in pattern.finditer(letters):
            start, stop = match.span()
            pieces.append(text[end:start])
            pieces.append(rewrite(text[start:stop]))
            end = stop
        pieces.append(text[end:])
        text = "".join(pieces)
    return tuple(text.split())


@dataclass(frozen=True)
class InternationalTokenizer(Tokenizer):
    """mteval-v14 international tokenisation (sacreBLEU ``intl``)."""

    name: ClassVar[str] = "intl"
    description: ClassVar[str] = (
        "mteval-v14 international: Unicode punctuation and symbols split off"
    )

    def _split(self, text: str) -> tuple[str, ...]:
        return _intl_tokens(text)


@dataclass(frozen=True)
class CharacterTokenizer(Tokenizer):
    """Characters as tokens, whitespace dropped (sacreBLEU ``char``)."""

    name: ClassVar[str] = "char"
    description: ClassVar[str] = "every non-whitespace character is a token"

    def _split(self, text: str) -> tuple[str, ...]:
        # str.split() on the joined characters would give the same tokens:
        # whitespace is exactly what str.isspace() accepts.
        return tuple(character for character in text if not character.isspace())
