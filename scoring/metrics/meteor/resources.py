"""Word lists of METEOR 1.5, as its jar ``meteor-1.5.jar`` ships them (the
copy inside PyPI's ``pycocoevalcap`` 1.2 wheel).

- Function words: the jar's ``function/english.words``, shipped unchanged as
  ``data/function-words-en.txt`` (origin, checksum and licence in
  ``data/README.md``). 93 words, among them ``—`` (em dash), ``-lrb-`` and
  ``-rrb-``. The jar reads it line by line into a set, as
  :func:`read_function_words` does, and looks each word up lower-cased, as
  ``formula.match_statistics`` does.
- Nonbreaking prefixes of the ``-norm`` tokeniser: Moses'
  ``nonbreaking_prefix.en`` as of 2011 (today's file without the later ``Rs``
  and month entries) and ``nonbreaking_prefix.de``, written out below; both
  give exactly the entries of the jar's ``nonbreaking/english.prefixes``
  (1241 bytes) and ``nonbreaking/german.prefixes`` (1768 bytes).
- German: METEOR 1.5 never loads ``function/german.words``: its configuration
  sets the word-list file while the language is still the default English
  and never updates it (``MeteorConfiguration.setDefaults`` /
  ``setLanguage`` in the jar), so German is scored with the English list. The
  WMT21 en-de ``meteor15-de-exact-stem`` figures agree with that.

Nonbreaking prefixes map a prefix to ``ANY`` (a following period never ends
a sentence) or ``NUMERIC_ONLY`` (only when a number follows).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

DATA_DIR = Path(__file__).resolve().parent / "data"
FUNCTION_WORDS_FILE = DATA_DIR / "function-words-en.txt"

ANY = 1
NUMERIC_ONLY = 2

_TITLES = (
    "Adj Adm Adv Asst Bart Bldg Brig Bros Capt Cmdr Col Comdr Con Corp Cpl DR Dr"
    " Ens Gen Gov Hon Hosp Insp Lt MM MR MRS MS Maj Messrs Mlle Mme Mr Mrs Ms Msgr"
    " Op Ord Pfc Ph Prof Pvt Rep Reps Res Rev Rt Sen Sens Sfc Sgt Sr St Supt Surg"
)
_UPPER = "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z"

# English: letters, titles (plus Drs/Hr), a few abbreviations; No, Art and pp
# only before a number.
_ENGLISH_ANY = (
    _UPPER
    + " "
    + _TITLES.replace(" Dr Ens", " Dr Drs Ens").replace(" Hon Hosp", " Hon Hr Hosp")
    + " v vs i.e rev e.g Nos Nr"
).split()
_ENGLISH_NUMERIC_ONLY = ("No", "Art", "pp")

_ROMAN = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX"
_GERMAN_ANY = (
    _UPPER
    + " "
    + _UPPER.lower()
    + " "
    + _ROMAN
    + " "
    + _ROMAN.lower()
    + " "
    + _TITLES
    + " Mio Mrd bzw v vs usw d.h z.B u.a etc MwSt ggf d.J D.h m.E vgl I.F z.T"
    " sogen ff u.E g.U g.g.A c.-à-d Buchst u.s.w sog u.ä Std evtl Zt Chr u.U o.ä"
    " Ltd b.A z.Zt spp sen SA k.o jun i.H.v dgl dergl Co zzt usf s.p.a Dkr bzgl"
    " BSE No Nos Art Nr pp ca Ca"
).split() + [str(number) for number in range(1, 100)]


def _prefixes(anywhere: list[str], numeric_only: tuple[str, ...]) -> Mapping[str, int]:
    table = {prefix: ANY for prefix in anywhere}
    table.update({prefix: NUMERIC_ONLY for prefix in numeric_only})
    return MappingProxyType(table)


NONBREAKING_PREFIXES: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {
        "en": _prefixes(_ENGLISH_ANY, _ENGLISH_NUMERIC_ONLY),
        "de": _prefixes(_GERMAN_ANY, ()),
    }
)


def read_function_words(path: Path = FUNCTION_WORDS_FILE) -> frozenset[str]:
    """The words of a METEOR function-word file, one per line, as the jar
    reads them (``BufferedReader.readLine``: no trimming, no lower-casing)."""
    # Text mode turns "\r\n" and "\r" into "\n": the line ends readLine knows.
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()
    return frozenset(lines)


_ENGLISH_FUNCTION_WORDS = read_function_words()

FUNCTION_WORDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "en": _ENGLISH_FUNCTION_WORDS,
        # METEOR 1.5 loads the *English* list whatever the language (see the
        # module docstring).
        "de": _ENGLISH_FUNCTION_WORDS,
    }
)
