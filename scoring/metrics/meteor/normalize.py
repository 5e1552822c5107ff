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


# METEOR's context rules are ``(L)c(R)`` -> ``\1 X \2``: a one-character
# literal c (comma, hyphen, apostrophe) between a left and a right neighbour
# class. Written that way the regex engine tries every position of the text,
# as a negated class matches almost anything. Written as the literal first,
# with the neighbours as lookarounds, it jumps from one c to the next. The
# two differ only where the original consumes a neighbour: a c whose left
# neighbour was the right neighbour of the previous replaced c (``a,b,c``:
# only the first comma; ``a-b-c``; ``a'b'c``) is left alone by the original.
# A rule whose right class cannot hold c and whose right and left classes
# share nothing cannot meet that case (``_NEVER_ADJACENT``); the others skip
# such a c (:func:`_replace_unless_neighbour_taken`).
class _ContextRule:
    """``re.sub("(L)c(R)", "\\1" + replacement + "\\2", text)`` of METEOR."""

    def __init__(
        self, literal: str, left: str, right: str, replacement: str, adjacent: bool
    ) -> None:
        self.literal = literal
        escaped = re.escape(literal)
        self.finder = re.compile(f"{escaped}(?<={left}{escaped})(?={right})")
        self.replacement = replacement
        self.adjacent = adjacent  # whether two matches can share a neighbour

    def apply(self, text: str) -> str:
        if self.literal not in text:
            return text
        if not self.adjacent:
            return self.finder.sub(self.replacement, text)
        return _replace_unless_neighbour_taken(self.finder, self.replacement, text)


def _replace_unless_neighbour_taken(
    finder: re.Pattern[str], replacement: str, text: str
) -> str:
    """Replace each match of ``finder`` (one character) unless the character
    before it was consumed by the previous replacement as its right
    neighbour, as a scan matching neighbour, literal, neighbour does."""
    pieces: list[str] = []
    copied_to = 0
    consumed_to = 0  # the previous replacement consumed text[:consumed_to]
    for match in finder.finditer(text):
        at = match.start()
        if at - 1 < consumed_to:
            continue
        pieces.append(text[copied_to:at])
        pieces.append(replacement)
        copied_to = at + 1
        consumed_to = at + 2
    if not pieces:
        return text
    pieces.append(text[copied_to:])
    return "".join(pieces)


_COMMA_RULES = (
    _ContextRule(",", "[^0-9]", "[^0-9]", " , ", adjacent=True),
    _ContextRule(",", "[0-9]", "[^0-9]", " , ", adjacent=False),
    _ContextRule(",", "[^0-9]", "[0-9]", " , ", adjacent=False),
)
_RM_DASH = _ContextRule("-", f"[{_ALNUM}.]", f"[{_ALNUM}]", " ", adjacent=True)
_ENGLISH_APOSTROPHE_RULES = (
    _ContextRule("'", f"[^{_ALPHA}]", f"[^{_ALPHA}]", " ' ", adjacent=True),
    _ContextRule("'", f"[^{_ALPHA}0-9]", f"[{_ALPHA}]", " ' ", adjacent=False),
    _ContextRule("'", f"[{_ALPHA}]", f"[^{_ALPHA}]", " ' ", adjacent=False),
    _ContextRule("'", f"[{_ALPHA}]", f"[{_ALPHA}]", " '", adjacent=True),
    _ContextRule("'", "[0-9]", "[s]", " '", adjacent=False),
)
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
# A word's final period, the word longer than the period: a period after a
# character other than a space, before a space or the end (the words are
# joined by single spaces when it is searched).
_WORD_FINAL_PERIOD = re.compile(r"\.(?<=[^ ]\.)(?= |\Z)")
# METEOR 1.5 collapses ASCII and Unicode spaces (no-break, en/em/thin...,
# narrow no-break, medium mathematical, ideographic).
_UNICODE_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_WHITE = re.compile(f"[ {_UNICODE_SPACES}]+")
# The runs _WHITE changes: all but a lone ASCII space.
_WHITE_CHANGED = re.compile(f"[ {_UNICODE_SPACES}]{{2,}}|[{_UNICODE_SPACES}]")
_HAS_UNICODE_SPACE = re.compile(f"[{_UNICODE_SPACES}]")
_FROM_UNICODE_SPACE = re.compile(f"[{_UNICODE_SPACES}][ {_UNICODE_SPACES}]*")
# Java's StringTokenizer splits on these five characters only.
_TOKEN_SPLIT = re.compile("[ \t\n\r\f]+")
_OTHER_TOKEN_SEPARATORS = ("\t", "\n", "\r", "\f")
_SPACE_RUN = re.compile("  +")


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


