"""The mteval13a and mteval13a-sgml tokenizers reproduce mteval-v13a.pl's own
text processing, quirks included.

Expected tokens are worked out by hand from the Perl script (its SGML reader
collapses whitespace runs; its ``tokenization`` sub strips ``<skipped>``,
replaces ``&quot; &amp; &lt; &gt;`` once each in that order, folds A-Z with
``tr`` unless ``-c``, then applies the 13a punctuation rules) and from the
oracle README (section 1), whose checks with the real script are quoted.
"""

from __future__ import annotations

import pytest

from scoring import __version__ as VERSION
from scoring import get_metric, get_tokenizer
from tests.scoring.support.realdata import measured, read_lines

# (text, lowercase, tokens) for plain text, XML-escaped into mteval's SGML.
PLAIN_CASES = [
    # README: a literal "&amp;" reaches mteval's tokenizer as "& amp ;".
    ("Ärger &amp; Co.", True, ("Ärger", "&", "amp", ";", "co", ".")),
    ("&quot;Hi&quot;", False, ("&", "quot", ";", "Hi", "&", "quot", ";")),
    ("it&apos;s", False, ("it", "&", "apos", ";", "s")),
    # "&lt;" is escaped to "&amp;lt;", "&amp;" -> "&" gives "&lt;", which the
    # next replacement turns into "<".
    ("&lt;b&gt;", False, ("<", "b", ">")),
    ("&amp;amp;", False, ("&", "amp", ";", "amp", ";")),
    ("AT&T <b>", False, ("AT", "&", "T", "<", "b", ">")),
    # The "<" of a literal <skipped> was escaped, so it is not stripped.
    ("<skipped> x", False, ("<", "skipped", ">", "x")),
    # tr/[A-Z]/[a-z]/ folds ASCII only.
    ("ÜBER Äpfel İSTANBUL", True, ("Über", "Äpfel", "İstanbul")),
    ("ÜBER", False, ("ÜBER",)),
    # Perl's \s: U+00A0, U+3000, TAB and U+2028 separate tokens ...
    ("a\u00a0b\u3000c\td\u2028e", False, ("a", "b", "c", "d", "e")),
    # ... but U+001C (whitespace for Python's str.split) does not.
    ("a\x1cb", False, ("a\x1cb",)),
    # The reader turns the line break into a space before the tokenizer's
    # "-\n" rule could join the hyphenated word.
    ("co-\noperate", False, ("co-", "operate")),
    (
        "It costs $3.50, 5-6 pages.",
        False,
        ("It", "costs", "$", "3.50", ",", "5", "-", "6", "pages", "."),
    ),
    ("他说：“你好。”", False, ("他说：“你好。”",)),
    ("", False, ()),
    ("  \u00a0 ", False, ()),
]


@pytest.mark.parametrize(("text", "lowercase", "tokens"), PLAIN_CASES)
def test_mteval13a_tokenizes_plain_text_like_the_perl_script(
    text: str, lowercase: bool, tokens: tuple[str, ...]
) -> None:
    assert get_tokenizer("mteval13a", lowercase=lowercase)(text) == tokens


# (text, lowercase, tokens) for text that is already <seg> content.
SGML_CASES = [
    ("Ärger &amp; Co.", True, ("Ärger", "&", "co", ".")),
    ("&quot; hi &quot;", False, ('"', "hi", '"')),
    # &apos; is not among the entities mteval-v13a replaces.
    ("it &apos;s", False, ("it", "&", "apos", ";", "s")),
    ("&amp;amp;", False, ("&", "amp", ";")),
    ("&amp;lt;", False, ("<",)),
    ("<skipped> x", False, ("x",)),
    # Replacement is case-sensitive and happens before case folding.
    ("&QUOT;Ab", True, ("&", "quot", ";", "ab")),
    ("x &#124; y", False, ("x", "&", "#", "124", ";", "y")),
]


