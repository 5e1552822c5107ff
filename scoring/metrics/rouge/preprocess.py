"""Text to ROUGE tokens: ROUGE-1.5.5's own handling, or a Unicode-correct default.

``rouge155`` (exactly what ``ROUGE-1.5.5.pl`` does to one SPL line):

1. the text is read as bytes and ASCII ``A``-``Z`` is lower-cased (Perl
   ``tr/A-Z/a-z/``); nothing else is case-folded;
2. every byte outside ``[A-Za-z0-9-]`` becomes a space, so each byte of a
   UTF-8 letter such as ``é`` splits the word (``Sané`` -> ``san``);
3. hyphens become separate tokens, and only tokens starting with
   ``[a-z0-9]`` are kept, so hyphens vanish.

   Net effect: the tokens are the runs of ``[a-z0-9]`` of the ASCII-lowercased
   text, which is how :func:`rouge155_tokens` computes them.
4. with ``-m``, a token longer than 3 characters is replaced by its WordNet
   exception base form when it has one (``better`` -> ``well``, ``was`` is too
   short), else by its Porter stem (:func:`scoring.metrics.rouge.porter.porter_stem`).

``default``: a tokenizer of :mod:`scoring.tokenizers` (Unicode-aware; ``13a``
by default), optional case folding with ``str.lower()``, tokens made only of
punctuation or symbols dropped unless ``punct`` is asked for (ROUGE ignores
punctuation), and the same stemming rule when asked, applied only to tokens of
lower-case ASCII letters and digits (the stemmer is English-only).

WordNet exceptions: ROUGE-1.5.5 looks tokens up in ``WordNet-2.0.exc.db``,
built from WordNet 2.0's ``adj/adv/noun/verb.exc`` (first base form of each
line; a word listed in several files keeps the base form of the last file in
alphabetical order: ``best`` -> ``well``, ``is`` -> ``be``). WordNet 2.0 is
not packaged anywhere we can install from, but Debian's ``wordnet-base``
(WordNet 3.0) is, and its exception lists are WordNet 2.0's plus the 10 words
in :data:`WORDNET_30_ADDITIONS`; removing those gives WordNet 2.0's table
exactly (5,930 entries). The files are read from ``$WNSEARCHDIR`` (WordNet's
own variable) or ``/usr/share/wordnet``. Without them stemming is Porter
alone and signatures say ``stem:porter`` instead of ``stem:porter+wn``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scoring.metrics.rouge.porter import porter_stem
from scoring.tokenizers import get_tokenizer

# Words WordNet 3.0's exception lists have and WordNet 2.0's (ROUGE-1.5.5's)
# lack; found by comparing the two versions' *.exc files line by line. The
# other changes keep ROUGE's table as it was: three noun lines repeated in 3.0
# (``aurar``, ``diastemata``, ``sudatoria``; the last line still gives 2.0's
# base form) and ``felt feel felt`` -> ``felt feel`` (same first base form).
WORDNET_30_ADDITIONS = frozenset(
    {
        "ashes",
        "cognosenti",
        "gps",
        "halfpence",
        "houses_of_cards",
        "lisente",
        "loups-garous",
        "morses",
        "optic_axes",
        "staretsy",
    }
)
# buildExeptionDB.pl stores the first base form per line; a later file
# overwrites an earlier one. The official database behaves as if the files
# were read in this (alphabetical) order.
_EXCEPTION_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
_DEFAULT_WORDNET_DIRS = ("/usr/share/wordnet",)

_ASCII_UPPER_TO_LOWER = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"
)
_ROUGE155_TOKEN = re.compile("[a-z0-9]+")
_STEMMABLE = re.compile("[a-z0-9]+")
# ROUGE-1.5.5 stems only tokens longer than this.
_SHORTEST_UNSTEMMED = 3


def _wordnet_directory() -> Path | None:
    candidates = [os.environ.get("WNSEARCHDIR", ""), *_DEFAULT_WORDNET_DIRS]
    for candidate in candidates:
        if candidate and all((Path(candidate) / f).is_file() for f in _EXCEPTION_FILES):
            return Path(candidate)
    return None


@lru_cache(maxsize=1)
def wordnet_exceptions() -> dict[str, str] | None:
    """ROUGE-1.5.5's exception table (inflected form -> base form), or
    ``None`` when WordNet's ``*.exc`` files are not installed.

    Read once per process. Keys and values are as in WordNet (lower case,
    ``_`` for spaces); only keys made of ``[a-z0-9]`` can ever match a token.
    """
    directory = _wordnet_directory()
    if directory is None:
        return None
    table: dict[str, str] = {}
    for name in _EXCEPTION_FILES:
        text = (directory / name).read_text(encoding="latin-1")
        for line in text.splitlines():
            fields = line.split()
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    for word in WORDNET_30_ADDITIONS:
        table.pop(word, None)
    return table


def stemming_label(stem: bool) -> str:
    """``no``, ``porter+wn`` (ROUGE-1.5.5's ``-m``) or ``porter`` (no WordNet)."""
    if not stem:
        return "no"
    return "porter+wn" if wordnet_exceptions() is not None else "porter"


@lru_cache(maxsize=2**17)
def rouge155_stem(token: str) -> str:
    """ROUGE-1.5.5's ``-m`` for one token: exception base form or Porter stem,
    only for tokens longer than 3 characters.

    >>> rouge155_stem("killed"), rouge155_stem("was")
    ('kill', 'was')
    """
    if len(token) <= _SHORTEST_UNSTEMMED:
        return token
    exceptions = wordnet_exceptions()
    if exceptions is not None and token in exceptions:
        return exceptions[token]
    return porter_stem(token)


@lru_cache(maxsize=2**16)
def rouge155_tokens(text: str) -> tuple[str, ...]:
    """The tokens ROUGE-1.5.5 counts for one line, without stemming.

    Non-ASCII characters act as separators, exactly like the bytes of their
    UTF-8 encoding do in the Perl script.

    >>> rouge155_tokens("Sané's well-known U.S. team: 2-1!")
    ('san', 's', 'well', 'known', 'u', 's', 'team', '2', '1')
    """
    return tuple(_ROUGE155_TOKEN.findall(text.translate(_ASCII_UPPER_TO_LOWER)))


def _has_letter_or_digit(token: str) -> bool:
    return any(character.isalnum() for character in token)


@dataclass(frozen=True)
class RougeTextProcessor:
    """Turns one segment into the token tuple the ROUGE counts are made of.

    Attributes:
        preprocess: ``"default"`` or ``"rouge155"`` (see the module docstring).
        tokenize: tokenizer name for ``default`` (ignored by ``rouge155``).
        lowercase: case-fold with ``str.lower()`` (``default`` only).
        punct: keep tokens made only of punctuation/symbols (``default`` only).
        stem: apply ROUGE-1.5.5's stemming rule (``-m``).
    """

    preprocess: str = "default"
    tokenize: str = "13a"
    lowercase: bool = True
    punct: bool = False
    stem: bool = False

    def __call__(self, text: str) -> tuple[str, ...]:
        if self.preprocess == "rouge155":
            tokens = rouge155_tokens(text)
            if self.stem:
                tokens = tuple(rouge155_stem(token) for token in tokens)
            return tokens
        tokens = get_tokenizer(self.tokenize, self.lowercase)(text)
        if not self.punct:
            tokens = tuple(token for token in tokens if _has_letter_or_digit(token))
        if self.stem:
            tokens = tuple(
                rouge155_stem(token) if _STEMMABLE.fullmatch(token) else token
                for token in tokens
            )
        return tokens

    def signature_fields(self) -> tuple[tuple[str, str], ...]:
        """The preprocessing part of a ROUGE signature."""
        stem = ("stem", stemming_label(self.stem))
        if self.preprocess == "rouge155":
            return (("pre", "rouge155"), stem)
        case = "lc" if self.lowercase else "mixed"
        punct = "yes" if self.punct else "no"
        return (("case", case), ("tok", self.tokenize), ("punct", punct), stem)
