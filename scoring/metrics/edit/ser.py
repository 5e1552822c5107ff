"""SER: sentence error rate, the share of segments that match no reference.

A segment is correct when its tokens equal the tokens of at least one of its
references (after the configured tokenisation and case folding, so with the
default whitespace tokenizer, differences in spacing do not count).
Statistics per segment, ``n_stats = 2`` integers::

    [errors, segments]     # 1 if no reference matches else 0; always 1

Corpus SER = 100 * Σ errors / Σ segments; a sentence score is 0 or 100.
Percentages (0-100 scale); lower is better.

Worked example (lecture notes 002): 5 sentences, 2 translated exactly as
their reference: SER = 100 * 3 / 5 = 60.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from scoring.base import Metric, Parameter
from scoring.metrics.edit.options import TOKENIZE_PARAMETERS, EditTokenizing


@dataclass(frozen=True)
class SER(EditTokenizing, Metric):
    """Sentence error rate; corpus and sentence scores on 0–100.

    Attributes:
        tokenize: ``none`` (default), ``13a`` or ``ascii``.
        lowercase: case-fold first.
    """

    tokenize: str = "none"
    lowercase: bool = False

    name: ClassVar[str] = "ser"
    description: ClassVar[str] = (
        "sentence error rate: percent of segments equal to no reference"
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[float] = 100.0
    parameters: ClassVar[tuple[Parameter, ...]] = TOKENIZE_PARAMETERS

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return ("errors", "segments")

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[int]:
        """``[1 if no reference matches else 0, 1]``."""
        tokenizer = self.tokenizer
        hyp = tokenizer(hypothesis)
        matched = any(tokenizer(reference) == hyp for reference in references)
        return [0 if matched else 1, 1]

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus SER, percent: ``(..., 2) -> (...)``; 0 for no segments."""
        summed = np.asarray(summed, dtype=np.float64)
        segments = summed[..., 1]
        safe = np.where(segments > 0, segments, 1.0)
        return np.where(segments > 0, self.scale * summed[..., 0] / safe, 0.0)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence SER: 0 or 100, ``(..., 2) -> (...)``."""
        return self.corpus_scores_from_statistics(statistics)

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        tokenizer = self.tokenizer
        return (("case", tokenizer.case_signature), ("tok", tokenizer.name))
