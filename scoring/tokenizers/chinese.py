"""sacreBLEU's ``zh`` tokenizer: Chinese characters one by one, the rest as 13a.

sacreBLEU 2.x (its ``tokenizer_zh`` module, by Shujian Huang) scores Chinese
output by making each "Chinese" character a word of its own and tokenising
what lies between them with the punctuation rules of ``13a``. This module
reproduces it token for token (checked on every line of the WMT21 Chinese
sources and on every code point, ``tests/scoring/tokenizers/test_zh_and_char.py``):

1. strip the segment at both ends (Unicode whitespace);
2. put a space on each side of every character in :data:`ZH_CHARACTER_RANGES`;
3. apply the four 13a punctuation rules
   (:func:`~scoring.tokenizers.mteval.split_13a_punctuation`) to the text as
   it is, *without* the leading and trailing space 13a adds first: so a
   segment ending in ``5.`` keeps ``5.`` as one token under ``zh`` where 13a
   gives ``5 .``; no SGML entity is unescaped and ``<skipped>`` stays;
4. split on whitespace.

Which characters count as Chinese is what sacreBLEU's table *does*, not what
its comments say. Its two supplementary-plane ranges are written with
four-digit ``\\u`` escapes, so ``"\\u20000"`` is the two characters U+2000
and ``0``; comparing one character with such strings selects U+2001–U+2A6D
(general punctuation such as ``–`` ``“`` ``”`` ``…``, letter-like symbols,
arrows, mathematical operators, dingbats...) and U+2F81–U+2FA1, while
Extension B ideographs (U+20000 and up) are *not* split. Hiragana, Katakana
(U+3040–U+30FF) and Hangul syllables are not split either; the fullwidth and
halfwidth forms (U+FF00–U+FFEF, halfwidth Katakana and Hangul letters
included) are.

>>> from scoring.tokenizers import get_tokenizer
>>> get_tokenizer("zh")("他说：“COVID-19疫情在2020年结束。”")
('他', '说', '：', '“', 'COVID-19', '疫', '情', '在', '2020', '年', '结', '束', '。', '”')
>>> get_tokenizer("zh")("costs $3.50, or 5."), get_tokenizer("13a")("or 5.")
(('costs', '$', '3.50', ',', 'or', '5.'), ('or', '5', '.'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.tokenizers.base import Tokenizer
from scoring.tokenizers.mteval import split_13a_punctuation

#: Inclusive code point ranges that sacreBLEU 2.6.0's ``zh`` tokenizer splits
#: into single characters, as its range checks actually evaluate (see the
#: module docstring for why the first range is not what it was meant to be).
ZH_CHARACTER_RANGES: tuple[tuple[int, int], ...] = (
    (0x2001, 0x2A6D),  # meant: Extension B (U+20000-2A6D6); also covers 2600-27BF
    (0x2E80, 0x2FDF),  # CJK radicals supplement, Kangxi radicals (+ 2F81-2FA1)
    (0x2FF0, 0x303F),  # ideographic description characters, CJK punctuation
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31EF),  # Bopomofo extended, CJK strokes
    (0x3200, 0x4DB5),  # enclosed CJK, CJK compatibility, Extension A
    (0x4E00, 0x9FBB),  # CJK unified ideographs (to Unicode 4.1)
    (0xF900, 0xFA2D),  # CJK compatibility ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # halfwidth and fullwidth forms
)

_ZH_CHARACTER = re.compile(
    "(["
    + "".join(f"\\U{start:08x}-\\U{end:08x}" for start, end in ZH_CHARACTER_RANGES)
    + "])"
)


@lru_cache(maxsize=2**16)
def zh_tokens(text: str) -> tuple[str, ...]:
    """The ``zh`` tokens of one (already case-folded) segment.

    Cached because the same reference segments are tokenised once per system.
    """
    spaced = _ZH_CHARACTER.sub(r" \1 ", text.strip())
    return tuple(split_13a_punctuation(spaced).split())


@dataclass(frozen=True)
class ChineseTokenizer(Tokenizer):
    """sacreBLEU's ``zh``: Chinese characters split, other text as 13a."""

    name: ClassVar[str] = "zh"
    description: ClassVar[str] = (
        "sacreBLEU zh: each Chinese character a token, other text as 13a"
    )

    def _split(self, text: str) -> tuple[str, ...]:
        return zh_tokens(text)
