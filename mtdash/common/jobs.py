"""The abstract job row every kind of background work is stored as.

The row is the source of truth: its status says who may work on it, and
every change of status is one conditional UPDATE, so two workers given the
same row cannot both take it (the database decides, not the broker).

    queued --claim--> running --succeed--> succeeded
       ^                 |  \\--fail-----> failed
       +---hand_back-----+
                    running, lease expired --claim--> running (next attempt)

A claim is a *lease*: the worker (``claimed_by``, ``host:pid``) holds the row
until ``lease_expires_at`` and renews it while it works (every progress
report and a heartbeat thread, :func:`mtdash.common.running.run_claimed`;
a report made with :meth:`JobQuerySet.report_progress_or_stop` also stops the
work when the row is gone, e.g. deleted with its output). A worker that dies
stops renewing; once the lease has expired another claim
(a redelivered message, or one the sweeper sends) takes the row over. Each
claim counts an attempt; a row whose worker stopped ``MTDASH_JOB_MAX_ATTEMPTS``
times fails with a message saying so instead of running again.

A subclass may add statuses of its own (ORANGE's ``merging``) or call its
success something else (a chunk is ``done``); the four values above stay.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import ClassVar, TypeVar

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, models
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.utils import timezone

logger = logging.getLogger(__name__)


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


def status_field(status: type[models.TextChoices]) -> models.CharField:
    """The ``status`` column for a subclass with its own set of statuses."""
    return models.CharField(
        max_length=10, choices=status.choices, default=JobStatus.QUEUED
    )


def worker_name() -> str:
    """``host:pid`` of this process, recorded by the worker that claims a row."""
    return f"{socket.gethostname()}:{os.getpid()}"[:200]


def lease_deadline(now: datetime | None = None) -> datetime:
    """When a lease taken or renewed now runs out."""
    return (now or timezone.now()) + timedelta(
        seconds=settings.MTDASH_JOB_LEASE_SECONDS
    )


T = TypeVar("T")


def drop_broken_connections(using: str | None = None) -> None:
    """Close this thread's database connections (or ``using``'s) that a fault
    left unusable.

    Django reconnects only where a connection was closed: one broken by a
    database that went away (a reset socket) would otherwise fail every later
    query in this thread, even once the database is back. Connections that
    still work are kept (an SQLite lock breaks nothing), and so is one inside
    a transaction, which its owner rolls back.
    """
    chosen = [connections[using]] if using else connections.all(initialized_only=True)
    for connection in chosen:
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def once_more_on_a_new_connection(using: str, write: Callable[[], T]) -> T:
    """``write()``, and if the connection fails, once more on a new one.

    For a short write outside any transaction that is safe to repeat: after a
    long step without queries (a metric computing) it is the first query on
    a connection that the database may have dropped meanwhile (a restart);
    failing there would throw the step's work away although the database is
    back. A database still away fails the second try too.
    """
    try:
        return write()
    except (OperationalError, InterfaceError) as error:
        if connections[using].in_atomic_block:
            raise
        logger.warning("%s; trying once more on a new connection", error)
        drop_broken_connections(using)
        return write()


class LeaseLost(Exception):
    """This worker's lease ran out and another worker took the row over."""


def gave_up_message(noun: str, attempts: int, last_worker: str) -> str:
    """The readable reason a row that kept losing its worker is failed."""
    times = "1 time" if attempts == 1 else f"{attempts} times"
    return (
        f"the worker running this {noun} stopped {times} "
        f"(last: {last_worker or 'unknown'}); see the worker logs"
    )


