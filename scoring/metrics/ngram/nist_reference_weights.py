"""NIST information weights fixed from a whole reference corpus.

mteval-v13a counts the information weights over every reference segment of
every reference set of the test set, then scores each segment (and each
system) with those same weights. A caller that scores pieces of a test set
separately (ORANGE scores one sentence against a few of its references at a
time; a web job scores chunks of sentences in different processes) binds a
:class:`~scoring.metrics.ngram.nist.NIST` to a :class:`ReferenceWeights`
computed once from the whole reference corpus, so every piece is scored
with the test set's weights rather than with those of the piece.

>>> weights = ReferenceWeights.from_token_segments([("a", "b"), ("a", "c")], 2)
>>> weights.weight(("a",)), weights.weight(("a", "b")), weights.n_segments
(1.0, 1.0, 2)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from scoring.errors import MetricError
from scoring.metrics.common.ngrams import NGram
from scoring.metrics.ngram.nist_weights import information_weights
from scoring.tokenizers import Tokenizer

# Separators that tokens never contain (ASCII unit and record separators).
_TOKEN_SEPARATOR = "\x1f"
_SEGMENT_SEPARATOR = "\x1e"


class ReferenceWeights:
    """Information weights (bits) of every n-gram (n <= ``max_order``) of a
    reference corpus, immutable.

    Two instances are equal when they were counted from the same token
    sequences with the same ``max_order`` (a SHA-256 ``fingerprint`` of
    both), so a metric bound to them stays hashable and comparable.

    Attributes:
        max_order: the largest n-gram order counted.
        n_segments: reference segments counted (all references of all
            sentences; an empty reference counts as a segment of 0 words).
        total_words: tokens in those segments.
        fingerprint: hex SHA-256 of ``max_order`` and the token sequences.
    """

    __slots__ = ("_weights", "max_order", "n_segments", "total_words", "fingerprint")

    def __init__(
        self,
        weights: Mapping[NGram, float],
        max_order: int,
        n_segments: int,
        total_words: int,
        fingerprint: str,
    ) -> None:
        # No copy of a dict (a test set's table is tens of MB): callers hand
        # over a fresh one and never mutate it.
        self._weights = weights if isinstance(weights, dict) else dict(weights)
        self.max_order = max_order
        self.n_segments = n_segments
        self.total_words = total_words
        self.fingerprint = fingerprint

    @classmethod
    def from_token_segments(
        cls, segments: Iterable[Sequence[str]], max_order: int
    ) -> ReferenceWeights:
        """Weights of a flat iterable of tokenised reference segments (every
        reference of every sentence), as mteval's ``compute_ngram_info``."""
        token_segments = [tuple(tokens) for tokens in segments]
        digest = hashlib.sha256(f"nist-weights:{max_order}".encode())
        for tokens in token_segments:
            digest.update(_SEGMENT_SEPARATOR.encode())
            digest.update(_TOKEN_SEPARATOR.join(tokens).encode("utf-8"))
        return cls(
            information_weights(token_segments, max_order),
            max_order,
            len(token_segments),
            sum(len(tokens) for tokens in token_segments),
            digest.hexdigest(),
        )

    def weight(self, ngram: NGram) -> float:
        """Information (bits) of ``ngram``; :class:`MetricError` if the corpus
        does not hold it (the scored references are not from this corpus)."""
        try:
            return self._weights[ngram]
        except KeyError:
            raise MetricError(
                f"nist: the n-gram {' '.join(ngram)!r} is in no reference of the "
                "corpus its information weights were fixed from; bind the metric "
                "to the references of the whole test set being scored"
            ) from None

    def as_mapping(self) -> Mapping[NGram, float]:
        """The weights by n-gram (read only: do not mutate)."""
        return self._weights

    def __contains__(self, ngram: object) -> bool:
        return ngram in self._weights

    def __len__(self) -> int:
        return len(self._weights)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReferenceWeights):
            return NotImplemented
        return self.fingerprint == other.fingerprint

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __repr__(self) -> str:
        return (
            f"ReferenceWeights(max_order={self.max_order}, "
            f"n_segments={self.n_segments}, fingerprint={self.fingerprint[:12]!r})"
        )


@lru_cache(maxsize=4)
def reference_weights_of_texts(
    max_order: int,
    tokenizer: Tokenizer,
    references: tuple[tuple[str, ...], ...],
) -> ReferenceWeights:
    """Weights of every reference text (``references[i]``: the references of
    sentence i) tokenised by ``tokenizer``.

    Cached: a worker ranking chunk after chunk of one test set computes the
    test set's weights once (for 872 sentences x 4 references a table of
    about 0.4 M n-grams, tens of MB, hence few entries).
    """
    return ReferenceWeights.from_token_segments(
        (tokenizer(text) for segment in references for text in segment), max_order
    )
