"""Statistics of a human review of the candidates ranked above the references.

ORANGE's caveat (Lin & Och 2004, end of section 4): sample the cases where
machine translations are ranked above the references and check the portion
that are as good as the references; "if the portion is small then the
ORANGE method can be confidently applied". The paper gives no number for
"small": :data:`SMALL_PORTION` is this project's choice, and the criterion
is applied to the *upper* end of the 95% interval so that a handful of
items cannot pass it.

- :func:`wilson_interval`: the Wilson score interval of a binomial share
  (good coverage for small samples and shares near 0 or 1);
- :func:`cohen_kappa`: agreement of two reviewers beyond chance on the
  items both marked.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# "Small" portion of MT as good as the references: below 10 %.
SMALL_PORTION = 0.10
_Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson_interval(
    successes: int, trials: int, z: float = _Z95
) -> tuple[float, float]:
    """95% Wilson score interval of ``successes / trials`` (NaN, NaN if no trials).

    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError("need 0 <= successes <= trials")
    if trials == 0:
        return math.nan, math.nan
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials**2))
    half /= denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# Why kappa is undefined, in words for the pages.
KAPPA_NO_ITEMS = "no items both marked"
KAPPA_ONE_LABEL = (
    "both used the single label {label!r}: chance agreement is total, so kappa is 0/0"
)


@dataclass(frozen=True)
class KappaResult:
    n_items: int
    raw_agreement: float  # share of items with the same label (NaN if none)
    kappa: float  # Cohen's kappa; NaN when undefined
    undefined: str | None = None  # why kappa is NaN, in words


def cohen_kappa(first: Sequence[str], second: Sequence[str]) -> KappaResult:
    """Cohen's kappa of two reviewers' labels of the same items, in order.

    kappa = (p_o - p_e) / (1 - p_e) with p_e from each reviewer's own label
    shares. When chance agreement is total (both used one and the same
    label, p_e = 1) kappa is 0/0: undefined (NaN), as scikit-learn's
    ``cohen_kappa_score`` has it, although the two agree everywhere; the raw
    agreement still says so.

    >>> round(cohen_kappa("aabb", "abbb").kappa, 4)
    0.5
    >>> cohen_kappa("aaa", "aaa").undefined
    "both used the single label 'a': chance agreement is total, so kappa is 0/0"
    """
    if len(first) != len(second):
        raise ValueError("both reviewers need a label for every item")
    n = len(first)
    if n == 0:
        return KappaResult(0, math.nan, math.nan, KAPPA_NO_ITEMS)
    observed = sum(a == b for a, b in zip(first, second)) / n
    counts_a, counts_b = Counter(first), Counter(second)
    expected = sum(counts_a[label] * counts_b[label] for label in counts_a) / n**2
    if expected >= 1.0:  # exact: one label, n * n / n**2
        reason = KAPPA_ONE_LABEL.format(label=first[0])
        return KappaResult(n, observed, math.nan, reason)
    return KappaResult(n, observed, (observed - expected) / (1 - expected))


@dataclass(frozen=True)
class ConfidenceVerdict:
    """The paper's criterion applied to the share of MT as good as the references."""

    good: int
    decided: int  # items marked good or worse (unsure left out)
    share_good: float
    share_good_high: float  # upper end of its 95% Wilson interval
    confident: bool  # the upper end is below SMALL_PORTION
    threshold: float


def confidently_applicable(
    good: int, decided: int, threshold: float = SMALL_PORTION
) -> ConfidenceVerdict:
    """Whether ORANGE "can be confidently applied": the portion of candidates
    above the references that are as good as them is small, i.e. the upper
    end of its 95% Wilson interval lies below ``threshold``."""
    low, high = wilson_interval(good, decided)
    share = good / decided if decided else math.nan
    confident = decided > 0 and high < threshold
    return ConfidenceVerdict(good, decided, share, high, confident, threshold)