@pytest.mark.parametrize(("text", "lowercase", "tokens"), SGML_CASES)
def test_mteval13a_sgml_reads_text_as_seg_content_with_its_entities(
    text: str, lowercase: bool, tokens: tuple[str, ...]
) -> None:
    assert get_tokenizer("mteval13a-sgml", lowercase=lowercase)(text) == tokens


def test_sacrebleus_13a_differs_exactly_where_the_readme_says() -> None:
    # The Unicode-correct default: entities unescaped, Unicode lowercasing.
    assert get_tokenizer("13a", lowercase=True)("Ärger &amp; Co.") == (
        "ärger",
        "&",
        "co",
        ".",
    )


def test_ascii_only_lowercasing_gives_the_readmes_0_7598() -> None:
    # Oracle README: mteval (uncased) scores "Über das Haus ist gut ." against
    # "über das Haus ist gut ." 0.7598: Ü is not folded, so the precisions
    # are 5/6, 4/5, 3/4, 2/3 and BLEU = (1/3) ** (1/4).
    metric = get_metric(
        "bleu:tokenize=mteval13a,lowercase=true,smooth=mteval,sentence_smooth=mteval"
    )
    result = metric.score(
        ["Über das Haus ist gut ."], [["über das Haus ist gut ."]], sentence=True
    )
    assert result.score / 100 == pytest.approx((1 / 3) ** 0.25, abs=1e-12)
    assert round(result.sentence_scores[0] / 100, 4) == 0.7598
    assert result.signature == (
        f"bleu|nrefs:1|case:lc-ascii|tok:mteval13a|smooth:mteval|n:4|version:{VERSION}"
    )
    # No effective order with mteval's smoothing, so no "eff" field.
    assert result.sentence_signature == result.signature


@pytest.mark.parametrize("space", ["\u00a0", "\u3000"])
def test_a_no_break_or_ideographic_space_separates_words_as_in_the_readme(
    space: str,
) -> None:
    # README: "a b c d e" against the same with U+00A0 or U+3000 as the
    # first space gives BLEU 1.
    metric = get_metric("bleu:tokenize=mteval13a,smooth=mteval,sentence_smooth=mteval")
    result = metric.score([f"a{space}b c d e"], [["a b c d e"]], sentence=True)
    assert (result.score, result.sentence_scores) == (100.0, (100.0,))


ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(text: str) -> str:
    return text.translate(ASCII_LOWER)


def test_mteval13a_equals_sacrebleu_13a_on_wmt21_lines_without_its_quirks(
    sacrebleu, en_de
) -> None:
    # Where no quirk applies (no "&", no non-ASCII capital, no U+001C-1F),
    # the Perl script and sacreBLEU's 13a must give the same tokens; this
    # checks everything else of our Perl emulation against an independent
    # implementation, line by line.
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    reference = Tokenizer13a()
    wmt21_dir = en_de.directory.parent
    lines: set[str] = set()
    for path in sorted(wmt21_dir.glob("*/ref.*")) + sorted(wmt21_dir.glob("*/src.*")):
        lines.update(read_lines(path))
    usable = [line for line in sorted(lines) if "&" not in line]
    assert len(usable) > measured(full=10_000, fixtures=1_500)  # lines compared
    mismatches = []
    for lowercase in (False, True):
        ours = get_tokenizer("mteval13a", lowercase=lowercase)
        for line in usable:
            if lowercase and line.lower() != _ascii_lower(line):
                continue
            prepared = (line.lower() if lowercase else line).strip()
            if ours(line) != tuple(reference(prepared).split()):
                mismatches.append((lowercase, line))
    assert mismatches == []


def test_the_docstring_examples_of_mteval_hold() -> None:
    import doctest

    import scoring.tokenizers.mteval

    outcome = doctest.testmod(scoring.tokenizers.mteval)
    assert outcome.attempted > 0 and outcome.failed == 0
