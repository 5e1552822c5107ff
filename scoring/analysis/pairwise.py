"""Two outputs side by side: MT-ComparEval's confirmed, improving and
worsening n-grams, with several references.

An n-gram of a hypothesis is *matched* as often as it occurs in the
hypothesis, but at most as often as it occurs in any one reference (BLEU's
clipping: the maximum count over the references). Comparing system A with
system B on one sentence, for every n-gram g:

- ``confirmed(g) = min(matched_A(g), matched_B(g))``: both got it right;
- ``improving(g) = max(0, matched_B(g) - matched_A(g))``: only B got it;
- ``worsening(g) = max(0, matched_A(g) - matched_B(g))``: only A got it.

Worked example (unigrams), references "the cat sat" and "a cat sat down"::

    A: the the dog sat      matched: the 1, sat 1      (the: 1 in a reference)
    B: a cat sat            matched: a 1, cat 1, sat 1
    confirmed {sat: 1}; improving {a: 1, cat: 1}; worsening {the: 1}

Highlighting marks the occurrences themselves, left to right: in A the
first ``confirmed(g)`` matched occurrences of g are confirmed and the next
``worsening(g)`` worsening (in B: confirmed, then improving); in each
reference the first ``confirmed(g)`` occurrences are confirmed, the next
``improving(g)`` improving, the next ``worsening(g)`` worsening. A token
takes the strongest label of the n-grams covering it (improving or
worsening over confirmed), one label per order n.

Over a whole test set, :func:`ngram_table` adds ``improving`` and
``worsening`` per n-gram and keeps, per order, the n-grams that improve
most often net of the times they worsen (and the reverse).

Tokens in (tuples of strings, from the test set's tokenizer), frozen
dataclasses out; no text is tokenised here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Tokens = Sequence[str]
Ngram = tuple[str, ...]

CONFIRMED = "confirmed"
IMPROVING = "improving"
WORSENING = "worsening"
LABELS = (CONFIRMED, IMPROVING, WORSENING)
# Which label a token covered by several n-grams shows.
_STRENGTH = {"": 0, CONFIRMED: 1, WORSENING: 2, IMPROVING: 3}

MAX_ORDER = 4


def ngrams(tokens: Tokens, n: int) -> list[Ngram]:
    """The n-grams of ``tokens`` in order (none if shorter than n).

    >>> ngrams(("a", "b", "c"), 2)
    [('a', 'b'), ('b', 'c')]
    """
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def reference_max_counts(references: Sequence[Tokens], n: int) -> Counter[Ngram]:
    """Each n-gram's largest count in any single reference (BLEU's clip)."""
    best: Counter[Ngram] = Counter()
    for reference in references:
        for gram, count in Counter(ngrams(reference, n)).items():
            if count > best[gram]:
                best[gram] = count
    return best


def matched_counts(tokens: Tokens, n: int, clip: Counter[Ngram]) -> Counter[Ngram]:
    """How often each n-gram of ``tokens`` is matched: its count clipped by
    ``clip`` (n-grams in no reference are left out)."""
    matched: Counter[Ngram] = Counter()
    for gram, count in Counter(ngrams(tokens, n)).items():
        limit = clip.get(gram, 0)
        if limit:
            matched[gram] = min(count, limit)
    return matched


@dataclass(frozen=True)
class PairNgrams:
    """The n-grams of order ``n`` of one sentence, A against B (counts)."""

    n: int
    confirmed: dict[Ngram, int]
    improving: dict[Ngram, int]
    worsening: dict[Ngram, int]


def classify_ngrams(
    hypothesis_a: Tokens, hypothesis_b: Tokens, references: Sequence[Tokens], n: int
) -> PairNgrams:
    """Confirmed, improving and worsening n-grams of order ``n`` (see the
    module docstring; counts, so a repeated n-gram may count twice).

    >>> pair = classify_ngrams("the cat".split(), "a cat".split(), ["a cat".split()], 1)
    >>> pair.confirmed, pair.improving, pair.worsening
    ({('cat',): 1}, {('a',): 1}, {})
    """
    clip = reference_max_counts(references, n)
    matched_a = matched_counts(hypothesis_a, n, clip)
    matched_b = matched_counts(hypothesis_b, n, clip)
    confirmed, improving, worsening = {}, {}, {}
    for gram in matched_a.keys() | matched_b.keys():
        a, b = matched_a.get(gram, 0), matched_b.get(gram, 0)
        if min(a, b):
            confirmed[gram] = min(a, b)
        if b > a:
            improving[gram] = b - a
        elif a > b:
            worsening[gram] = a - b
    return PairNgrams(n, _sorted(confirmed), _sorted(improving), _sorted(worsening))


def _sorted(counts: dict[Ngram, int]) -> dict[Ngram, int]:
    return dict(sorted(counts.items()))


@dataclass(frozen=True)
class MarkedToken:
    """A token and its label for each order: ``labels[n - 1]`` is one of
    :data:`LABELS` or ``""`` (not part of a matched n-gram of order n)."""

    token: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class PairHighlight:
    """A sentence's hypotheses and references, every token marked."""

    hypothesis_a: tuple[MarkedToken, ...]
    hypothesis_b: tuple[MarkedToken, ...]
    references: tuple[tuple[MarkedToken, ...], ...]
    max_order: int


