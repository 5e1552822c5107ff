"""NIST (Doddington 2002) as mteval-v13a.pl computes it.

NIST = sum over n = 1..N of [ sum of the information weights of the
hypothesis n-grams that match a reference (clipped by the largest count in
any single reference) / number of hypothesis n-grams ] * brevity factor.
Weights and brevity factor: :mod:`scoring.metrics.ngram.nist_weights`. N = 5 by default.

Statistics per segment, ``n_stats = 2 + 2 * N`` floats::

    [hyp_len, ref_len, info_1 .. info_N, totals_1 .. totals_N]

``ref_len`` is the segment's *average* reference length, ``info_n`` the
information-weighted clipped matches of order n, ``totals_n`` the number of
hypothesis n-grams; lengths in tokens, information in bits. The corpus score
comes from the column sums (pooled, like mteval's system score); a sentence
score from one row, i.e. with the corpus-wide weights and the segment's own
brevity factor (mteval's segment score). The weights are computed once from
all references of the scored corpus, so bootstrap resampling keeps them
fixed. A caller that scores a test set piece by piece (ORANGE, chunked
jobs) binds the weights of the whole test set first with
:meth:`NIST.with_reference_corpus` (:mod:`scoring.metrics.ngram.nist_reference_weights`);
the bound metric's signature names them (``info:refs-<fingerprint>``).
Scores are unbounded above (``scale`` is infinity), higher is better;
typical corpus values are 5-13.

The information weights include mteval's quirk for bigrams that start with
the token ``0`` (:func:`~scoring.metrics.ngram.nist_weights.information_weights`): NIST has
no other reference implementation, and without it corpus scores move by up
to 0.01 on WMT21. mteval's figures are reproduced exactly with
``tokenize=mteval13a`` (plain text) or ``mteval13a-sgml`` (SGML segment
content), ``lowercase=true`` for its default case-insensitive run; the
default ``13a`` differs from mteval only where the text processing does
(literal entities, non-ASCII capitals).

Worked example: references "a b" and "a c" (one segment each, so the
weights are those of :mod:`scoring.metrics.ngram.nist_weights`), hypothesis "a b" for
segment 1: info_1 = 1 + 2, info_2 = 1, totals 2 and 1, lengths 2 = 2, so
NIST = 3/2 + 1/1 = 2.5 (nist:n=2).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from scoring.base import Metric, Parameter, ProgressCallback, require
from scoring.corpus import PreparedCorpus
from scoring.metrics.common.ngrams import (
    NGRAM_ORDERS,
    NGram,
    max_reference_counts,
    ngram_counts,
)
from scoring.metrics.ngram.nist_reference_weights import (
    ReferenceWeights,
    reference_weights_of_texts,
)
from scoring.metrics.ngram.nist_weights import information_weights, nist_brevity_factor
from scoring.tokenizers import Tokenizer, get_tokenizer, list_tokenizers

Tokens = tuple[str, ...]

# How often (at most) progress is reported while collecting statistics.
_PROGRESS_REPORTS = 100


@lru_cache(maxsize=2)
def _corpus_weights(
    max_order: int, tokenizer: Tokenizer, references: tuple[tuple[str, ...], ...]
) -> dict[NGram, float]:
    """Weights of a corpus's references (per segment, untokenised). Cached:
    every system of a test set is scored against the same references, and
    counting their n-grams is the costly part (a weight table takes about
    40 MB for 5000 segments, hence only two). Callers must not mutate."""
    tokens = [tokenizer(reference) for segment in references for reference in segment]
    return information_weights(tokens, max_order)


@dataclass(frozen=True)
class NIST(Metric):
    """NIST with multiple references; unbounded scores, higher is better.

    Attributes:
        max_order: N, the largest n-gram order (mteval: 5), >= 1.
        tokenize: tokenizer name (:func:`scoring.tokenizers.get_tokenizer`);
            the ``mteval13a`` ones reproduce mteval-v13a.pl's text processing.
        lowercase: case-fold before tokenising (mteval's default run folds
            ASCII letters; use ``tokenize=mteval13a`` for exactly that).
        reference_weights: information weights fixed from a reference corpus
            (:meth:`with_reference_corpus`), used for every segment scored;
            ``None`` (the default): each scoring call counts them from the
            references it is given, all of them for a whole test set.
    """

    max_order: int = 5
    tokenize: str = "13a"
    lowercase: bool = False
    reference_weights: ReferenceWeights | None = field(default=None, repr=False)

    name: ClassVar[str] = "nist"
    description: ClassVar[str] = (
        "NIST (Doddington 2002, mteval-v13a): information-weighted n-gram "
        "matches with a brevity factor"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = math.inf
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("n", "max_order", int, "maximum n-gram order", bounds=NGRAM_ORDERS),
        Parameter("tokenize", "tokenize", str, "tokenizer", list_tokenizers()),
        Parameter("lowercase", "lowercase", bool, "case-fold before tokenising"),
    )
    statistics_dtype: ClassVar[type] = np.float64

    def __post_init__(self) -> None:
        self.check_bounds()
        require(
            isinstance(self.max_order, int)
            and not isinstance(self.max_order, bool)
            and self.max_order >= 1,
            "nist: n (max n-gram order) must be an integer >= 1, "
            f"not {self.max_order!r}",
        )
        require(
            isinstance(self.lowercase, bool),
            f"nist: lowercase must be true or false, not {self.lowercase!r}",
        )
        get_tokenizer(self.tokenize)  # raises TokenizerError listing valid names
        weights = self.reference_weights
        require(
            weights is None
            or (
                isinstance(weights, ReferenceWeights)
                and weights.max_order >= self.max_order
            ),
            "nist: reference_weights must be ReferenceWeights counted up to "
            f"order {self.max_order} or more",
        )

    def with_reference_corpus(self, references: Sequence[Sequence[str | None]]) -> NIST:
        """This metric with its information weights fixed from ``references``
        (``references[i]``: the reference texts of sentence i, ``None`` for a
        missing one), as mteval counts them over every reference segment of
        every reference set of the test set. Scoring any part of the test set
        then uses the whole test set's weights."""
        texts = tuple(
            tuple(text for text in segment if text is not None)
            for segment in references
        )
        weights = reference_weights_of_texts(self.max_order, self.tokenizer, texts)
        return self.with_reference_weights(weights)

    def with_reference_weights(self, weights: ReferenceWeights) -> NIST:
        """This metric bound to precomputed ``weights`` (same tokenizer)."""
        return replace(self, reference_weights=weights)

    @property
    def tokenizer(self) -> Tokenizer:
        """The configured tokenizer (case folding included)."""
        return get_tokenizer(self.tokenize, self.lowercase)

    @property
    def statistics_names(self) -> tuple[str, ...]:
        orders = range(1, self.max_order + 1)
        return (
            ("hyp_len", "ref_len")
            + tuple(f"info_{n}" for n in orders)
            + tuple(f"totals_{n}" for n in orders)
        )

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """Statistics of one segment: with the bound ``reference_weights``,
        else scored as a corpus of its own (weights from this segment's
        references only; scoring a corpus, :meth:`score`, uses the weights of
        all its references instead)."""
        tokenizer = self.tokenizer
        reference_tokens = [tokenizer(reference) for reference in references]
        if self.reference_weights is not None:
            return self._row(
                tokenizer(hypothesis), reference_tokens, self._bound_weights()
            )
        weights = information_weights(reference_tokens, self.max_order)
        return self._row(tokenizer(hypothesis), reference_tokens, weights)

    def _bound_weights(self) -> Mapping[NGram, float]:
        return self.reference_weights.as_mapping()  # type: ignore[union-attr]

    def _row(
        self,
        hypothesis: Tokens,
        references: Sequence[Tokens],
        weights: Mapping[NGram, float],
    ) -> list[float]:
        limits = max_reference_counts(
            ngram_counts(tokens, self.max_order) for tokens in references
        )
        if self.reference_weights is not None:
            # Fixed weights must cover these references (one missing n-gram
            # means they are not part of the weights' corpus): say so for any
            # hypothesis, matched or not, as the batch engine does.
            for ngram in limits:
                if ngram not in weights:
                    self.reference_weights.weight(ngram)  # raises MetricError
        info = [0.0] * self.max_order
        totals = [0] * self.max_order
        for ngram, count in ngram_counts(hypothesis, self.max_order).items():
            order_index = len(ngram) - 1
            totals[order_index] += count
            limit = limits.get(ngram, 0)
            if limit:
                info[order_index] += weights[ngram] * min(count, limit)
        average_ref_len = sum(len(tokens) for tokens in references) / len(references)
        return [float(len(hypothesis)), average_ref_len, *info, *totals]

    def _statistics(
        self, corpus: PreparedCorpus, progress: ProgressCallback | None
    ) -> np.ndarray:
        """Rows of every segment with weights from all references of the
        corpus (mteval's ``compute_ngram_info``), shape ``(n_segments, n_stats)``."""
        tokenizer = self.tokenizer
        reference_tokens = [
            [tokenizer(reference) for reference in references]
            for references in corpus.references
        ]
        if self.reference_weights is not None:
            weights = self._bound_weights()
        else:
            weights = _corpus_weights(self.max_order, tokenizer, corpus.references)
        n_segments = len(corpus.hypotheses)
        statistics = np.zeros(
            (n_segments, len(self.statistics_names)), dtype=self.statistics_dtype
        )
        report_every = max(1, -(-n_segments // _PROGRESS_REPORTS))  # ceiling
        for index, hypothesis in enumerate(corpus.hypotheses):
            statistics[index] = self._row(
                tokenizer(hypothesis), reference_tokens[index], weights
            )
            done = index + 1
            due = done % report_every == 0 or done == n_segments
            if progress is not None and due:
                progress(done / n_segments)
        if progress is not None and n_segments == 0:
            progress(1.0)
        return statistics

    def _scores(self, statistics: np.ndarray) -> np.ndarray:
        """NIST from rows or summed rows: ``(..., n_stats) -> (...)``."""
        statistics = np.asarray(statistics, dtype=np.float64)
        n = self.max_order
        info = statistics[..., 2 : 2 + n]
        totals = statistics[..., 2 + n : 2 + 2 * n]
        # mteval divides by max(totals, 1): an order without n-grams adds 0.
        per_order = info / np.maximum(totals, 1.0)
        brevity = nist_brevity_factor(statistics[..., 0], statistics[..., 1])
        return per_order.sum(axis=-1) * brevity

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus NIST from column sums (pooled): ``(..., n_stats) -> (...)``."""
        return self._scores(summed)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Segment NIST, corpus weights and own brevity factor:
        ``(..., n_stats) -> (...)``."""
        return self._scores(statistics)

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """Per-order information per n-gram (bits), brevity factor (0–1), lengths."""
        summed = np.asarray(summed, dtype=np.float64)
        n = self.max_order
        totals = summed[2 + n : 2 + 2 * n]
        per_order = summed[2 : 2 + n] / np.maximum(totals, 1.0)
        return {
            "info_per_ngram": [float(value) for value in per_order],
            "brevity_factor": float(nist_brevity_factor(summed[0], summed[1])),
            "hyp_len": float(summed[0]),
            "ref_len": float(summed[1]),
            "totals": [int(value) for value in totals],
        }

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        tokenizer = self.tokenizer
        fields = (
            ("case", tokenizer.case_signature),
            ("tok", tokenizer.name),
            ("n", str(self.max_order)),
        )
        if self.reference_weights is not None:
            # Which reference corpus fixed the weights (its first 12 hex digits).
            fields += (("info", f"refs-{self.reference_weights.fingerprint[:12]}"),)
        return fields
