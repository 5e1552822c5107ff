"""Renaming, hiding and deleting systems, outputs and test sets, and filling
in the metrics an output added later lacks.

Every change that alters what a leaderboard compares (an output hidden,
shown or deleted, scores to come) asks for a comparison job in the same
transaction, so the intervals and clusters are recomputed by a worker.

Deleting while a worker scores: the deletion first locks the scoring jobs'
rows (``SELECT ... FOR UPDATE``, then the outputs), so a worker saving a
result finishes its transaction before the rows it saved are collected,
and a worker that saves afterwards finds its job row gone and gives up
(``hold_lease`` raises ``LeaseLost``, logged as a warning). Jobs first,
outputs second: the order a worker takes them in, so the two never wait
for each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from mtdash.common.metric_specs import stored_spec
from mtdash.common.registry import deletion_counts
from mtdash.evaluation.leaderboard.build import column_names
from mtdash.evaluation.leaderboard.comparisons import request_comparison
from mtdash.evaluation.models import (
    ComparisonJob,
    CorpusScore,
    ExternalCorpusScore,
    ReferenceSet,
    ScoringJob,
    Segment,
    System,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.services.scoring_jobs import create_scoring_job
from scoring import MetricError, get_metric, server_only_parameters


class NameTaken(Exception):
    """The team already has a system (or test set) of that name."""


# --- renaming and hiding -----------------------------------------------------


def rename_system(system: System, name: str) -> None:
    """Rename the system on every test set; raise ``NameTaken`` if another
    system of its team has the name (checked by the database constraint)."""
    _rename(system, name)


def rename_test_set(test_set: TestSet, name: str) -> None:
    _rename(test_set, name)


def _rename(instance: System | TestSet, name: str) -> None:
    try:
        with transaction.atomic():
            type(instance).objects.filter(pk=instance.pk).update(name=name)
    except IntegrityError:
        raise NameTaken(name) from None
    instance.name = name


@transaction.atomic
def set_output_hidden(output: SystemOutput, hidden: bool) -> bool:
    """Hide the output from its test set's leaderboard (or show it); False
    if it already was. The leaderboard's statistics are recomputed."""
    changed = (
        SystemOutput.objects.filter(pk=output.pk)
        .exclude(hidden=hidden)
        .update(hidden=hidden)
    )
    output.hidden = hidden
    if changed:
        request_comparison(output.test_set_id)
    return bool(changed)


def set_test_set_hidden(test_set: TestSet, hidden: bool) -> bool:
    """Leave the test set out of the test set list (or put it back)."""
    changed = (
        TestSet.objects.filter(pk=test_set.pk)
        .exclude(hidden=hidden)
        .update(hidden=hidden)
    )
    test_set.hidden = hidden
    return bool(changed)


# --- deleting ------------------------------------------------------------------


@dataclass(frozen=True)
class DeletionSummary:
    """What a deletion removes, counted before it happens, as (noun, count)
    pairs in the order a person reads them (e.g. "3 outputs, 12 scores")."""

    counts: tuple[tuple[str, int], ...]

    def phrases(self) -> list[str]:
        """``["3 outputs", "12 scores", "1 job"]``: the first noun always,
        the others only when there is any."""
        return [
            _counted(noun, count)
            for position, (noun, count) in enumerate(self.counts)
            if count or position == 0
        ]

    def __str__(self) -> str:
        return ", ".join(self.phrases())


def _counted(noun: str, count: int) -> str:
    return f"{count} {noun if count == 1 else noun + 's'}"  # every noun here is regular


def summarise_outputs_deletion(outputs: QuerySet[SystemOutput]) -> DeletionSummary:
    """Counts of what deleting ``outputs`` removes (their sentence scores and
    hypotheses go with them, uncounted: counting millions of rows would make
    a confirmation page slow)."""
    return DeletionSummary(
        (
            ("output", outputs.count()),
            ("score", CorpusScore.objects.filter(output__in=outputs).count()),
            ("job", ScoringJob.objects.filter(output__in=outputs).count()),
            *(
                (count.noun, count.of_outputs(outputs))
                for count in deletion_counts()
                if count.of_outputs is not None
            ),
            (
                "external score",
                ExternalCorpusScore.objects.filter(output__in=outputs).count(),
            ),
        )
    )


def summarise_test_set_deletion(test_set: TestSet) -> DeletionSummary:
    outputs = SystemOutput.objects.filter(test_set=test_set)
    return DeletionSummary(
        (
            ("segment", Segment.objects.filter(test_set=test_set).count()),
            ("reference", ReferenceSet.objects.filter(test_set=test_set).count()),
            *summarise_outputs_deletion(outputs).counts,
            *(
                (count.noun, count.of_test_set(test_set))
                for count in deletion_counts()
                if count.of_test_set is not None
            ),
        )
    )


@transaction.atomic
def delete_outputs(outputs: QuerySet[SystemOutput]) -> DeletionSummary:
    """Delete the outputs with everything hanging on them (scores, jobs,
    judgments, imported scores) and recompute their test sets' statistics."""
    _lock_jobs(ScoringJob.objects.filter(output__in=outputs.values("pk")))
    output_ids = list(
        SystemOutput.objects.select_for_update()
        .filter(pk__in=outputs.values("pk"))
        .values_list("pk", flat=True)
    )
    chosen = SystemOutput.objects.filter(pk__in=output_ids)
    summary = summarise_outputs_deletion(chosen)
    test_set_ids = sorted(set(chosen.values_list("test_set_id", flat=True)))
    chosen.delete()
    for test_set_id in test_set_ids:
        request_comparison(test_set_id)
    return summary


