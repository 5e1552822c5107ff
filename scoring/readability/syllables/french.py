"""French syllables from vowel groups, spoken or written.

French spelling marks syllables well enough that rules on vowel groups (runs
of a e i o u y à â ä é è ê ë î ï ô ö ù û ü ÿ æ œ) do the job; pyphen's French
hyphenation patterns were measured and add nothing on top of these rules
(same agreement with or without them), so they are not used here.

Both styles count one syllable per vowel group, with these corrections:

* ``u`` is not a vowel after ``q`` (``quatre``) nor after ``g`` before e, i,
  y (``guerre``); ``y`` before a vowel is a consonant (``payer``, ``moyenne``);
* a group is cut in two before a diaeresis (``na-ïf``, ``No-ël``), after
  ``é`` (``ré-union``, ``cré-er``; not in ``-ée``, ``-ées``, ``-éent``) and
  before é, è, ê after a, o, e, é (``a-éro-port``, ``po-ème``).

``written`` (orthographic syllables, as school syllabification and classical
verse before a consonant count them) stops there: ``ta-ble`` = 2,
``par-lent`` = 2, ``sa-me-di`` = 3.

``spoken`` (the default; Flesch counts syllables "as pronounced") also drops
the mute e:

* a final ``-e`` or ``-es`` after a consonant (``table`` = 1, ``tables`` = 1),
  when the word has another vowel group;
* a final ``-ent`` after a consonant, taken to be a verb ending
  (``parlent`` = 1), except in ``-ment`` words (``moment``, ``vraiment``) and a
  short list of frequent nouns and adjectives (``parent``, ``président``);
* an inner e caduc: a plain ``e`` standing alone between one consonant sound
  after a vowel and one consonant letter before the next vowel (``samedi`` =
  2, ``nettement`` = 2, ``parlera`` = 3), except before a consonant + ``i``
  + vowel (``parleriez``).

Limits: verbs in ``-ment`` (``estiment``) and nouns in ``-ent`` missing from
the list get one syllable too many or too few; ``i``/``u``/``ou`` before a
vowel are counted as glides (``nation``, ``nuit``, ``jouer``), which is
standard speech but not verse; the e caduc is dropped by rule, not by
register.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüÿæœ")
_FRONT = frozenset("eiyéèêë")
_DIAERESIS = frozenset("ëïüÿ")
_APOSTROPHES = "'’ʼ"

STYLES = ("spoken", "written")

# Frequent words whose final -ent (after a consonant) is pronounced although
# they do not end in -ment: nouns and adjectives, not verbs.
_PRONOUNCED_ENT = frozenset(
    """absent accident adolescent agent argent ardent cent client compétent
    conséquent continent couvent décent dent différent éloquent équivalent
    évident excellent fréquent gent imprudent incident indifférent innocent
    insolent intelligent lent parent patient permanent pourcent précédent
    présent président prudent récent régent serpent souvent talent torrent trident
    urgent vent violent""".split()
)


def french_syllables(word: str, style: str = "spoken") -> int:
    """Syllables of one French word (apostrophes allowed, no hyphen), >= 0.

    Elided parts count nothing (``l'`` = 0, ``jusqu'`` = 1), so ``l'homme``
    is 1; a part with no vowel counts 0 (``t`` in ``a-t-il``).

    >>> [french_syllables(w) for w in ("table", "parlent", "moment", "réunion")]
    [1, 1, 2, 3]
    >>> [french_syllables(w, "written") for w in ("table", "parlent", "samedi")]
    [2, 2, 3]
    """
    parts = re.split(f"[{_APOSTROPHES}]", unicodedata.normalize("NFC", word.lower()))
    return sum(_part_syllables(part, style == "spoken") for part in parts if part)


@lru_cache(maxsize=1 << 16)
def _part_syllables(word: str, spoken: bool) -> int:
    vowel = _vowel_flags(word)
    runs = _vowel_runs(word, vowel)
    count = len(runs)
    if not spoken or count < 2:
        return count
    for index in range(1, len(runs) - 1):
        count -= _is_inner_mute_e(word, runs, index)
    count -= _has_final_mute_e(word, runs[-1], vowel)
    return count


def _vowel_flags(word: str) -> list[bool]:
    flags = []
    for index, char in enumerate(word):
        before = word[index - 1] if index else ""
        after = word[index + 1] if index + 1 < len(word) else ""
        if char == "y":
            flags.append(after not in _VOWELS or after == "")
        elif char == "u" and (before == "q" or (before == "g" and after in _FRONT)):
            flags.append(False)  # "qu", "gue", "gui": the u is silent
        else:
            flags.append(char in _VOWELS)
    return flags


def _vowel_runs(word: str, vowel: list[bool]) -> list[tuple[int, int]]:
    """(start, end) of every vowel group, cut where French has a hiatus."""
    runs: list[tuple[int, int]] = []
    for index, is_vowel in enumerate(vowel):
        if not is_vowel:
            continue
        if runs and runs[-1][1] == index and not _hiatus_at(word, index):
            runs[-1] = (runs[-1][0], index + 1)
        else:
            runs.append((index, index + 1))
    return runs


def _hiatus_at(word: str, index: int) -> bool:
    """True if a syllable starts at vowel ``word[index]`` after a vowel."""
    char, before = word[index], word[index - 1]
    if char in _DIAERESIS:
        return True
    if before == "é":
        return re.fullmatch("e(s|nt)?", word[index:]) is None  # not année
    return char in "éèê" and before in "aoe"


def _is_inner_mute_e(word: str, runs: list[tuple[int, int]], index: int) -> bool:
    start, end = runs[index]
    if word[start:end] != "e":
        return False
    before = word[runs[index - 1][1] : start]
    if len(before) >= 2 and before[0] in "nm" and before[1] not in "nm":
        before = before[1:]  # the n of a nasal vowel (pen-se-ront) is no consonant
    before = re.sub(r"ch|gn|ph|th|(.)\1", "x", before)
    after = word[end : runs[index + 1][0]]
    next_start, next_end = runs[index + 1]
    glide_follows = word[next_start] == "i" and next_end - next_start > 1
    return len(before) <= 1 and len(after) == 1 and not glide_follows


def _has_final_mute_e(word: str, last_run: tuple[int, int], vowel: list[bool]) -> bool:
    start, end = last_run
    if word[start:end] != "e" or vowel[start - 1]:
        return False
    tail = word[start:]
    if tail in ("e", "es"):
        return True
    return tail == "ent" and not word.endswith("ment") and word not in _PRONOUNCED_ENT
