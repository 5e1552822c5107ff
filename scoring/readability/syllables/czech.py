"""Czech syllables: vowel groups, syllabic r, l and m, non-syllabic prepositions.

* each vowel (a á e é ě i í o ó u ú ů y ý) is a syllable, except that ``ou``
  (native), ``au`` and ``eu`` (loan words: ``auto``, ``euro``) are one
  diphthong (``pouze`` 2, ``auto`` 2), but a final ``-eu``/``-eum`` is
  two (``muzeum`` 3, ``muzeu`` 3);
* ``r`` and ``l`` with no vowel on either side are syllabic (``vlk`` 1,
  ``Brno`` 2, ``čtvrtek`` 2, ``smysl`` 2, ``Petr`` 2), and so is a final
  ``m`` after d or s (``sedm`` 2, ``osm`` 2; espeak-ng reads these two with
  one);
* the one-letter prepositions ``k s v z`` have no vowel and are spoken as
  part of the next word: they count no syllable (see
  :data:`NON_SYLLABIC_WORDS`).

Prefixes ending in a vowel before a word starting with ``u`` (``po-učit``,
``ne-um-ět``) are read as ``ou``/``eu`` diphthongs, which undercounts them
by one. pyphen's cs patterns were measured and undercount (see
:mod:`scoring.readability.syllables.counter`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Czech vowels, plus ä ö ü of German names (Köhler, Schäuble).
_VOWELS = frozenset("aáeéěiíoóuúůyýäöü")
_DIPHTHONGS = ("ou", "au", "eu")
_SYLLABIC = frozenset("rl")

#: Words with no syllable of their own (proclitic prepositions).
NON_SYLLABIC_WORDS = frozenset("ksvz")


def czech_syllables(word: str) -> int:
    """Syllables of one Czech word (no hyphen inside), >= 0.

    >>> [czech_syllables(w) for w in ("vlk", "Brno", "čtvrtek", "pouze", "auto")]
    [1, 2, 2, 2, 2]
    >>> [czech_syllables(w) for w in ("smysl", "sedm", "největší", "v", "muzeum")]
    [2, 2, 3, 0, 3]
    """
    return _count(unicodedata.normalize("NFC", word.lower()))


@lru_cache(maxsize=1 << 16)
def _count(word: str) -> int:
    if word in NON_SYLLABIC_WORDS:
        return 0
    count = 0
    index = 0
    while index < len(word):
        char = word[index]
        before = word[index - 1] if index else ""
        after = word[index + 1] if index + 1 < len(word) else ""
        if char in _VOWELS:
            count += 1
            pair = word[index : index + 2]
            hiatus = pair == "eu" and word[index + 2 :] in ("", "m")  # muze-um
            index += 2 if pair in _DIPHTHONGS and not hiatus else 1
            continue
        consonant_before = before != "" and before not in _VOWELS
        if char in _SYLLABIC and before not in _VOWELS and after not in _VOWELS:
            # vlk, Brno, rty; but not a lone "r" (an abbreviation).
            count += int(len(word) > 1 and (consonant_before or after != ""))
        elif char == "m" and after == "" and before in ("d", "s") and count:
            count += 1  # sedm, osm (not film)
        index += 1
    return count
