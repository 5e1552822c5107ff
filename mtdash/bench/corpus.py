"""Synthetic text for the benchmark: a test set and system outputs of any size.

Sentences are drawn from a made-up vocabulary with Zipf-like word
frequencies and lengths of 3 to 60 words (a long tail, as in news), so that
tokenising, n-gram matching and the pages' highlighting cost what they cost
on real text. References are paraphrases of one hidden meaning (a share of
words replaced, a pair swapped); *base systems* are damaged copies of it
with damage rates rising from the first to the last. Seeded: the same
arguments give the same text. NumPy only (no Django).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_SYLLABLES = (
    "ka to ri men sa lo ve dan pri mo tu ber el in or ste qua ni gal fo".split()
)


@dataclass(frozen=True)
class SyntheticCorpus:
    """Texts of one synthetic test set; every list has ``n_segments`` items."""

    sources: list[str]
    references: dict[str, list[str]]  # label -> segments
    base_hypotheses: list[list[str]]  # base system -> segments, best first


def _vocabulary(size: int, rng: np.random.Generator) -> np.ndarray:
    words = set()
    while len(words) < size:
        n = int(rng.integers(1, 4))
        words.add("".join(rng.choice(_SYLLABLES, size=n)))
    # Shuffled, so that the frequent words are not all alphabetically first.
    return rng.permutation(sorted(words))


def _zipf_words(vocabulary: np.ndarray, n: int, rng: np.random.Generator):
    ranks = np.arange(1, vocabulary.size + 1)
    weights = 1.0 / ranks
    return rng.choice(vocabulary, size=n, p=weights / weights.sum())


def _damage(
    words: np.ndarray, rate: float, vocabulary: np.ndarray, rng: np.random.Generator
) -> list[str]:
    """Replace about ``rate`` of the words, drop about rate/3, swap one pair
    with probability ``rate``; never empty."""
    out = words.copy()
    replace = rng.random(out.size) < rate
    out[replace] = _zipf_words(vocabulary, int(replace.sum()), rng)
    keep = rng.random(out.size) >= rate / 3
    keep[0] = True
    out = out[keep]
    if out.size > 1 and rng.random() < rate:
        i = int(rng.integers(0, out.size - 1))
        out[[i, i + 1]] = out[[i + 1, i]]
    return out.tolist()


def synthetic_corpus(
    n_segments: int,
    n_references: int = 3,
    n_base_systems: int = 6,
    seed: int = 11,
) -> SyntheticCorpus:
    """A test set of ``n_segments`` with ``n_references`` references and
    ``n_base_systems`` outputs whose quality falls from first to last."""
    rng = np.random.default_rng(seed)
    target_words = _vocabulary(4000, rng)
    source_words = _vocabulary(4000, rng)
    lengths = np.clip(rng.gamma(3.0, 8.0, size=n_segments).astype(int), 3, 60)
    sources: list[str] = []
    references: dict[str, list[str]] = {
        chr(ord("A") + r): [] for r in range(n_references)
    }
    base: list[list[str]] = [[] for _ in range(n_base_systems)]
    rates = np.linspace(0.1, 0.5, n_base_systems)
    for length in lengths:
        meaning = _zipf_words(target_words, int(length), rng)
        sources.append(" ".join(_zipf_words(source_words, int(length), rng)) + " .")
        for label in references:
            words = _damage(meaning, 0.15, target_words, rng)
            references[label].append(" ".join(words) + " .")
        for system, rate in enumerate(rates):
            words = _damage(meaning, float(rate), target_words, rng)
            base[system].append(" ".join(words) + " .")
    return SyntheticCorpus(sources, references, base)
