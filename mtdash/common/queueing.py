"""Waking workers: one message per job row, sent by task name; and where a
queued job stands in the queue.

Services import this, never the tasks modules (which import the services'
runners), so queueing adds no import cycle. The message carries only the
row's id; the row says what to do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.apps import apps
from django.db.models import Count, Q
from django.utils import timezone

from mtdash.celery import app as celery_app
from mtdash.common.broker import consumed_queues
from mtdash.common.jobs import Job, JobStatus

logger = logging.getLogger(__name__)


def send_job_tasks(model: type[Job], ids: Iterable[int]) -> int:
    """Send ``model.task_name`` once per id; return how many were sent.

    Call it after the transaction that created the rows commits, so a worker
    never looks for missing rows. A message that cannot be sent (the broker
    is down) is logged, never raised: the row stays queued and the sweeper
    (:mod:`mtdash.common.sweeper`) sends it again later, so an upload made
    while Redis is away still answers success.
    """
    if not model.task_name:
        raise ValueError(f"{model.__name__} names no task to run its rows")
    # The project's app, not celery.current_app: in a thread of its own (a
    # threaded server, a test's live server) current_app may be a default
    # app that knows no broker.
    sent = 0
    for pk in ids:
        try:
            celery_app.send_task(model.task_name, args=[pk])
        except Exception:  # noqa: BLE001 - the sweeper sends it again later
            logger.warning(
                "could not send %s for %s %s; it stays queued for the sweeper",
                model.task_name,
                model.__name__,
                pk,
                exc_info=True,
            )
        else:
            sent += 1
    return sent


# How many running rows a job page lists (the total is always given).
RUNNING_SHOWN = 10


@dataclass(frozen=True)
class RunningWork:
    """A row a worker is on now. Only its kind and worker are told: it may
    belong to another team."""

    kind: str  # the model's verbose name: "scoring job", "ORANGE chunk"...
    worker: str  # host:pid
    started_at: datetime | None
    stuck: bool  # its worker stopped renewing the lease

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "worker": self.worker,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "stuck": self.stuck,
        }


@dataclass(frozen=True)
class QueuePlace:
    """Why a queued job waits: the rows a free slot takes before it, by
    kind, and what the workers run now. Every kind of job shares the
    workers, so a scoring job may wait for another team's ORANGE chunks to
    end, though never behind a queued one."""

    ahead: int
    ahead_by_kind: tuple[tuple[str, int], ...]  # (kind, count), kinds with rows
    running: tuple[RunningWork, ...]  # the first RUNNING_SHOWN, oldest first
    running_total: int

    @property
    def summary(self) -> str:
        """One sentence for the page, e.g. "Waiting for a worker: 3 tasks
        queued before it (1 scoring job, 2 ORANGE chunks); 2 running."."""
        if self.ahead:
            kinds = ", ".join(_count(n, kind) for kind, n in self.ahead_by_kind)
            before = f"{_count(self.ahead, 'task')} queued before it ({kinds})"
        else:
            before = "next in the queue"
        running = (
            f"{self.running_total} running"
            if self.running_total
            else ("nothing running (are the workers up?)")
        )
        return f"Waiting for a worker: {before}; {running}."

    def to_dict(self) -> dict:
        return {
            "ahead": self.ahead,
            "ahead_by_kind": dict(self.ahead_by_kind),
            "running": [work.to_dict() for work in self.running],
            "running_total": self.running_total,
            "summary": self.summary,
        }


def worker_models() -> list[type[Job]]:
    """Every kind of job row a worker is sent (a ``task_name``), in the
    order Django lists the models."""
    return [
        model
        for model in apps.get_models()
        if issubclass(model, Job) and model.task_name
    ]


def queue_rank(model: type[Job]) -> int:
    """Where the queue of ``model``'s rows stands among the queues the
    workers read, most urgent first (0)."""
    queues = consumed_queues()
    route = celery_app.amqp.router.route({}, model.task_name, (0,), {})
    name = route["queue"].name
    return queues.index(name) if name in queues else len(queues)


def queue_place(job: Job) -> QueuePlace | None:
    """Where ``job`` waits, or None when none of its rows is queued.

    Ahead are the rows queued in a more urgent queue, whenever they came (a
    free slot takes them first: scoring jobs, then analyses, then ORANGE
    chunks; ``CELERY_TASK_QUEUES``), and those of the job's own queue created
    before its first waiting row (messages go out in that order; a row queued
    again after a failure keeps its place by this count, though its message
    is new). Rows of a less urgent queue are never ahead.
    """
    waiting_rows = job.waiting_rows()
    first = (
        waiting_rows.order_by("created_at").values_list("created_at", flat=True).first()
    )
    if first is None:
        return None
    own_rank = queue_rank(waiting_rows.model)
    now = timezone.now()
    by_kind: list[tuple[str, int]] = []
    running: list[RunningWork] = []
    running_total = 0
    for model in worker_models():
        kind = str(model._meta.verbose_name)
        # One query per kind for both counts (a job page polls this every
        # few seconds: three queries per kind cost 10 ms of CPU a poll).
        leased = model.leased_statuses
        rank = queue_rank(model)
        ahead = Q(status=JobStatus.QUEUED)
        if rank == own_rank:
            ahead &= Q(created_at__lt=first)
        elif rank > own_rank:
            ahead = Q(pk__isnull=True)  # a less urgent queue: never ahead
        counts = model.objects.filter(
            Q(status=JobStatus.QUEUED) | Q(status__in=leased)
        ).aggregate(
            waiting=Count("pk", filter=ahead),
            held=Count("pk", filter=Q(status__in=leased)),
        )
        if counts["waiting"]:
            by_kind.append((kind, counts["waiting"]))
        running_total += counts["held"]
        if not counts["held"]:
            continue
        held = model.objects.filter(status__in=leased)
        for worker, started_at, lease in held.order_by("started_at").values_list(
            "claimed_by", "started_at", "lease_expires_at"
        )[:RUNNING_SHOWN]:
            stuck = lease is None or lease < now
            running.append(RunningWork(kind, worker, started_at, stuck))
    running.sort(key=lambda work: (work.started_at is None, work.started_at or now))
    return QueuePlace(
        ahead=sum(count for _, count in by_kind),
        ahead_by_kind=tuple(by_kind),
        running=tuple(running[:RUNNING_SHOWN]),
        running_total=running_total,
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
