"""English syllables: the CMU Pronouncing Dictionary, else pyphen's en_US
hyphenation points plus vowel-group rules.

A word the dictionary lists (:mod:`scoring.readability.syllables.dictionary`:
about 96% of the running words of WMT21 English references) counts the
syllables of its main pronunciation. The rules below count the others
(names, rare words, new compounds).

Hyphenation points are not syllable boundaries: the TeX patterns that pyphen
uses never split the first two or the last three letters of a word
(``idea``, ``area``, ``video``, ``fire`` stay whole) and do not mark every
syllable inside a word either. So the count is made from *vowel groups*
(maximal runs of a, e, i, o, u, y), and pyphen's points are used only to cut a
run in two where the patterns know a hiatus (``cre-at-ed``, ``po-em``,
``sci-ence``). Rules on top, each kept because it raised the agreement with
the CMU Pronouncing Dictionary on running text (see the report in
``tests/scoring/readability/test_syllables_cmudict.py``):

* ``y`` before a vowel of the same hyphenation piece is a consonant
  (``yes``, ``player``, ``beyond``); ``u`` after ``q`` is a consonant;
* a silent ``e`` ends a piece (``make``, ``man-age-ment``), except a
  syllabic ``-le`` after a consonant (``ta-ble``) and ``-ire`` (``fire``);
* ``-es`` and ``-ed`` add no syllable (``makes``, ``liked``) except after
  s, x, z, c, g, ch, sh (``places``, ``changes``) or t, d (``wanted``),
  and ``-les`` after a consonant (``tables``); ``-gue(s)`` is silent
  (``league``);
* hiatus: ``ia``, ``io`` (not after c, g, l, n, s, t, x: ``media``, ``radio``
  but ``nation``, ``million``, ``special``), ``ua``, ``uo`` (not after g, q:
  ``actual`` but ``language``), a final ``ea``, ``eo`` (``area``,
  ``video``), and ``-ism`` (``tourism``) add one;
* ``-n't`` after a consonant adds one (``couldn't``, ``isn't``);
* an all-capital word with no vowel is spelt out (``BBC`` = 3, ``W`` = 3).

Letters outside a–z are reduced to their base letter (``café`` → ``cafe``); a
word left with no vowel at all counts one syllable.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

from scoring.errors import ScoringError
from scoring.readability.syllables.dictionary import dictionary_syllables

_VOWELS = frozenset("aeiouy")
_TRUE_VOWELS = frozenset("aeiou")
_APOSTROPHES = "'’ʼ"  # ASCII, U+2019, U+02BC

# Two-vowel runs that are two syllables, keyed by run, with the letters that
# must NOT precede them (after those the first vowel is a glide or silent).
_HIATUS_UNLESS_AFTER = {
    "ia": frozenset("cglnstx"),
    "io": frozenset("cglnstx"),
    "ua": frozenset("gq"),
    "uo": frozenset("gq"),
}


@cache
def _pyphen() -> ModuleType:
    # Imported on first use, so that importing scoring never needs it; only
    # counting English syllables does.
    try:
        import pyphen
    except ImportError:
        raise ScoringError(
            "English syllable counting needs the pyphen package (pyphen==0.18.1)"
        ) from None
    return pyphen


@cache
def _hyphenator() -> Any:
    return _pyphen().Pyphen(lang="en_US")


def pyphen_version() -> str:
    """Version of the pyphen package whose en_US patterns are used."""
    return str(_pyphen().__version__)


def english_syllables(word: str) -> int:
    """Spoken syllables of one English word (no hyphen inside), at least 1.

    >>> [english_syllables(w) for w in ("the", "table", "liked", "wanted")]
    [1, 2, 1, 2]
    >>> [english_syllables(w) for w in ("idea", "created", "couldn't", "BBC")]
    [3, 3, 2, 3]
    >>> [english_syllables(w) for w in ("maybe", "timetable", "Charles", "areas")]
    [2, 3, 1, 3]
    """
    listed = dictionary_syllables(word)
    if listed is not None:
        return max(1, listed)
    return rule_syllables(word)


def rule_syllables(word: str) -> int:
    """Spoken syllables of ``word`` by the spelling rules alone (no dictionary).

    >>> [rule_syllables(w) for w in ("table", "liked", "wanted", "Brexiteers")]
    [2, 1, 2, 3]
    """
    if len(word) > 1 and word.isupper() and word.isalpha():
        letters = _ascii_letters(word.lower())
        if letters and not _VOWELS & set(letters):
            # An acronym without a vowel is read letter by letter.
            return sum(3 if letter == "w" else 1 for letter in letters)
    return _cached_count(word.lower())


@lru_cache(maxsize=1 << 16)
def _cached_count(word: str) -> int:
    stripped = word.rstrip(_APOSTROPHES)
    # A syllabic n: could-n't, is-n't (but don't, can't).
    syllabic_n = (
        len(stripped) > 4
        and stripped[-3] == "n"
        and stripped[-2] in _APOSTROPHES
        and stripped[-1] == "t"
        and stripped[-4] not in _VOWELS
    )
    letters = _ascii_letters(word)
    if not letters:
        return 1
    return max(1, _count_letters(letters) + int(syllabic_n))


def _ascii_letters(word: str) -> str:
    """Lower-case a–z letters of ``word``: accents dropped, apostrophes too."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if "a" <= char <= "z")


