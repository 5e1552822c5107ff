"""METEOR 1.5's ``-norm`` tokeniser, applied rule by rule by hand.

Each expected string follows the Java Normalizer's rules in order (split
symbols, protect dot runs, commas, quotes, dashes, hyphen removal,
apostrophes, final periods with nonbreaking prefixes, whitespace).
"""

from __future__ import annotations

import pytest

from scoring.metrics.meteor.normalize import java_tokens, meteor_words, normalize_line
from scoring.metrics.meteor.resources import ANY, NONBREAKING_PREFIXES, NUMERIC_ONLY


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello, world!", "Hello , world !"),
        ("It costs $3,000.50 now.", "It costs $ 3,000.50 now ."),
        ("well-known U.S.-based firm", "well known US based firm"),
        ("Wait... what?", "Wait ... what ?"),
        # curly quotes become ' and ", then the apostrophe rules split them
        ("\u201cQuoted\u201d and \u2018single\u2019", "\" Quoted \" and ' single '"),
        # the en dash is split off as a symbol first, then becomes "-"
        ("pages 10\u201320 -- done", "pages 10 - 20 - done"),
        ("a well-known x-ray", "a well known x ray"),
        ("Mr. Smith met Dr. No. 5 people.", "Mr. Smith met Dr. No. 5 people ."),
        ("He left at No. Then more.", "He left at No . Then more ."),
        ("the 1990's", "the 1990 's"),
        ("a\u00a0b\u3000c", "a b c"),
    ],
)
def test_it_normalises_english_like_meteor(text: str, expected: str) -> None:
    assert normalize_line(text, "en") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("don't", "don 't"),  # contraction goes right
        ("rock 'n' roll", "rock ' n ' roll"),
        ("students' books", "students ' books"),
    ],
)
def test_it_splits_english_apostrophes_to_the_right(text: str, expected: str) -> None:
    assert normalize_line(text, "en") == expected


def test_german_splits_apostrophes_on_both_sides_and_keeps_ordinals() -> None:
    # "z.B." contains a dot and a letter: METEOR drops its dots ("U.S." rule).
    assert normalize_line("Ash O'Brien kam am 3. Mai z.B. um 5 Uhr.", "de") == (
        "Ash O ' Brien kam am 3. Mai zB um 5 Uhr ."
    )


def test_it_lowercases_after_normalising() -> None:
    assert meteor_words("The U.S. Army", "en", norm=True, lowercase=False) == (
        "the",
        "us",
        "army",
    )


def test_words_split_on_ascii_whitespace_only_like_java() -> None:
    assert java_tokens(" a\tb\u00a0c\n") == ("a", "b\u00a0c")


def test_the_nonbreaking_prefixes_are_moses_2011_lists() -> None:
    # Checked once against Moses' files whose MD5 equals the one METEOR's
    # repository records for english.prefixes / german.prefixes.
    english = NONBREAKING_PREFIXES["en"]
    # 26 letters, 57 titles, v vs i.e rev e.g, Nos Nr, and No Art pp.
    assert len(english) == 26 + 57 + 5 + 2 + 3
    assert english["No"] == english["Art"] == english["pp"] == NUMERIC_ONLY
    assert english["Mr"] == english["e.g"] == english["Nos"] == ANY
    assert "Jan" not in english and "Rs" not in english  # added to Moses later
    german = NONBREAKING_PREFIXES["de"]
    assert german["z.B"] == german["99"] == german["xx"] == ANY
    assert NUMERIC_ONLY not in german.values()
    assert len(german) == 298
