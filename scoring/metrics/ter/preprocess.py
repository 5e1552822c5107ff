"""Turning a segment into TER's words: sacreBLEU's way or TERCOM 0.7.25's.

Both tools apply the same options in the same order: case folding (on by
default: TER is case-insensitive unless asked otherwise), then optionally
TERCOM's "-N" normalisation (mteval-style punctuation splitting, entities,
possessive 's), then optionally "-P" punctuation removal, then a split on
whitespace. They differ in what counts as whitespace and in a few details:

sacreBLEU (``tercom=False``, the default; matches ``sacrebleu.metrics.TER``)
    Unicode whitespace (``str.split()``), so U+00A0 and U+3000 separate
    words; the end of the segment is stripped first; the normalisation joins
    lines broken at ``"\\n-"``; ``asian_support`` splits CJK ideographs and CJK
    punctuation into single characters (with ``normalize``) or removes CJK
    punctuation (with ``no_punct``). sacreBLEU's extra rules for runs of kana
    are anchored at the start of a string that its normalisation has already
    padded with a space, so they never apply and are not reproduced.
TERCOM 0.7.25 (``tercom=True``)
    Only ASCII whitespace separates words (Java's ``\\s``), so ``10`` U+00A0
    ``000`` is one word; the segment is trimmed like Java's ``String.trim()``
    (every character up to U+0020); the normalisation drops ``<skipped>`` and
    joins lines broken at ``"-\\n"``; and Java's ``split`` is reproduced: a
    segment that is non-empty but normalises to nothing is one empty word,
    and a leading separator gives a leading empty word. TERCOM 0.7.25 has no
    Asian-language support.

Case folding is Python's ``str.lower()``; Java's ``toLowerCase()`` (TERCOM)
agrees with it on every character that differs between the two only in
locale-specific cases (Turkish/Lithuanian locales), which do not apply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.tokenizers.tools import ASCII_WHITESPACE

_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
# TERCOM's punctuation class [{-~[-` -&(-+:-@/], character ranges spelled out.
_PUNCTUATION = re.compile(r"([{-~\[-` -&(-+:-@/])")
_POSSESSIVE = re.compile(r"'s ")
_POSSESSIVE_AT_END = re.compile(r"'s$")
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_REMOVED_PUNCTUATION = re.compile(r"[.,?:;!\"()]")

# sacreBLEU's asian_support: CJK ideographs (URO, extension A), strokes,
# radicals, compatibility blocks, enclosed letters (its range runs to
# U+3F22, into extension A, and is kept as it is), CJK and full-width
# punctuation; each becomes a word of its own.
_ASIAN_PUNCTUATION = "\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
_FULL_WIDTH_PUNCTUATION = "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09"
_ASIAN_CHARACTER = re.compile(
    "(["
    "\u4e00-\u9fff\u3400-\u4dbf\u31c0-\u31ef\u2e80-\u2eff"
    "\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f\u3200-\u3f22"
    + _ASIAN_PUNCTUATION
    + _FULL_WIDTH_PUNCTUATION
    + "])"
)
_ASIAN_PUNCTUATION_CHARACTER = re.compile(
    "[" + _ASIAN_PUNCTUATION + _FULL_WIDTH_PUNCTUATION + "]"
)

_ASCII_WHITESPACE_RUN = re.compile("[" + re.escape(ASCII_WHITESPACE) + "]+")
_JAVA_TRIMMED = "".join(chr(code) for code in range(0x21))


def _normalize_western(text: str, tercom: bool) -> str:
    """TERCOM's ``-N`` (mteval-v11 style) tokenisation, sacreBLEU's variant
    unless ``tercom``. Returns a string padded with spaces."""
    if tercom:
        text = text.replace("<skipped>", "").replace("-\n", "")
    else:
        text = text.replace("\n-", "")
    text = text.replace("\n", " ")
    for entity, character in _ENTITIES:
        text = text.replace(entity, character)
    text = f" {text} "
    text = _PUNCTUATION.sub(r" \1 ", text)
    text = _POSSESSIVE.sub(" 's ", text)
    text = _POSSESSIVE_AT_END.sub(" 's", text)
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def _java_split(text: str) -> tuple[str, ...]:
    """Java's ``text.split("\\\\s+")``: a leading empty word when the text
    starts with whitespace, no trailing empty words, and ``[""]`` for ``""``."""
    if text == "":
        return ("",)
    words = _ASCII_WHITESPACE_RUN.split(text)
    while words and words[-1] == "":
        words.pop()
    return tuple(words)


@dataclass(frozen=True)
class TerPreprocessor:
    """Segment text -> TER words, configured like sacreBLEU's ``TER``.

    Attributes:
        lowercase: case-fold (TER's default; sacreBLEU ``case_sensitive=False``,
            TERCOM without ``-s``).
        normalize: TERCOM ``-N`` / sacreBLEU ``normalized``.
        no_punct: TERCOM ``-P`` / sacreBLEU ``no_punct``.
        asian_support: sacreBLEU ``asian_support`` (not with ``tercom``).
        tercom: TERCOM 0.7.25's text handling (see the module docstring).
    """

    lowercase: bool = True
    normalize: bool = False
    no_punct: bool = False
    asian_support: bool = False
    tercom: bool = False

    def __call__(self, text: str) -> tuple[str, ...]:
        """The words of one segment; ``()`` for an empty segment."""
        text = text.strip(_JAVA_TRIMMED) if self.tercom else text.rstrip()
        if not text:
            return ()
        if self.lowercase:
            text = text.lower()
        if self.normalize:
            text = _normalize_western(text, self.tercom)
            if self.asian_support:
                text = _ASIAN_CHARACTER.sub(r" \1 ", text)
            if self.tercom:  # TERCOM trims right after normalising
                text = text.strip(ASCII_WHITESPACE)
        if self.no_punct:
            text = _REMOVED_PUNCTUATION.sub("", text)
            if self.asian_support:
                text = _ASIAN_PUNCTUATION_CHARACTER.sub("", text)
        if self.tercom:
            return _java_split(text)
        return tuple(text.split())
