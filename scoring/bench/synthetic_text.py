"""Text for the synthetic corpora, for metrics that read characters (chrF).

:mod:`scoring.bench.synthetic` makes token ids and renders them as ``w123``,
which suits word metrics but gives character n-gram metrics an alphabet of
eleven symbols. Here each id gets a pseudo-word spelt with lowercase letters
(an occasional capital, comma or full stop attached), frequent (small) ids
getting short words as in natural text: about 4-5 letters per word on
average, so a 20-40 word sentence has 100-200 characters.
"""

from __future__ import annotations

import numpy as np

from scoring.bench.synthetic import SyntheticCorpus

_LETTERS = np.array(list("etaoinshrdlcumwfgypbvkjxqz"))
# English letter frequencies (percent), in the order of _LETTERS.
_LETTER_WEIGHTS = np.array(
    [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.1, 6.0, 4.3, 4.0, 2.8, 2.8, 2.4, 2.4]
    + [2.2, 2.0, 2.0, 1.9, 1.5, 1.0, 0.8, 0.2, 0.2, 0.1, 0.1]
)


def spelled_vocabulary(size: int, seed: int = 2004) -> tuple[str, ...]:
    """``size`` pseudo-words, id i's length growing with log(i + 2)."""
    rng = np.random.default_rng(seed)
    ids = np.arange(size)
    lengths = np.clip(
        np.rint(1 + 0.8 * np.log(ids + 2) + rng.normal(0, 1.2, size)), 1, 14
    ).astype(np.int64)
    letters = rng.choice(
        _LETTERS, size=int(lengths.sum()), p=_LETTER_WEIGHTS / _LETTER_WEIGHTS.sum()
    )
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    words = ["".join(letters[s : s + n]) for s, n in zip(starts, lengths)]
    decoration = rng.random(size)
    return tuple(
        word.capitalize()
        if d < 0.05
        else word + ","
        if d < 0.08
        else word + "."
        if d < 0.10
        else word
        for word, d in zip(words, decoration)
    )


def corpus_texts(
    corpus: SyntheticCorpus, seed: int = 2004
) -> tuple[list[list[str]], list[list[str]]]:
    """The corpus as text: ``(candidates[i][n], references[i][k])``."""
    vocabulary = np.array(
        spelled_vocabulary(corpus.shape.vocabulary_size, seed), dtype=object
    )
    nbest = corpus.nbest

    def text(ids: np.ndarray) -> str:
        return " ".join(vocabulary[ids])

    candidates = []
    offsets = nbest.candidate_offsets
    for i in range(nbest.sentence_offsets.size - 1):
        first, last = nbest.sentence_offsets[i], nbest.sentence_offsets[i + 1]
        candidates.append(
            [
                text(nbest.tokens[offsets[c] : offsets[c + 1]])
                for c in range(first, last)
            ]
        )
    references = [[text(ids) for ids in refs] for refs in corpus.references]
    return candidates, references
