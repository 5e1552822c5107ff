"""METEOR's ``-norm`` searched from each rule's literal equals the rules
applied as METEOR's Normalizer writes them.

The oracle below is the plain rule list (``(L)c(R)`` regexes over the whole
text, a Python step per word for final periods), kept only here; the library
version skips absent trigger characters, searches from the literal with the
neighbours as lookarounds and must still leave alone a literal whose left
neighbour the previous replacement consumed (``a,b,c``).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.metrics.meteor.normalize import normalize_line
from scoring.metrics.meteor.resources import ANY, NONBREAKING_PREFIXES, NUMERIC_ONLY
from tests.scoring.support.realdata import DATA_DIR, read_lines

_A = (
    "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e"
    "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
)
_RULES = [
    (f"([^0-9{_A} \\t\\n\\x0b\\f\\r.'`,\\-\u2018\u2019])", r" \1 "),
    (r"\.([.]+)", r" DOTMULTI\1"),
    (r"([^0-9])[,]([^0-9])", r"\1 , \2"),
    (r"([0-9])[,]([^0-9])", r"\1 , \2"),
    (r"([^0-9])[,]([0-9])", r"\1 , \2"),
    ("([`\u2018\u2019])", "'"),
    ("([\u201c\u201d]|'')", ' " '),
    ("\u2013", "-"),
    ("--", "-"),
    (f"([0-9{_A}.])[-]([0-9{_A}])", r"\1 \2"),
]
_ENGLISH = [
    (f"([^{_A}])[']([^{_A}])", r"\1 ' \2"),
    (f"([^{_A}0-9])[']([{_A}])", r"\1 ' \2"),
    (f"([{_A}])[']([^{_A}])", r"\1 ' \2"),
    (f"([{_A}])[']([{_A}])", r"\1 '\2"),
    (r"([0-9])[']([s])", r"\1 '\2"),
]


def oracle(line: str, language: str) -> str:
    text = f" {line} "
    for index, (pattern, replacement) in enumerate(_RULES):
        text = re.sub(pattern, replacement, text)
        while index == 1 and "DOTMULTI." in text:
            text = re.sub(r"DOTMULTI\.([^.])", r"DOTDOTMULTI \1", text)
            text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    if language == "en":
        for pattern, replacement in _ENGLISH:
            text = re.sub(pattern, replacement, text)
    else:
        text = text.replace("'", " ' ")
    prefixes = NONBREAKING_PREFIXES.get(language, {})
    words = [word for word in re.split("[ \t\n\r\f]+", text) if word]
    out = []
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        prefix = word[:-1]
        kind = prefixes.get(prefix)
        if len(word) > 1 and word.endswith("."):
            if "." in prefix and re.search(f"[{_A}]", prefix):
                word = word.replace(".", "")
            elif not (
                kind == ANY
                or re.match("[a-z]", following)
                or (kind == NUMERIC_ONLY and re.match("[0-9]", following))
            ):
                word = prefix + " ."
        out.append(word + " ")
    text = "".join(out)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    text = re.sub("[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+", " ", text)
    return re.sub("^[\x00- ]+|[\x00- ]+$", "", text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a replacement consumes both neighbours: the next literal whose left
        # neighbour was taken stays (METEOR's Java replaceAll does the same)
        ("a,b,c,d,e", "a , b,c , d,e"),
        ("a,,b", "a , ,b"),
        ("a-b-c", "a b-c"),
        ("a'b'c", "a 'b'c"),
        ("5'6'7", "5 ' 6'7"),
        # no ".." but the text's own "DOTMULTI." still goes through the loop
        ("DOTMULTI.x", ".. x"),
        ("end.\tNext", "end . Next"),
        ("No.\u00a05", "No . 5"),
        ("x.", "x ."),
        ("", ""),
    ],
)
def test_quirks_of_the_rules_are_kept(text: str, expected: str) -> None:
    assert oracle(text, "en") == expected
    assert normalize_line.__wrapped__(text, "en") == expected


PIECES = list("aZé9 0.,'`-s\t\n\r\f\x0b\x00$Σ&<>\"!?;:()xAB1") + [
    " ", "  ", "\u00a0", "\u3000", "\u2009", "\u2018", "\u2019", "\u201c",
    "\u201d", "\x85", "\u2028", "\x1c", "\u2013", "--", "''", "...", "..",
    "Mr.", "No.", "U.S.", "DOTMULTI", "DOTMULTI.", "DOTDOTMULTI", "Art.",
    "z.B.", "pp.", "don't", "1,000", "3.5", "well-known", "e.g.", "Ž", "İ",
    "ΑΣ", "ж", "中", "'s", "a,b,c", "a-b-c", "a'b'c", ",,", ", ,", "'n'",
]  # fmt: skip
TEXT = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)
DENSE = st.text(alphabet=",.-'\" 09aZé&<>`\u2019\u201c\u00a0s\t", max_size=20)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(TEXT, DENSE), st.sampled_from(["en", "de"]))
def test_equals_the_rule_list_on_adversarial_text(text: str, language: str) -> None:
    assert normalize_line.__wrapped__(text, language) == oracle(text, language)


def _real_lines() -> list[str]:
    paths = sorted((DATA_DIR / "wmt21").glob("*/sys/*")) + sorted(
        (DATA_DIR / "wmt21").glob("*/ref.*")
    )
    return [line for path in paths for line in read_lines(path)]


def test_equals_the_rule_list_on_real_translations_one_by_one_and_joined() -> None:
    lines = _real_lines()
    if not lines:
        pytest.skip(f"WMT21 data not found under {DATA_DIR}")
    distinct = sorted(set(lines))[:: max(1, len(set(lines)) // 4000)]
    for language in ("en", "de"):
        got = [normalize_line.__wrapped__(line, language) for line in distinct]
        assert got == [oracle(line, language) for line in distinct]
    # the batch engine normalises texts joined in one string
    joined = " \x00 ".join(distinct)
    assert normalize_line.__wrapped__(joined, "en") == oracle(joined, "en")
