"""Leaderboard statistics (comparison jobs) with real worker processes: at
most one job runs per test set and at most one waits behind it, whatever
finishes at once, and the job that runs last has seen every change.

A team server once ran four comparison jobs of one test set at the same
time, holding every worker for 20 minutes: each scoring job that finished
while a comparison ran queued another, and a free worker started it at once.

The module has its own Redis and three worker processes, and no sweeper: a
job waiting behind a running one must be started by that one as it ends
(the sweeper would send it only after the queued grace of two minutes, and
leaves it alone while the other runs: ``tests/web/evaluation/
test_comparison_queue.py``).
"""

from __future__ import annotations

import random
import threading
from datetime import datetime

import pytest
from django.db import close_old_connections, connection, connections, transaction

from mtdash.celery import app as celery_app
from mtdash.common.queueing import send_job_tasks
from mtdash.evaluation.leaderboard.comparisons import (
    compare_test_set,
    request_comparison,
)
from mtdash.evaluation.models import ComparisonJob, ScoringJob, SystemOutput
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.support import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

WORKERS = 3
OUTPUTS = 9
SEGMENTS = 80
METRICS = ["bleu", "chrf"]
WORDS = (
    "the a cat dog sat ran on under mat house it is was raining today "
    "hello all of you we they see saw big small red green quickly slowly"
).split()


@pytest.fixture(scope="module")
def broker(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        db_url = services.database_url(connection.settings_dict)
    previous = celery_app.conf.broker_url
    broker = services.Broker(tmp_path_factory.mktemp("comparison-redis"), db_url)
    yield broker
    services.stop(broker.process)
    services.use_broker(previous)


@pytest.fixture(scope="module")
def workers(broker, tmp_path_factory):
    logs = tmp_path_factory.mktemp("comparison-workers")
    started = [broker.worker(logs, f"worker{n}", {}) for n in range(WORKERS)]
    yield started
    services.stop(*started)  # the three at once


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14)))


def make_test_set(team, owner, name: str):
    rng = random.Random(name)
    references = [sentence(rng) for _ in range(SEGMENTS)]
    data = TestSetData(
        name=name,
        source_language="fr",
        target_language="en",
        text_type="news",
        description="",
        sources=[sentence(rng) for _ in range(SEGMENTS)],
        references={"A": references},
    )
    return create_test_set(team, owner, data)


def hypotheses(test_set, seed: int) -> list[str]:
    """The references with about a third of the words replaced."""
    rng = random.Random(seed)
    return [
        " ".join(w if rng.random() > 0.35 else rng.choice(WORDS) for w in line.split())
        for line in test_set.reference_streams()[0]
    ]