class JobQuerySet(models.QuerySet):
    """Status changes as conditional UPDATEs; each returns the rows it changed.

    Filter first (``Model.objects.filter(pk=pk)``, plus any condition of
    your own), then change: rows already finished are never touched.
    """

    def unfinished(self) -> JobQuerySet:
        return self.exclude(status__in=self.model.finished_statuses())

    def lease_expired(self, now: datetime | None = None) -> JobQuerySet:
        """Rows held under a lease that nobody renewed in time (a dead worker).

        A leased row without an expiry (claimed before leases existed) counts
        as expired."""
        now = now or timezone.now()
        return self.filter(status__in=self.model.leased_statuses).filter(
            Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True)
        )

    def claimable(self, now: datetime | None = None) -> JobQuerySet:
        """Queued rows, and rows whose worker's lease has expired."""
        now = now or timezone.now()
        expired = Q(status__in=self.model.leased_statuses) & (
            Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True)
        )
        return self.filter(Q(status=JobStatus.QUEUED) | expired)

    def exhausted(self) -> JobQuerySet:
        """Rows already claimed ``MTDASH_JOB_MAX_ATTEMPTS`` times."""
        return self.filter(attempts__gte=settings.MTDASH_JOB_MAX_ATTEMPTS)

    def give_up_exhausted(self, now: datetime | None = None) -> int:
        """Fail the claimable rows that used up their attempts, each with a
        message naming the worker that last had it; returns how many."""
        failed = 0
        stranded = self.claimable(now).exhausted()
        for pk, attempts, last in stranded.values_list("pk", "attempts", "claimed_by"):
            message = gave_up_message(self.model.job_noun, attempts, last)
            rows = self.model.objects.filter(pk=pk).claimable(now)
            if rows.fail(message):
                failed += 1
                logger.error("%s %s failed: %s", self.model.__name__, pk, message)
                self.model.gave_up(pk, message)
        return failed

    def claim(self, **changes) -> int:
        """queued (or running under an expired lease) → running, leased to
        this worker; 0 means another worker has it, it is finished, or it used
        up its attempts (then it is failed with a readable message)."""
        now = timezone.now()
        self.give_up_exhausted(now)
        values = {
            "status": JobStatus.RUNNING,
            "started_at": now,
            "finished_at": None,
            "progress": 0,
            "error_message": "",
            "attempts": F("attempts") + 1,
            "claimed_by": worker_name(),
            "lease_expires_at": lease_deadline(now),
        }
        values.update(changes)
        claimable = self.claimable(now).exclude(
            attempts__gte=settings.MTDASH_JOB_MAX_ATTEMPTS
        )
        return claimable.update(**values)

    def start(self) -> int:
        """queued → running for a row nobody leases (a job whose chunks are
        the leased work); no attempt is counted."""
        return self.filter(status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started_at=timezone.now(), finished_at=None
        )

    def renew_lease(self) -> int:
        """Extend this worker's lease on the rows it still holds."""
        return self.filter(
            status__in=self.model.leased_statuses, claimed_by=worker_name()
        ).update(lease_expires_at=lease_deadline())

    def hold_lease(self) -> None:
        """Renew the lease, or raise :class:`LeaseLost` if this worker no
        longer holds it (call before saving results)."""
        if not self.renew_lease():
            raise LeaseLost(f"{self.model.__name__} lease lost by {worker_name()}")

    def hand_back(self, status: str = JobStatus.QUEUED) -> int:
        """Return the rows this worker holds (to ``queued``) so that a retry
        can claim them again; the run that handed back does not count as an
        attempt. A row another worker took over meanwhile (this worker's
        lease ran out while the database was away) stays with that worker."""
        return (
            self.unfinished()
            .filter(claimed_by=worker_name())
            .update(
                status=status,
                attempts=Greatest(F("attempts") - 1, 0),
                lease_expires_at=None,
            )
        )

    def report_progress(self, percent: int) -> int:
        """Raise the progress to ``percent`` (never lower it); 100 is left to
        :meth:`succeed`, so a page never shows 100% before the results are saved.
        Often the first query after a long computation, so a connection the
        database dropped meanwhile is replaced (once) instead of failing.
        Returns the number of rows whose progress changed."""
        return self._report_progress(percent)[0]

    def report_progress_or_stop(self, percent: int) -> None:
        """:meth:`report_progress`, then raise :class:`LeaseLost` if this
        worker holds none of the rows any more: they were deleted (a scoring
        job goes with its output), finished by someone else, or taken over.
        Work that reports this way stops within one report of losing its
        rows, instead of running to its end holding a worker and its memory."""
        if not self._report_progress(percent)[1]:
            raise LeaseLost(
                f"{self.model.__name__} lease lost by {worker_name()} (the row "
                "was deleted, finished elsewhere or taken over); stopping the work"
            )

    def stop_unless_held(self) -> None:
        """Raise :class:`LeaseLost`, as :meth:`report_progress_or_stop`
        does, if this worker holds none of the rows; otherwise nothing. One
        read, no write: work that reports often writes its progress only now
        and then (a SQLite commit costs tens of milliseconds) and checks with
        this in between, so it still stops within one report of losing its rows."""
        held = self.filter(
            status__in=self.model.leased_statuses, claimed_by=worker_name()
        )
        if not once_more_on_a_new_connection(self.db, held.exists):
            raise LeaseLost(
                f"{self.model.__name__} lease lost by {worker_name()} (the row "
                "was deleted, finished elsewhere or taken over); stopping the work"
            )

    def _report_progress(self, percent: int) -> tuple[int, int]:
        """(rows whose progress changed, rows whose lease was renewed)."""
        percent = min(int(percent), 99)

        def write() -> tuple[int, int]:
            rows = self.unfinished().filter(progress__lt=percent)
            changed = rows.update(progress=percent)
            return changed, self.renew_lease()

        return once_more_on_a_new_connection(self.db, write)

    def succeed(self, **changes) -> int:
        return self.unfinished().update(
            status=self.model.succeeded_status,
            progress=100,
            finished_at=timezone.now(),
            lease_expires_at=None,
            **changes,
        )

    def fail(self, message: str) -> int:
        """Finish as failed; ``message`` is shown to people on the job page."""
        return self.unfinished().update(
            status=JobStatus.FAILED,
            error_message=message,
            finished_at=timezone.now(),
            lease_expires_at=None,
        )


