"""ROUGE-N, ROUGE-L, ROUGE-W, ROUGE-S and ROUGE-SU (Lin 2004; Lin & Och 2004).

Scores are on 0-1, higher is better. A segment's score is its recall,
precision or F-measure (``measure``); the corpus score is the mean of the
segment scores, as ROUGE-1.5.5 reports it. Shared parameters, the rules for
several references and for F are in :mod:`scoring.metrics.rouge.base` and
:mod:`scoring.metrics.rouge.stats`; text handling (``preprocess=default`` or
``rouge155``) in :mod:`scoring.metrics.rouge.preprocess`.

Definitions (X = reference of m tokens, Y = hypothesis of n tokens):

- ROUGE-N: clipped n-gram matches / reference n-grams (R), / hypothesis
  n-grams (P).
- ROUGE-L: R = LCS(X, Y) / m, P = LCS(X, Y) / n (Lin & Och: "police killed
  the gunman" vs "police kill the gunman" 0.75, vs "the gunman kill police"
  0.5, beta = 1).
- ROUGE-W-w: R = f^-1(WLCS(X, Y) / f(m)), P = f^-1(WLCS(X, Y) / f(n)), f(k) =
  k ** w (paper examples 0.571 and 0.286 with w = 2).
- ROUGE-Sd: skip-bigrams with at most d tokens in between (S0 = bigrams,
  ``*`` = no limit); R and P divide by the skip-bigrams allowed under the
  same limit (paper examples 0.5, 0.167, 0.333 for S*).
- ROUGE-SUd: ROUGE-Sd plus unigrams.

``preprocess=rouge155`` reproduces ROUGE-1.5.5 exactly: its tokenisation,
``-m`` stemming when ``stem=true``, 5-decimal R/P/F with F from the rounded
values, and three counting quirks of the Perl script:

- ROUGE-W's hit is not the dynamic programme's value but the back-traced
  LCS re-weighted by runs of consecutive *reference* positions, and its
  recall denominator is f(f(m)) = (m ** w) ** w, because
  ``computeWLCSScore`` applies ``wlcsWeight`` to a base that ``wlcs`` had
  already weighted (precision uses f(n) once);
- ROUGE-SU leaves out the unigram of the last token;
- ``multiref=best`` compares rounded recalls for ROUGE-N/S/SU.

ROUGE-1.5.5's printed *corpus* figure is the mean of its 1000 bootstrap
resamples, not the plain mean; :mod:`scoring.metrics.rouge.average155` reproduces it
from the segment scores.

>>> result = RougeL().score(["police kill the gunman"], [["police killed the gunman"]])
>>> result.score
0.75
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from scoring.base import Bounds, Parameter, require
from scoring.metrics.common.ngrams import NGRAM_ORDERS
from scoring.metrics.rouge.base import COMMON_PARAMETERS, RougeBase, Tokens, ratio
from scoring.metrics.rouge.lcs import lcs_length, rouge155_wlcs_hits, wlcs_table
from scoring.metrics.rouge.skip import clipped_overlap, ngram_counts, skip_bigram_counts
from scoring.metrics.rouge.stats import PairCounts


@dataclass(frozen=True)
class RougeN(RougeBase):
    """ROUGE-N: n-gram co-occurrence (``n`` >= 1; ROUGE-1.5.5 ``-n``)."""

    order: int = 2

    name: ClassVar[str] = "rouge-n"
    description: ClassVar[str] = "ROUGE-N n-gram co-occurrence (Lin 2004)"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("n", "order", int, "n-gram order", bounds=NGRAM_ORDERS),
        *COMMON_PARAMETERS,
    )

    def __post_init__(self) -> None:
        require(
            isinstance(self.order, int)
            and not isinstance(self.order, bool)
            and self.order >= 1,
            f"rouge-n: n must be an integer >= 1, not {self.order!r}",
        )
        super().__post_init__()

    def pair_counts(self, reference: Tokens, hypothesis: Tokens) -> PairCounts:
        hits = clipped_overlap(
            ngram_counts(reference, self.order), ngram_counts(hypothesis, self.order)
        )
        reference_total = max(len(reference) - self.order + 1, 0)
        hypothesis_total = max(len(hypothesis) - self.order + 1, 0)
        selector = self._selector(hits, reference_total)
        return PairCounts(hits, reference_total, hypothesis_total, selector)

    def _variant_fields(self) -> tuple[tuple[str, str], ...]:
        return (("n", str(self.order)),)


@dataclass(frozen=True)
class RougeL(RougeBase):
    """ROUGE-L: longest common subsequence of each sentence pair."""

    name: ClassVar[str] = "rouge-l"
    description: ClassVar[str] = "ROUGE-L longest common subsequence (Lin & Och 2004)"
    parameters: ClassVar[tuple[Parameter, ...]] = COMMON_PARAMETERS

    def pair_counts(self, reference: Tokens, hypothesis: Tokens) -> PairCounts:
        hits = lcs_length(reference, hypothesis)
        # ROUGE-1.5.5 compares unrounded LCS recalls under -f B.
        selector = ratio(hits, len(reference))
        return PairCounts(hits, len(reference), len(hypothesis), selector)


@dataclass(frozen=True)
class RougeW(RougeBase):
    """ROUGE-W-w: weighted LCS with f(k) = k ** w (``w`` > 0; 1.1-2.0 in the
    paper, 1.2 the usual ROUGE-1.5.5 ``-w``; w = 1 gives ROUGE-L)."""

    weight: float = 1.2

    name: ClassVar[str] = "rouge-w"
    description: ClassVar[str] = "ROUGE-W weighted LCS, f(k) = k^w (Lin & Och 2004)"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter(
            "w",
            "weight",
            float,
            "weight w of f(k) = k^w (1.1 to 2.0 in the paper)",
            bounds=Bounds(0, 10, low_excluded=True),
        ),
        *COMMON_PARAMETERS,
    )

    def __post_init__(self) -> None:
        require(
            isinstance(self.weight, (int, float))
            and not isinstance(self.weight, bool)
            and 0 < self.weight < math.inf,
            f"rouge-w: w must be a finite number > 0, not {self.weight!r}",
        )
        super().__post_init__()

    def pair_counts(self, reference: Tokens, hypothesis: Tokens) -> PairCounts:
        weight = float(self.weight)
        reference_weight = float(len(reference)) ** weight
        hypothesis_total = float(len(hypothesis)) ** weight
        if self.rouge155:
            hits = rouge155_wlcs_hits(reference, hypothesis, weight)
            # ROUGE-1.5.5 weights the already weighted reference length again.
            reference_total = reference_weight**weight
        else:
            hits = wlcs_table(reference, hypothesis, weight)[0]
            reference_total = reference_weight
        selector = ratio(hits, reference_weight) ** (1 / weight)
        return PairCounts(hits, reference_total, hypothesis_total, selector)

    def _inverse_weight(self) -> float | None:
        return float(self.weight)

    def _variant_fields(self) -> tuple[tuple[str, str], ...]:
        return (("w", f"{float(self.weight):g}"),)


@dataclass(frozen=True)
class RougeS(RougeBase):
    """ROUGE-Sd: skip-bigrams with at most ``d`` tokens in between
    (``d`` = 0, 1, ... or ``*`` for no limit; ROUGE-1.5.5 ``-2 d`` / ``-2 -1``)."""

    skip: str = "4"

    name: ClassVar[str] = "rouge-s"
    description: ClassVar[str] = "ROUGE-S skip-bigram co-occurrence (Lin & Och 2004)"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        # A skip beyond the segment's length changes nothing (d=* costs what
        # d=length does); the bound keeps the value a sensible number.
        Parameter(
            "d",
            "skip",
            str,
            "most words between the two (a number, or * for no limit)",
            bounds=Bounds(0, 100),
        ),
        *COMMON_PARAMETERS,
    )
    _unigrams: ClassVar[bool] = False

    def __post_init__(self) -> None:
        self.check_bounds()  # before int(): a 5000-digit d would overflow it
        text = str(self.skip).strip()
        require(
            not isinstance(self.skip, bool)
            and (text == "*" or (text.isdigit() and text.isascii())),
            f"{self.name}: d must be an integer >= 0 or * (no limit), "
            f"not {self.skip!r}",
        )
        object.__setattr__(self, "skip", text if text == "*" else str(int(text)))
        super().__post_init__()

    @property
    def max_skip(self) -> int | None:
        """Most tokens between the two words; ``None`` = no limit."""
        return None if self.skip == "*" else int(self.skip)

    def pair_counts(self, reference: Tokens, hypothesis: Tokens) -> PairCounts:
        if not self._unigrams:
            unigrams = "none"
        else:
            unigrams = "all-but-last" if self.rouge155 else "all"
        reference_counts = skip_bigram_counts(reference, self.max_skip, unigrams)
        hypothesis_counts = skip_bigram_counts(hypothesis, self.max_skip, unigrams)
        hits = clipped_overlap(reference_counts, hypothesis_counts)
        reference_total = sum(reference_counts.values())
        hypothesis_total = sum(hypothesis_counts.values())
        selector = self._selector(hits, reference_total)
        return PairCounts(hits, reference_total, hypothesis_total, selector)

    def _variant_fields(self) -> tuple[tuple[str, str], ...]:
        return (("d", self.skip),)


@dataclass(frozen=True)
class RougeSU(RougeS):
    """ROUGE-SUd: ROUGE-Sd plus unigrams (ROUGE-1.5.5 ``-U``; with
    ``rouge155`` the last token's unigram is left out, as the script does)."""

    name: ClassVar[str] = "rouge-su"
    description: ClassVar[str] = "ROUGE-SU skip-bigrams plus unigrams (Lin 2004)"
    _unigrams: ClassVar[bool] = True
