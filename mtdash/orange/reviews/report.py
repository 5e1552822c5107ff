"""The report of a review: the share of genuine metric errors, per reviewer,
agreement between reviewers, and the paper's criterion.

- *Genuine metric errors*: candidates marked "worse" than the references.
  The share is over the marks that decide (worse or as good), unsure marks
  left out; its 95% interval is the Wilson score interval. Pooled over all
  reviewers each mark counts once (two reviewers of one item give two marks).
- *Agreement*: for every pair of reviewers, on the items both marked, the raw
  agreement and Cohen's kappa over the three labels; kappa is undefined
  (NaN here, null in JSON, "undefined" with the reason on the page) when
  both reviewers used one and the same label, as scikit-learn has it.
- *The criterion* (Lin & Och 2004, end of section 4): "if the portion [of
  candidates ranked above the references that are as good as them] is small
  then the ORANGE method can be confidently applied" — here: the upper end
  of the 95% Wilson interval of that portion below 10 %.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from itertools import combinations

from django.contrib.auth import get_user_model

from mtdash.orange.labels import metric_label
from mtdash.orange.models import OrangeReview, OrangeReviewMark
from scoring.orange import (
    SMALL_PORTION,
    cohen_kappa,
    confidently_applicable,
    wilson_interval,
)

GOOD, WORSE, UNSURE = (v.value for v in OrangeReviewMark.Verdict)

CRITERION = (
    "“If the portion [of machine translations ranked above the references that "
    "are as good as the references] is small then the ORANGE method can be "
    "confidently applied” (Lin & Och 2004, section 4). The paper gives no number "
    f"for “small”: mtdash requires the upper end of the 95% Wilson interval of "
    f"that portion to lie below {100 * SMALL_PORTION:.0f}%."
)


@dataclass(frozen=True)
class ErrorShare:
    """Marks of one reviewer (or all); shares 0–1, NaN without decided marks."""

    reviewer: str
    good: int
    worse: int
    unsure: int
    share_worse: float
    low: float
    high: float

    @property
    def marked(self) -> int:
        return self.good + self.worse + self.unsure

    @property
    def decided(self) -> int:
        return self.good + self.worse


@dataclass(frozen=True)
class PairAgreement:
    first: str
    second: str
    n_items: int
    raw_agreement: float
    kappa: float  # NaN when undefined
    kappa_undefined: str | None = None  # why, in words


@dataclass(frozen=True)
class ReviewReport:
    review_id: int
    job_id: int
    metric: str
    label: str
    size: int
    population: int
    seed: int
    overall: ErrorShare
    reviewers: tuple[ErrorShare, ...]
    agreement: tuple[PairAgreement, ...]
    share_good: float
    share_good_high: float
    confident: bool
    criterion: str = CRITERION
    # Which interval ``low``/``high`` are: every output names it.
    interval: str = "95% Wilson score interval for a proportion, two-sided"

    def to_dict(self) -> dict:
        """JSON-safe (NaN as None)."""
        return _no_nan(asdict(self))


def _no_nan(value):
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


def _share(reviewer: str, verdicts: list[str]) -> ErrorShare:
    good, worse = verdicts.count(GOOD), verdicts.count(WORSE)
    low, high = wilson_interval(worse, good + worse)
    share = worse / (good + worse) if good + worse else math.nan
    return ErrorShare(reviewer, good, worse, verdicts.count(UNSURE), share, low, high)


def review_report(review: OrangeReview) -> ReviewReport:
    marks = list(
        OrangeReviewMark.objects.filter(item__review=review).values_list(
            "reviewer_id", "item_id", "verdict"
        )
    )
    names = dict(
        get_user_model()
        .objects.filter(pk__in={m[0] for m in marks})
        .values_list("pk", "username")
    )
    by_reviewer: dict[int, dict[int, str]] = {}
    for reviewer, item, verdict in marks:
        by_reviewer.setdefault(reviewer, {})[item] = verdict
    reviewers = tuple(
        _share(names[r], list(items.values()))
        for r, items in sorted(by_reviewer.items(), key=lambda kv: names[kv[0]])
    )
    overall = _share("all reviewers", [m[2] for m in marks])
    agreement = []
    for a, b in combinations(sorted(by_reviewer, key=names.get), 2):
        common = sorted(set(by_reviewer[a]) & set(by_reviewer[b]))
        kappa = cohen_kappa(
            [by_reviewer[a][i] for i in common], [by_reviewer[b][i] for i in common]
        )
        agreement.append(
            PairAgreement(
                names[a],
                names[b],
                kappa.n_items,
                kappa.raw_agreement,
                kappa.kappa,
                kappa.undefined,
            )
        )
    verdict = confidently_applicable(overall.good, overall.decided)
    return ReviewReport(
        review_id=review.pk,
        job_id=review.job_id,
        metric=review.metric,
        label=metric_label(review.metric),
        size=review.size,
        population=review.population,
        seed=review.seed,
        overall=overall,
        reviewers=reviewers,
        agreement=tuple(agreement),
        share_good=verdict.share_good,
        share_good_high=verdict.share_good_high,
        confident=verdict.confident,
    )
