"""One comparison job running per test set, and at most one waiting behind it.

A comparison job recomputes a test set's statistics from whatever is stored
when it starts, so one waiting job covers every change made before it
starts, and a second job running beside the first only computes the same
numbers again (four at once held every worker of a team server for 20
minutes). So:

- a request while a job waits adds nothing (:func:`request_comparison`);
- a waiting job starts only while no other job of its test set runs: its
  claim changes nothing (the message is acknowledged without work), and the
  job that runs sends it again when it ends (:func:`start_waiting_job`); the
  sweeper leaves a job waiting behind a running one alone;
- a running job handed back after a database fault while another waits is
  failed as superseded: the waiting one covers its changes.

Each of these holds the test set's row (PostgreSQL ``SELECT ... FOR NO KEY
UPDATE``, which leaves inserts of rows that refer to it free; SQLite's write
lock, taken at ``BEGIN IMMEDIATE``, serialises them anyway), so two web
processes or workers decide one after the other. A request made inside a
transaction holds the row until that transaction commits, so the waiting job
cannot start before the change that asked for it is visible. Partial unique
constraints (one queued and one running row per test set) make the database
refuse a second row should any path skip the lock.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Exists, OuterRef

from mtdash.common.jobs import JobQuerySet, JobStatus, worker_name
from mtdash.common.queueing import send_job_tasks

logger = logging.getLogger(__name__)


class ComparisonJobQuerySet(JobQuerySet):
    def hold_test_sets(self, test_set_ids: Iterable[int]) -> list[int]:
        """Lock the test sets' rows until the current transaction ends (call
        inside one); returns the ids of those that still exist."""
        test_sets = self.model._meta.get_field("test_set").related_model
        return list(
            test_sets.objects.select_for_update(no_key=True)
            .filter(pk__in=sorted(set(test_set_ids)))
            .order_by("pk")
            .values_list("pk", flat=True)
        )

    def waiting(self) -> JobQuerySet:
        return self.filter(status=JobStatus.QUEUED)

    def claim(self, **changes) -> int:
        """The shared claim, for the rows whose test set has no other job
        running; 0 for a row that must wait (the running job starts it)."""
        with transaction.atomic(using=self.db):
            # The job rows first, then their test sets: the order in which
            # deleting a test set locks them, so the two never deadlock (NO
            # KEY: statistics being saved may still refer to the row).
            test_set_ids = list(
                self.select_for_update(no_key=True).values_list(
                    "test_set_id", flat=True
                )
            )
            self.hold_test_sets(test_set_ids)
            others_running = self.model.objects.filter(
                test_set=OuterRef("test_set"), status=JobStatus.RUNNING
            ).exclude(pk=OuterRef("pk"))
            free = self.exclude(Exists(others_running))
            return JobQuerySet.claim(free, **changes)

    def hand_back(self, status: str = JobStatus.QUEUED) -> int:
        """The shared hand-back, except that a row whose test set has a job
        waiting already is failed as superseded (the waiting job covers it)."""
        with transaction.atomic(using=self.db):
            test_set_ids = list(
                self.select_for_update(no_key=True).values_list(
                    "test_set_id", flat=True
                )
            )
            self.hold_test_sets(test_set_ids)
            waiting = dict(
                self.model.objects.waiting()
                .filter(test_set_id__in=test_set_ids)
                .exclude(pk__in=self.values("pk"))
                .values_list("test_set_id", "pk")
            )
            mine = self.unfinished().filter(claimed_by=worker_name())
            for test_set_id, waiting_pk in waiting.items():
                mine.filter(test_set_id=test_set_id).fail(
                    "stopped by a database fault; comparison job "
                    f"{waiting_pk}, waiting behind it, covers its changes"
                )
            returned = JobQuerySet.hand_back(
                self.exclude(test_set_id__in=list(waiting)), status
            )
        for test_set_id in waiting:
            start_waiting_job(self.model, test_set_id)
        return returned

    def blocked(self) -> JobQuerySet:
        """Queued rows whose test set has a job running (it starts them)."""
        running = self.model.objects.filter(
            test_set=OuterRef("test_set"), status=JobStatus.RUNNING
        )
        return self.waiting().filter(Exists(running))


def request_comparison(model, test_set_id: int):
    """Queue a job of ``model`` for the test set unless one is waiting
    already (it covers every change made before it starts); returns the new
    row or None. Inside a transaction, the test set stays locked until it
    commits, so the waiting job starts after the change is visible."""
    with transaction.atomic():
        if not model.objects.hold_test_sets([test_set_id]):
            return None  # deleted meanwhile: nothing to compare
        if model.objects.waiting().filter(test_set_id=test_set_id).exists():
            return None
        job = model.objects.create(test_set_id=test_set_id)
    transaction.on_commit(lambda: send_job_tasks(model, [job.pk]))
    return job


def start_waiting_job(model, test_set_id: int) -> None:
    """Send the test set's waiting job, once the current transaction commits
    (the one that ran has ended: a waiting job's own message was skipped)."""

    def send() -> None:
        ids = list(
            model.objects.waiting()
            .filter(test_set_id=test_set_id)
            .values_list("pk", flat=True)
        )
        if ids:
            send_job_tasks(model, ids)

    transaction.on_commit(send)
