"""Bucketed analyses of one output, as compare-mt does them.

Definitions follow compare-mt (Neubig et al. 2019, NAACL demo;
its bucketers module, github.com/neubig/compare-mt):

- **Buckets from cutoffs** (``Bucketer.set_bucket_cutoffs`` and
  ``cutoff_into_bucket``): a value goes to the first bucket whose cutoff it
  is below, or past the last one. Integer cutoffs ``1, 2, 3, 4, 5, 10`` are
  labelled ``<1, 1, 2, 3, 4, [5,10), >=10``: a one-wide bucket shows its
  only value.
- **Word F-measure by frequency** (``FreqWordBucketer``,
  ``WordBucketer.calc_bucketed_matches``): each word is bucketed by its
  frequency in a count table (default: counted on the references; or a
  training corpus's ``word<TAB>count`` file), default cutoffs
  ``1, 2, 3, 4, 5, 10, 100, 1000``. In every sentence an output word matches
  an unused reference occurrence of the same word; per bucket
  ``recall = matches / reference words``, ``precision = matches / output
  words``, F = their harmonic mean (0 when nothing matches). compare-mt takes
  one reference; with several, mtdash sums the counts over the references,
  which is compare-mt run on the output repeated once per reference against
  the references concatenated.
- **Sentences by reference length** (``LengthSentenceBucketer``: cutoffs
  ``10, 20, ..., 60`` on the reference's token count) with the corpus score
  of each bucket (``statistic_type=score``: the metric re-computed on the
  bucket's sentences, here from their summed sufficient statistics); with
  several references the mean reference length is bucketed.
- **Sentences by sentence score** (``ScoreSentenceBucketer``: cutoffs at
  tenths of the metric's scale; ``statistic_type=count``).

Worked example (one sentence, frequencies counted on the reference)::

    reference  a a b        frequency  a: 2, b: 1 (c: 0, never seen)
    output     a c
    bucket "<1" (c):   reference 0, output 1, matches 0  -> F 0
    bucket "1"  (b):   reference 1, output 0, matches 0  -> F 0
    bucket "2"  (a):   reference 2, output 1, matches 1  -> R 1/2, P 1, F 2/3
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)
HISTOGRAM_BINS = 20


def bucket_labels(cutoffs: Sequence[float], integer: bool = True) -> tuple[str, ...]:
    """compare-mt's bucket names for ``cutoffs`` (one more than cutoffs).

    >>> bucket_labels([1, 2, 5])
    ('<1', '1', '[2,5)', '>=5')
    >>> bucket_labels([10.0, 20.0], integer=False)
    ('<10', '[10,20)', '>=20')
    """
    if not cutoffs:
        return ("all",)
    labels = [f"<{cutoffs[0]:g}"]
    for previous, cutoff in zip(cutoffs, cutoffs[1:]):
        if integer and cutoff - 1 == previous:
            labels.append(f"{previous:g}")
        else:
            labels.append(f"[{previous:g},{cutoff:g})")
    labels.append(f">={cutoffs[-1]:g}")
    return tuple(labels)


def bucket_indices(values: Sequence[float] | np.ndarray, cutoffs: Sequence[float]):
    """The bucket of each value: the first i with ``value < cutoffs[i]``,
    ``len(cutoffs)`` past the last; an ``(n,)`` int array.

    >>> bucket_indices([0, 1, 4, 9, 10], [1, 5, 10]).tolist()
    [0, 1, 1, 2, 3]
    """
    return np.searchsorted(np.asarray(cutoffs, dtype=float), values, side="right")


def score_cutoffs(scale: float, scores: Sequence[float] = ()) -> tuple[float, ...]:
    """Tenths of the scale (compare-mt's score buckets); for an unbounded
    metric (NIST), tenths of the highest sentence score, rounded."""
    top = scale
    if not math.isfinite(scale):
        finite = [s for s in scores if math.isfinite(s)]
        top = max(finite, default=0.0) or 1.0
    return tuple(float(f"{x * top / 10:.3g}") for x in range(1, 10))


@dataclass(frozen=True)
class WordAccuracy:
    """Word matches of an output per frequency bucket (compare-mt's table)."""

    labels: tuple[str, ...]
    matches: tuple[int, ...]
    reference_words: tuple[int, ...]
    output_words: tuple[int, ...]

    @property
    def recall(self) -> tuple[float, ...]:
        return tuple(_ratio(m, r) for m, r in zip(self.matches, self.reference_words))

    @property
    def precision(self) -> tuple[float, ...]:
        return tuple(_ratio(m, o) for m, o in zip(self.matches, self.output_words))

    @property
    def f_measure(self) -> tuple[float, ...]:
        return tuple(
            0.0 if m == 0 else 2 * p * r / (p + r)
            for m, p, r in zip(self.matches, self.precision, self.recall)
        )

    def to_dict(self) -> dict:
        return {
            "labels": list(self.labels),
            "matches": list(self.matches),
            "reference_words": list(self.reference_words),
            "output_words": list(self.output_words),
            "recall": list(self.recall),
            "precision": list(self.precision),
            "f_measure": list(self.f_measure),
        }


def _ratio(part: int, whole: int) -> float:
    return part / whole if part else 0.0


def count_words(sentences: Iterable[Sequence[str]]) -> Counter:
    """Word -> occurrences over tokenised sentences (compare-mt's default
    frequency table when given the references)."""
    counts: Counter = Counter()
    for tokens in sentences:
        counts.update(tokens)
    return counts


def word_accuracy_by_frequency(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    frequencies: Mapping[str, int],
    cutoffs: Sequence[int] = FREQUENCY_CUTOFFS,
) -> WordAccuracy:
    """compare-mt's ``calc_bucketed_matches`` with a ``FreqWordBucketer``.

    ``hypotheses`` is one token list per segment; ``references`` one stream
    (a token list per segment) per reference, counts summed over them.
    compare-mt matches each output word with the first unused reference
    occurrence: per word type that is ``min(output count, reference count)``
    matches, which is how it is counted here.
    """
    n_buckets = len(cutoffs) + 1
    matches = [0] * n_buckets
    reference_words = [0] * n_buckets
    output_words = [0] * n_buckets
    bucket_of: dict[str, int] = {}

    def bucket(word: str) -> int:
        if word not in bucket_of:
            frequency = frequencies.get(word, 0)
            bucket_of[word] = int(bucket_indices([frequency], cutoffs)[0])
        return bucket_of[word]

    for stream in references:
        if len(stream) != len(hypotheses):
            raise ValueError("every reference needs one sentence per hypothesis")
        for hypothesis, reference in zip(hypotheses, stream):
            in_output, in_reference = Counter(hypothesis), Counter(reference)
            for word, count in in_output.items():
                output_words[bucket(word)] += count
                matches[bucket(word)] += min(count, in_reference.get(word, 0))
            for word, count in in_reference.items():
                reference_words[bucket(word)] += count
    return WordAccuracy(
        bucket_labels(cutoffs),
        tuple(matches),
        tuple(reference_words),
        tuple(output_words),
    )


@dataclass(frozen=True)
class SentenceBuckets:
    """Sentences grouped into buckets: how many, their mean sentence score
    and the corpus score of each bucket (NaN for an empty bucket or without
    statistics)."""

    labels: tuple[str, ...]
    counts: tuple[int, ...]
    mean_sentence_scores: tuple[float, ...]
    corpus_scores: tuple[float, ...]

    def to_dict(self) -> dict:
        return {
            "labels": list(self.labels),
            "counts": list(self.counts),
            "mean_sentence_scores": [_json_float(v) for v in self.mean_sentence_scores],
            "corpus_scores": [_json_float(v) for v in self.corpus_scores],
        }


def _json_float(value: float) -> float | None:
    return None if not math.isfinite(value) else float(value)


def bucket_sentences(
    buckets: np.ndarray,
    labels: Sequence[str],
    sentence_scores: Sequence[float] | np.ndarray,
    statistics: np.ndarray | None = None,
    corpus_scores_from_statistics: Callable[[np.ndarray], np.ndarray] | None = None,
) -> SentenceBuckets:
    """Count, mean sentence score and corpus score per bucket.

    ``buckets`` is ``(n,)`` (from :func:`bucket_indices`), ``sentence_scores``
    ``(n,)``; ``statistics`` ``(n, k)`` per-segment sufficient statistics,
    summed per bucket (``(B, k)``) and scored by
    ``corpus_scores_from_statistics`` (a metric's method of that name).
    """
    n_buckets = len(labels)
    buckets = np.asarray(buckets, dtype=np.int64)
    scores = np.asarray(sentence_scores, dtype=np.float64)
    counts = np.bincount(buckets, minlength=n_buckets)[:n_buckets]
    sums = np.bincount(buckets, weights=scores, minlength=n_buckets)[:n_buckets]
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    corpus = np.full(n_buckets, np.nan)
    if statistics is not None and corpus_scores_from_statistics is not None:
        statistics = np.asarray(statistics, dtype=np.float64)
        summed = np.zeros((n_buckets, statistics.shape[1]))
        np.add.at(summed, buckets, statistics)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = np.asarray(corpus_scores_from_statistics(summed), dtype=float)
        corpus = np.where(counts > 0, values, np.nan)
    return SentenceBuckets(
        tuple(labels),
        tuple(int(c) for c in counts),
        tuple(float(m) for m in means),
        tuple(float(c) for c in corpus),
    )


@dataclass(frozen=True)
class Histogram:
    """Sentence scores in equal-width bins: ``edges`` ``(bins + 1,)``."""

    edges: tuple[float, ...]
    counts: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"edges": list(self.edges), "counts": list(self.counts)}


def score_histogram(
    scores: Sequence[float] | np.ndarray, scale: float, bins: int = HISTOGRAM_BINS
) -> Histogram:
    """Bins over ``[0, scale]`` when every score lies there, else over the
    scores' range (error rates above 100%, NIST).

    >>> score_histogram([0.0, 0.5, 1.0, 1.0], 1.0, bins=2).counts
    (1, 3)
    """
    values = np.asarray(scores, dtype=np.float64)
    values = values[np.isfinite(values)]
    low, high = 0.0, scale
    if values.size and (values.min() < 0 or not values.max() <= scale):
        low, high = float(min(values.min(), 0.0)), float(values.max())
    if not math.isfinite(high) or high <= low:
        high = low + 1.0
    counts, edges = np.histogram(values, bins=bins, range=(low, high))
    return Histogram(tuple(float(e) for e in edges), tuple(int(c) for c in counts))