class Job(models.Model):
    """A unit of background work: status, progress, a readable error, times.

    A concrete subclass sets ``task_name``, the Celery task that runs one row
    given its id (see :mod:`mtdash.common` for the whole recipe).
    """

    Status: ClassVar[type[models.TextChoices]] = JobStatus
    # What a row that finished its work is called (a chunk says "done").
    succeeded_status: ClassVar[str] = JobStatus.SUCCEEDED
    # The task a queued row is sent to, by name: services never import tasks.
    task_name: ClassVar[str] = ""
    # Statuses in which a worker holds the row under a lease.
    leased_statuses: ClassVar[tuple[str, ...]] = (JobStatus.RUNNING,)
    # What the row is called in messages ("the worker running this job ...").
    job_noun: ClassVar[str] = "job"

    status = models.CharField(
        max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED
    )
    progress = models.PositiveSmallIntegerField(default=0, help_text="0–100")
    error_message = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="claims by a worker, including the current one"
    )
    claimed_by = models.CharField(
        max_length=200, blank=True, help_text="host:pid of the worker"
    )
    lease_expires_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="the worker holds the row until then unless it renews the lease",
    )

    objects = JobQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    @classmethod
    def finished_statuses(cls) -> tuple[str, str]:
        return (cls.succeeded_status, JobStatus.FAILED)

    @classmethod
    def sweepable(cls) -> JobQuerySet:
        """The rows the sweeper looks after (a chunk of a failed job is not)."""
        return cls.objects.all()

    @classmethod
    def recover(cls, now: datetime) -> int:
        """Sweeper hook for what only this job type can recover; returns the
        number of rows it woke. The generic part (expired leases, lost
        messages) needs nothing here."""
        return 0

    @classmethod
    def gave_up(cls, pk: int, message: str) -> None:
        """Called after row ``pk`` was failed for using up its attempts (a
        chunk fails its job too)."""

    def waiting_rows(self) -> JobQuerySet:
        """The rows of this job still waiting in the queue for a worker (the
        row itself while queued; an ORANGE job's queued chunks)."""
        return type(self).objects.filter(pk=self.pk, status=JobStatus.QUEUED)

    @property
    def is_finished(self) -> bool:
        return self.status in self.finished_statuses()

    @property
    def is_stuck(self) -> bool:
        """Held under a lease nobody renewed in time: its worker died (the
        sweeper would take it over on its next round)."""
        if self.status not in self.leased_statuses:
            return False
        return self.lease_expires_at is None or self.lease_expires_at < timezone.now()

    @property
    def can_run_again(self) -> bool:
        """Whether a person may queue the row again now: it failed or is stuck."""
        return self.status == JobStatus.FAILED or self.is_stuck

    @property
    def elapsed(self) -> timedelta | None:
        """Time from the start of the latest attempt to its end (or now)."""
        if self.started_at is None:
            return None
        return (self.finished_at or timezone.now()) - self.started_at
