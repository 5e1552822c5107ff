"""The 13a and none tokenizers: hand-worked mteval-v13a cases and agreement
with sacreBLEU's ``13a`` on every line of the real WMT21 data. (intl and char:
test_tokenizers_intl_char.py; the exact Perl mteval13a: test_mteval_*.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import MetricError, TokenizerError, get_tokenizer, list_tokenizers
from tests.scoring.support.realdata import measured, read_lines

# (input, tokens) worked out by hand from the mteval-v13a rules.
MTEVAL_13A_CASES = [
    ("Hello, world!", ("Hello", ",", "world", "!")),
    ("It costs $3.50.", ("It", "costs", "$", "3.50", ".")),
    ("1,000 people", ("1,000", "people")),
    ("pages 5-6, well-known", ("pages", "5", "-", "6", ",", "well-known")),
    ("don't", ("don't",)),
    ("a.b", ("a", ".", "b")),
    ("x@y.com", ("x", "@", "y", ".", "com")),
    ("(see [1]; {ok})", ("(", "see", "[", "1", "]", ";", "{", "ok", "}", ")")),
    ("&quot;Hi&quot; &amp; &lt;b&gt;", ('"', "Hi", '"', "&", "<", "b", ">")),
    # Entities are replaced one after the other: &amp; first gives &lt;.
    ("&amp;lt;", ("<",)),
    ("&apos;", ("&", "apos", ";")),
    ("<skipped> text", ("text",)),
    ("co-\noperate now", ("cooperate", "now")),
    ("line one\nline two", ("line", "one", "line", "two")),
    # Only ASCII punctuation is split; Chinese text stays as it is.
    ("他说：“你好。”", ("他说：“你好。”",)),
    ("中国 经济", ("中国", "经济")),
    # U+00A0 and U+3000 are whitespace for Python's str.split, as in sacreBLEU.
    ("Haus\u00a0am\u3000See", ("Haus", "am", "See")),
    ("", ()),
    ("   ", ()),
]


@pytest.mark.parametrize(("text", "tokens"), MTEVAL_13A_CASES)
def test_13a_tokenizes_like_mteval_v13a(text: str, tokens: tuple[str, ...]) -> None:
    assert get_tokenizer("13a")(text) == tokens


def test_13a_drops_trailing_whitespace_before_joining_hyphenated_lines() -> None:
    # sacreBLEU strips trailing whitespace before tokenising, so a final
    # "-\n" is not an end-of-line hyphenation.
    assert get_tokenizer("13a")("well-\n") == ("well-",)


def test_none_splits_on_unicode_whitespace_only() -> None:
    tokenizer = get_tokenizer("none")
    assert tokenizer("Hello, world!\tok\u00a0yes") == ("Hello,", "world!", "ok", "yes")


def test_lowercasing_happens_before_tokenizing() -> None:
    # "&QUOT;" only becomes a quote because it is lower-cased first.
    assert get_tokenizer("13a", lowercase=True)("&QUOT;Ab&QUOT;") == ('"', "ab", '"')
    assert get_tokenizer("none", lowercase=True)("ÄBC İ") == ("äbc", "i̇")


def test_tokenizers_report_their_signature_parts() -> None:
    assert get_tokenizer("13a").name == "13a"
    assert get_tokenizer("none", lowercase=True).case_signature == "lc"
    assert get_tokenizer("none").case_signature == "mixed"
    assert list_tokenizers() == (
        "13a",
        "none",
        "intl",
        "char",
        "mteval13a",
        "mteval13a-sgml",
        "zh",
    )
    assert get_tokenizer("mteval13a", lowercase=True).case_signature == "lc-ascii"
    assert get_tokenizer("intl", lowercase=True).case_signature == "lc"


def test_an_unknown_tokenizer_is_refused_with_the_valid_names() -> None:
    with pytest.raises(TokenizerError) as raised:
        get_tokenizer("moses")
    assert "moses" in str(raised.value)
    assert "13a" in str(raised.value) and "none" in str(raised.value)
    assert isinstance(raised.value, MetricError)


TRICKY_LINES = [
    "a..b",
    "1.,2",
    "-5-",
    "3-4-5",
    "x,.y",
    "&amp;amp;",
    "&AMP;",
    "x-\ny",
    "\u2028 sep",
    "İstanbul",
    "end .",
    " lead",
    "tab\there",
    "5.- 6,-",
    "ÆØÅ.",
]


def _wmt21_reference_and_source_lines(wmt21_dir: Path) -> list[str]:
    """Every reference and source line of the four WMT21 pairs in English,
    German, Russian and Chinese (~16,000 lines; ~1,800 on the fixtures);
    system outputs are covered by the BLEU agreement tests."""
    lines: set[str] = set()
    for path in sorted(wmt21_dir.glob("*/ref.*")) + sorted(wmt21_dir.glob("*/src.*")):
        lines.update(read_lines(path))
    return sorted(lines)


def test_13a_matches_sacrebleu_on_every_wmt21_reference_and_source_line(
    sacrebleu, en_de
) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    reference = Tokenizer13a()
    lines = _wmt21_reference_and_source_lines(en_de.directory.parent) + TRICKY_LINES
    assert len(lines) > measured(full=10_000, fixtures=1_500)  # lines compared
    mismatches = []
    for lowercase in (False, True):
        ours = get_tokenizer("13a", lowercase=lowercase)
        for line in lines:
            # sacreBLEU's BLEU lower-cases and strips trailing whitespace first.
            prepared = (line.lower() if lowercase else line).rstrip()
            if ours(line) != tuple(reference(prepared).split()):
                mismatches.append((lowercase, line))
    assert mismatches == []
