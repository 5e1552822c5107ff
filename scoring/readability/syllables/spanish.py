"""Spanish syllables from vowel groups, by the rules of Spanish orthography.

The strong vowels a e o (and á é ó) are each a syllable nucleus; the weak
vowels i u ü (unaccented) join a neighbouring vowel as a glide:

* strong + strong is a hiatus, two syllables (``leer`` 2, ``teatro`` 3);
* weak + strong, strong + weak, weak + weak are one syllable, a diphthong
  (``bueno`` 2, ``aire`` 2, ``ciudad`` 2), three vowels weak + strong +
  weak a triphthong (``buey`` 1, ``estudiáis`` 3);
* an accented weak vowel í ú breaks the diphthong (``país`` 2, ``reír`` 2,
  ``baúl`` 2);
* ``u`` is silent in ``que qui gue gui`` (``guerra`` 2, ``quiero`` 2) but
  not as ``ü`` (``lingüística`` 4);
* ``y`` is a vowel at the end of a word or alone (``hoy`` 1, ``muy`` 1,
  ``y`` 1), a consonant elsewhere (``mayo`` 2).

``h`` between vowels is treated as a consonant (``prohibir`` 3, as it is
hyphenated). pyphen's es patterns cut at syllable boundaries inside words,
but keep the last two letters and a hiatus together; see
:mod:`scoring.readability.syllables.counter` for the measured figures.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_STRONG = frozenset("aeoáéóíú")  # an accented i or u is a nucleus of its own
_WEAK = frozenset("iuü")


def spanish_syllables(word: str) -> int:
    """Syllables of one Spanish word (no hyphen inside), >= 0.

    >>> [spanish_syllables(w) for w in ("ciudad", "país", "bueno", "guerra")]
    [2, 2, 2, 2]
    >>> [spanish_syllables(w) for w in ("lingüística", "hoy", "leer", "Europa")]
    [4, 1, 2, 3]
    """
    return _count(unicodedata.normalize("NFC", word.lower()))


@lru_cache(maxsize=1 << 16)
def _count(word: str) -> int:
    """Per run of vowels: one syllable per strong vowel, or one for a run of
    weak vowels only (the weak ones beside a strong one are glides)."""
    count = strong = weak = 0
    for kind in [*(_kind(word, index) for index in range(len(word))), ""]:
        if kind == "strong":
            strong += 1
        elif kind == "weak":
            weak += 1
        elif strong or weak:
            count += strong or 1
            strong = weak = 0
    return count


def _kind(word: str, index: int) -> str:
    char = word[index]
    before = word[index - 1] if index else ""
    after = word[index + 1] if index + 1 < len(word) else ""
    if char in _STRONG:
        return "strong"
    if char == "u" and before in ("q", "g") and after in ("e", "i", "é", "í"):
        return ""  # que, qui, gue, gui: the u is silent
    if char in _WEAK:
        return "weak"
    if char == "y" and (after == "" or len(word) == 1):
        return "weak"
    return ""