def highlight_pair(
    hypothesis_a: Tokens,
    hypothesis_b: Tokens,
    references: Sequence[Tokens],
    max_order: int = MAX_ORDER,
) -> PairHighlight:
    """Mark every token of A, B and the references for orders 1..max_order.

    >>> marked = highlight_pair(["the", "cat"], ["a", "cat"], [["a", "cat"]], 2)
    >>> [(t.token, t.labels) for t in marked.hypothesis_b]
    [('a', ('improving', 'improving')), ('cat', ('confirmed', 'improving'))]
    """
    labels_a = [[""] * max_order for _ in hypothesis_a]
    labels_b = [[""] * max_order for _ in hypothesis_b]
    labels_refs = [[[""] * max_order for _ in ref] for ref in references]
    for n in range(1, max_order + 1):
        pair = classify_ngrams(hypothesis_a, hypothesis_b, references, n)
        _mark(
            labels_a,
            hypothesis_a,
            n,
            [(pair.confirmed, CONFIRMED), (pair.worsening, WORSENING)],
        )
        _mark(
            labels_b,
            hypothesis_b,
            n,
            [(pair.confirmed, CONFIRMED), (pair.improving, IMPROVING)],
        )
        plan = [
            (pair.confirmed, CONFIRMED),
            (pair.improving, IMPROVING),
            (pair.worsening, WORSENING),
        ]
        for labels, reference in zip(labels_refs, references):
            _mark(labels, reference, n, plan)
    return PairHighlight(
        _tokens(hypothesis_a, labels_a),
        _tokens(hypothesis_b, labels_b),
        tuple(_tokens(ref, labels) for ref, labels in zip(references, labels_refs)),
        max_order,
    )


def _mark(
    labels: list[list[str]],
    tokens: Tokens,
    n: int,
    plan: list[tuple[dict[Ngram, int], str]],
) -> None:
    """Label occurrences left to right: each n-gram's first ``count`` of the
    first (counts, label) of ``plan``, then the next ones, and so on."""
    quota: dict[Ngram, list[tuple[int, str]]] = {}
    for counts, label in plan:
        for gram, count in counts.items():
            quota.setdefault(gram, []).append((count, label))
    used: Counter[Ngram] = Counter()
    for start, gram in enumerate(ngrams(tokens, n)):
        label = _label_of_occurrence(quota.get(gram, ()), used[gram])
        used[gram] += 1
        if not label:
            continue
        for position in range(start, start + n):
            if _STRENGTH[label] > _STRENGTH[labels[position][n - 1]]:
                labels[position][n - 1] = label


def _label_of_occurrence(quotas: Iterable[tuple[int, str]], seen: int) -> str:
    for count, label in quotas:
        if seen < count:
            return label
        seen -= count
    return ""


