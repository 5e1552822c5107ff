"""Tokenizers shared by the word-level metrics.

A tokenizer is an immutable callable: ``tokenizer(text) -> tuple[str, ...]``.
Every tokenizer first lower-cases (when asked, with Python's ``str.lower()``,
as sacreBLEU does) and drops trailing whitespace (sacreBLEU's BLEU does this
before tokenising; it matters for a segment ending in ``"-\\n"``), then splits.

Tokenizers:

``13a``
    The tokenisation of NIST's ``mteval-v13a.pl`` (identical to sacreBLEU's
    ``13a``): unescape four SGML entities, split off ASCII punctuation, split
    periods and commas except inside numbers, split a dash that follows a
    digit. Only ASCII punctuation is split; other scripts (e.g. Chinese) are
    left as they are.
``none``
    Split on whitespace only. Whitespace is Unicode whitespace (Python's
    ``str.split()``), so U+00A0 and U+3000 separate tokens, as in sacreBLEU.

>>> get_tokenizer("13a")("Hello, world! It costs $3.50.")
('Hello', ',', 'world', '!', 'It', 'costs', '$', '3.50', '.')
>>> get_tokenizer("none", lowercase=True)("Hello,\u00a0World")
('hello,', 'world')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.errors import TokenizerError

# mteval-v13a splits off every ASCII punctuation character except the
# apostrophe, comma, hyphen and period (those depend on context, below). The
# space is in mteval's character class too; padding it is harmless.
_MTEVAL_SPLIT_ALWAYS = re.compile(
    "([" + re.escape(" !\"#$%&()*+/:;<=>?@[\\]^_`{|}~") + "])"
)
# A period or comma is split off unless it sits between two digits ("3.50",
# "1,000"). mteval does this with two passes; each pass consumes the character
# next to the punctuation mark, which decides what the next match can see, so
# the two passes must be kept exactly as they are.
_MTEVAL_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_MTEVAL_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
# "5-6" becomes "5 - 6", but "well-known" stays one token.
_MTEVAL_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

# Applied one after the other, like mteval, so "&amp;lt;" ends up as "<".
_MTEVAL_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


@lru_cache(maxsize=2**16)
def _mteval_13a_tokens(text: str) -> tuple[str, ...]:
    """Tokenise one (already case-folded) segment like ``mteval-v13a.pl``.

    Cached because the same reference segments are tokenised once per system.
    """
    text = text.replace("<skipped>", "")
    # mteval joins lines broken by end-of-line hyphenation, then joins lines.
    text = text.replace("-\n", "").replace("\n", " ")
    if "&" in text:
        for entity, character in _MTEVAL_ENTITIES:
            text = text.replace(entity, character)
    text = f" {text} "
    text = _MTEVAL_SPLIT_ALWAYS.sub(r" \1 ", text)
    text = _MTEVAL_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _MTEVAL_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    text = _MTEVAL_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    return tuple(text.split())


@dataclass(frozen=True)
class Tokenizer:
    """Base class: optional case folding, then a tokenizer-specific split.

    Subclasses set :attr:`name` (used in signatures as ``tok:<name>``) and
    implement :meth:`_split`.
    """

    lowercase: bool = False

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __call__(self, text: str) -> tuple[str, ...]:
        """Return the tokens of one segment (a tuple, so it can be cached)."""
        if self.lowercase:
            text = text.lower()
        return self._split(text.rstrip())

    @property
    def case_signature(self) -> str:
        """``"lc"`` when case-folded, ``"mixed"`` otherwise (sacreBLEU style)."""
        return "lc" if self.lowercase else "mixed"

    def _split(self, text: str) -> tuple[str, ...]:
        raise NotImplementedError


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


_TOKENIZERS: dict[str, type[Tokenizer]] = {
    Mteval13aTokenizer.name: Mteval13aTokenizer,
    WhitespaceTokenizer.name: WhitespaceTokenizer,
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
