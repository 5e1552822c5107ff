"""The official tools' own word splitting, for reproducing their figures.

Each splits exactly as one tool does, quirks included; the shared tokenizers
(:mod:`scoring.tokenizers.registry`) stay the Unicode-correct default.

- ``ascii`` (:class:`AsciiWhitespaceTokenizer`): WER.pl and PER.pl (Perl
  ``split /\\s+/``: ASCII whitespace only, so U+00A0 and U+3000 stay inside a
  word); TERCOM's splitting uses :data:`ASCII_WHITESPACE` too.
- :func:`gtm14_tokens`: GTM 1.4 (Java ``trim`` and ``StringTokenizer``).
- :func:`wnm_tool_tokens`: ``NormaliseText`` of the WNM authors' ``wnm-01-1.pl``
  (:class:`WnmToolTokenizer` is the same as a value).

>>> AsciiWhitespaceTokenizer()("10\\u00a0000 km ")
('10\\xa0000', 'km')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.tokenizers.base import Tokenizer

# Perl's and Java's \s without Unicode rules: space, TAB, LF, VT, FF, CR.
ASCII_WHITESPACE = " \t\n\x0b\x0c\r"
_ASCII_WHITESPACE_RUN = re.compile("[" + re.escape(ASCII_WHITESPACE) + "]+")


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


# java.util.StringTokenizer's default delimiters: ASCII space, TAB, LF, CR, FF.
_GTM14_DELIMITERS = re.compile("[ \t\n\r\f]+")
# Java's String.trim() removes every character <= U+0020 at both ends.
_JAVA_TRIMMED = "".join(chr(code) for code in range(0x21))


def gtm14_tokens(text: str) -> tuple[str, ...]:
    """Split a segment the way GTM 1.4 does (no other preprocessing).

    Java ``String.trim()`` then ``StringTokenizer`` with its default
    delimiters: only ASCII whitespace separates tokens, so a no-break space
    (U+00A0) or an ideographic space (U+3000) stays inside a token.

    >>> gtm14_tokens(" 10\\u00a0000 people,\\tand more ")
    ('10\\xa0000', 'people,', 'and', 'more')
    """
    text = text.strip(_JAVA_TRIMMED)
    return tuple(token for token in _GTM14_DELIMITERS.split(text) if token)


# The WNM tool (Perl, no "use utf8") works on bytes. To give exactly its tokens we
# decode the UTF-8 text as Latin-1 (one character per byte), apply its
# substitutions with character classes restricted to what Perl matches in a
# byte string (\s and \d are ASCII only there), and return the tokens as
# Latin-1 strings: equal tokens stay equal, which is all matching needs.
_ASCII_SPACE = "[ \t\n\x0b\f\r]"
_TAGS = re.compile(r"</?[^>]+>")
_JOIN_DIGITS = re.compile(f"([0-9]){_ASCII_SPACE}+([0-9])")
_KEEP = (
    "A-Za-z0-9\\-'.,\xc0-\xff\x8a\x9a\xaa\xba\x8c-\x8f\x9c-\x9f\xac-\xaf"
    "\xbc-\xbf\xa1-\xa5\xb1-\xb5\xa8\xb8"
)
_PAD_OTHERS = re.compile(f"([^{_KEEP}])")
_DROP_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_PAD_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_PAD_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_PUNCTUATION = re.compile("[\"'\\-.:;!?(),_<>=]")
_SPACES = re.compile(f"{_ASCII_SPACE}+")
_UPPER_ASCII = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=2**16)
def wnm_tool_tokens(text: str, lowercase: bool = True) -> tuple[str, ...]:
    """Tokens of one segment as ``NormaliseText`` of ``wnm-01-1.pl`` gives them.

    Tags are removed, digits separated by spaces are joined ("1 000" ->
    "1000"), ASCII letters are lower-cased (the tool's default), punctuation
    is removed. Tokens are Latin-1 views of the UTF-8 bytes (see above).

    >>> wnm_tool_tokens("The U.S. paid $1 000, didn't it?")
    ('the', 'u', 's', 'paid', '$', '1000', 'didn', 't', 'it')
    """
    text = text.rstrip("\n").encode("utf-8").decode("latin-1")
    text = _TAGS.sub(" ", text)
    text = text.lstrip(" \t\n\x0b\f\r").replace("\n", " ")
    text = _JOIN_DIGITS.sub(r"\1\2", text)
    if lowercase:
        text = text.translate(_UPPER_ASCII)
    text = _PAD_OTHERS.sub(r" \1 ", text)
    text = _DROP_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 ", text)
    text = _PAD_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    text = _PAD_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    text = _PUNCTUATION.sub(" ", text)
    text = _SPACES.sub(" ", text).strip(" ")
    return tuple(text.split(" ")) if text else ()


@dataclass(frozen=True)
class WnmToolTokenizer:
    """:func:`wnm_tool_tokens` as a value: equal settings give equal (and
    equally hashed) tokenizers, so the batch engine's metrics that use it
    share one tokenisation (a lambda would be a new view on every call)."""

    lowercase: bool = True

    def __call__(self, text: str) -> tuple[str, ...]:
        return wnm_tool_tokens(text, self.lowercase)
