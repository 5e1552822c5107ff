"""WER: word error rate, the word-level Levenshtein distance to the reference.

Per segment, the hypothesis is compared with every reference; the fewest
insertions + deletions + substitutions (the closest reference) are divided
by the *average* reference length (as TER does). Statistics per segment,
``n_stats = 2`` floats::

    [edits, ref_len]     # edits to the closest reference, average ref length

Corpus WER = 100 * Σ edits / Σ ref_len (pooled, like WER.pl); sentence WER =
100 * edits / ref_len. Scores are percentages (0-100 scale, like the lecture
notes' "WER = 100 * 8 / 18 = 44%"); they exceed 100 when the hypothesis is
much longer than the reference. An empty reference gives 100 when there are
edits and 0 otherwise. Lower is better.

With one reference and ``tokenize=ascii`` this is exactly WER.pl 1.0
(Universitat d'Alacant): ASCII-whitespace tokens, case-sensitive.

Worked example (lecture notes 002): the 16-word hypothesis "it is a guide to
action that ensures that the military will forever heed party commands"
against the 18-word reference "it is a guide to action which ensures that
the military always obeys the commands of the party" needs 4 substitutions,
1 insertion and 3 deletions: WER = 100 * 8 / 18 = 44.4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from scoring.base import Metric, Parameter
from scoring.metrics.common.edit_distance import ClosestEditRate, levenshtein
from scoring.metrics.edit.options import TOKENIZE_PARAMETERS, EditTokenizing


@dataclass(frozen=True)
class WER(EditTokenizing, ClosestEditRate, Metric):
    """Word error rate with multiple references; corpus and sentence scores on 0–100.

    Attributes:
        tokenize: ``none`` (Unicode whitespace, default), ``13a`` or ``ascii``
            (ASCII whitespace only: WER.pl).
        lowercase: case-fold first (WER.pl is case-sensitive).
    """

    tokenize: str = "none"
    lowercase: bool = False

    name: ClassVar[str] = "wer"
    description: ClassVar[str] = (
        "word error rate: Levenshtein distance to the closest reference / "
        "average reference length, percent"
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[float] = 100.0
    parameters: ClassVar[tuple[Parameter, ...]] = TOKENIZE_PARAMETERS

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """``[edits to the closest reference, average reference length]``."""
        tokenizer = self.tokenizer
        hyp = tokenizer(hypothesis)
        refs = [tokenizer(reference) for reference in references]
        return self.closest_row(hyp, refs, levenshtein)

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        tokenizer = self.tokenizer
        return (("case", tokenizer.case_signature), ("tok", tokenizer.name))