def _single_spaced(text: str) -> str:
    """``" ".join(java_tokens(text))``, without a Python step per word."""
    for separator in _OTHER_TOKEN_SEPARATORS:
        if separator in text:
            text = text.replace(separator, " ")
    return _SPACE_RUN.sub(" ", text).strip(" ")


def _split_final_periods(line: str, language: str) -> str:
    """Each word of ``line`` followed by a space, a word's final period split
    off as METEOR decides. Only words ending in a period take a Python step:
    they are found in the words joined by single spaces."""
    prefixes = NONBREAKING_PREFIXES.get(language, {})
    text = _single_spaced(line)
    if not text:
        return ""
    pieces: list[str] = []
    copied_to = 0
    for match in _WORD_FINAL_PERIOD.finditer(text):
        period = match.start()
        start = text.rfind(" ", 0, period) + 1
        prefix = text[start:period]
        following = text[period + 2 : period + 3]  # its first character, if any
        kind = prefixes.get(prefix)
        if "." in prefix and _HAS_ALPHA.search(prefix):
            word = prefix.replace(".", "")  # U.S. -> US
        elif kind == ANY or "a" <= following <= "z":
            continue
        elif kind == NUMERIC_ONLY and "0" <= following <= "9":
            continue
        else:
            word = prefix + " ."
        pieces.append(text[copied_to:start])
        pieces.append(word)
        copied_to = period + 1
    pieces.append(text[copied_to:])
    pieces.append(" ")
    return "".join(pieces)


def _collapse_spaces(text: str) -> str:
    """``_WHITE.sub(" ", text)``. Without two spaces in a row (normalised text
    is single-spaced) a run that changes is an optional space, a Unicode
    space, then any spaces: replacing from the Unicode space on leaves two
    spaces exactly where the run had a leading space, and nowhere else."""
    if "  " in text:
        return _WHITE_CHANGED.sub(" ", text)
    if not _HAS_UNICODE_SPACE.search(text):
        return text
    return _FROM_UNICODE_SPACE.sub(" ", text).replace("  ", " ")


def _replace_all(text: str, old: tuple[str, ...], new: str) -> str:
    for character in old:
        if character in text:
            text = text.replace(character, new)
    return text


@lru_cache(maxsize=2**16)
def normalize_line(line: str, language: str) -> str:
    """METEOR 1.5 ``-norm`` (punctuation kept) for ``language`` ``en``/``de``;
    not lower-cased yet. Cached: references are normalised once per system.
    Each step skips text lacking its trigger character and searches from the
    literal it rewrites (see ``_ContextRule``)."""
    text = _SEP_OTHER.sub(r" \1 ", f" {line} ")
    if ".." in text:
        text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
    while "DOTMULTI." in text:  # the line itself may hold "DOTMULTI."
        text = _MULTI_DOT2.sub(r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    for rule in _COMMA_RULES:
        text = rule.apply(text)
    # Single characters to one character, then the double quotes: a pair
    # "''" is the same pair before and after (no curly quote is "'").
    text = _replace_all(text, ("`", "\u2018", "\u2019"), "'")
    text = _replace_all(text, ("\u201c", "\u201d", "''"), ' " ')
    text = _replace_all(text, ("\u2013",), "-")
    text = _replace_all(text, ("--",), "-")
    text = _RM_DASH.apply(text)
    if language == "en":
        for rule in _ENGLISH_APOSTROPHE_RULES:
            text = rule.apply(text)
    else:
        text = text.replace("'", " ' ")
    text = _split_final_periods(text, language)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    return _java_trim(_collapse_spaces(text))


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
