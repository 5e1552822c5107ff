"""Sentences within a segment, per language: abbreviations, decimals,
ordinals, initials, quotes and dashes (scoring.readability.sentences)."""

from __future__ import annotations

import pytest

from scoring.readability.sentences import split_sentences
from tests.scoring.support.realdata import WMT21_DIR, measured, read_lines

CASES = [
    # (language, segment, expected sentences)
    ("en", "It rained. We stayed in.", ("It rained.", "We stayed in.")),
    ("en", "Prices rose 3.5 percent in 2021. Wages did not.", 2),
    ("en", "Dr. Smith met Mr. Jones at 3 p.m. on Monday.", 1),
    ("en", "J. K. Rowling wrote it. The U.S. Army read it.", 2),
    ("en", "The U.S. economy grew, e.g. in May. It slowed later.", 2),
    ("en", 'He said "Stop." Then he left.', ('He said "Stop."', "Then he left.")),
    ("en", 'He asked: "Why?" and left.', 1),
    ("en", "Did he? Yes! Wait... It is over.", 4),
    ("en", "Visit www.example.org today. It is free.", 2),
    ("en", "A text from Fr. Andrew. (See the note, Ed. ) It ends.", 2),
    ("en", "The iPhone sold well. iPads did not.", 1),  # lower-case start: a limit
    ("de", "Am 3. Oktober kam er. Er blieb bis zum 21. Mai.", 2),
    ("de", "Das ist z. B. gut, bzw. besser. Und das auch.", 2),
    ("de", "Es kostet 2,5 Mio. Euro. Das ist viel.", 2),
    ("de", "Er kam im Jahr 2020. Dann ging er.", 2),
    ("fr", "M. Dupont est arrivé. Mme Durand aussi.", 2),
    ("es", "¿Qué pasa? ¡Nada! El Sr. López llegó.", 3),
    ("es", "Vive en EE.UU. desde 2010. Trabaja allí.", 2),
    ("cs", "Je to tzv. efekt. Ve 21. století je běžný.", 2),
    ("cs", "Přišel např. Ing. Novák. Odešel.", 2),
    ("ru", "Это т.е. хорошо. В 2020 г. было так.", 2),
    ("ru", "«Смотрите внимательно!» - поделилась она. Потом ушла.", 2),
    ("ru", "Смотрите внимательно!!! - поделилась она.", 1),
]


@pytest.mark.parametrize(("language", "segment", "expected"), CASES)
def test_it_cuts_segments_into_sentences(language, segment, expected) -> None:
    sentences = split_sentences(segment, language)
    if isinstance(expected, int):
        assert len(sentences) == expected, sentences
    else:
        assert sentences == expected


def test_it_keeps_the_text_and_drops_nothing_but_spaces() -> None:
    segment = "  One.   Two!  Three?  "
    assert split_sentences(segment, "en") == ("One.", "Two!", "Three?")
    assert split_sentences("", "en") == ()
    assert split_sentences("no stop at all", "en") == ("no stop at all",)


def test_a_language_without_a_list_still_splits_with_the_common_abbreviations() -> None:
    assert split_sentences("Dr. Rossi è qui. Sta bene.", "it") == (
        "Dr. Rossi è qui.",
        "Sta bene.",
    )


@pytest.mark.parametrize(
    ("pair", "name", "language", "expected"),
    [
        # Measured, and every cut line read: all are real sentence ends (the
        # fixtures' two: "The reason for his visit? | Chicken wings." and
        # "... alike. | The Rakoczi weekend ..."). WMT sources are split into
        # sentences already (src.de: none); references are not always.
        ("de-en", "ref.A.en", "en", measured(full=16, fixtures=0)),
        ("de-en", "ref.B.en", "en", measured(full=7, fixtures=2)),
        ("de-en", "src.de", "de", measured(full=0, fixtures=0)),
        ("ru-en", "ref.A.en", "en", measured(full=11, fixtures=0)),
        ("ru-en", "src.ru", "ru", measured(full=4, fixtures=0)),
    ],
)
def test_it_finds_the_lines_holding_several_sentences_in_wmt21(
    pair, name, language, expected
) -> None:
    if not WMT21_DIR.is_dir():
        pytest.skip(f"WMT21 data not found at {WMT21_DIR}")
    lines = read_lines(WMT21_DIR / pair / name)
    several = [line for line in lines if len(split_sentences(line, language)) > 1]
    assert len(several) == expected
