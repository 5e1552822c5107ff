"""What every ROUGE variant shares: parameters, text handling, statistics.

The variants (:mod:`scoring.metrics.rouge.metrics`) only say how one hypothesis is counted
against one reference (:meth:`RougeBase.pair_counts`); this base class turns the
counts of a segment's references into a statistics row
(:mod:`scoring.metrics.rouge.stats`) and scores, and builds the signature.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from scoring.base import Bounds, Metric, Parameter, require
from scoring.metrics.rouge.preprocess import RougeTextProcessor
from scoring.metrics.rouge.stats import (
    MULTIREF_RULES,
    STATISTICS_NAMES,
    PairCounts,
    mean_scores,
    round5,
    segment_row,
)
from scoring.tokenizers import get_tokenizer, list_tokenizers

Tokens = Sequence[Hashable]
PREPROCESSING = ("default", "rouge155")
MEASURES = ("f", "r", "p")

COMMON_PARAMETERS = (
    Parameter(
        "preprocess",
        "preprocess",
        str,
        "default (tokenize/lowercase/punct) or rouge155 (ROUGE-1.5.5 exactly)",
        PREPROCESSING,
    ),
    Parameter(
        "tokenize",
        "tokenize",
        str,
        "tokenizer (preprocess=default only)",
        list_tokenizers(),
    ),
    Parameter(
        "lowercase", "lowercase", bool, "str.lower() first (preprocess=default only)"
    ),
    Parameter(
        "punct",
        "punct",
        bool,
        "count punctuation-only tokens (preprocess=default only)",
    ),
    Parameter(
        "stem",
        "stem",
        bool,
        "ROUGE-1.5.5 -m: WordNet exceptions, else Porter, tokens > 3 characters",
    ),
    Parameter(
        "multiref",
        "multiref",
        str,
        "several references: average (-f A, pooled counts) or best (-f B)",
        MULTIREF_RULES,
    ),
    Parameter("measure", "measure", str, "f (F-measure), r (recall), p", MEASURES),
    Parameter(
        "beta",
        "beta",
        float,
        "F-measure beta (paper); alpha = 1/(1+beta^2)",
        bounds=Bounds(0, 100),
    ),
    Parameter(
        "alpha",
        "alpha",
        float,
        "F-measure alpha (ROUGE-1.5.5 -p)",
        bounds=Bounds(0, 1),
    ),
)


def ratio(hits: float, total: float) -> float:
    """``hits / total``, 0 when there is nothing to divide by."""
    return hits / total if total else 0.0


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class RougeBase(Metric):
    """Shared configuration and statistics of the ROUGE variants.

    Attributes:
        preprocess: ``default`` or ``rouge155``.
        tokenize, lowercase, punct: text handling of ``default``.
        stem: ROUGE-1.5.5's ``-m`` stemming.
        multiref: ``average`` (``-f A``) or ``best`` (``-f B``).
        measure: ``f``, ``r`` or ``p``: which score a segment gets.
        beta, alpha: F-measure weight, at most one of them (default beta = 1,
            i.e. alpha = 0.5, ROUGE-1.5.5's ``-p 0.5``).
    """

    preprocess: str = "default"
    tokenize: str = "13a"
    lowercase: bool = True
    punct: bool = False
    stem: bool = False
    multiref: str = "average"
    measure: str = "f"
    beta: float | None = None
    alpha: float | None = None

    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 1.0
    statistics_dtype: ClassVar[type] = np.float64

    def __post_init__(self) -> None:
        self.check_bounds()
        name = self.name
        for label, value, choices in (
            ("preprocess", self.preprocess, PREPROCESSING),
            ("multiref", self.multiref, MULTIREF_RULES),
            ("measure", self.measure, MEASURES),
        ):
            require(
                value in choices,
                f"{name}: unknown {label} {value!r}; valid: {', '.join(choices)}",
            )
        for label, value in (
            ("lowercase", self.lowercase),
            ("punct", self.punct),
            ("stem", self.stem),
        ):
            require(
                isinstance(value, bool),
                f"{name}: {label} must be true or false, not {value!r}",
            )
        get_tokenizer(self.tokenize)  # raises TokenizerError listing valid names
        require(
            self.beta is None or self.alpha is None,
            f"{name}: give beta or alpha, not both (alpha = 1 / (1 + beta^2))",
        )
        if self.beta is not None:
            require(
                _is_number(self.beta) and 0 <= self.beta < math.inf,
                f"{name}: beta must be a finite number >= 0, not {self.beta!r}",
            )
        if self.alpha is not None:
            require(
                _is_number(self.alpha) and 0 <= self.alpha <= 1,
                f"{name}: alpha must be a number in [0, 1], not {self.alpha!r}",
            )

    # -- configuration ------------------------------------------------------

    @property
    def effective_alpha(self) -> float:
        """ROUGE-1.5.5's alpha: given, or 1 / (1 + beta^2), or 0.5."""
        if self.alpha is not None:
            return float(self.alpha)
        if self.beta is not None:
            return 1.0 / (1.0 + float(self.beta) ** 2)
        return 0.5

    @property
    def rouge155(self) -> bool:
        """True when ROUGE-1.5.5 is reproduced exactly."""
        return self.preprocess == "rouge155"

    @property
    def processor(self) -> RougeTextProcessor:
        """The text -> tokens step."""
        return RougeTextProcessor(
            self.preprocess, self.tokenize, self.lowercase, self.punct, self.stem
        )

    # -- the metric contract ------------------------------------------------

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return STATISTICS_NAMES

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """``[hits, reference_total, hypothesis_total, R, P, F, 1]`` (0-1)."""
        processor = self.processor
        hypothesis_tokens = processor(hypothesis)
        pairs = [
            self.pair_counts(processor(reference), hypothesis_tokens)
            for reference in references
        ]
        return segment_row(
            pairs,
            self.multiref,
            self.effective_alpha,
            weight=self._inverse_weight(),
            rouge155=self.rouge155,
        )

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Mean segment score (0-1): ``(..., 7) -> (...)``."""
        return mean_scores(summed, self.measure)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Segment scores (0-1): ``(..., 7) -> (...)``."""
        return mean_scores(statistics, self.measure)

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """Mean recall, precision and F over segments, and the summed counts."""
        summed = np.asarray(summed, dtype=np.float64)
        details: dict[str, Any] = {
            name: float(mean_scores(summed, measure))
            for name, measure in (("recall", "r"), ("precision", "p"), ("f", "f"))
        }
        for index, name in enumerate(STATISTICS_NAMES[:3]):
            details[name] = float(summed[index])
        details["segments"] = int(summed[-1])
        return details

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        fields = [*self.processor.signature_fields(), *self._variant_fields()]
        fields.append(("multiref", "avg" if self.multiref == "average" else "best"))
        fields.append(("measure", self.measure))
        if self.measure == "f":
            fields.append(("alpha", f"{self.effective_alpha:g}"))
        return tuple(fields)

    # -- what each variant implements ---------------------------------------

    @abstractmethod
    def pair_counts(self, reference: Tokens, hypothesis: Tokens) -> PairCounts:
        """Hits and denominators of one hypothesis against one reference."""

    def _variant_fields(self) -> tuple[tuple[str, str], ...]:
        return ()

    def _inverse_weight(self) -> float | None:
        """ROUGE-W's w (ratios are mapped back with x ** (1 / w)); else None."""
        return None

    def _selector(self, hits: float, total: float) -> float:
        """Per-reference recall for ``best``; ROUGE-1.5.5 rounds it for N/S/SU."""
        recall = ratio(hits, total)
        return round5(recall) if self.rouge155 else recall
