"""METEOR's words of many texts normalised in one pass equal each text's own
(:meth:`scoring.batch.meteor_family.MeteorWords.many`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.batch.meteor_family import MeteorWords, normalize_many
from scoring.metrics.meteor.normalize import normalize_line
from tests.scoring.support.realdata import DATA_DIR, read_lines

# Every character or string some rule of -norm reads, and the separator.
PIECES = list("aZé9 0.,'`-s\t\n\x0b\x00$Σ") + [
    " ", "  ", "\u00a0", "\u3000", "\u2018", "\u2019", "\u201c", "\u201d",
    "\u2013", "--", "''", "...", "..", "Mr.", "No.", "U.S.", "DOTMULTI",
    "don't", "1,000", "3.5", "well-known", "e.g.", "Ž", "İ", "ΑΣ",
]  # fmt: skip
TEXT = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(TEXT, max_size=8), st.sampled_from(["en", "de"]), st.integers(1, 60))
def test_normalising_together_equals_one_by_one(texts, language, block):
    expected = [normalize_line(text, language) for text in texts]
    assert normalize_many(texts, language, block_characters=block) == expected


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("norm", [False, True])
def test_many_equals_the_view_text_by_text(norm, lowercase):
    texts = [
        "He said: \u201cDon't!\u201d U.S.-based, well-known Mr. Li.",
        "No. 5 costs 1,000 dollars... No. more. mr. x",
        "",
        "   ",
        "a\x00b, c.",  # holds the separator: normalised alone
        "ΟΔΟΣ. Σ x",
        "tab\there\nline  \r\x0cend. Next",
    ]
    view = MeteorWords("en", norm, lowercase)
    assert view.many(texts) == [view(text) for text in texts]


def test_many_equals_the_view_on_real_translations():
    path = DATA_DIR / "wmt21" / "ru-en" / "sys" / "Online-B.en"
    if not path.exists():
        pytest.skip(f"WMT21 data not found at {path}")
    texts = read_lines(path)[:500]
    view = MeteorWords("en", True, True)
    assert view.many(texts) == [view(text) for text in texts]
