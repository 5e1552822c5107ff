"""WNM's saliences fixed from a whole test set, for scoring one sentence at a time.

Salience compares a document's reference text with the rest of the corpus
(:mod:`scoring.metrics.wnm.salience`), so it cannot come from the few
references one ORANGE call sees. Before ORANGE ranks anything, a WNM metric
is bound to a :class:`TestSetSalience`: the saliences of every document of
the test set, from all references of all its segments (the same counts
:meth:`WNM._statistics <scoring.metrics.wnm.metric.WNM>` makes when it scores
a whole corpus), and the document of every sentence. A candidate of sentence
i then gets the weights of sentence i's document, as the same sentence's
hypothesis gets them when the test set is scored as a corpus.

Two tables are equal when their ``fingerprint`` is: a SHA-256 of every
sentence's document and every document's word weights (``repr`` of the
float, so equal fingerprints mean bit-equal weights).
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence

from scoring.errors import MetricError
from scoring.metrics.wnm.salience import salience_weights

Weights = Mapping[str, float]


def document_counts(
    documents: Iterable[Hashable], references: Iterable[Iterable[Sequence[str]]]
) -> dict[Hashable, Counter[str]]:
    """``{document: word counts of its reference text}``: every reference
    (token sequence) of every segment, added to its segment's document."""
    counts: dict[Hashable, Counter[str]] = defaultdict(Counter)
    for document, segment in zip(documents, references, strict=True):
        for tokens in segment:
            counts[document].update(tokens)
    return counts


class TestSetSalience:
    """Word weights of each sentence's document (immutable, hashable).

    Built by :meth:`from_tokens`; ``weights_of(i)`` is the ``{word: salience}``
    of sentence ``i``'s document (``None`` when the metric is unweighted).
    """

    __test__ = False  # not a pytest class, despite its name
    __slots__ = ("_document_of", "_weights", "fingerprint", "weighted")

    def __init__(
        self,
        document_of: Mapping[int, Hashable],
        weights: Mapping[Hashable, Weights] | None,
    ) -> None:
        self._document_of = dict(document_of)
        self._weights = None if weights is None else dict(weights)
        self.weighted = weights is not None
        digest = hashlib.sha256()
        for sentence in sorted(self._document_of):
            digest.update(f"s{sentence}\t{self._document_of[sentence]!r}\n".encode())
        for document in sorted(self._weights or {}, key=repr):
            for word, value in sorted(self._weights[document].items()):  # type: ignore[index]
                digest.update(f"w{document!r}\t{word}\t{value!r}\n".encode())
        self.fingerprint = digest.hexdigest()

    @classmethod
    def from_tokens(
        cls,
        references: Sequence[Sequence[Sequence[str]]],
        document_ids: Sequence[Hashable] | None,
        *,
        negative: str,
        weighted: bool = True,
        sentence_ids: Sequence[int] | None = None,
    ) -> TestSetSalience:
        """Saliences of the test set whose sentence ``sentence_ids[p]``
        (default ``p``) has the reference token sequences ``references[p]``
        and the document ``document_ids[p]``.

        Unweighted (``weighted=False``, WNM's ``weights="none"``) needs no
        documents: every word weighs 1.
        """
        ids = list(range(len(references))) if sentence_ids is None else sentence_ids
        if len(ids) != len(references):
            raise MetricError("wnm: one sentence id is needed per reference row")
        if not weighted:
            return cls({sentence: 0 for sentence in ids}, None)
        if document_ids is None:
            raise MetricError(
                "wnm needs document ids: ORANGE takes them from the test set "
                "(command line: --docs FILE, one id per reference line; "
                "web: the test set's document id file)"
            )
        if len(document_ids) != len(references):
            raise MetricError(
                f"wnm: {len(document_ids)} document ids for {len(references)} "
                "sentences; give one per line of the references"
            )
        counts = document_counts(document_ids, references)
        return cls(dict(zip(ids, document_ids)), salience_weights(counts, negative))

    def document_of(self, sentence_id: int) -> Hashable:
        try:
            return self._document_of[sentence_id]
        except KeyError:
            raise MetricError(
                f"wnm: sentence {sentence_id} is not in the test set whose "
                "saliences the metric was bound to"
            ) from None

    def weights_of(self, sentence_id: int) -> Weights | None:
        """``{word: salience}`` of the sentence's document (``None`` when
        unweighted); words absent from it weigh 0."""
        document = self.document_of(sentence_id)
        if self._weights is None:
            return None
        return self._weights.get(document, {})

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TestSetSalience) and other.fingerprint == self.fingerprint
        )

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __repr__(self) -> str:
        return f"TestSetSalience({len(self._document_of)} sentences, {self.fingerprint[:12]})"
