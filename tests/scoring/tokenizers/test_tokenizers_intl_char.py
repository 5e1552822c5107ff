"""The intl (mteval-v14 international) and char tokenizers: hand-worked cases
from the mteval-v14 rules and token-for-token agreement with sacreBLEU 2.6.0's
``intl`` and ``char`` tokenizers on real WMT21 text."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import get_tokenizer
from tests.scoring.support.realdata import measured, read_lines

# (input, tokens) worked out by hand from mteval-v14's three rules:
# punctuation (P*) split off unless a number (N*) is on both sides; symbols
# (S*) always split off; no entity unescaped.
INTL_CASES = [
    ("Hello, world!", ("Hello", ",", "world", "!")),
    ("3,5 und 1.000", ("3,5", "und", "1.000")),
    # Nothing follows the final period, so "1999." keeps it (as in mteval-v14).
    ("Es war 1999.", ("Es", "war", "1999.")),
    ("Es war 1999. Dann", ("Es", "war", "1999", ".", "Dann")),
    ("«Hallo» — sagte er", ("«", "Hallo", "»", "—", "sagte", "er")),
    ("5 € + 3 $", ("5", "€", "+", "3", "$")),
    ("don't", ("don", "'", "t")),
    ("a-b", ("a", "-", "b")),
    ("他说：“你好。”", ("他说", "：", "“", "你好", "。", "”")),
    ("&amp;", ("&", "amp", ";")),
    ("مرحبا، عالم؟", ("مرحبا", "،", "عالم", "؟")),
    # A combining accent (Mn) is neither punctuation nor symbol.
    ("Cafe\u0301.", ("Cafe\u0301", ".")),
    ("Haus\u00a0am\u3000See", ("Haus", "am", "See")),
    ("", ()),
]


@pytest.mark.parametrize(("text", "tokens"), INTL_CASES)
def test_intl_tokenizes_like_mteval_v14_international(
    text: str, tokens: tuple[str, ...]
) -> None:
    assert get_tokenizer("intl")(text) == tokens


def test_char_makes_every_non_whitespace_character_a_token() -> None:
    tokenizer = get_tokenizer("char")
    assert tokenizer("我爱 你。") == ("我", "爱", "你", "。")
    assert tokenizer("ab\u00a0c\td") == ("a", "b", "c", "d")
    # A combining accent is a character of its own, as in sacreBLEU.
    assert tokenizer("e\u0301") == ("e", "\u0301")
    assert get_tokenizer("char", lowercase=True)("AB") == ("a", "b")
    assert tokenizer("  ") == ()


def _wmt21_lines(wmt21_dir: Path, pattern: str) -> list[str]:
    lines: set[str] = set()
    for path in sorted(wmt21_dir.glob(pattern)):
        lines.update(read_lines(path))
    return sorted(lines)


TRICKY_LINES = [
    "1999.",
    "a..b",
    "3,-4",
    "x.,y",
    "(1)",
    "1:0",
    "¿Qué?",
    "e\u0301!",
    "€5,-",
    "\u2028 sep",
    "İstanbul",
    "tab\there",
    "ＡＢＣ。",
    "٣٫٥",
    "½.",
    "x‰y",
]


def test_intl_matches_sacrebleu_on_every_wmt21_reference_and_source_line(
    sacrebleu, en_de
) -> None:
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    reference = TokenizerV14International()
    wmt21_dir = en_de.directory.parent
    lines = _wmt21_lines(wmt21_dir, "*/ref.*") + _wmt21_lines(wmt21_dir, "*/src.*")
    lines += TRICKY_LINES
    assert len(lines) > measured(full=10_000, fixtures=1_500)  # lines compared
    mismatches = []
    for lowercase in (False, True):
        ours = get_tokenizer("intl", lowercase=lowercase)
        for line in lines:
            # sacreBLEU's BLEU lower-cases and strips trailing whitespace first.
            prepared = (line.lower() if lowercase else line).rstrip()
            if ours(line) != tuple(reference(prepared).split()):
                mismatches.append((lowercase, line))
    assert mismatches == []


def test_char_matches_sacrebleu_on_the_wmt21_chinese_source_and_all_references(
    sacrebleu, zh_en
) -> None:
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar

    reference = TokenizerChar()
    wmt21_dir = zh_en.directory.parent
    lines = _wmt21_lines(wmt21_dir, "zh-en/src.*") + _wmt21_lines(wmt21_dir, "*/ref.*")
    lines += TRICKY_LINES
    assert len(lines) > measured(full=8_000, fixtures=1_200)  # lines compared
    ours = get_tokenizer("char")
    mismatches = [
        line for line in lines if ours(line) != tuple(reference(line.rstrip()).split())
    ]
    assert mismatches == []


def test_the_docstring_examples_of_tokenizers_unicode_hold() -> None:
    import doctest

    import scoring.tokenizers.unicode

    outcome = doctest.testmod(scoring.tokenizers.unicode)
    assert outcome.attempted > 0 and outcome.failed == 0
