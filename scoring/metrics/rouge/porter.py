"""The Porter (1980) stemmer exactly as ROUGE-1.5.5 applies it with ``-m``.

ROUGE-1.5.5.pl carries its own Perl Porter stemmer (Martin Porter's
"Release 1" Perl version, which already has the later ``logi`` -> ``log``
rule in step 2 and ``bli`` -> ``ble`` instead of ``abli`` -> ``able``) with
one change by Chin-Yew Lin (marked "CYL: Modified 02/14/2004"): in step 4 a
word ending in ``-ement`` is not tried for ``-ment`` and ``-ent`` in the same
test, but ``-ment`` and then ``-ent`` are tried *afterwards*, each on the
result of the previous test. So step 4 can remove up to three suffixes
(``fundamental`` -> ``fundament`` -> ``fundam``), unlike the original
algorithm, which removes at most one.

The rules are written with the Perl script's own regular expressions: Python's
``re`` picks the same leftmost match for them, and ``$``` (the text before the
match) is ``word[: match.start()]``. A leading ``y`` is upper-cased while
stemming, so the patterns treat it as a consonant, as in the Perl code.
Words shorter than 3 characters are returned unchanged.

ROUGE-1.5.5 stems only tokens longer than 3 characters and looks a token up
in WordNet's exception lists before stemming it; that part lives in
:mod:`scoring.metrics.rouge.preprocess`.

>>> [porter_stem(word) for word in ["killed", "generalizations", "fundamental"]]
['kill', 'gener', 'fundam']
"""

from __future__ import annotations

import re
from functools import lru_cache

_CONSONANT = "[^aeiou]"
_VOWEL = "[aeiouy]"
_CONSONANTS = f"{_CONSONANT}[^aeiouy]*"
_VOWELS = f"{_VOWEL}[aeiou]*"

# The measure m of Porter's [C](VC)^m[V]: m > 0, m == 1, m > 1; vowel in stem.
_M_GT_0 = re.compile(f"^({_CONSONANTS})?{_VOWELS}{_CONSONANTS}")
_M_EQ_1 = re.compile(f"^({_CONSONANTS})?{_VOWELS}{_CONSONANTS}({_VOWELS})?$")
_M_GT_1 = re.compile(f"^({_CONSONANTS})?{_VOWELS}{_CONSONANTS}{_VOWELS}{_CONSONANTS}")
_HAS_VOWEL = re.compile(f"^({_CONSONANTS})?{_VOWEL}")
# Porter's *o condition as the Perl code tests it: the whole stem is C v c,
# the last c not w, x or y.
_CVC = re.compile(f"^{_CONSONANTS}{_VOWEL}[^aeiouwxy]$")

_STEP1A_SSES_IES = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_STEP1B_EED = re.compile("eed$")
_STEP1B_ED_ING = re.compile("(ed|ing)$")
_STEP1B_AT_BL_IZ = re.compile("(at|bl|iz)$")
_STEP1B_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_STEP1C_Y = re.compile("y$")

_STEP2_SUFFIXES = {
    "ational": "ate",
    "tional": "tion",
    "enci": "ence",
    "anci": "ance",
    "izer": "ize",
    "bli": "ble",
    "alli": "al",
    "entli": "ent",
    "eli": "e",
    "ousli": "ous",
    "ization": "ize",
    "ation": "ate",
    "ator": "ate",
    "alism": "al",
    "iveness": "ive",
    "fulness": "ful",
    "ousness": "ous",
    "aliti": "al",
    "iviti": "ive",
    "biliti": "ble",
    "logi": "log",
}
# The alternation keeps the Perl order: at one start position the first
# alternative that matches wins.
_STEP2 = re.compile(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator"
    "|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$"
)
_STEP3_SUFFIXES = {
    "icate": "ic",
    "ative": "",
    "alize": "al",
    "iciti": "ic",
    "ical": "ic",
    "ful": "",
    "ness": "",
}
_STEP3 = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4 = re.compile(
    "(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$"
)
_STEP4_MENT = re.compile("ment$")
_STEP4_ENT = re.compile("ent$")
_STEP4_ION = re.compile("(s|t)(ion)$")
_STEP5_E = re.compile("e$")
_STEP5_LL = re.compile("ll$")