def _tokens(tokens: Tokens, labels: list[list[str]]) -> tuple[MarkedToken, ...]:
    return tuple(MarkedToken(t, tuple(ls)) for t, ls in zip(tokens, labels))


@dataclass(frozen=True)
class NgramTally:
    """How often one n-gram was improving and worsening over a test set."""

    ngram: str  # tokens joined by spaces
    improving: int
    worsening: int

    @property
    def net(self) -> int:
        return self.improving - self.worsening


@dataclass(frozen=True)
class OrderTable:
    """The n-grams of one order that improve and worsen most (net counts)."""

    n: int
    improving: tuple[NgramTally, ...]  # net > 0, largest first
    worsening: tuple[NgramTally, ...]  # net < 0, most negative first
    total_improving: int  # occurrences over the set, every n-gram
    total_worsening: int


@dataclass(frozen=True)
class NgramTable:
    orders: tuple[OrderTable, ...]
    n_sentences: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_sentences": self.n_sentences,
            "orders": [
                {
                    "n": order.n,
                    "total_improving": order.total_improving,
                    "total_worsening": order.total_worsening,
                    "improving": [_tally_dict(t) for t in order.improving],
                    "worsening": [_tally_dict(t) for t in order.worsening],
                }
                for order in self.orders
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NgramTable:
        return cls(
            orders=tuple(
                OrderTable(
                    n=order["n"],
                    improving=tuple(NgramTally(**t) for t in order["improving"]),
                    worsening=tuple(NgramTally(**t) for t in order["worsening"]),
                    total_improving=order["total_improving"],
                    total_worsening=order["total_worsening"],
                )
                for order in data["orders"]
            ),
            n_sentences=data["n_sentences"],
        )


def _tally_dict(tally: NgramTally) -> dict[str, Any]:
    return {
        "ngram": tally.ngram,
        "improving": tally.improving,
        "worsening": tally.worsening,
    }


def ngram_table(
    sentences: Iterable[tuple[Tokens, Tokens, Sequence[Tokens]]],
    max_order: int = MAX_ORDER,
    top: int = 10,
) -> NgramTable:
    """Sum improving and worsening counts per n-gram over ``sentences``
    ((A tokens, B tokens, references' tokens) each) and keep, per order, the
    ``top`` n-grams with the largest net improvement and net worsening (ties:
    the larger count, then alphabetical).

    >>> table = ngram_table([(["a", "b"], ["a", "c"], [["a", "c"]])], 1, top=3)
    >>> [(t.ngram, t.improving, t.worsening) for t in table.orders[0].improving]
    [('c', 1, 0)]
    """
    improving = [Counter() for _ in range(max_order)]
    worsening = [Counter() for _ in range(max_order)]
    n_sentences = 0
    for hypothesis_a, hypothesis_b, references in sentences:
        n_sentences += 1
        for n in range(1, max_order + 1):
            clip = reference_max_counts(references, n)
            if not clip:
                break  # no reference is this long: no longer n-gram either
            matched_a = matched_counts(hypothesis_a, n, clip)
            matched_b = matched_counts(hypothesis_b, n, clip)
            matched_b.subtract(matched_a)
            for gram, difference in matched_b.items():
                if difference > 0:
                    improving[n - 1][gram] += difference
                elif difference < 0:
                    worsening[n - 1][gram] -= difference
    orders = []
    for n in range(1, max_order + 1):
        ups, downs = improving[n - 1], worsening[n - 1]
        tallies = [
            NgramTally(" ".join(gram), ups.get(gram, 0), downs.get(gram, 0))
            for gram in ups.keys() | downs.keys()
        ]
        best = sorted(
            (t for t in tallies if t.net > 0),
            key=lambda t: (-t.net, -t.improving, t.ngram),
        )
        worst = sorted(
            (t for t in tallies if t.net < 0),
            key=lambda t: (t.net, -t.worsening, t.ngram),
        )
        orders.append(
            OrderTable(
                n,
                tuple(best[:top]),
                tuple(worst[:top]),
                sum(ups.values()),
                sum(downs.values()),
            )
        )
    return NgramTable(tuple(orders), n_sentences)
