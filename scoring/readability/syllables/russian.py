"""Russian syllables: one per vowel letter.

Every Russian syllable has exactly one vowel and every vowel letter (а е ё и
о у ы э ю я) is one syllable, so counting vowel letters is the rule Russian
schools teach, not an approximation; й, ъ and ь are not vowels. The
one-letter prepositions ``в к с`` have no vowel and are spoken with the next
word: they count no syllable (:data:`NON_SYLLABIC_WORDS`). An all-capital
word without a vowel is an abbreviation read letter by letter (``РФ`` =
эр-эф, 2).

pyphen's ru patterns were measured and undercount (TeX keeps two letters at
each end together); see :mod:`scoring.readability.syllables.counter`.
"""

from __future__ import annotations

_VOWELS = frozenset("аеёиоуыэюя")

#: Words with no syllable of their own (proclitic prepositions).
NON_SYLLABIC_WORDS = frozenset("вкс")


def russian_syllables(word: str) -> int:
    """Syllables of one Russian word (no hyphen inside), >= 0.

    >>> [russian_syllables(w) for w in ("здравствуйте", "маяк", "всё", "в", "РФ")]
    [3, 2, 1, 0, 2]
    """
    lower = word.lower()
    if lower in NON_SYLLABIC_WORDS:
        return 0
    count = sum(char in _VOWELS for char in lower)
    if count == 0 and len(word) > 1 and word.isupper():
        return len(word)  # an abbreviation spelt out, each letter one syllable
    return count
