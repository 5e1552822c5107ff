"""The tokenizer contract shared by every tokenizer module.

A tokenizer is an immutable callable ``tokenizer(text) -> tuple[str, ...]``
configured only by whether it case-folds. Most tokenizers first lower-case
(when asked, with Python's Unicode ``str.lower()``, as sacreBLEU does) and
drop trailing whitespace (sacreBLEU's BLEU does this before tokenising; it
matters for a segment ending in ``"-\\n"``), then split. The tokenizers that
reproduce ``mteval-v13a.pl`` byte for byte override :meth:`Tokenizer.__call__`
because the Perl script folds case later and only for ASCII letters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Tokenizer:
    """Base class: optional case folding, then a tokenizer-specific split.

    Subclasses set :attr:`name` (used in signatures as ``tok:<name>``) and
    implement :meth:`_split`.

    Attributes:
        lowercase: case-fold before splitting.
        name: registry name, also the ``tok:`` field of signatures.
        description: one line for listings.
    """

    lowercase: bool = False

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __call__(self, text: str) -> tuple[str, ...]:
        """Return the tokens of one segment (a tuple, so it can be cached)."""
        if self.lowercase:
            text = text.lower()
        return self._split(text.rstrip())

    @property
    def case_signature(self) -> str:
        """``"lc"`` when case-folded, ``"mixed"`` otherwise (sacreBLEU style)."""
        return "lc" if self.lowercase else "mixed"

    def _split(self, text: str) -> tuple[str, ...]:
        raise NotImplementedError
