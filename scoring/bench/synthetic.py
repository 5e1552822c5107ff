"""Synthetic n-best corpora shaped like the ORANGE paper's experiments.

Each source sentence has a hidden "meaning": a sequence of 20-40 word ids
drawn from a Zipfian vocabulary (so function-word-like ids repeat, as in real
text). References are light rewrites of it (substitutions, local swaps, a
dropped or added word) and candidates heavier ones, so match rates between
candidates and references look like MT output against human references.
Everything is generated as integer token ids straight into the compact
``TokenizedNBest`` layout; text is rendered only for the pairs the
throughput comparison hands to sacreBLEU and rouge-score.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scoring.orange.nbest import TokenizedNBest


@dataclass(frozen=True)
class CorpusShape:
    n_sentences: int
    n_candidates: int
    n_references: int = 4
    min_length: int = 20
    max_length: int = 40
    vocabulary_size: int = 30_000
    zipf_exponent: float = 1.1


PAPER_1024_BEST = CorpusShape(n_sentences=872, n_candidates=1024)
PAPER_16384_BEST = CorpusShape(n_sentences=474, n_candidates=16384)

# Sentences per document of the synthetic test sets (NIST's MT evaluation
# sets run at about nine); only WNM's saliences read documents.
SENTENCES_PER_DOCUMENT = 9


def document_ids(n_sentences: int) -> list[str]:
    """Document id of each synthetic sentence: consecutive runs of
    :data:`SENTENCES_PER_DOCUMENT`."""
    return [f"doc{i // SENTENCES_PER_DOCUMENT}" for i in range(n_sentences)]


@dataclass(frozen=True)
class SyntheticCorpus:
    shape: CorpusShape
    nbest: TokenizedNBest
    # references[i][k]: token ids of reference k of sentence i, int32
    references: tuple[tuple[np.ndarray, ...], ...]

    def text(self, token_ids: np.ndarray) -> str:
        """Render ids as words (w123) for tools that want strings."""
        return " ".join(f"w{token}" for token in token_ids.tolist())


class _ZipfSampler:
    """Draws word ids with probability proportional to rank ** -exponent."""

    def __init__(self, shape: CorpusShape) -> None:
        ranks = np.arange(1, shape.vocabulary_size + 1, dtype=np.float64)
        weights = ranks**-shape.zipf_exponent
        self._cumulative = np.cumsum(weights / weights.sum())

    def __call__(self, rng: np.random.Generator, size) -> np.ndarray:
        ids = np.searchsorted(self._cumulative, rng.random(size), side="right")
        return np.minimum(ids, self._cumulative.size - 1).astype(np.int32)


def _rewrite(
    rng: np.random.Generator,
    sample: _ZipfSampler,
    meaning: np.ndarray,
    shape: CorpusShape,
    substitute: float,
    swap: float,
    count: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` rewrites of ``meaning`` at once: substitutions, adjacent swaps
    and a length change of -2..+2 words within the length bounds.

    Returns the tokens of all rewrites concatenated and their lengths.
    """
    length = meaning.size
    words = np.tile(meaning, (count, 1))
    substituted = rng.random((count, length)) < substitute
    words[substituted] = sample(rng, int(substituted.sum()))
    swapped = rng.random((count, length - 1)) < swap
    swapped[:, 1:] &= ~swapped[:, :-1]  # no word moves twice
    result = words.copy()
    result[:, :-1][swapped] = words[:, 1:][swapped]
    result[:, 1:][swapped] = words[:, :-1][swapped]
    extended = np.concatenate([result, sample(rng, (count, 2))], axis=1)
    change = rng.integers(-2, 3, size=count)
    lengths = np.where(
        change < 0,
        np.maximum(shape.min_length, length + change),
        np.minimum(shape.max_length, length + change),
    )
    lengths = np.minimum(lengths, length + 2)
    keep = np.arange(length + 2)[None, :] < lengths[:, None]
    return extended[keep], lengths


def make_corpus(shape: CorpusShape, seed: int = 2004) -> SyntheticCorpus:
    """Generate the corpus deterministically from ``seed``."""
    rng = np.random.default_rng(seed)
    sample = _ZipfSampler(shape)
    references = []
    candidate_chunks = []
    lengths = []
    for _ in range(shape.n_sentences):
        length = int(rng.integers(shape.min_length, shape.max_length + 1))
        meaning = sample(rng, length)
        tokens, ref_lengths = _rewrite(
            rng, sample, meaning, shape, 0.15, 0.05, shape.n_references
        )
        references.append(tuple(np.split(tokens, np.cumsum(ref_lengths)[:-1])))
        tokens, candidate_lengths = _rewrite(
            rng, sample, meaning, shape, 0.35, 0.10, shape.n_candidates
        )
        candidate_chunks.append(tokens)
        lengths.append(candidate_lengths)
    candidate_offsets = np.concatenate(
        ([0], np.cumsum(np.concatenate(lengths)))
    ).astype(np.int64)
    nbest = TokenizedNBest(
        sentence_ids=np.arange(shape.n_sentences, dtype=np.int64),
        sentence_offsets=np.arange(
            0,
            shape.n_sentences * shape.n_candidates + 1,
            shape.n_candidates,
            dtype=np.int64,
        ),
        candidate_offsets=candidate_offsets,
        tokens=np.concatenate(candidate_chunks).astype(np.int32),
        vocabulary=tuple(f"w{i}" for i in range(shape.vocabulary_size)),
    )
    return SyntheticCorpus(shape, nbest, tuple(references))
