"""GTM, the General Text Matcher (Turian, Shen & Melamed 2003), as GTM 1.4.

Precision and recall of the *maximum matching size* (MMS) of a hypothesis
against its references, where the matching rewards contiguous runs: with
exponent ``e``, ``MMS = (sum of run_length ** e) ** (1 / e)`` (GTM10, GTM20,
GTM30 are ``e = 1, 2, 3``). How runs are chosen is GTM 1.4's greedy
algorithm, reproduced in :mod:`scoring.metrics.gtm.matching`.

Statistics per segment, ``n_stats = 3`` floats::

    [mms, hyp_len, mean_ref_len]

``mms`` is in tokens (already raised to ``1/e``), ``hyp_len`` is the number of
hypothesis tokens and ``mean_ref_len`` the mean number of tokens of the
segment's references (GTM's recall denominator with several references).

Scores are on 0–1, higher is better: ``P = mms / hyp_len``,
``R = mms / mean_ref_len``, ``F = 2PR / (P + R)`` (0 when P + R = 0). The
corpus score is GTM 1.4's document score: F of the pooled precision
``sum(mms) / sum(hyp_len)`` and recall ``sum(mms) / sum(mean_ref_len)``, not
the mean of segment scores.

Tokenisation: GTM 1.4 does none; it splits on ASCII whitespace only (and is
case-sensitive). ``tokenize="gtm14"`` reproduces that exactly (a no-break
space U+00A0 then stays inside a token); the default ``none`` splits on all
Unicode whitespace; ``13a`` is mteval's tokenizer.

Argument order: with ``e > 1`` GTM 1.4's greedy matching is not symmetric,
so swapping hypothesis and reference can change a segment's score. The BLEND
GTM figures were computed with the reference as GTM's test file; to reproduce
them, score the reference stream as the hypotheses against the MT output.

Worked example (``e = 2``): hypothesis ``a b c d e`` (5 tokens), reference
``a b x c d`` (5 tokens): runs ``a b`` and ``c d``, ``MMS = sqrt(8) = 2.83``,
``P = R = F = 2.83 / 5 = 0.566``.

>>> result = GTM(exponent=2).score(["a b c d e"], [["a b x c d"]])
>>> round(result.score, 3), result.signature
(0.566, 'gtm|nrefs:1|case:mixed|tok:none|e:2|version:0.1.0')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from scoring.base import Bounds, Metric, Parameter, require
from scoring.metrics.gtm.matching import gtm14_matching_size
from scoring.tokenizers import get_tokenizer, list_tokenizers
from scoring.tokenizers.tools import gtm14_tokens

GTM14_TOKENIZER = "gtm14"
_TOKENIZERS = (*list_tokenizers(), GTM14_TOKENIZER)
# Run lengths are raised to e in floating point; 10 keeps any real segment
# far from overflow (1e6 tokens ** 10 = 1e60) and is well beyond GTM30.
_MAX_EXPONENT = 10.0

_GTM_PARAMETERS = (
    Parameter(
        "e",
        "exponent",
        float,
        "weight exponent of run lengths",
        bounds=Bounds(1, _MAX_EXPONENT),
    ),
    Parameter(
        "tokenize",
        "tokenize",
        str,
        "tokenizer; gtm14 = GTM 1.4's own split on ASCII whitespace",
        _TOKENIZERS,
    ),
    Parameter("lowercase", "lowercase", bool, "case-fold with str.lower()"),
)


def gtm_f_measure(summed: np.ndarray) -> np.ndarray:
    """GTM's F-measure (0–1) from ``[mms, hyp_len, mean_ref_len]`` rows.

    ``(..., 3) -> (...)``; a zero length gives precision or recall 0, as in
    GTM 1.4.

    >>> float(gtm_f_measure(np.array([2.0, 4.0, 6.0])))
    0.4
    """
    summed = np.asarray(summed, dtype=np.float64)
    mms, hyp_len, ref_len = summed[..., 0], summed[..., 1], summed[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(hyp_len != 0, mms / hyp_len, 0.0)
        recall = np.where(ref_len != 0, mms / ref_len, 0.0)
        total = precision + recall
        f_measure = np.where(total > 0, 2 * (precision * recall) / total, 0.0)
    return f_measure


def _format_number(value: float) -> str:
    """``2.0 -> "2"``, ``1.5 -> "1.5"`` for signatures."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@dataclass(frozen=True)
