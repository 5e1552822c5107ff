"""The hidden quality controls of a campaign, per judge, as WMT checks them.

- Degraded copies: a judge should rate a translation with a span of words
  replaced (WMT's "bad reference") lower than the translation itself. The
  judge's pairs (original rating, degraded rating), each divided by its
  criterion's range so adequacy (1–5) and DA (0–100) pairs can be pooled, go
  to :func:`scoring.stats.degradation_test`: a one-sided Wilcoxon
  signed-rank test, p < 0.05, with at least 5 pairs (fewer can never reach
  p < 0.05); with fewer pairs the mean drop must be positive.
- Repeats: the same screen shown again later; the judge fails when the
  mean absolute difference of the two ratings exceeds
  :data:`REPEAT_TOLERANCE` of the scale (one point on 1–5, 25 on 0–100).

A judge failing either check is flagged unreliable. Both need the original
screen rated as well; pairs whose original is not rated yet wait.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.judgments.models import Assignment, Campaign
from scoring.stats import (
    DegradationTest,
    RepeatConsistency,
    degradation_test,
    repeat_consistency,
)

REPEAT_TOLERANCE = 0.25  # of the criterion's range


@dataclass(frozen=True)
class JudgeQuality:
    judge: str
    degraded: DegradationTest  # on values scaled to 0–1
    repeats: RepeatConsistency  # on values scaled to 0–1

    @property
    def repeats_too_different(self) -> bool:
        difference = self.repeats.mean_absolute_difference
        return difference is not None and difference > REPEAT_TOLERANCE

    @property
    def unreliable(self) -> bool:
        return self.degraded.passed is False or self.repeats_too_different

    @property
    def reasons(self) -> list[str]:
        found = []
        if self.degraded.passed is False:
            found.append("degraded translations not rated lower")
        if self.repeats_too_different:
            found.append("repeated items rated too differently")
        return found

    def to_dict(self) -> dict:
        return {
            "judge": self.judge,
            "unreliable": self.unreliable,
            "reasons": self.reasons,
            "degraded": self.degraded.to_dict(),
            "repeats": self.repeats.to_dict(),
            "repeat_tolerance": REPEAT_TOLERANCE,
        }


def control_pairs(campaign: Campaign, kind: str):
    """(judge, criterion name, range, original value, control value) of every
    rated control of ``kind`` whose original is rated too."""
    rows = Assignment.objects.filter(
        campaign=campaign,
        kind=kind,
        value__isnull=False,
        control_of__value__isnull=False,
    ).values_list(
        "judge__username",
        "criterion__name",
        "criterion__minimum",
        "criterion__maximum",
        "control_of__value",
        "value",
    )
    return [
        (
            judge,
            name,
            (high - low) if low is not None and high is not None else 1.0,
            original,
            control,
        )
        for judge, name, low, high, original, control in rows.order_by("pk")
    ]


def judge_quality(campaign: Campaign) -> list[JudgeQuality]:
    """Every judge's controls, by name."""
    judges = sorted(campaign.judges.values_list("username", flat=True))
    scaled: dict[str, dict[str, tuple[list, list]]] = {
        kind: {judge: ([], []) for judge in judges}
        for kind in (Assignment.Kind.DEGRADED, Assignment.Kind.REPEAT)
    }
    for kind, by_judge in scaled.items():
        for judge, _, span, original, control in control_pairs(campaign, kind):
            firsts, seconds = by_judge.setdefault(judge, ([], []))
            firsts.append(original / span)
            seconds.append(control / span)
    return [
        JudgeQuality(
            judge=judge,
            degraded=degradation_test(*scaled[Assignment.Kind.DEGRADED][judge]),
            repeats=repeat_consistency(*scaled[Assignment.Kind.REPEAT][judge]),
        )
        for judge in judges
    ]