def delete_output(output: SystemOutput) -> DeletionSummary:
    return delete_outputs(SystemOutput.objects.filter(pk=output.pk))


@transaction.atomic
def delete_system(system: System) -> DeletionSummary:
    """Delete the system and its outputs on every test set."""
    summary = delete_outputs(SystemOutput.objects.filter(system=system))
    System.objects.filter(pk=system.pk).delete()
    return summary


@transaction.atomic
def delete_test_set(test_set: TestSet) -> DeletionSummary:
    """Delete the test set and everything under it. Its systems stay with
    the team (they may have outputs on other test sets)."""
    _lock_jobs(ScoringJob.objects.filter(output__test_set=test_set))
    _lock_jobs(ComparisonJob.objects.filter(test_set=test_set))
    list(TestSet.objects.select_for_update().filter(pk=test_set.pk).values("pk"))
    summary = summarise_test_set_deletion(test_set)
    TestSet.objects.filter(pk=test_set.pk).delete()
    return summary


def _lock_jobs(jobs: QuerySet) -> None:
    """Wait for workers saving results of these jobs (``of=self``: lock only
    the job rows, not the joined outputs, which come second)."""
    list(jobs.select_for_update(of=("self",)).values_list("pk", flat=True))


# --- filling in missing metrics ------------------------------------------------

NOT_SCORED = "not scored"
NO_STATISTICS = "no stored statistics"


@dataclass(frozen=True)
class MissingMetric:
    spec: str  # the column's canonical spec, e.g. "chrf"
    reason: str  # NOT_SCORED or NO_STATISTICS


@dataclass(frozen=True)
class OutputGap:
    output_id: int
    system: str
    hidden: bool
    missing: tuple[MissingMetric, ...]

    @property
    def specs(self) -> list[str]:
        return [metric.spec for metric in self.missing]


@dataclass(frozen=True)
class FillInPlan:
    """What "fill in missing metrics" would queue: one job per output that
    lacks a leaderboard column (or has it without the per-segment statistics
    intervals need), for exactly those columns."""

    columns: tuple[str, ...]  # the leaderboard's metric columns
    gaps: tuple[OutputGap, ...]
    # Columns left out: already queued for an output, or not computable here.
    already_queued: int
    not_computable: tuple[str, ...]

    @property
    def n_scores(self) -> int:
        return sum(len(gap.missing) for gap in self.gaps)


def fill_in_plan(test_set: TestSet) -> FillInPlan:
    """The gaps of every output (hidden ones too: they are kept and scored)."""
    stored = list(
        CorpusScore.objects.filter(output__test_set=test_set)
        .order_by("computed_at", "pk")
        .values_list("pk", "output_id", "metric", "signature")
    )
    without_statistics = set(
        CorpusScore.objects.filter(
            output__test_set=test_set, statistics=b""
        ).values_list("pk", flat=True)
    )
    column_of = column_names([(metric, sig) for _, _, metric, sig in stored])
    latest: dict[tuple[int, str], int] = {}  # (output, column) -> score pk
    for pk, output_id, metric, signature in stored:  # oldest first: latest wins
        latest[output_id, column_of[metric, signature]] = pk
    names = sorted(set(column_of.values()))
    columns = [name for name in names if _computable(name)]
    queued = _queued_specs(test_set)
    gaps, already_queued = [], 0
    outputs = SystemOutput.objects.filter(test_set=test_set).order_by("system__name")
    for output_id, system, hidden in outputs.values_list(
        "pk", "system__name", "hidden"
    ):
        missing = []
        for column in columns:
            pk = latest.get((output_id, column))
            if pk is not None and pk not in without_statistics:
                continue
            if column in queued.get(output_id, ()):
                already_queued += 1
                continue
            reason = NOT_SCORED if pk is None else NO_STATISTICS
            missing.append(MissingMetric(column, reason))
        if missing:
            gaps.append(OutputGap(output_id, system, hidden, tuple(missing)))
    return FillInPlan(
        tuple(columns),
        tuple(gaps),
        already_queued,
        tuple(name for name in names if name not in columns),
    )


@transaction.atomic
def fill_in_missing_metrics(
    test_set: TestSet, user, *, queue: bool = True
) -> list[ScoringJob]:
    """Queue the jobs of :func:`fill_in_plan` (worked out again here, so a
    second click queues nothing the first one did)."""
    plan = fill_in_plan(test_set)
    outputs = SystemOutput.objects.in_bulk([gap.output_id for gap in plan.gaps])
    jobs = [
        create_scoring_job(outputs[gap.output_id], user, gap.specs, queue=queue)
        for gap in plan.gaps
        if gap.output_id in outputs
    ]
    if jobs:
        request_comparison(test_set.pk)
    return jobs


def _computable(spec: str) -> bool:
    """A column this server can compute: a spec the registry reads that names
    no server file (those are the command line's, never a web user's)."""
    try:
        get_metric(spec)
        return not server_only_parameters(spec)
    except MetricError:
        return False


def _queued_specs(test_set: TestSet) -> dict[int, set[str]]:
    """Output id -> specs of its queued or running scoring jobs."""
    queued: dict[int, set[str]] = {}
    unfinished = ScoringJob.objects.filter(output__test_set=test_set).unfinished()
    for output_id, specs in unfinished.values_list("output_id", "metrics"):
        queued.setdefault(output_id, set()).update(stored_spec(s) for s in specs)
    return queued