def _step1(word: str) -> str:
    """Plurals (1a), ``-eed``/``-ed``/``-ing`` (1b) and ``y`` -> ``i`` (1c)."""
    if match := _STEP1A_SSES_IES.search(word):
        word = word[: match.start()] + match.group(1)
    elif match := _STEP1A_S.search(word):
        word = word[: match.start()] + match.group(1)

    if match := _STEP1B_EED.search(word):
        if _M_GT_0.search(word[: match.start()]):
            word = word[:-1]
    elif match := _STEP1B_ED_ING.search(word):
        stem = word[: match.start()]
        if _HAS_VOWEL.search(stem):
            word = stem
            if _STEP1B_AT_BL_IZ.search(word):
                word += "e"
            elif _STEP1B_DOUBLE.search(word):
                word = word[:-1]
            elif _CVC.search(word):
                word += "e"

    if match := _STEP1C_Y.search(word):
        stem = word[: match.start()]
        if _HAS_VOWEL.search(stem):
            word = stem + "i"
    return word


def _replace_suffix(
    word: str, pattern: re.Pattern[str], replacements: dict[str, str]
) -> str:
    """Steps 2 and 3: replace the suffix when the rest has m > 0."""
    if match := pattern.search(word):
        stem = word[: match.start()]
        if _M_GT_0.search(stem):
            word = stem + replacements[match.group(1)]
    return word


def _strip_if_m_gt_1(word: str, pattern: re.Pattern[str]) -> tuple[str, bool]:
    """Remove the suffix ``pattern`` matches when the rest has m > 1.

    Returns the word and whether the pattern matched at all (Perl's ``if``
    decides its ``elsif`` on the match, not on the removal).
    """
    match = pattern.search(word)
    if match is None:
        return word, False
    stem = word[: match.start()]
    return (stem if _M_GT_1.search(stem) else word), True


def _step4(word: str) -> str:
    """Step 4 with Lin's change: three tests, each on the previous result."""
    word, _ = _strip_if_m_gt_1(word, _STEP4)
    word, _ = _strip_if_m_gt_1(word, _STEP4_MENT)
    word, matched = _strip_if_m_gt_1(word, _STEP4_ENT)
    if not matched and (match := _STEP4_ION.search(word)):
        stem = word[: match.start()] + match.group(1)  # keeps the s or t
        if _M_GT_1.search(stem):
            word = stem
    return word


def _step5(word: str) -> str:
    """Remove a final ``e`` (5a) and undouble a final ``ll`` (5b)."""
    if match := _STEP5_E.search(word):
        stem = word[: match.start()]
        if _M_GT_1.search(stem) or (_M_EQ_1.search(stem) and not _CVC.search(stem)):
            word = stem
    if _STEP5_LL.search(word) and _M_GT_1.search(word):
        word = word[:-1]
    return word


@lru_cache(maxsize=2**17)
def porter_stem(word: str) -> str:
    """Stem one lower-case word like ROUGE-1.5.5's Perl ``stem`` routine.

    Cached: a corpus repeats the same words many times.
    """
    if len(word) < 3:
        return word
    initial_y = word[0] == "y"
    if initial_y:
        word = "Y" + word[1:]
    word = _step1(word)
    word = _replace_suffix(word, _STEP2, _STEP2_SUFFIXES)
    word = _replace_suffix(word, _STEP3, _STEP3_SUFFIXES)
    word = _step4(word)
    word = _step5(word)
    if initial_y:
        word = word[0].lower() + word[1:]
    return word
