"""METEOR 1.5's ``-norm`` text normalisation, and its word splitting.

``normalize_line`` reproduces ``edu.cmu.meteor.util.Normalizer`` for western
languages (a Moses-tokenizer variant): non-alphanumeric symbols are split off
(except ``. ' ` , -`` and curly single quotes, handled by later rules),
runs of dots are protected, commas are split except inside numbers, curly
and doubled quotes become ``'`` / ``"``, en dashes and ``--`` become ``-``, a
hyphen between two alphanumerics is *removed* (``well-known`` -> ``well
known``, so systems get partial credit), apostrophes are split (English: the
contraction goes right, ``don't`` -> ``don 't``; German: split on both
sides), a final period is split off unless the word is a nonbreaking prefix
(``Mr.``), is followed by a lowercase word, or contains dots and a letter
(``U.S.`` -> ``US``), and whitespace (Unicode spaces included) is collapsed.
METEOR lower-cases after normalising (Java ``toLowerCase``, Unicode-aware).

The Java regexes are ASCII-only where Java's are: ``\\s`` is
``[ \\t\\n\\x0B\\f\\r]``, ``\\p{Digit}`` is ``[0-9]``, ``\\p{Lower}`` is ``[a-z]``.

>>> normalize_line("He said: \\u201cDon't!\\u201d U.S.-based, well-known Mr. Li.", "en")
'He said : " Don \\'t ! " US based , well known Mr. Li .'
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.metrics.meteor.resources import ANY, NONBREAKING_PREFIXES, NUMERIC_ONLY

# Letters METEOR 1.5 treats as alphabetic: Latin-1/Latin Extended-A and
# Cyrillic ranges, exactly as listed in its Normalizer.
_ALPHA = (
    "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e"
    "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
)
_ALNUM = "0-9" + _ALPHA
_JAVA_SPACE = " \\t\\n\\x0b\\f\\r"

_SEP_OTHER = re.compile(f"([^{_ALNUM}{_JAVA_SPACE}.'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.([.]+)")
_MULTI_DOT2 = re.compile(r"DOTMULTI\.([^.])")
_COMMA = re.compile(r"([^0-9])[,]([^0-9])")
_COMMA2 = re.compile(r"([0-9])[,]([^0-9])")
_COMMA3 = re.compile(r"([^0-9])[,]([0-9])")
_QUOTE = re.compile("([`\u2018\u2019])")
_QUOTE2 = re.compile("([\u201c\u201d]|'')")
_RM_DASH = re.compile(f"([{_ALNUM}.])[-]([{_ALNUM}])")
_CONT_EN = re.compile(f"([^{_ALPHA}])[']([^{_ALPHA}])")
_CONT_EN2 = re.compile(f"([^{_ALPHA}0-9])[']([{_ALPHA}])")
_CONT_EN3 = re.compile(f"([{_ALPHA}])[']([^{_ALPHA}])")
_CONT_EN4 = re.compile(f"([{_ALPHA}])[']([{_ALPHA}])")
_CONT_EN5 = re.compile(r"([0-9])[']([s])")
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_STARTS_LOWER = re.compile("^[a-z]")
_STARTS_DIGIT = re.compile("^[0-9]+")
# METEOR 1.5 collapses ASCII and Unicode spaces (no-break, en/em/thin...,
# narrow no-break, medium mathematical, ideographic).
_WHITE = re.compile("[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+")
# Java's StringTokenizer splits on these five characters only.
_TOKEN_SPLIT = re.compile("[ \t\n\r\f]+")


def java_tokens(text: str) -> tuple[str, ...]:
    """Split like ``java.util.StringTokenizer``: on space, TAB, LF, CR, FF only
    (so U+00A0 stays inside a token when the text is not normalised)."""
    return tuple(token for token in _TOKEN_SPLIT.split(text) if token)


def _java_trim(text: str) -> str:
    """``String.trim()``: drop characters <= U+0020 at both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def _split_final_periods(line: str, language: str) -> str:
    prefixes = NONBREAKING_PREFIXES.get(language, {})
    words = java_tokens(line)
    out: list[str] = []
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if len(word) > 1 and word.endswith("."):
            prefix = word[:-1]
            kind = prefixes.get(prefix)
            if "." in prefix and _HAS_ALPHA.search(prefix):
                out.append(word.replace(".", ""))  # U.S. -> US
            elif kind == ANY or (
                following is not None and _STARTS_LOWER.search(following)
            ):
                out.append(word)
            elif kind == NUMERIC_ONLY and (
                following is not None and _STARTS_DIGIT.search(following)
            ):
                out.append(word)
            else:
                out.append(prefix + " .")
        else:
            out.append(word)
        out.append(" ")
    return "".join(out)


@lru_cache(maxsize=2**16)
def normalize_line(line: str, language: str) -> str:
    """METEOR 1.5 ``-norm`` (punctuation kept) for ``language`` ``en``/``de``;
    not lower-cased yet. Cached: references are normalised once per system."""
    text = f" {line} "
    text = _SEP_OTHER.sub(r" \1 ", text)
    text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
    while "DOTMULTI." in text:
        text = _MULTI_DOT2.sub(r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    text = _COMMA.sub(r"\1 , \2", text)
    text = _COMMA2.sub(r"\1 , \2", text)
    text = _COMMA3.sub(r"\1 , \2", text)
    text = _QUOTE.sub("'", text)
    text = _QUOTE2.sub(' " ', text)
    text = text.replace("\u2013", "-").replace("--", "-")
    text = _RM_DASH.sub(r"\1 \2", text)
    if language == "en":
        text = _CONT_EN.sub(r"\1 ' \2", text)
        text = _CONT_EN2.sub(r"\1 ' \2", text)
        text = _CONT_EN3.sub(r"\1 ' \2", text)
        text = _CONT_EN4.sub(r"\1 '\2", text)
        text = _CONT_EN5.sub(r"\1 '\2", text)
    else:
        text = text.replace("'", " ' ")
    text = _split_final_periods(text, language)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    return _java_trim(_WHITE.sub(" ", text))


def meteor_words(
    text: str, language: str, norm: bool, lowercase: bool
) -> tuple[str, ...]:
    """The words METEOR aligns: optionally ``-norm`` normalised, lower-cased
    (always with ``norm``, as in METEOR), split like StringTokenizer."""
    if norm:
        text = normalize_line(text, language)
    if norm or lowercase:
        text = text.lower()
    return java_tokens(text)
