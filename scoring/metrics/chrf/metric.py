"""chrF (Popović 2015) and chrF++ (Popović 2017), as sacreBLEU 2.6.0 computes them.

chrF is the F-beta score (β = 2: recall weighs more) of character n-gram
precision and recall, n = 1..6; chrF++ adds word unigrams and bigrams. The
defaults equal sacreBLEU's ``CHRF()`` and ``CHRF(word_order=2)``: whitespace
is removed before extracting character n-grams, case is kept, and precision
and recall are averaged over the orders that have n-grams on both sides
("effective order", sacreBLEU's default ``eps_smoothing=False``) before the
F-score is taken.

Statistics per segment, ``n_stats = 3 * (char_order + word_order)``
integers: ``[hyp_count, ref_count, matches]`` for each character order
``1..char_order`` and then each word order ``1..word_order`` (see
:mod:`scoring.metrics.chrf.statistics`). With several references, a segment's
statistics are those of the reference that gives the segment the highest
chrF (the first one on ties), as in sacreBLEU. The corpus score therefore
depends on the order of the references, so with two or more reference
streams the signature records it: ``refs:`` and a fingerprint of the
streams' texts in the order given (the same files in the same order give
the same fingerprint on the command line and the web; swapped, another).

Scores are on 0–100, higher is better. The corpus score is chrF of the
column-summed statistics (not the mean of sentence scores); a sentence score
is chrF of its own row (sacreBLEU's ``sentence_score``).

Worked example: ``cat`` against ``cats`` has character n-grams of orders 1-3
only (order 4 exists in the reference alone and is left out), precisions 1,
recalls 3/4, 2/3, 1/2, so P = 1, R = 23/36 and F = 5PR / (4P + R) = 115/167:

>>> result = CHRF().score(["cat"], [["cats"]])
>>> round(result.score, 4), result.signature
(68.8623, 'chrf|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|beta:2|space:no|version:0.1.0')
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from scoring.base import Bounds, Metric, Parameter, require
from scoring.metrics.chrf.statistics import (
    NgramProfile,
    chrf_score,
    chrf_scores,
    match_statistics,
    ngram_profile,
)

_CHRF_PARAMETERS = (
    # The papers use up to 6 and 2; each order costs three statistics columns
    # and a pass over every segment (char_order=100000 took 49 s).
    Parameter(
        "char_order",
        "char_order",
        int,
        "largest character n-gram order",
        bounds=Bounds(0, 10),
    ),
    Parameter(
        "word_order",
        "word_order",
        int,
        "largest word n-gram order (2 = chrF++)",
        bounds=Bounds(0, 10),
    ),
    Parameter(
        "beta",
        "beta",
        float,
        "weight of recall against precision",
        bounds=Bounds(0, 10, low_excluded=True),
    ),
    Parameter("lowercase", "lowercase", bool, "case-fold with str.lower()"),
    Parameter("whitespace", "whitespace", bool, "keep whitespace in character n-grams"),
    Parameter(
        "eps_smoothing",
        "eps_smoothing",
        bool,
        "mean of per-order F-scores with 1e-16 for empty orders (chrF++.py) "
        "instead of the effective order",
    ),
)


# A profile takes about 60 kB, so only the most recent references are kept:
# enough for the many candidates of an n-best list that share references.
@lru_cache(maxsize=256)
def _reference_profile(
    text: str, char_order: int, word_order: int, whitespace: bool
) -> NgramProfile:
    """n-gram counts of a (case-folded) reference, cached; callers must not
    modify the counters."""
    return ngram_profile(text, char_order, word_order, whitespace)


def _format_number(value: float) -> str:
    """``2.0 -> "2"``, ``0.5 -> "0.5"`` for signatures."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True)