class GTM(Metric):
    """GTM F-measure with run exponent ``e``; scores on 0–1.

    Attributes:
        exponent: ``e`` in ``[1, 10]``; 1 = GTM10 (bag-of-words matching),
            2 and 3 = GTM20 and GTM30, which reward longer runs.
        tokenize: a tokenizer of :mod:`scoring.tokenizers`, or ``gtm14``.
        lowercase: case-fold before tokenising (GTM 1.4 is case-sensitive).
    """

    exponent: float = 1.0
    tokenize: str = "none"
    lowercase: bool = False

    name: ClassVar[str] = "gtm"
    description: ClassVar[str] = (
        "GTM (Turian et al. 2003): F-measure of the maximum matching size, "
        "runs weighted by length^e, as GTM 1.4"
    )
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[float] = 1.0
    parameters: ClassVar[tuple[Parameter, ...]] = _GTM_PARAMETERS
    statistics_dtype: ClassVar[type] = np.float64

    def __post_init__(self) -> None:
        self.check_bounds()
        require(
            isinstance(self.exponent, (int, float))
            and not isinstance(self.exponent, bool)
            and math.isfinite(self.exponent)
            and 1.0 <= self.exponent <= _MAX_EXPONENT,
            f"gtm: e must be a number from 1 to {_MAX_EXPONENT:g}, "
            f"not {self.exponent!r}",
        )
        require(
            isinstance(self.lowercase, bool),
            f"gtm: lowercase must be true or false, not {self.lowercase!r}",
        )
        require(
            self.tokenize in _TOKENIZERS,
            f"gtm: unknown tokenizer {self.tokenize!r}; "
            f"valid tokenizers: {', '.join(_TOKENIZERS)}",
        )

    @property
    def tokenizer(self) -> Callable[[str], tuple[str, ...]]:
        """``text -> tokens`` with the configured tokenizer and case folding."""
        if self.tokenize == GTM14_TOKENIZER:
            if self.lowercase:
                return lambda text: gtm14_tokens(text.lower())
            return gtm14_tokens
        return get_tokenizer(self.tokenize, self.lowercase)

    @property
    def statistics_names(self) -> tuple[str, ...]:
        return ("mms", "hyp_len", "mean_ref_len")

    def segment_row(
        self, hypothesis: str, references: tuple[str, ...]
    ) -> Sequence[float]:
        """``[mms, hyp_len, mean_ref_len]`` of one segment (floats)."""
        tokenizer = self.tokenizer
        hypothesis_tokens = tokenizer(hypothesis)
        reference_tokens = [tokenizer(reference) for reference in references]
        mms = gtm14_matching_size(
            hypothesis_tokens, reference_tokens, float(self.exponent)
        )
        mean_ref_len = sum(map(len, reference_tokens)) / len(reference_tokens)
        return [mms, float(len(hypothesis_tokens)), mean_ref_len]

    def corpus_scores_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """GTM 1.4's document F-measure, 0–1: ``(..., 3) -> (...)``."""
        return gtm_f_measure(summed)

    def sentence_scores_from_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """GTM 1.4's segment F-measure, 0–1: ``(..., 3) -> (...)``."""
        return gtm_f_measure(statistics)

    def details_from_statistics(self, summed: np.ndarray) -> dict[str, Any]:
        """Pooled precision and recall (0–1) and the summed statistics."""
        mms, hyp_len, ref_len = (float(value) for value in summed)
        return {
            "precision": mms / hyp_len if hyp_len else 0.0,
            "recall": mms / ref_len if ref_len else 0.0,
            "mms": mms,
            "hyp_len": hyp_len,
            "mean_ref_len": ref_len,
        }

    def signature_fields(self, sentence: bool = False) -> tuple[tuple[str, str], ...]:
        return (
            ("case", "lc" if self.lowercase else "mixed"),
            ("tok", self.tokenize),
            ("e", _format_number(self.exponent)),
        )
