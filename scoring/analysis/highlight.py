"""Which tokens of a hypothesis and of its references are matched n-grams.

For the sentence view: every hypothesis token gets the longest order ``n``
(1..``max_order``) of an n-gram that contains it and occurs in *any*
reference; every reference token gets the longest order of an n-gram that
contains it and occurs in the hypothesis. Presence is enough (no clipping):
this shows where the hypothesis agrees with the references, it does not
recount BLEU. Tokens come from the same tokenizer the metrics use.

Worked example (hypothesis ``the cat sat``, reference ``the cat is here``)::

    hypothesis  the  cat  sat        reference  the  cat  is  here
    order        2    2    0                     2    2    0    0

``the cat`` is a matched bigram, so both its tokens get 2; ``sat`` occurs in
no reference (0). The page renders each token with the class ``match-<n>``
(``match-0`` for none) from :meth:`Highlight.css_pairs`, escaped by the
template engine, never as an HTML string.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_MAX_ORDER = 4


@dataclass(frozen=True)
class Highlight:
    """Tokens with the longest matched n-gram order of each (0 = unmatched)."""

    tokens: tuple[str, ...]
    orders: tuple[int, ...]

    def css_pairs(self, prefix: str = "match-") -> list[tuple[str, str]]:
        """``[(token, "match-<order>"), ...]`` for a template to render."""
        return [
            (token, f"{prefix}{order}")
            for token, order in zip(self.tokens, self.orders, strict=True)
        ]

    def to_dict(self) -> dict:
        return {"tokens": list(self.tokens), "orders": list(self.orders)}


@dataclass(frozen=True)
class SentenceHighlight:
    """The hypothesis against all references, and each reference against the
    hypothesis (in the order the references were given)."""

    hypothesis: Highlight
    references: tuple[Highlight, ...]
    max_order: int

    def to_dict(self) -> dict:
        return {
            "hypothesis": self.hypothesis.to_dict(),
            "references": [reference.to_dict() for reference in self.references],
            "max_order": self.max_order,
        }


def ngram_set(tokens: Sequence[str], max_order: int) -> set[tuple[str, ...]]:
    """Every n-gram of ``tokens`` with 1 <= n <= ``max_order``."""
    found = set()
    for n in range(1, max_order + 1):
        for start in range(len(tokens) - n + 1):
            found.add(tuple(tokens[start : start + n]))
    return found


def matched_orders(
    tokens: Sequence[str], others: set[tuple[str, ...]], max_order: int
) -> tuple[int, ...]:
    """For each token, the longest n (<= ``max_order``) such that an n-gram
    of ``tokens`` covering it is in ``others``; 0 if none is.

    >>> matched_orders("a b c".split(), {("a",), ("b",), ("a", "b")}, 4)
    (2, 2, 0)
    """
    orders = [0] * len(tokens)
    for n in range(1, max_order + 1):
        for start in range(len(tokens) - n + 1):
            if tuple(tokens[start : start + n]) in others:
                for position in range(start, start + n):
                    orders[position] = n  # n grows: the longest order wins
    return tuple(orders)


def highlight_sentence(
    hypothesis: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = DEFAULT_MAX_ORDER,
) -> SentenceHighlight:
    """Matched n-gram orders of a tokenised hypothesis and its references.

    >>> h = highlight_sentence("the cat sat".split(), ["the cat is here".split()])
    >>> h.hypothesis.orders, h.references[0].orders
    ((2, 2, 0), (2, 2, 0, 0))
    """
    if max_order < 1:
        raise ValueError("max_order must be at least 1")
    hypothesis = tuple(hypothesis)
    in_references: set[tuple[str, ...]] = set()
    for reference in references:
        in_references |= ngram_set(reference, max_order)
    in_hypothesis = ngram_set(hypothesis, max_order)
    return SentenceHighlight(
        hypothesis=Highlight(
            hypothesis, matched_orders(hypothesis, in_references, max_order)
        ),
        references=tuple(
            Highlight(
                tuple(reference),
                matched_orders(reference, in_hypothesis, max_order),
            )
            for reference in references
        ),
        max_order=max_order,
    )
