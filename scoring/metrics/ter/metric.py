"""TER: translation edit rate (Snover et al. 2006), with block shifts.

TER = edits / average reference length, where the edits (insertions,
deletions, substitutions and shifts of word blocks, each cost 1) are those
of the reference needing the fewest, found by TERCOM 0.7.25's greedy shift
search (:mod:`scoring.metrics.ter.shifts`) and beam-pruned alignment
(:mod:`scoring.metrics.ter.beam`, with exact shortcuts in
:mod:`scoring.metrics.ter.alignment`), reproduced exactly. Statistics per segment,
``n_stats = 2`` floats::

    [edits, ref_len]     # edits to the closest reference, average ref length

Corpus TER = 100 * Σ edits / Σ ref_len (TERCOM's "Total TER", sacreBLEU's
corpus TER); sentence TER = 100 * edits / ref_len. Percentages on the 0-100
scale like sacreBLEU (TERCOM prints fractions: divide by 100); TER exceeds
100 when the hypothesis is much longer than the reference. An empty
reference gives 100 when there are edits and 0 otherwise. Lower is better.

Text handling (:mod:`scoring.metrics.ter.preprocess`) defaults to sacreBLEU's TER
defaults: case-insensitive, no normalisation, punctuation kept, words split
on Unicode whitespace. ``tercom=true`` reproduces TERCOM 0.7.25 run on the
plain text instead (only ASCII whitespace separates words); ``lowercase=false``
is TERCOM's ``-s``, ``normalize`` its ``-N``, ``no_punct`` its ``-P``.

Worked example (Snover et al. 2006, lecture notes 002): hypothesis "THIS
WEEK THE SAUDIS denied information published in the New York times",
reference "SAUDI ARABIA denied THIS WEEK information published in the
AMERICAN New York times": 1 shift + 2 substitutions + 1 insertion = 4 edits
over 13 reference words, TER = 30.8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from scoring.base import Metric, Parameter, require
from scoring.metrics.common.edit_distance import ClosestEditRate
from scoring.metrics.ter.preprocess import TerPreprocessor
from scoring.metrics.ter.shifts import ter_edits

_TER_PARAMETERS = (
    Parameter(
        "lowercase",
        "lowercase",
        bool,
        "case-insensitive (default true, as sacreBLEU and TERCOM without -s)",
    ),
    Parameter(
        "normalize", "normalize", bool, "TERCOM -N tokenisation (sacreBLEU normalized)"
    ),
    Parameter("no_punct", "no_punct", bool, "remove punctuation (TERCOM -P)"),
    Parameter(
        "asian_support",
        "asian_support",
        bool,
        "sacreBLEU asian_support: CJK characters as words (with normalize/no_punct)",
    ),
    Parameter(
        "tercom",
        "tercom",
        bool,
        "TERCOM 0.7.25 text handling: only ASCII whitespace separates words",
    ),
)


@lru_cache(maxsize=2**16)
def _words(preprocessor: TerPreprocessor, text: str) -> tuple[str, ...]:
    """Cached: the same references are preprocessed once per system."""
    return preprocessor(text)


@dataclass(frozen=True)
class TER(ClosestEditRate, Metric):
    """Translation edit rate with shifts; corpus and sentence scores on 0–100.

    Attributes:
        lowercase: case-insensitive (default; ``False`` = TERCOM ``-s``,
            sacreBLEU ``case_sensitive=True``).
        normalize: TERCOM ``-N`` / sacreBLEU ``normalized``.
        no_punct: TERCOM ``-P`` / sacreBLEU ``no_punct``.
        asian_support: sacreBLEU ``asian_support`` (not with ``tercom``).
        tercom: TERCOM 0.7.25's own text handling instead of sacreBLEU's.
    """

    lowercase: bool = True
    normalize: bool = False
    no_punct: bool = False
    asian_support: bool = False
    tercom: bool = False

    name: ClassVar[str] = "ter"
    description: ClassVar[str] = (
        "translation edit rate with shifts (Snover et al. 2006; TERCOM's "
        "search), percent"
    )
    higher_is_better: ClassVar[bool] = False
    scale: ClassVar[float] = 100.0
    parameters: ClassVar[tuple[Parameter, ...]] = _TER_PARAMETERS

    def __post_init__(self) -> None:
        for parameter in _TER_PARAMETERS:
            value = getattr(self, parameter.attribute)
            require(
                isinstance(value, bool),
                f"ter: {parameter.name} must be true or false, not {value!r}",
            )
        require(
            not (self.tercom and self.asian_support),
            "ter: TERCOM 0.7.25 has no asian_support; use tercom=false",
        )

    @property
    def preprocessor(self) -> TerPreprocessor:
        """Segment text -> TER words, as configured."""
        return TerPreprocessor(
            lowercase=self.lowercase,
            normalize=self.normalize,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            tercom=self.tercom,
        )

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """``[edits to the closest reference, average reference length]``."""
        preprocessor = self.preprocessor
        hyp = _words(preprocessor, hypothesis)
        refs = [_words(preprocessor, reference) for reference in references]
        return self.closest_row(hyp, refs, ter_edits)

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        def yes_no(flag: bool) -> str:
            return "yes" if flag else "no"

        return (
            ("case", "lc" if self.lowercase else "mixed"),
            ("tok", "tercom-0.7.25" if self.tercom else "tercom"),
            ("norm", yes_no(self.normalize)),
            ("punct", yes_no(not self.no_punct)),
            ("asian", yes_no(self.asian_support)),
        )