class CHRF(Metric):
    """chrF with sacreBLEU 2.6.0's defaults; scores on 0–100.

    Attributes:
        char_order: largest character n-gram order (6), >= 0.
        word_order: largest word n-gram order (0 for chrF, 2 for chrF++),
            >= 0; ``char_order + word_order`` must be at least 1.
        beta: β > 0; recall is β times as important as precision.
        lowercase: case-fold with ``str.lower()`` first.
        whitespace: keep whitespace inside character n-grams.
        eps_smoothing: average the per-order F-scores (chrF++.py) instead
            of sacreBLEU's effective-order averaging of precision and recall.
    """

    char_order: int = 6
    word_order: int = 0
    beta: float = 2.0
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    name: ClassVar[str] = "chrf"
    description: ClassVar[str] = (
        "chrF (Popović 2015): character n-gram F-score, as sacreBLEU 2.6.0"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 100.0
    parameters: ClassVar[tuple[Parameter, ...]] = _CHRF_PARAMETERS

    def __post_init__(self) -> None:
        self.check_bounds()
        for label, value in (
            ("char_order", self.char_order),
            ("word_order", self.word_order),
        ):
            require(
                isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                f"{self.name}: {label} must be an integer >= 0, not {value!r}",
            )
        require(
            self.char_order + self.word_order >= 1,
            f"{self.name}: char_order + word_order must be at least 1",
        )
        require(
            isinstance(self.beta, (int, float))
            and not isinstance(self.beta, bool)
            and 0 < self.beta < math.inf,
            f"{self.name}: beta must be a finite number > 0, not {self.beta!r}",
        )
        for label, flag in (
            ("lowercase", self.lowercase),
            ("whitespace", self.whitespace),
            ("eps_smoothing", self.eps_smoothing),
        ):
            require(
                isinstance(flag, bool),
                f"{self.name}: {label} must be true or false, not {flag!r}",
            )

    @property
    def statistics_names(self) -> tuple[str, ...]:
        orders = [f"char{n}" for n in range(1, self.char_order + 1)]
        orders += [f"word{n}" for n in range(1, self.word_order + 1)]
        return tuple(
            f"{order}_{kind}" for order in orders for kind in ("hyp", "ref", "match")
        )

    def _case(self, text: str) -> str:
        return text.lower() if self.lowercase else text

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[int]:
        """Statistics of one segment against its best reference."""
        orders = (self.char_order, self.word_order, self.whitespace)
        hypothesis_profile = ngram_profile(self._case(hypothesis), *orders)
        best_statistics: list[int] = []
        best_score = -1.0
        for reference in references:
            reference_profile = _reference_profile(self._case(reference), *orders)
            statistics = match_statistics(hypothesis_profile, reference_profile)
            score = chrf_score(statistics, self.beta, self.eps_smoothing)
            if score > best_score:  # strictly: the first reference wins ties
                best_score, best_statistics = score, statistics
        return best_statistics

    def corpus_signature(
        self,
        references: Sequence[Sequence[str | None]],
        nrefs: int | str | None = None,
    ) -> str:
        """The corpus signature, with the references' order when there are
        several streams (``refs:`` field, before ``version``): the corpus
        score keeps the first of tied references, as sacreBLEU does. Sentence
        scores take the best reference whatever the order, so their signature
        does not record it."""
        signature = self.signature(nrefs)
        if len(references) < 2:
            return signature
        *fields, version = signature.split("|")
        order = f"refs:{reference_order(references)}"
        return "|".join([*fields, order, version])

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus chrF, 0–100: ``(..., n_stats) -> (...)``."""
        return chrf_scores(summed, self.beta, self.eps_smoothing)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence chrF, 0–100: ``(..., n_stats) -> (...)``."""
        return chrf_scores(statistics, self.beta, self.eps_smoothing)

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        return (
            ("case", "lc" if self.lowercase else "mixed"),
            ("eff", "no" if self.eps_smoothing else "yes"),
            ("nc", str(self.char_order)),
            ("nw", str(self.word_order)),
            ("beta", _format_number(self.beta)),
            ("space", "yes" if self.whitespace else "no"),
        )


@dataclass(frozen=True)
class CHRFPlusPlus(CHRF):
    """chrF++ (Popović 2017): chrF plus word unigrams and bigrams; 0–100."""

    word_order: int = 2

    name: ClassVar[str] = "chrf++"
    description: ClassVar[str] = (
        "chrF++ (Popović 2017): chrF with word 1- and 2-grams, as sacreBLEU 2.6.0"
    )


def reference_order(references: Sequence[Sequence[str | None]]) -> str:
    """A 12-hex-digit fingerprint of reference streams in the given order.

    Each stream is hashed by its texts (``None``, a missing reference, apart
    from any text), then the streams' hashes in order: streams swapped give
    another fingerprint, the same texts in the same order the same one.

    >>> reference_order([["a", "b"], ["c", None]]) == reference_order(
    ...     [["c", None], ["a", "b"]]
    ... )
    False
    """
    order = hashlib.sha256()
    for stream in references:
        text = json.dumps(list(stream), ensure_ascii=False)
        order.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return order.hexdigest()[:12]
