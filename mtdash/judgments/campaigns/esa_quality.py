"""ESA attention checks: did each judge find the damage in the degraded
copies, and score them lower?

A degraded copy (:func:`~.sampling.damage`: a span of words replaced by
words of another segment, its characters recorded on the assignment)
passes when both hold:

- **found**: one of the judge's translation spans shares at least one
  character with the damaged characters ``[damage_start, damage_end)``;
- **dropped**: its score is below the judge's score of the intact
  translation (the screen it controls), which must be answered too.

A judge passing fewer than :data:`MIN_PASSED` of their checked copies is
flagged. Copies whose original is not answered yet wait; a copy whose
replacement changed nothing (the same words put back) is no check. The
score pairs also go through the campaigns' Wilcoxon test
(:mod:`.quality_control`), which needs 5 pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.judgments.models import Assignment, Campaign

MIN_PASSED = 0.5  # share of a judge's checked copies that must pass


@dataclass(frozen=True)
class AttentionCheck:
    """One judge's degraded copies: checked (answered with their original),
    damage found, score dropped, both."""

    judge: str
    checked: int
    found: int
    dropped: int
    passed: int

    @property
    def passed_share(self) -> float | None:
        return self.passed / self.checked if self.checked else None

    @property
    def failed(self) -> bool:
        share = self.passed_share
        return share is not None and share < MIN_PASSED

    def to_dict(self) -> dict:
        return {
            "judge": self.judge,
            "checked": self.checked,
            "found": self.found,
            "dropped": self.dropped,
            "passed": self.passed,
            "failed": self.failed,
            "min_passed": MIN_PASSED,
        }


def damage_found(spans: list[dict] | None, start: int, end: int) -> bool:
    """Whether a translation span shares a character with ``[start, end)``.

    >>> damage_found([{"side": "target", "start": 4, "end": 9}], 8, 20)
    True
    >>> damage_found([{"side": "source", "start": 8, "end": 9}], 8, 20)
    False
    """
    return any(
        span.get("side", "target") == "target"
        and min(span["end"], end) > max(span["start"], start)
        for span in spans or []
    )


def attention_checks(campaign: Campaign) -> list[AttentionCheck]:
    """Every judge's attention checks, by name (one query)."""
    judges = sorted(campaign.judges.values_list("username", flat=True))
    tallies = {judge: [0, 0, 0, 0] for judge in judges}
    rows = Assignment.objects.filter(
        campaign=campaign,
        kind=Assignment.Kind.DEGRADED,
        value__isnull=False,
        control_of__value__isnull=False,
        damage_start__isnull=False,
    ).values_list(
        "judge__username",
        "spans",
        "damage_start",
        "damage_end",
        "value",
        "control_of__value",
    )
    for judge, spans, start, end, value, original in rows:
        found = damage_found(spans, start, end)
        dropped = value < original
        tally = tallies.setdefault(judge, [0, 0, 0, 0])
        tally[0] += 1
        tally[1] += found
        tally[2] += dropped
        tally[3] += found and dropped
    return [AttentionCheck(judge, *tally) for judge, tally in tallies.items()]
