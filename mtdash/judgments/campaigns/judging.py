"""Judging campaigns: create one from its settings, give a judge the next
screen, record a rating, report progress.

A rating of a sampled item (``regular`` screen) is stored twice: on its
:class:`Assignment` (the campaign's record) and as a :class:`Judgment` of the
campaign's :class:`JudgmentImport` (layout ``campaign``, judge = username),
which the leaderboard's human columns and the agreement read like imported
judgments. Hidden controls (repeats, degraded copies) stay on their
assignments only. An ESA campaign's screens are answered with spans and a
score instead (:mod:`.esa`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import Hypothesis, SystemOutput, TestSet
from mtdash.judgments.campaigns.sampling import Plan, damage, plan_campaign
from mtdash.judgments.imports.judgments import KNOWN_CRITERIA
from mtdash.judgments.models import (
    Assignment,
    Campaign,
    CampaignItem,
    Criterion,
    Judgment,
    JudgmentImport,
)
from mtdash.judgments.sources import keep_apart

CAMPAIGN_LAYOUT = "campaign"


@dataclass(frozen=True)
class CampaignSettings:
    name: str
    outputs: list[SystemOutput]
    criteria: list[str]  # names from CRITERION_ORDER
    segments_per_system: int
    judges: list  # users
    judges_per_item: int
    controls_per_judge: int
    seed: int
    kind: str = Campaign.Kind.RATING  # or ESA: criteria are ["esa"]


@dataclass(frozen=True)
class JudgeProgress:
    judge: str
    judged: int
    assigned: int

    @property
    def percent(self) -> int:
        return round(100 * self.judged / self.assigned) if self.assigned else 100

    def to_dict(self) -> dict:
        return {"judge": self.judge, "judged": self.judged, "assigned": self.assigned}


class RatingRefused(ValueError):
    """A rating that cannot be stored (out of range, not this judge's)."""


def campaign_criterion(test_set: TestSet, name: str) -> Criterion:
    """The test set's criterion ``name``, created with its known range."""
    low, high, higher_is_better = KNOWN_CRITERIA[name]
    criterion, _ = Criterion.objects.get_or_create(
        test_set=test_set,
        name=name,
        defaults={
            "minimum": low,
            "maximum": high,
            "higher_is_better": higher_is_better,
        },
    )
    return criterion


@transaction.atomic
def create_campaign(test_set: TestSet, user, settings: CampaignSettings) -> Campaign:
    """Store the campaign, its sampled items and every judge's queue."""
    outputs = sorted(settings.outputs, key=lambda o: (o.system.name, o.pk))
    judges = {judge.username: judge for judge in settings.judges}
    plan = plan_campaign(
        output_ids=[o.pk for o in outputs],
        n_segments=test_set.segments.count(),
        segments_per_system=settings.segments_per_system,
        judges=list(judges),
        judges_per_item=settings.judges_per_item,
        criteria=settings.criteria,
        controls=settings.controls_per_judge,
        seed=settings.seed,
    )
    batch = JudgmentImport.objects.create(
        test_set=test_set,
        file_name=f"campaign {settings.name}"[:255],
        layout=CAMPAIGN_LAYOUT,
        imported_by=user,
        # An ESA campaign's spans are people's: the span pages and the
        # span-level meta-evaluation read this batch as a human source.
        span_source="human" if settings.kind == Campaign.Kind.ESA else "",
    )
    criteria = {name: campaign_criterion(test_set, name) for name in settings.criteria}
    campaign = Campaign.objects.create(
        test_set=test_set,
        name=settings.name,
        kind=settings.kind,
        segments_per_system=settings.segments_per_system,
        judges_per_item=settings.judges_per_item,
        controls_per_judge=settings.controls_per_judge,
        seed=settings.seed,
        batch=batch,
        created_by=user,
    )
    campaign.outputs.set(outputs)
    campaign.criteria.set(criteria.values())
    for criterion in criteria.values():
        # Its ratings do not join imported judgments of the same criterion
        # unless the user chooses both sources (judgments page).
        keep_apart(criterion, batch)
    campaign.judges.set(judges.values())
    items = CampaignItem.objects.bulk_create(
        CampaignItem(campaign=campaign, output_id=o, index=i) for o, i in plan.items
    )
    _store_queues(campaign, plan, items, judges, criteria)
    return campaign


def _store_queues(campaign, plan: Plan, items, judges, criteria) -> None:
    texts = _hypotheses(plan)
    for name, queue in plan.queues.items():
        rows = []
        for position, screen in enumerate(queue):
            output_id, index = plan.items[screen.item]
            degraded = None
            if screen.kind == Assignment.Kind.DEGRADED:
                degraded = damage(
                    texts[output_id, index],
                    texts[output_id, screen.donor_index],
                    screen.span_seed,
                )
            rows.append(
                Assignment(
                    campaign=campaign,
                    judge=judges[name],
                    position=position,
                    item=items[screen.item],
                    criterion=criteria[screen.criterion],
                    kind=screen.kind,
                    degraded_text=degraded.text if degraded else "",
                    damage_start=degraded.start if degraded else None,
                    damage_end=degraded.end if degraded else None,
                )
            )
        stored = Assignment.objects.bulk_create(rows)
        for position, screen in enumerate(queue):
            if screen.control_of is not None:
                stored[position].control_of = stored[screen.control_of]
        Assignment.objects.bulk_update(
            [a for a in stored if a.control_of is not None], ["control_of"]
        )


def _hypotheses(plan: Plan) -> dict[tuple[int, int], str]:
    """Texts of the items' and donors' segments, by (output id, index)."""
    wanted = set(plan.items)
    for queue in plan.queues.values():
        for screen in queue:
            if screen.donor_index is not None:
                wanted.add((plan.items[screen.item][0], screen.donor_index))
    query = Q(pk__in=[])
    for output_id in {o for o, _ in wanted}:
        indexes = [i for o, i in wanted if o == output_id]
        query |= Q(output_id=output_id, index__in=indexes)
    rows = Hypothesis.objects.filter(query).values_list("output_id", "index", "text")
    return {(o, i): text for o, i, text in rows}


def campaigns_of(user):
    return Campaign.objects.filter(test_set__team__members=user).select_related(
        "test_set"
    )


def next_assignment(campaign: Campaign, user) -> Assignment | None:
    """The judge's first screen without a rating (None: all done)."""
    return (
        Assignment.objects.filter(campaign=campaign, judge=user, value__isnull=True)
        .select_related("item__output__system", "criterion")
        .order_by("position")
        .first()
    )


def is_judge(campaign: Campaign, user) -> bool:
    return Assignment.objects.filter(campaign=campaign, judge=user).exists()


def shown_text(assignment: Assignment) -> str:
    """The translation the judge sees (degraded for a degraded copy)."""
    if assignment.kind == Assignment.Kind.DEGRADED:
        return assignment.degraded_text
    hypothesis = Hypothesis.objects.filter(
        output_id=assignment.item.output_id, index=assignment.item.index
    ).first()
    return hypothesis.text if hypothesis else ""


def check_value(criterion: Criterion, value: float) -> None:
    """Ratings are whole points within the criterion's range."""
    if not criterion.admits(value) or value != int(value):
        raise RatingRefused(
            f"a {criterion.name} rating is a whole number in {criterion.range_label}"
        )


def record_rating(campaign: Campaign, user, assignment_id: int, value: float) -> bool:
    """Store a rating; False if the screen was rated already (a second
    submit of the same page). Raises :class:`RatingRefused`."""
    assignment = (
        Assignment.objects.filter(campaign=campaign, judge=user, pk=assignment_id)
        .select_related("criterion", "item")
        .first()
    )
    if assignment is None:
        raise RatingRefused("this item is not yours to judge")
    if campaign.is_esa:
        raise RatingRefused("an ESA item is answered with its spans and a score")
    check_value(assignment.criterion, value)
    with transaction.atomic():
        rated = Assignment.objects.filter(pk=assignment.pk, value__isnull=True).update(
            value=value, judged_at=timezone.now()
        )
        if not rated:
            return False
        if assignment.kind == Assignment.Kind.REGULAR:
            store_judgment(campaign, user, assignment, value)
            request_comparison(campaign.test_set_id)
    return True


def store_judgment(campaign, user, assignment: Assignment, value: float) -> None:
    """The rating of a sampled item as a judgment of the campaign's batch
    (none if the judge has that judgment from an import or elsewhere)."""
    try:
        with transaction.atomic():
            judgment = Judgment.objects.create(
                output_id=assignment.item.output_id,
                index=assignment.item.index,
                judge=user.username,
                criterion=assignment.criterion,
                value=value,
                batch_id=campaign.batch_id,
                line=assignment.position + 1,
            )
    except IntegrityError:
        return  # the judge has this judgment from an import or another campaign
    Assignment.objects.filter(pk=assignment.pk).update(judgment=judgment)
    batch = JudgmentImport.objects.get(pk=campaign.batch_id)
    batch.n_judgments = batch.judgments.count()
    batch.counts = _counts(batch)
    batch.save(update_fields=["n_judgments", "counts"])


def _counts(batch: JudgmentImport) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    rows = (
        batch.judgments.values_list("criterion__name", "output__system__name")
        .annotate(n=Count("pk"))
        .order_by("criterion__name", "output__system__name")
    )
    for criterion, system, n in rows:
        counts.setdefault(criterion, {})[system] = n
    return counts


def progress(campaign: Campaign) -> list[JudgeProgress]:
    """Judged and assigned screens per judge, by name."""
    rows = (
        Assignment.objects.filter(campaign=campaign)
        .values_list("judge__username")
        .annotate(
            assigned=Count("pk"), judged=Count("pk", filter=Q(value__isnull=False))
        )
        .order_by("judge__username")
    )
    return [JudgeProgress(name, judged, assigned) for name, assigned, judged in rows]


def judge_progress(campaign: Campaign, user) -> JudgeProgress:
    mine = Assignment.objects.filter(campaign=campaign, judge=user)
    return JudgeProgress(
        user.username, mine.filter(value__isnull=False).count(), mine.count()
    )


def team_members(test_set: TestSet):
    return (
        get_user_model()
        .objects.filter(membership__team=test_set.team)
        .order_by("username")
    )
