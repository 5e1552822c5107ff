"""Word lists that METEOR 1.5 ships inside its jar, reconstructed.

The jar cannot be used here, so each list is rebuilt from public sources and,
where possible, verified byte for byte against the MD5 checksum and size that
METEOR's own source repository records for the file (its Subversion
``entries`` files, preserved in public forks of METEOR):

- ``nonbreaking/english.prefixes`` (1241 bytes, MD5 7ba58640…86002844):
  Moses' ``nonbreaking_prefix.en`` as of 2011, i.e. today's file without the
  later ``Rs`` and month entries. The rebuilt file has that exact MD5.
- ``nonbreaking/german.prefixes`` (1768 bytes, MD5 bd3245e0…514ca113):
  Moses' ``nonbreaking_prefix.de``, unchanged since; same MD5.
- ``function/english.words`` (373 bytes in 2011): METEOR's English function
  words, "words with relative frequency above 1e-3 in a monolingual corpus"
  (Denkowski & Lavie 2011). The file itself is not public; the 90 words below
  (357 bytes as such a file) were recovered from METEOR's own output: with
  the exact module alone a segment's score depends on the words only through
  which of them are function words, and this set reproduces all 5360 BLEND
  ``METEOR-ex`` scores; each word changes at least one of them when removed.
  Words that never decide a BLEND score cannot be recovered this way (the
  16 missing bytes), so a rare function word may be missing.
- German: METEOR 1.5 never loads ``function/german.words`` (see
  ``FUNCTION_WORDS``); the WMT21 en-de ``meteor15-de-exact-stem`` figures
  confirm that the English list is used (the same recovery run on them finds
  only words of the English list).

Nonbreaking prefixes map a prefix to ``ANY`` (a following period never ends
a sentence) or ``NUMERIC_ONLY`` (only when a number follows).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

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

# Recovered as described in the module docstring. The corpus METEOR's list
# came from was tokenised like METEOR -norm output ("'s", "'t", '"').
_ENGLISH_FUNCTION_WORDS = """
" $ ' 's 't ( ) , - -- . : ? a about after all also
an and are as at be been but by can could first for from had has have he her
his i if in into is it its last more new no not of on one or other out over
people s said she so some than that the their there they this time to two up
was we were what when which who will with would year years you ’ “ ”
"""

FUNCTION_WORDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "en": frozenset(_ENGLISH_FUNCTION_WORDS.split()),
        # METEOR 1.5 loads the *English* list whatever the language: its
        # configuration sets the word-list file while the language is still
        # the default English and never updates it (MeteorConfiguration).
        "de": frozenset(_ENGLISH_FUNCTION_WORDS.split()),
    }
)
