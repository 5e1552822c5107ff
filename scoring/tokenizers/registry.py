"""Tokenizers shared by the word-level metrics, and their registry.

A tokenizer is an immutable callable: ``tokenizer(text) -> tuple[str, ...]``
(contract in :mod:`scoring.tokenizers.base`). Every tokenizer first
lower-cases (when asked, with Python's ``str.lower()``, as sacreBLEU does)
and drops trailing whitespace, then splits; the two ``mteval13a`` tokenizers
fold case the Perl way instead (ASCII only).

Tokenizers (names as in signatures, ``tok:<name>``):

``13a``
    The tokenisation of NIST's ``mteval-v13a.pl`` as sacreBLEU implements it
    (sacreBLEU's ``13a``, the default): unescape four SGML entities, split
    off ASCII punctuation, split periods and commas except inside numbers,
    split a dash that follows a digit. Only ASCII punctuation is split; other
    scripts (e.g. Chinese) are left as they are.
``none``
    Split on whitespace only. Whitespace is Unicode whitespace (Python's
    ``str.split()``), so U+00A0 and U+3000 separate tokens, as in sacreBLEU.
``intl``
    mteval-v14's international tokenisation (sacreBLEU ``intl``), see
    :mod:`scoring.tokenizers.unicode`.
``char``
    Characters (sacreBLEU ``char``): every non-whitespace character a token;
    the default for Japanese and Korean targets (see
    :mod:`scoring.language_defaults`).
``zh``
    sacreBLEU's ``zh``: Chinese characters one by one, other text with the
    13a punctuation rules; the default for Chinese targets (see
    :mod:`scoring.tokenizers.chinese`).
``mteval13a``, ``mteval13a-sgml``
    The Perl ``mteval-v13a.pl`` exactly, quirks included (literal entities,
    ASCII-only lowercasing), for reproducing its figures; see
    :mod:`scoring.tokenizers.mteval`.

>>> get_tokenizer("13a")("Hello, world! It costs $3.50.")
('Hello', ',', 'world', '!', 'It', 'costs', '$', '3.50', '.')
>>> get_tokenizer("none", lowercase=True)("Hello,\u00a0World")
('hello,', 'world')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.errors import TokenizerError
from scoring.tokenizers.base import Tokenizer
from scoring.tokenizers.chinese import ChineseTokenizer
from scoring.tokenizers.mteval import (
    MTEVAL_ENTITIES,
    MtevalPlainTokenizer,
    MtevalSgmlTokenizer,
    split_13a_punctuation,
)
from scoring.tokenizers.unicode import CharacterTokenizer, InternationalTokenizer

__all__ = ["Tokenizer", "get_tokenizer", "list_tokenizers"]


@lru_cache(maxsize=2**16)
def _mteval_13a_tokens(text: str) -> tuple[str, ...]:
    """Tokenise one (already case-folded) segment like ``mteval-v13a.pl``.

    Cached because the same reference segments are tokenised once per system.
    """
    text = text.replace("<skipped>", "")
    # mteval joins lines broken by end-of-line hyphenation, then joins lines.
    text = text.replace("-\n", "").replace("\n", " ")
    if "&" in text:
        # One after the other, like mteval, so "&amp;lt;" ends up as "<".
        for entity, character in MTEVAL_ENTITIES:
            text = text.replace(entity, character)
    return tuple(split_13a_punctuation(f" {text} ").split())


@dataclass(frozen=True)
class Mteval13aTokenizer(Tokenizer):
    """The ``mteval-v13a.pl`` tokenizer (sacreBLEU ``13a``)."""

    name: ClassVar[str] = "13a"
    description: ClassVar[str] = (
        "mteval-v13a: SGML entities unescaped, ASCII punctuation split off"
    )

    def _split(self, text: str) -> tuple[str, ...]:
        return _mteval_13a_tokens(text)


@dataclass(frozen=True)
class WhitespaceTokenizer(Tokenizer):
    """No tokenisation beyond splitting on (Unicode) whitespace."""

    name: ClassVar[str] = "none"
    description: ClassVar[str] = "split on whitespace only"

    def _split(self, text: str) -> tuple[str, ...]:
        return tuple(text.split())


# The first two keep their places: listings and messages start "13a, none".
_TOKENIZERS: dict[str, type[Tokenizer]] = {
    tokenizer.name: tokenizer
    for tokenizer in (
        Mteval13aTokenizer,
        WhitespaceTokenizer,
        InternationalTokenizer,
        CharacterTokenizer,
        MtevalPlainTokenizer,
        MtevalSgmlTokenizer,
        ChineseTokenizer,
    )
}


def list_tokenizers() -> tuple[str, ...]:
    """Names accepted by :func:`get_tokenizer`, in a stable order."""
    return tuple(_TOKENIZERS)


def get_tokenizer(name: str, lowercase: bool = False) -> Tokenizer:
    """Return the tokenizer called ``name``, case-folding when ``lowercase``.

    Raises :class:`~scoring.errors.TokenizerError` (a ``MetricError``) naming
    the valid tokenizers when ``name`` is unknown.
    """
    try:
        tokenizer_class = _TOKENIZERS[name]
    except (KeyError, TypeError):
        valid = ", ".join(list_tokenizers())
        raise TokenizerError(
            f"unknown tokenizer {name!r}; valid tokenizers: {valid}"
        ) from None
    return tokenizer_class(lowercase=bool(lowercase))