def most_at_once(intervals: list[tuple[datetime, datetime]]) -> int:
    """The largest number of (start, end) intervals that overlap."""
    events = sorted(
        [(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals],
        key=lambda event: (event[0], event[1]),  # an end before a start at a tie
    )
    most = current = 0
    for _, step in events:
        current += step
        most = max(most, current)
    return most


class Watcher:
    """Counts the test set's queued and running comparison jobs every few
    milliseconds from a thread of its own, keeping the most seen at once."""

    def __init__(self, test_set_id: int):
        self.test_set_id = test_set_id
        self.most = {"queued": 0, "running": 0}
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watcher:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        try:
            while not self._stop.wait(0.005):
                statuses = list(
                    ComparisonJob.objects.filter(
                        test_set_id=self.test_set_id,
                        status__in=("queued", "running"),
                    ).values_list("status", flat=True)
                )
                self.samples += 1
                for status in self.most:
                    self.most[status] = max(self.most[status], statuses.count(status))
        finally:
            connections.close_all()


def settled_after(test_set, moment: datetime):
    """Every comparison job of the test set finished, one of them started
    after ``moment``."""
    jobs = ComparisonJob.objects.filter(test_set=test_set)
    if jobs.unfinished().exists():
        return False
    return jobs.filter(started_at__gte=moment).exists()


def test_scoring_jobs_finishing_together_run_one_comparison_at_a_time_and_the_last_sees_every_score(  # noqa: E501
    team, owner, workers
):
    test_set = make_test_set(team, owner, "one at a time")
    with Watcher(test_set.pk) as watcher:
        jobs = [
            create_system_output(
                test_set, owner, f"sys-{n}", hypotheses(test_set, n), metrics=METRICS
            )
            for n in range(OUTPUTS)
        ]
        services.wait_until(
            lambda: (
                not ScoringJob.objects.filter(pk__in=[j.pk for j in jobs])
                .unfinished()
                .exists()
            ),
            120,
            what="the scoring jobs",
        )
        scored = ScoringJob.objects.filter(pk__in=[j.pk for j in jobs])
        assert set(scored.values_list("status", flat=True)) == {"succeeded"}
        last_score = max(scored.values_list("finished_at", flat=True))
        services.wait_until(
            lambda: settled_after(test_set, last_score),
            60,
            what="a comparison started after the last score, and no job left",
        )

    rows = list(ComparisonJob.objects.filter(test_set=test_set))
    print(
        f"\n{len(rows)} comparison jobs for {OUTPUTS} scoring jobs; "
        f"most seen at once {watcher.most} in {watcher.samples} samples; "
        f"run times {sorted(round(r.elapsed.total_seconds(), 2) for r in rows if r.started_at)}"  # noqa: E501
    )
    assert all(row.status == "succeeded" for row in rows), [
        (row.pk, row.status, row.error_message) for row in rows
    ]
    running = [(row.started_at, row.finished_at) for row in rows]
    waiting = [(row.created_at, row.started_at or row.finished_at) for row in rows]
    assert most_at_once(running) == 1
    assert most_at_once(waiting) == 1
    assert watcher.samples > 10
    assert watcher.most["running"] <= 1 and watcher.most["queued"] <= 1
    # The stored statistics are those of every score: nothing to recompute.
    assert compare_test_set(test_set, analyses=False) == []


def racing_requests(test_set_id: int, n: int) -> list[BaseException]:
    """``n`` threads (each its own database connection, as separate web
    processes have) request a comparison at the same moment, half of them
    inside a transaction; returns what they raised."""
    start = threading.Barrier(n)
    raised: list[BaseException] = []

    def request(inside_transaction: bool) -> None:
        try:
            close_old_connections()
            start.wait()
            if inside_transaction:
                with transaction.atomic():
                    request_comparison(test_set_id)
            else:
                request_comparison(test_set_id)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            raised.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=request, args=(i % 2 == 0,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return raised


def test_requests_racing_from_many_connections_leave_one_job_waiting(
    team, owner, broker
):
    """While a job of the test set runs (held by a live worker elsewhere),
    twelve simultaneous requests queue exactly one job behind it, and no
    worker may start that one."""
    test_set = make_test_set(team, owner, "racing requests")
    running = ComparisonJob.objects.create(test_set=test_set)
    assert ComparisonJob.objects.filter(pk=running.pk).claim() == 1

    assert racing_requests(test_set.pk, 12) == []

    rows = ComparisonJob.objects.filter(test_set=test_set).exclude(pk=running.pk)
    assert list(rows.values_list("status", flat=True)) == ["queued"]
    (waiting,) = rows
    # Its worker is told to skip it while the other runs.
    assert ComparisonJob.objects.filter(pk=waiting.pk).claim() == 0
    assert ComparisonJob.objects.get(pk=waiting.pk).status == "queued"


def blocked_by_this_connection() -> int:
    """How many other sessions wait for a lock this connection holds."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        )
        return cursor.fetchone()[0]


def test_a_waiting_job_does_not_start_before_the_change_that_asked_for_it_commits(
    team, owner, workers
):
    """A change made inside a transaction asks for a comparison; a job is
    already waiting, so the request adds nothing. That job's worker must not
    start it before the change commits, or the change is never compared.

    PostgreSQL only: on SQLite every write waits for the transaction's write
    lock anyway, so the worker's claim cannot come first there."""
    if connection.vendor != "postgresql":
        pytest.skip("the ordering needs PostgreSQL's row locks to be tested")
    test_set = make_test_set(team, owner, "late change")
    for n in range(3):
        create_system_output(
            test_set, owner, f"sys-{n}", hypotheses(test_set, n), metrics=METRICS
        )
    services.wait_until(
        lambda: (
            not ScoringJob.objects.unfinished().exists()
            and not ComparisonJob.objects.filter(test_set=test_set)
            .unfinished()
            .exists()
        ),
        120,
        what="the outputs scored and compared",
    )
    assert compare_test_set(test_set, analyses=False) == []
    waiting = ComparisonJob.objects.create(test_set=test_set)  # no message yet
    hidden = SystemOutput.objects.filter(test_set=test_set).first()

    with transaction.atomic():
        SystemOutput.objects.filter(pk=hidden.pk).update(hidden=True)
        assert request_comparison(test_set.pk) is None  # the waiting job covers it
        send_job_tasks(ComparisonJob, [waiting.pk])
        services.wait_until(
            lambda: (
                blocked_by_this_connection()
                or ComparisonJob.objects.get(pk=waiting.pk).is_finished
            ),
            60,
            what="the worker's claim (waiting for this transaction) or its job",
        )
    done = services.wait_until(
        lambda: (row := ComparisonJob.objects.get(pk=waiting.pk)).is_finished and row,
        60,
        what="the waiting job",
    )

    assert done.status == "succeeded", done.error_message
    assert compare_test_set(test_set, analyses=False) == []