def _count_letters(word: str) -> int:
    breaks = frozenset(_hyphenator().positions(word))
    vowel = _vowel_flags(word, breaks)
    runs = _vowel_runs(vowel, breaks)
    if not runs:
        return 1
    count = len(runs) + _hiatus_count(word, runs)
    pieces = list(zip([0, *sorted(breaks)], [*sorted(breaks), len(word)], strict=True))
    for start, end in pieces:
        in_piece = [run for run in runs if start <= run[0] < end]
        if len(in_piece) >= 2:
            count -= _silent_ending(word, start, end, in_piece[-1], vowel)
    if word.endswith(("ism", "isms")):
        count += 1  # tour-is-m: the m is syllabic
    return count


def _vowel_flags(word: str, breaks: frozenset[int]) -> list[bool]:
    flags = []
    for index, char in enumerate(word):
        following = word[index + 1] if index + 1 < len(word) else ""
        if char == "y":
            consonant = following in _TRUE_VOWELS and index + 1 not in breaks
            flags.append(not consonant)
        elif char == "u" and index > 0 and word[index - 1] == "q":
            flags.append(False)
        else:
            flags.append(char in _TRUE_VOWELS)
    return flags


def _vowel_runs(vowel: list[bool], breaks: frozenset[int]) -> list[tuple[int, int]]:
    """(start, end) of each run of vowels; a hyphenation point cuts a run."""
    runs = []
    index = 0
    while index < len(vowel):
        if not vowel[index]:
            index += 1
            continue
        end = index + 1
        while end < len(vowel) and vowel[end] and end not in breaks:
            end += 1
        runs.append((index, end))
        index = end
    return runs


def _hiatus_count(word: str, runs: list[tuple[int, int]]) -> int:
    extra = 0
    for start, end in runs:
        run = word[start:end]
        before = word[start - 1] if start else ""
        if run in _HIATUS_UNLESS_AFTER:
            extra += int(before != "" and before not in _HIATUS_UNLESS_AFTER[run])
        elif run in ("ea", "eo") and end == len(word) and len(runs) > 1:
            extra += 1  # are-a, vid-e-o (but sea, tea)
    return extra


def _silent_ending(
    word: str, start: int, end: int, last_run: tuple[int, int], vowel: list[bool]
) -> int:
    """1 if the piece ``word[start:end]`` ends in a silent vowel, else 0.

    The piece has at least two vowel runs; ``last_run`` is its last.
    """
    piece = word[start:end]
    at_word_end = end == len(word)
    if at_word_end and piece.endswith(("gue", "gues", "gued")):
        return int(word[last_run[0] : last_run[1]] == "ue")  # league
    if piece.endswith("e") and last_run == (end - 1, end) and not vowel[end - 2]:
        if piece.endswith("le") and len(piece) > 2 and not vowel[end - 3]:
            return 0  # ta-ble
        return int(not piece.endswith("ire"))  # make, but fi-re
    if not (at_word_end and last_run == (end - 2, end - 1) and len(piece) > 2):
        return 0
    before = piece[-3]
    if piece.endswith("ed"):
        return int(before not in "td" and not piece.endswith("ired"))
    if piece.endswith("es"):
        if before in "sxzcg" or piece.endswith(("ches", "shes", "ires")):
            return 0
        if before == "l" and len(piece) > 3 and not vowel[end - 4]:
            return 0  # ta-bles
        return 1
    return 0
