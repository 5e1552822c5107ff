"""The sweeper runs while every worker slot is busy (issue 24, item 2).

A team server once ran long jobs on all its slots for 26 minutes; the
sweeper's messages waited in the same queue behind them and expired, so no
sweep ran: a dead worker's job came back after 28 minutes, lost messages
after 5.6. Here real ``celery worker`` processes hold every slot with a job
that sleeps for ten minutes (``MTDASH_JOB_TEST_DELAY_SECONDS``, first
attempts only) and a real ``celery beat`` sweeps every second. The job must
be sent again while every slot stays busy, and complete on the next free
slot (a worker started as bin/run's supervisor restarts a dead one) within
two minutes of the fault.

The module has its own Redis, a 4-second lease and a 2-second grace for
queued rows, so the times are the lease (or grace) plus a sweep plus a
worker's start; they are printed (``pytest -s``) and quoted in the README.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from mtdash.common.broker import pending_messages
from mtdash.evaluation.models import CorpusScore, ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from tests.support import services
from tests.support.leases import (  # noqa: F401  (autouse fixture)
    WORKER_ENV,
    short_leases_fixture,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]
# Each slot's job sleeps ten minutes on its first attempt: longer than the test.
BUSY = dict(WORKER_ENV, MTDASH_JOB_TEST_DELAY_SECONDS="600")
RECOVERY_LIMIT = 120.0


@pytest.fixture(scope="module")
def broker(django_db_setup, django_db_blocker, tmp_path_factory):
    with services.module_broker(
        "busy-redis", django_db_blocker, tmp_path_factory
    ) as own:
        yield own


@pytest.fixture
def processes():
    """Processes a test starts, killed after it: a busy worker would wait
    ten minutes for its job on a polite stop."""
    started = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture
def beat(broker, tmp_path, processes):
    """A real Celery beat, the sweep every second."""
    env = dict(WORKER_ENV, MTDASH_SWEEP_SECONDS="1")
    processes.append(services.start_beat(broker.url, broker.db_url, tmp_path, env=env))


def report(fault: str, seconds: float) -> None:
    print(f"\nRECOVERY {fault}: {seconds:.1f} s")


def running_on(pk: int) -> str | None:
    """The worker (host:pid) running scoring job ``pk``, if one is."""
    row = ScoringJob.objects.get(pk=pk)
    return row.claimed_by if row.status == "running" and row.claimed_by else None


def worker_pid(claimed_by: str) -> int:
    return int(claimed_by.rsplit(":", 1)[1])


def message_waiting(pk: int) -> bool:
    """A message for scoring job ``pk`` waits in the broker's queue."""
    pending = pending_messages()
    assert pending is not None, "the test broker is Redis"
    return pk in pending.waiting[ScoringJob.task_name]


def finished(pk: int) -> ScoringJob | None:
    row = ScoringJob.objects.get(pk=pk)
    return row if row.is_finished else None


def assert_still_busy(pk: int, worker: str) -> None:
    """Job ``pk`` still holds ``worker``'s only slot."""
    row = ScoringJob.objects.get(pk=pk)
    assert (row.status, row.claimed_by, row.attempts) == ("running", worker, 1)


def assert_scored_once(job: ScoringJob) -> None:
    assert job.status == "succeeded", job.error_message
    assert CorpusScore.objects.filter(output=job.output).count() == 1


def test_a_dead_workers_job_is_sent_again_while_every_slot_is_busy(
    broker, beat, owner, test_set, processes, tmp_path
):
    processes.append(broker.worker(tmp_path, "slot-1", BUSY))
    processes.append(broker.worker(tmp_path, "slot-2", BUSY))
    doomed = create_system_output(test_set, owner, "doomed", HYPOTHESES)
    busy = create_system_output(test_set, owner, "busy", HYPOTHESES)
    doomed_worker = services.wait_until(
        lambda: running_on(doomed.pk), 60, what="the first job's claim"
    )
    busy_worker = services.wait_until(
        lambda: running_on(busy.pk), 60, what="the second job's claim"
    )
    assert doomed_worker != busy_worker  # one job per slot: every slot is busy

    os.kill(worker_pid(doomed_worker), signal.SIGKILL)
    killed_at = time.monotonic()
    services.wait_until(
        lambda: message_waiting(doomed.pk),
        RECOVERY_LIMIT,
        what="the sweeper to send the dead worker's job again",
    )
    requeued = time.monotonic() - killed_at
    assert_still_busy(busy.pk, busy_worker)

    # The supervisor's restart of the dead worker: the only free slot.
    processes.append(broker.worker(tmp_path, "restarted", WORKER_ENV))
    done = services.wait_until(
        lambda: finished(doomed.pk),
        RECOVERY_LIMIT - (time.monotonic() - killed_at),
        what="the dead worker's job to complete on the free slot",
    )
    recovered = time.monotonic() - killed_at
    report("kill -9 with every slot busy: sent again", requeued)
    report("kill -9 with every slot busy: completed on a new worker", recovered)

    assert_scored_once(done)
    assert done.attempts == 2
    assert worker_pid(done.claimed_by) == processes[-1].pid
    assert_still_busy(busy.pk, busy_worker)


def test_lost_messages_are_sent_again_while_every_slot_is_busy(
    broker, beat, owner, test_set, processes, tmp_path
):
    processes.append(broker.worker(tmp_path, "slot", BUSY))
    busy = create_system_output(test_set, owner, "busy", HYPOTHESES)
    busy_worker = services.wait_until(
        lambda: running_on(busy.pk), 60, what="the busy job's claim"
    )
    waiting = create_system_output(test_set, owner, "waiting", HYPOTHESES)
    assert message_waiting(waiting.pk)

    broker.kill()
    broker.restart()  # empty: the waiting job's message is lost
    back_at = time.monotonic()
    assert not message_waiting(waiting.pk)
    services.wait_until(
        lambda: message_waiting(waiting.pk),
        RECOVERY_LIMIT,
        what="the sweeper to send the lost message again",
    )
    requeued = time.monotonic() - back_at
    assert_still_busy(busy.pk, busy_worker)

    processes.append(broker.worker(tmp_path, "free", WORKER_ENV))
    done = services.wait_until(
        lambda: finished(waiting.pk),
        RECOVERY_LIMIT - (time.monotonic() - back_at),
        what="the lost job to complete on the free slot",
    )
    recovered = time.monotonic() - back_at
    report("Redis restarted empty with every slot busy: sent again", requeued)
    report("Redis restarted empty with every slot busy: completed", recovered)

    assert_scored_once(done)
    assert done.attempts == 1
    assert_still_busy(busy.pk, busy_worker)
