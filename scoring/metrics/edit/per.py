"""PER: position-independent word error rate (bag-of-words distance).

Per segment and reference, with C = Σ_w min(count_hyp(w), count_ref(w)) the
words matched regardless of position, the errors are max(|hyp|, |ref|) - C
(substitutions for the matched length, plus the surplus words of the longer
side). The closest reference (fewest errors; the first on ties) is used, and
the errors are divided by the *average* reference length, as WER and TER do.
Statistics per segment, ``n_stats = 5`` floats::

    [errors, matches, hyp_len, closest_ref_len, ref_len]

Corpus PER (default) = 100 * Σ errors / Σ ref_len. With ``pool_lengths``
the corpus figure is PER.pl's instead: 100 * (max(Σ hyp_len,
Σ closest_ref_len) - Σ matches) / Σ ref_len, the max() taken once over the
corpus totals (so a long segment's surplus can offset a short one's). The
two agree when every hypothesis is at least as long as its reference, or
every one at most as long. Sentence PER = 100 * errors / ref_len in both
modes. Scores are percentages (0-100 scale), can exceed 100, lower is
better; an empty reference gives 100 when there are errors, else 0.

With one reference, ``tokenize=ascii`` and ``pool_lengths=true`` this is
exactly PER.pl 1.0 (Universitat d'Alacant), segment and corpus.

Worked example (lecture notes 002): the same pair as WER's; 12 of the 16
hypothesis words are matched, so PER = 100 * (18 - 12) / 18 = 33.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from scoring.base import Metric, Parameter, require
from scoring.metrics.common.edit_distance import bag_matches, error_rates
from scoring.metrics.edit.options import TOKENIZE_PARAMETERS, EditTokenizing


@dataclass(frozen=True)
class PER(EditTokenizing, Metric):
    """Position-independent error rate; corpus and sentence scores on 0–100.

    Attributes:
        tokenize: ``none`` (default), ``13a`` or ``ascii`` (PER.pl).
        lowercase: case-fold first (PER.pl is case-sensitive).
        pool_lengths: corpus score as PER.pl (max of the pooled lengths).
    """

    tokenize: str = "none"
    lowercase: bool = False
    pool_lengths: bool = False

    name: ClassVar[str] = "per"
    description: ClassVar[str] = (
        "position-independent error rate (bag of words), closest reference, percent"
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[float] = 100.0
    parameters: ClassVar[tuple[Parameter, ...]] = (
        *TOKENIZE_PARAMETERS,
        Parameter(
            "pool_lengths",
            "pool_lengths",
            bool,
            "corpus score as PER.pl: max(Σ|hyp|, Σ|ref|) - Σ matches over Σ|ref|",
        ),
    )
    statistics_dtype: ClassVar[type] = np.float64

    def __post_init__(self) -> None:
        super().__post_init__()
        require(
            isinstance(self.pool_lengths, bool),
            f"per: pool_lengths must be true or false, not {self.pool_lengths!r}",
        )

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return ("errors", "matches", "hyp_len", "closest_ref_len", "ref_len")

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """``[errors, matches, hyp_len, closest_ref_len, average ref_len]``."""
        tokenizer = self.tokenizer
        hyp = tokenizer(hypothesis)
        refs = [tokenizer(reference) for reference in references]
        best: tuple[int, int, int] | None = None  # (errors, matches, ref length)
        for ref in refs:
            matches = bag_matches(hyp, ref)
            errors = max(len(hyp), len(ref)) - matches
            if best is None or errors < best[0]:
                best = (errors, matches, len(ref))
        assert best is not None  # prepare_corpus guarantees a reference
        average = sum(len(ref) for ref in refs) / len(refs)
        return [best[0], best[1], len(hyp), best[2], average]

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus PER, percent: ``(..., 5) -> (...)``."""
        summed = np.asarray(summed, dtype=np.float64)
        if self.pool_lengths:
            longer = np.maximum(summed[..., 2], summed[..., 3])
            errors = longer - summed[..., 1]
        else:
            errors = summed[..., 0]
        return error_rates(errors, summed[..., 4], self.scale)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence PER, percent: ``(..., 5) -> (...)``."""
        statistics = np.asarray(statistics, dtype=np.float64)
        return error_rates(statistics[..., 0], statistics[..., 4], self.scale)

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        tokenizer = self.tokenizer
        fields = [("case", tokenizer.case_signature), ("tok", tokenizer.name)]
        if not sentence:  # pooling only changes the corpus figure
            fields.append(("pool", "yes" if self.pool_lengths else "no"))
        return tuple(fields)
