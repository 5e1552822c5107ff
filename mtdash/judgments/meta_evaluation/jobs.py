"""Meta-evaluations computed by a worker: asking for one, running it, and who
may see which.

A request names test sets (of one team, judged on the criterion; a test
set's name, unique in its team, seeds its permutations), a positive weight
for each, a criterion and the settings. Asking again for the same request on
unchanged inputs returns the stored or waiting
:class:`~mtdash.judgments.models.MetaEvaluation` (its ``inputs`` digest,
:func:`~mtdash.judgments.meta_evaluation.inputs.meta_digest`); a failed one
is not returned, so asking again after a failure queues a new job.

The worker (:func:`run_meta_evaluation`) claims the row, builds each test
set's scores and judgments as the correlation tables do, runs
``scoring.stats.run_protocol`` with the test set's name (progress: tasks
done of all the test sets' tasks), pools the results with
``pool_protocols`` when there are several, and stores them with the digest
of what it read. A ``ScoringError`` (too few systems judged, a criterion
missing) fails the job with the library's message.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import Count, QuerySet

from mtdash.common.jobs import JobQuerySet
from mtdash.common.queueing import send_job_tasks
from mtdash.common.running import run_claimed
from mtdash.evaluation.access import test_sets_of
from mtdash.evaluation.models import TestSet
from mtdash.judgments.meta_evaluation.inputs import (
    judged_criteria,
    meta_digest,
    protocol_inputs,
)
from mtdash.judgments.meta_evaluation.options import settings_from_dict
from mtdash.judgments.models import MetaEvaluation
from mtdash.teams.models import Team
from scoring import ScoringError
from scoring.stats import (
    ProtocolSettings,
    overall_cells,
    pool_protocols,
    run_protocol,
)

logger = logging.getLogger(__name__)


class RequestProblem(Exception):
    """A request that cannot be queued; ``field`` names what to change."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class MetaRequest:
    """What a meta-evaluation computes (checked by :func:`checked_request`)."""

    team: Team
    test_sets: tuple[TestSet, ...]
    weights: tuple[float, ...]
    criterion: str
    settings: ProtocolSettings

    @property
    def digest(self) -> str:
        return meta_digest(self.test_sets, self.weights, self.criterion, self.settings)


def meta_evaluations_of(user) -> QuerySet[MetaEvaluation]:
    """The meta-evaluations of the user's teams."""
    return MetaEvaluation.objects.filter(team__members=user)


def judged_test_sets_of(user) -> QuerySet[TestSet]:
    """The user's visible test sets that have judgments, by name."""
    return (
        test_sets_of(user)
        .filter(hidden=False, criteria__judgments__isnull=False)
        .distinct()
        .order_by("name", "pk")
    )


def checked_request(
    user,
    test_set_ids: Sequence[int],
    weights: Sequence[float] | None,
    criterion: str,
    settings: ProtocolSettings,
) -> MetaRequest:
    """The request, or :class:`RequestProblem` naming the field at fault.

    Another team's test set is refused like one that does not exist."""
    ids = list(test_set_ids)
    if not ids:
        raise RequestProblem("test_sets", "choose at least one test set")
    if len(set(ids)) != len(ids):
        raise RequestProblem("test_sets", "a test set is chosen twice")
    found = test_sets_of(user).in_bulk(ids)
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise RequestProblem(
            "test_sets", f"no test set {', '.join(map(str, missing))} in your teams"
        )
    test_sets = tuple(found[pk] for pk in ids)
    weights = [1.0] * len(ids) if weights is None else list(weights)
    if len(weights) != len(ids):
        raise RequestProblem(
            "weights", f"give one weight per test set ({len(ids)}), not {len(weights)}"
        )
    if not all(math.isfinite(w) and w > 0 for w in weights):
        raise RequestProblem("weights", "every weight must be a positive number")
    # One team: its members see the result. Within a team test set names are
    # unique, and the name seeds a test set's permutations and names its table.
    if len({test_set.team_id for test_set in test_sets}) > 1:
        raise RequestProblem("test_sets", "the test sets must belong to one team")
    for test_set in test_sets:
        criteria = judged_criteria(test_set)
        if criterion not in criteria:
            known = ", ".join(criteria) or "none"
            raise RequestProblem(
                "criterion",
                f"{test_set.name!r} has no judgments of {criterion!r} "
                f"(its criteria: {known})",
            )
    return MetaRequest(
        team=test_sets[0].team,
        test_sets=test_sets,
        weights=tuple(float(w) for w in weights),
        criterion=criterion,
        settings=settings,
    )


def matching_job(request: MetaRequest, digest: str) -> MetaEvaluation | None:
    """The latest meta-evaluation of exactly this request on these inputs,
    whatever its status."""
    return MetaEvaluation.objects.filter(team=request.team, inputs=digest).first()


def request_meta_evaluation(
    request: MetaRequest, user=None
) -> tuple[MetaEvaluation, bool]:
    """(the job, True if it is new): the stored or waiting meta-evaluation of
    this request on unchanged inputs, else a new one, sent to a worker once
    the transaction commits."""
    digest = request.digest
    with transaction.atomic():
        # Two identical requests at once: the second waits here, then finds
        # the first one's job.
        Team.objects.select_for_update().filter(pk=request.team.pk).first()
        existing = (
            MetaEvaluation.objects.filter(team=request.team, inputs=digest)
            .exclude(status=MetaEvaluation.Status.FAILED)
            .first()
        )
        if existing is not None:
            return existing, False
        job = _create(request, digest, user)
    transaction.on_commit(lambda: send_job_tasks(MetaEvaluation, [job.pk]))
    return job, True


