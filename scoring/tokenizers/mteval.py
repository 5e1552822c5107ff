"""mteval-v13a.pl's own text processing, reproduced exactly.

The ``13a`` tokenizer (:mod:`scoring.tokenizers`) is sacreBLEU's reading of
mteval-v13a: Unicode case folding and the SGML entities of the plain text
unescaped. The Perl script itself differs in ways that change its figures,
and these tokenizers reproduce it, so its BLEU and NIST can be matched
segment by segment:

- mteval reads SGML. A plain-text segment reaches it XML-escaped (``&`` as
  ``&amp;``, ``<`` as ``&lt;``, ``>`` as ``&gt;``), and mteval replaces
  ``&quot; &amp; &lt; &gt;`` once each, in that order. So an entity written
  literally in the plain text stays text: ``&amp;`` is tokenised as
  ``& amp ;`` (sacreBLEU's 13a gives ``&``), ``&quot;`` as ``& quot ;``,
  ``&apos;`` as ``& apos ;``; only ``&lt;`` and ``&gt;`` come out as ``<``
  and ``>``, because ``&amp;lt;`` becomes ``&lt;`` before ``&lt;`` is
  replaced. A literal ``<skipped>`` is kept (its ``<`` was escaped).
- Case folding (mteval without ``-c``) is Perl's ``tr/[A-Z]/[a-z]/``: ASCII
  letters only, after the entities were replaced; ``Ü`` stays ``Ü``.
- Whitespace is Perl's ``\\s`` on decoded text: U+00A0, U+3000, TAB and the
  other Unicode spaces separate tokens, but U+001C–U+001F (whitespace for
  Python's ``str.split``) do not.

``mteval13a``
    The segment is plain text, written into mteval's SGML input with the
    usual XML escaping (how the oracle figures were made).
``mteval13a-sgml``
    The segment is already the content of an SGML ``<seg>`` element, with
    its entities as in the file (e.g. BLEND's ``preprocessed/`` files, whose
    ``&quot;`` and ``&apos;`` mteval read as they are).

>>> from scoring.tokenizers import get_tokenizer
>>> get_tokenizer("mteval13a", lowercase=True)("Ärger &amp; Co.")
('Ärger', '&', 'amp', ';', 'co', '.')
>>> get_tokenizer("mteval13a-sgml", lowercase=True)("Ärger &amp; Co.")
('Ärger', '&', 'co', '.')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.tokenizers.base import Tokenizer

# Perl's \s on a decoded (UTF-8 flagged) string, Perl >= 5.18.
PERL_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
)
_PERL_WHITESPACE_RUN = re.compile(f"[{PERL_WHITESPACE}]+")

#: The entities mteval-v13a replaces, in its order (not &apos;).
MTEVAL_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))

# mteval-v13a splits off every ASCII punctuation character except the
# apostrophe, comma, hyphen and period (those depend on context, below). The
# space is in mteval's character class too; padding it is harmless.
_SPLIT_ALWAYS = re.compile("([" + re.escape(' !"#$%&()*+/:;<=>?@[\\]^_`{|}~') + "])")
# A period or comma is split off unless it sits between two digits ("3.50",
# "1,000"). mteval does this with two passes; each pass consumes the character
# next to the punctuation mark, which decides what the next match can see, so
# the two passes must be kept exactly as they are.
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
# "5-6" becomes "5 - 6", but "well-known" stays one token.
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def split_13a_punctuation(padded_text: str) -> str:
    """mteval-v13a's punctuation rules on a space-padded segment; returns the
    text with spaces inserted (shared by the ``13a`` and ``mteval13a``
    tokenizers, which differ only before and after this step)."""
    text = _SPLIT_ALWAYS.sub(r" \1 ", padded_text)
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def xml_escape(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` as an SGML/XML writer does."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@lru_cache(maxsize=2**16)
def mteval_tokens(seg_content: str, lowercase: bool = False) -> tuple[str, ...]:
    """The tokens mteval-v13a.pl scores for one ``<seg>`` element's content.

    Args:
        seg_content: the text between ``<seg ...>`` and ``</seg>`` as it is
            in the SGML file (entities still escaped).
        lowercase: mteval without ``-c``: fold ASCII A–Z only.

    Returns:
        The tokens, i.e. Perl's ``split /\\s+/`` of the normalised text.

    >>> mteval_tokens("&quot;ÜBER&quot; 1,5-2 x.y", lowercase=True)
    ('"', 'Über', '"', '1,5', '-', '2', 'x', '.', 'y')
    """
    # mteval collapses whitespace runs of the whole document to one space
    # while reading, so a line break inside a segment never reaches the
    # "-\n" (hyphenation) and "\n" rules of its tokenizer.
    text = _PERL_WHITESPACE_RUN.sub(" ", seg_content)
    text = text.replace("<skipped>", "")
    if "&" in text:
        for entity, character in MTEVAL_ENTITIES:
            text = text.replace(entity, character)
    text = f" {text} "
    if lowercase:
        text = text.translate(_ASCII_LOWER)
    text = split_13a_punctuation(text)
    # The only whitespace left is the ASCII space (all Perl whitespace was
    # turned into spaces above); str.split() would also split on U+001C-1F.
    return tuple(token for token in text.split(" ") if token)


@dataclass(frozen=True)
class MtevalPlainTokenizer(Tokenizer):
    """mteval-v13a.pl exactly, on plain text written into its SGML input."""

    name: ClassVar[str] = "mteval13a"
    description: ClassVar[str] = (
        "mteval-v13a.pl exactly, plain text (literal &amp; stays '& amp ;', "
        "ASCII-only lowercasing)"
    )

    def __call__(self, text: str) -> tuple[str, ...]:
        return mteval_tokens(xml_escape(text), self.lowercase)

    @property
    def case_signature(self) -> str:
        """``"lc-ascii"``: mteval folds A–Z only."""
        return "lc-ascii" if self.lowercase else "mixed"


@dataclass(frozen=True)
class MtevalSgmlTokenizer(MtevalPlainTokenizer):
    """mteval-v13a.pl exactly, on SGML ``<seg>`` content (entities escaped)."""

    name: ClassVar[str] = "mteval13a-sgml"
    description: ClassVar[str] = (
        "mteval-v13a.pl exactly, text already SGML-escaped (&quot; read as a quote)"
    )

    def __call__(self, text: str) -> tuple[str, ...]:
        return mteval_tokens(text, self.lowercase)
