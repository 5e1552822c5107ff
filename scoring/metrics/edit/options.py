"""Options shared by WER, PER and SER: which tokenizer, whether to fold case.

They accept the shared tokenizers of :mod:`scoring.tokenizers` plus
``ascii``, the splitting of the official WER.pl / PER.pl scripts.
"""

from __future__ import annotations

from typing import ClassVar

from scoring.base import Parameter, require
from scoring.errors import TokenizerError
from scoring.tokenizers import Tokenizer, get_tokenizer, list_tokenizers
from scoring.tokenizers.tools import AsciiWhitespaceTokenizer

EDIT_TOKENIZERS: tuple[str, ...] = (*list_tokenizers(), AsciiWhitespaceTokenizer.name)


def get_edit_tokenizer(name: str, lowercase: bool = False) -> Tokenizer:
    """A tokenizer of :mod:`scoring.tokenizers` or ``"ascii"``.

    Raises :class:`~scoring.errors.TokenizerError` listing every valid name.
    """
    if name == AsciiWhitespaceTokenizer.name:
        return AsciiWhitespaceTokenizer(lowercase=bool(lowercase))
    if name in list_tokenizers():
        return get_tokenizer(name, lowercase)
    raise TokenizerError(
        f"unknown tokenizer {name!r}; valid tokenizers: {', '.join(EDIT_TOKENIZERS)}"
    )


TOKENIZE_PARAMETERS = (
    Parameter(
        "tokenize",
        "tokenize",
        str,
        "tokenizer; ascii = split on ASCII whitespace only, like WER.pl/PER.pl",
        EDIT_TOKENIZERS,
    ),
    Parameter("lowercase", "lowercase", bool, "case-fold with str.lower()"),
)


def check_tokenizer_options(metric_name: str, tokenize: str, lowercase: bool) -> None:
    """Refuse a bad ``tokenize`` / ``lowercase`` with a MetricError."""
    require(
        isinstance(lowercase, bool),
        f"{metric_name}: lowercase must be true or false, not {lowercase!r}",
    )
    get_edit_tokenizer(tokenize)  # raises TokenizerError listing valid names


class EditTokenizing:
    """What WER, PER and SER share: their tokenizer options, checked when the
    metric is made, and the tokenizer they give (a mixin of the dataclasses)."""

    name: ClassVar[str]
    tokenize: str
    lowercase: bool

    def __post_init__(self) -> None:
        check_tokenizer_options(self.name, self.tokenize, self.lowercase)

    @property
    def tokenizer(self) -> Tokenizer:
        """The configured tokenizer (case folding included)."""
        return get_edit_tokenizer(self.tokenize, self.lowercase)