def _create(request: MetaRequest, digest: str, user) -> MetaEvaluation:
    job = MetaEvaluation.objects.create(
        team=request.team,
        created_by=user if user is not None and user.is_authenticated else None,
        weights=[
            {"test_set": test_set.pk, "weight": weight}
            for test_set, weight in zip(request.test_sets, request.weights)
        ],
        criterion=request.criterion,
        protocol_settings=request.settings.to_dict(),
        inputs=digest,
    )
    job.test_sets.set(request.test_sets)
    return job


def request_of(job: MetaEvaluation) -> MetaRequest:
    """The request a stored job answers (its test sets still exist: deleting
    one deletes the job)."""
    by_id = TestSet.objects.select_related("team").in_bulk(job.test_set_ids)
    return MetaRequest(
        team=job.team,
        test_sets=tuple(by_id[pk] for pk in job.test_set_ids),
        weights=tuple(entry["weight"] for entry in job.weights),
        criterion=job.criterion,
        settings=settings_from_dict(job.protocol_settings),
    )


def retry_meta_evaluation(job: MetaEvaluation, user=None) -> MetaEvaluation | None:
    """Queue a failed meta-evaluation again (a new job for the same request);
    a stuck one is left to the sweeper and returned; None if it neither
    failed nor is stuck."""
    if not job.can_run_again:
        return None
    if job.status != MetaEvaluation.Status.FAILED:
        return job
    return request_meta_evaluation(request_of(job), user)[0]


def single_test_set_jobs(test_set: TestSet, criterion: str) -> QuerySet:
    """The meta-evaluations of ``test_set`` alone on ``criterion``, newest
    first."""
    return (
        MetaEvaluation.objects.annotate(n_test_sets=Count("test_sets"))
        .filter(n_test_sets=1, test_sets=test_set, criterion=criterion)
        .order_by("-created_at", "-pk")
    )


def run_meta_evaluation(job_id: int) -> bool:
    """Compute and store meta-evaluation ``job_id``; False if another worker
    has it or it is finished. Running it twice stores the same result."""
    jobs = MetaEvaluation.objects.filter(pk=job_id)
    if not jobs.claim():
        logger.info("meta-evaluation %s is not queued any more; skipping", job_id)
        return False
    job = jobs.get()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["fields"] = evaluate(job, jobs)
        except ScoringError as error:
            outcome["error"] = str(error)
        jobs.hold_lease()

    if run_claimed(jobs, work):
        if "error" in outcome:
            jobs.fail(outcome["error"])
        else:
            jobs.succeed(**outcome["fields"])
    return True


def evaluate(job: MetaEvaluation, jobs: JobQuerySet | None = None) -> dict[str, Any]:
    """The fields a finished job stores: ``result`` (per test set
    ``ProtocolResult.to_dict()`` with its id, weight, the metrics left out
    and the seconds it took; ``overall``: ``pool_protocols(...).to_dict()``
    with ``overall_cells`` for two test sets or more, else None) and
    ``inputs``, the digest of what it read."""
    request = request_of_current(job)
    digest = request.digest  # before reading: a change meanwhile shows as stale
    settings = request.settings
    total = len(settings.tasks) * len(request.test_sets)
    results, blocks = [], []
    for position, (test_set, weight) in enumerate(
        zip(request.test_sets, request.weights)
    ):
        started = time.perf_counter()
        inputs = protocol_inputs(test_set)
        offset = position * len(settings.tasks)

        def progress(done: int, _tasks: int, offset: int = offset) -> None:
            if jobs is not None:
                jobs.report_progress(100 * (offset + done) // total)

        result = run_protocol(
            inputs.scores,
            inputs.judgments,
            request.criterion,
            settings,
            name=test_set.name,
            progress=progress,
        )
        results.append(result)
        blocks.append(
            {
                **result.to_dict(),
                "test_set_id": test_set.pk,
                "weight": weight,
                "metrics_left_out": list(inputs.left_out),
                "seconds": round(time.perf_counter() - started, 3),
            }
        )
    overall = None
    if len(results) > 1:
        pooled = pool_protocols(results, request.weights)
        overall = {**pooled.to_dict(), "cells": overall_cells(pooled)}
    return {
        "result": plain({"test_sets": blocks, "overall": overall}),
        "inputs": digest,
    }


def request_of_current(job: MetaEvaluation) -> MetaRequest:
    """:func:`request_of`, or a ``ScoringError`` if a test set went away."""
    present = set(
        TestSet.objects.filter(pk__in=job.test_set_ids).values_list("pk", flat=True)
    )
    if present != set(job.test_set_ids):
        raise ScoringError("a test set of this meta-evaluation was deleted")
    return request_of(job)


def plain(value: Any) -> Any:
    """``value`` as JSON the database takes: NumPy scalars as Python numbers,
    NaN and infinities as None, tuples as lists."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value
