"""Tokenizers: the shared ones (13a, none, intl, char, mteval13a) by name
(:mod:`~scoring.tokenizers.registry`), and the official tools' own splitters
(:mod:`~scoring.tokenizers.tools`: WER.pl/PER.pl, GTM 1.4, WNM)."""

from scoring.tokenizers.base import Tokenizer
from scoring.tokenizers.registry import get_tokenizer, list_tokenizers

__all__ = ["Tokenizer", "get_tokenizer", "list_tokenizers"]
