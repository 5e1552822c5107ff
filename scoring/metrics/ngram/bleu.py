"""BLEU (Papineni et al. 2002) and smoothed BLEU (BLEUS, Lin & Och 2004).

Statistics per segment, ``n_stats = 2 + 2 * max_order`` integers::

    [hyp_len, ref_len, matches_1 .. matches_N, totals_1 .. totals_N]

``ref_len`` is the length of the reference closest in length to the
hypothesis (tie: the shorter one); ``matches_n`` counts hypothesis n-grams
clipped by their largest count in any single reference; ``totals_n`` counts
all hypothesis n-grams. Lengths are in tokens.

Corpus BLEU is computed from the column sums (pooled precisions, one brevity
penalty for the corpus). With the defaults it equals sacreBLEU's
``corpus_bleu`` (smoothing ``exp``, which only matters when some corpus
precision is zero). Sentence BLEU defaults to Lin & Och's add-one smoothing
(``add-k`` with k = 1 for n > 1; zero when no unigram matches) and, like
sacreBLEU's ``sentence_bleu``, uses the *effective order*: orders for which
the hypothesis has no n-grams are left out of the geometric mean (a no-op for
add-k, which gives every order n > 1 at least k n-grams).

mteval-v13a.pl's figures are reproduced with its tokenizer and its smoothing
at both levels (``lowercase=true`` for its default, case-insensitive run;
its BLEU is a fraction, ours is that fraction times 100)::

    bleu:tokenize=mteval13a,smooth=mteval,sentence_smooth=mteval

``bleus`` (:class:`BLEUS`) is Lin & Och's BLEUS-N: add one to matched and
total n-gram counts for n > 1, at the sentence *and* the corpus level
(sacreBLEU ``smooth_method="add-k", smooth_value=1``); ``bleus:n=6`` is
BLEUS6 of the ORANGE paper.

Worked example (the lecture notes' "the gunman was shot dead by police ."):
precisions 8/8, 6/7, 4/6, 3/5, hypothesis 8 tokens, reference 9 tokens, so
BP = exp(1 - 9/8) = 0.8825 and BLEU = 0.8825 * (1 * 6/7 * 4/6 * 3/5) ** (1/4)
= 0.6753, reported as 67.53 on the 0-100 scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from scoring.base import Bounds, Metric, Parameter, require
from scoring.metrics.common.ngrams import (
    NGRAM_ORDERS,
    clipped_matches,
    closest_reference_length,
    max_reference_counts,
    ngram_counts,
)
from scoring.metrics.ngram.bleu_math import (
    SMOOTHING_DEFAULT_VALUES,
    bleu_from_statistics,
    brevity_penalty,
    smoothing_label,
)
from scoring.tokenizers import Tokenizer, get_tokenizer, list_tokenizers

_SMOOTHINGS = tuple(SMOOTHING_DEFAULT_VALUES)
# sacreBLEU's defaults are 0.1 (floor) and 1 (add-k); past the counts
# themselves a larger one only flattens every score.
_SMOOTHING_VALUES = Bounds(0, 100, low_excluded=True)
_BLEU_PARAMETERS = (
    Parameter("n", "max_order", int, "maximum n-gram order", bounds=NGRAM_ORDERS),
    Parameter("tokenize", "tokenize", str, "tokenizer", list_tokenizers()),
    Parameter("lowercase", "lowercase", bool, "case-fold with str.lower()"),
    Parameter("smooth", "smooth", str, "smoothing of the corpus score", _SMOOTHINGS),
    Parameter(
        "smooth_value",
        "smooth_value",
        float,
        "k for add-k, floor for floor",
        bounds=_SMOOTHING_VALUES,
    ),
    Parameter(
        "sentence_smooth",
        "sentence_smooth",
        str,
        "smoothing of sentence scores (add-k = BLEUS of Lin & Och 2004)",
        _SMOOTHINGS,
    ),
    Parameter(
        "sentence_smooth_value",
        "sentence_smooth_value",
        float,
        "k or floor for the sentence smoothing",
        bounds=_SMOOTHING_VALUES,
    ),
)


@dataclass(frozen=True)
class BLEU(Metric):
    """BLEU with multiple references; corpus and sentence scores on 0–100.

    Attributes:
        max_order: N, the largest n-gram order (the paper's BLEU-N), >= 1.
        tokenize: tokenizer name (see :func:`scoring.tokenizers.get_tokenizer`).
        lowercase: case-fold before tokenising (the BLEU paper does).
        smooth: smoothing of the corpus score; ``exp`` = sacreBLEU's default,
            ``mteval`` = mteval-v13a.pl's (see :mod:`scoring.metrics.ngram.bleu_math`).
        smooth_value: parameter of ``smooth`` (floor/add-k only).
        sentence_smooth: smoothing of sentence scores; ``add-k`` = BLEUS,
            ``mteval`` = mteval-v13a.pl's segment BLEU.
        sentence_smooth_value: parameter of ``sentence_smooth``.
    """

    max_order: int = 4
    tokenize: str = "13a"
    lowercase: bool = False
    smooth: str = "exp"
    smooth_value: float | None = None
    sentence_smooth: str = "add-k"
    sentence_smooth_value: float | None = None

    name: ClassVar[str] = "bleu"
    description: ClassVar[str] = (
        "BLEU (Papineni et al. 2002); sentence scores smoothed (BLEUS, Lin & Och 2004)"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 100.0
    parameters: ClassVar[tuple[Parameter, ...]] = _BLEU_PARAMETERS

    def __post_init__(self) -> None:
        self.check_bounds()
        require(
            isinstance(self.max_order, int)
            and not isinstance(self.max_order, bool)
            and self.max_order >= 1,
            f"{self.name}: n (max n-gram order) must be an integer >= 1, "
            f"not {self.max_order!r}",
        )
        require(
            isinstance(self.lowercase, bool),
            f"{self.name}: lowercase must be true or false, not {self.lowercase!r}",
        )
        get_tokenizer(self.tokenize)  # raises TokenizerError listing valid names
        for label, method, value in (
            ("smooth", self.smooth, self.smooth_value),
            ("sentence_smooth", self.sentence_smooth, self.sentence_smooth_value),
        ):
            require(
                method in SMOOTHING_DEFAULT_VALUES,
                f"{self.name}: unknown {label} {method!r}; "
                f"valid: {', '.join(_SMOOTHINGS)}",
            )
            if value is not None:
                require(
                    SMOOTHING_DEFAULT_VALUES[method] is not None,
                    f"{self.name}: {label}_value only applies to floor and add-k, "
                    f"not {method}",
                )
                require(
                    isinstance(value, (int, float))
                    and not isinstance(value, bool)
                    and 0 < value < math.inf,
                    f"{self.name}: {label}_value must be a finite number > 0, "
                    f"not {value!r}",
                )

    @property
    def tokenizer(self) -> Tokenizer:
        """The configured tokenizer (case folding included)."""
        return get_tokenizer(self.tokenize, self.lowercase)

    @property
    def statistics_names(self) -> tuple[str, ...]:
        orders = range(1, self.max_order + 1)
        return (
            ("hyp_len", "ref_len")
            + tuple(f"matches_{n}" for n in orders)
            + tuple(f"totals_{n}" for n in orders)
        )

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[int]:
        """``[hyp_len, ref_len, matches_1..N, totals_1..N]`` of one segment."""
        tokenizer = self.tokenizer
        reference_tokens = [tokenizer(reference) for reference in references]
        limits = max_reference_counts(
            ngram_counts(tokens, self.max_order) for tokens in reference_tokens
        )
        hypothesis_tokens = tokenizer(hypothesis)
        matches, totals = clipped_matches(
            ngram_counts(hypothesis_tokens, self.max_order), limits, self.max_order
        )
        ref_len = closest_reference_length(
            len(hypothesis_tokens), [len(tokens) for tokens in reference_tokens]
        )
        return [len(hypothesis_tokens), ref_len, *matches, *totals]

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus BLEU, 0–100: ``(..., n_stats) -> (...)``."""
        bleu = bleu_from_statistics(
            summed, self.max_order, self.smooth, self.smooth_value
        )
        return self.scale * bleu

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Sentence BLEU, 0–100, with the sentence smoothing and effective order."""
        bleu = bleu_from_statistics(
            statistics,
            self.max_order,
            self.sentence_smooth,
            self.sentence_smooth_value,
            effective_order=True,
        )
        return self.scale * bleu

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """Unsmoothed precisions (percent), brevity penalty (0–1), lengths."""
        summed = np.asarray(summed, dtype=np.int64)
        hyp_len, ref_len = int(summed[0]), int(summed[1])
        matches = summed[2 : 2 + self.max_order]
        totals = summed[2 + self.max_order :]
        precisions = 100.0 * matches / np.maximum(totals, 1)
        return {
            "precisions": [float(value) for value in precisions],
            "brevity_penalty": float(brevity_penalty(summed[0], summed[1])),
            "hyp_len": hyp_len,
            "ref_len": ref_len,
            "matches": [int(value) for value in matches],
            "totals": [int(value) for value in totals],
        }

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        tokenizer = self.tokenizer
        if sentence:
            smoothing = smoothing_label(
                self.sentence_smooth, self.sentence_smooth_value
            )
            # mteval smoothing keeps every order in the mean (no eff. order).
            uses_effective_order = self.sentence_smooth != "mteval"
            effective = (("eff", "yes"),) if uses_effective_order else ()
        else:
            smoothing = smoothing_label(self.smooth, self.smooth_value)
            effective = ()
        return (
            ("case", tokenizer.case_signature),
            ("tok", tokenizer.name),
            ("smooth", smoothing),
            *effective,
            ("n", str(self.max_order)),
        )


_ADD_ONE = (None, 1.0)


@dataclass(frozen=True)
class BLEUS(BLEU):
    """BLEUS-N of Lin & Och 2004: BLEU with add-one smoothing for n > 1.

    "Add one count to the n-gram hit and total n-gram count for n > 1"; zero
    when no unigram matches. Applied to sentence scores and to the corpus
    score (to the summed counts). Scores on 0–100, higher is better.

    Worked example: "hello" against "hello world": p1 = 1/1, p2..p4 =
    (0 + 1)/(0 + 1) = 1, BP = exp(1 - 2/1), so BLEUS4 = 100 * e^-1 = 36.79.
    """

    smooth: str = "add-k"

    name: ClassVar[str] = "bleus"
    description: ClassVar[str] = (
        "BLEUS-N (Lin & Och 2004): BLEU with add-one smoothing for n > 1, "
        "sentence and corpus"
    )
    parameters: ClassVar[tuple[Parameter, ...]] = _BLEU_PARAMETERS[:3]

    def __post_init__(self) -> None:
        super().__post_init__()
        require(
            self.smooth == self.sentence_smooth == "add-k"
            and self.smooth_value in _ADD_ONE
            and self.sentence_smooth_value in _ADD_ONE,
            "bleus: the smoothing is fixed (add one for n > 1); use bleu for others",
        )
