"""Salience weights of the Weighted N-gram Model (WNM) and the WNM tool's tokenizer.

Salience (Babych 2004; Babych, Elliott & Hartley 2005, section 4) is computed
for every word type ``i`` of the *reference* text of document ``j``::

    S(i, j) = ln( (P_doc(i,j) - P_corp-doc(i)) * (N - df(i)) / N / P_corp(i) )

- ``P_doc(i,j)``: relative frequency of ``i`` in document ``j`` (its count
  divided by the number of tokens of the document);
- ``P_corp-doc(i)``: relative frequency of ``i`` in the rest of the corpus
  (every other document); 0 when the rest of the corpus is empty;
- ``df(i)``: number of documents in which ``i`` occurs; ``N``: number of
  documents; ``P_corp(i)``: relative frequency in the whole corpus.

The "corpus" is the reference side of the test set, cut into documents by
the document ids. This is how the authors' tool ``wnm-01-1.pl`` computes it
(its corpus-statistics file holds the other reference texts, and it adds the
evaluated reference text to them). The tool, and this module, give:

- weight 0 when the argument of the logarithm is not positive: the word is
  no more frequent in the document than in the rest of the corpus, or it
  occurs in every document (``df = N``, so a corpus of a single document has
  no salient word at all);
- a *negative* weight when the argument lies in (0, 1); the tool keeps it
  (``negative="keep"``); ``negative="zero"`` replaces it by 0;
- no weight (0) to words absent from the document's reference text: a
  hypothesis word gets the weight its type has in the reference document.

When a segment has several references, the reference text of a document is
all of its references together (relative frequencies are unchanged by
repeating the text, so one reference or several give the same kind of
weights).

Worked example (three documents, reference tokens ``a b a c`` / ``a d`` /
``d e``): ``b`` occurs only in document 1, so ``P_doc = 1/4``,
``P_corp-doc = 0``, ``df = 1``, ``P_corp = 1/8`` and
``S(b, 1) = ln(1/4 * 2/3 / (1/8)) = ln(4/3) = 0.2877``;
``a`` in document 1: ``ln((2/4 - 1/4) * 1/3 / (3/8)) = ln(2/9) = -1.504``.

>>> weights = salience_weights({1: {"a": 2, "b": 1, "c": 1}, 2: {"a": 1, "d": 1},
...                             3: {"d": 1, "e": 1}})
>>> round(weights[1]["b"], 4), round(weights[1]["a"], 4)
(0.2877, -1.5041)
>>> salience_weights({1: {"a": 2, "b": 1, "c": 1}, 2: {"a": 1, "d": 1},
...                   3: {"d": 1, "e": 1}}, negative="zero")[1]["a"]
0.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping

NEGATIVE_CHOICES = ("keep", "zero")


def salience_weights(
    document_counts: Mapping[Hashable, Mapping[str, int]], negative: str = "keep"
) -> dict[Hashable, dict[str, float]]:
    """S(i, j) for every word type ``i`` of every document ``j``.

    Args:
        document_counts: ``{document: {word: count in its reference text}}``.
        negative: ``"keep"`` negative saliences (the formula and the tool) or
            replace them by ``"zero"``.

    Returns:
        ``{document: {word: salience}}`` (natural logarithm; words of a
        document with an empty reference text do not occur).
    """
    if negative not in NEGATIVE_CHOICES:
        raise ValueError(
            f"negative must be one of {NEGATIVE_CHOICES}, not {negative!r}"
        )
    corpus: Counter[str] = Counter()
    document_frequency: Counter[str] = Counter()
    for counts in document_counts.values():
        corpus.update(counts)
        document_frequency.update(word for word, count in counts.items() if count > 0)
    corpus_tokens = sum(corpus.values())
    n_documents = len(document_counts)

    weights: dict[Hashable, dict[str, float]] = {}
    for document, counts in document_counts.items():
        document_tokens = sum(counts.values())
        rest_tokens = corpus_tokens - document_tokens
        document_weights: dict[str, float] = {}
        for word, count in counts.items():
            if count <= 0:
                continue
            p_document = count / document_tokens
            # The tool leaves P_corp-doc at 0 when the rest of the corpus is
            # empty (a single document); (N - df) is 0 then anyway.
            p_rest = (corpus[word] - count) / rest_tokens if rest_tokens else 0.0
            p_corpus = corpus[word] / corpus_tokens
            spread = (n_documents - document_frequency[word]) / n_documents
            argument = (p_document - p_rest) * spread / p_corpus
            salience = math.log(argument) if argument > 0 else 0.0
            if negative == "zero" and salience < 0:
                salience = 0.0
            document_weights[word] = salience
        weights[document] = document_weights
    return weights


# -- the preprocessing of wnm-01-1.pl ---------------------------------------
