"""Sentences within a segment: a rule-based splitter per language.

A line of an MT test set often holds more than one sentence (WMT21 de-en
references: about 3% of the lines), and ASL counts sentences, not lines. A
segment is cut after ``.``, ``!``, ``?`` or ``…`` (and the CJK ``。！？``),
with any closing quotes and brackets that follow, when all of these hold:

* white space follows (``3.5``, ``www.example.org``, ``U.S.-led`` stay whole)
  and then something that is not a lower-case letter (a capital, a digit, an
  opening quote or bracket, Spanish ``¿ ¡``), nor a dash and a lower-case
  letter (Russian speech: ``«Смотрите!» - поделилась она``), nor a closing
  bracket or a comma;
* for a full stop: the word before it is not an abbreviation of the
  language (:data:`ABBREVIATIONS`: ``Dr.``, ``z. B.``, ``etc.``, ``т.е.``;
  case is ignored), not a single letter (initials: ``J. K. Rowling``), not a
  run of short letter groups joined by stops (``U.S.``, ``e.g.``, ``z.B.``,
  ``ČR.``), and in German and Czech not a number of one to three digits, which is an
  ordinal there (``am 3. Oktober``, ``21. století``).

A piece counts as a sentence when it has a word
(:func:`scoring.readability.complexity.split_words`).

Limits: an abbreviation that ends a sentence (``... and so on etc. Then``)
joins two sentences; a sentence that starts with a lower-case letter (a
brand name, ``iPhone``) is not cut off; speech in quotes ending in ``!`` or
``?`` followed by a capitalised name (``"Stop!" Anna said``) is cut.

>>> split_sentences("Dr. Smith arrived at 3.30 p.m. on Monday. He left.", "en")
('Dr. Smith arrived at 3.30 p.m. on Monday.', 'He left.')
>>> split_sentences('Am 3. Oktober sagte er: "Wir kommen." Dann ging er.', "de")
('Am 3. Oktober sagte er: "Wir kommen."', 'Dann ging er.')
"""

from __future__ import annotations

import re
import unicodedata

# Lower-case, without the final stop; a stop inside stays (``z.b``, ``т.е``).
_COMMON = """dr prof mr mrs ms st vs etc jr sr no nr ca approx""".split()

#: Abbreviations after which a full stop does not end a sentence, per language.
ABBREVIATIONS: dict[str, frozenset[str]] = {
    language: frozenset(_COMMON + words.split())
    for language, words in {
        "en": """inc ltd co corp gen gov sen rep lt col sgt capt mt ft fig dept est
            jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri
            sat sun e.g i.e a.m p.m u.s u.k u.n ph.d cf al fr rev""",
        "de": """bzw usw z.b d.h u.a v.a evtl ggf inkl jh mio mrd str vgl z.t bspw
            sog u.ä hr fr dipl ing abs art bd ff geb gegr jan feb märz apr aug
            sept okt nov dez s o.ä u.s.w zzgl abt""",
        "fr": """m mm mme mmes mlle mlles pr ste cf p ex env av apr j.-c vol éd
            coll janv févr sept oct nov déc""",
        "es": """sr sra srta sres dra d dña ud uds p.ej pág núm art av ee.uu aprox
            cía s.a vol ej lic ing arq gral excmo sto sta ene feb abr jun jul
            ago sept oct nov dic""",
        "cs": """tzv např atd apod tj resp mj př str č mld mil tis kč ing mgr doc
            judr mudr phdr rndr sv ul nám r popř aj hod min odst čes tř zejm
            víz např mn""",
        "ru": """т.е т.д т.п т.к т.н г гг в вв им ул д др пр млн млрд тыс руб коп
            см стр рис ст чел напр проф акад т п н.э ок и.о ген жен муж""",
    }.items()
}

# Languages that write ordinal numbers as digits and a full stop.
_ORDINAL_STOP = frozenset(("de", "cs"))

_BOUNDARY = re.compile(
    r"(?:[.!?…]+|[。！？]+)"  # the end of a sentence
    r"[\"'»”’“)\]]*"  # closing quotes and brackets
    r"(?=\s|$)"
)
_DOTTED = re.compile(r"^(?:\w{1,3}\.)+\w{0,3}$")  # U.S, e.g, z.B, т.е


def split_sentences(segment: str, language: str) -> tuple[str, ...]:
    """The sentences of ``segment`` (stripped; empty pieces dropped)."""
    text = unicodedata.normalize("NFC", segment)
    abbreviations = ABBREVIATIONS.get(language, frozenset(_COMMON))
    pieces: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.end()
        if _ends_sentence(text, match.start(), end, language, abbreviations):
            pieces.append(text[start:end].strip())
            start = end
    pieces.append(text[start:].strip())
    return tuple(piece for piece in pieces if piece)


def _ends_sentence(
    text: str, stop: int, end: int, language: str, abbreviations: frozenset[str]
) -> bool:
    following = text[end:].lstrip()
    if not following:
        return True
    if following.lstrip("-–— ")[:1].islower():
        return False  # "… !" – said she: the speech goes on after a dash
    if following[0] in ")]},;:":
        return False  # no sentence starts there: "(… Ed. ) have"
    if text[stop] in "。！？":
        return True
    if text[stop] != "." or text[stop : stop + 2] == "..":
        return True  # ! ? … and an ellipsis "..."
    word = text[:stop].split()[-1] if text[:stop].split() else ""
    word = word.lstrip("\"'«„“‘([¿¡")
    lower = word.lower()
    if lower in abbreviations:
        return False
    if len(word) == 1 and word.isalpha():
        return False  # an initial: J. K. Rowling
    if "." in word and _DOTTED.match(word):
        return False  # U.S., e.g., z.B.
    if language in _ORDINAL_STOP and word.isdigit() and len(word) <= 3:
        return False  # am 3. Oktober, 21. století
    return True
