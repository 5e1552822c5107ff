"""A 60-second database outage in the middle of a scoring job and an ORANGE
job, with real worker, beat and Redis processes: both jobs must end
succeeded, every row finished, every result stored once.

The database goes away for the workers only; this process keeps its own
connection to look at the rows afterwards.

- PostgreSQL: the workers reach the server through :class:`TcpProxy`; the
  outage stops the proxy (live connections are reset, new ones refused) and
  starts it again on the same port.
- SQLite: another connection holds ``BEGIN EXCLUSIVE`` for the whole outage
  (a backup, a migration, someone's ``sqlite3`` shell left in a
  transaction): every read and write of a worker waits the busy timeout
  (30 s) and fails with "database is locked".

Each variant runs when the suite runs on its database and is skipped
otherwise. Leases are 4 s and beat sweeps every second, as in
``test_job_faults.py``; the recovery time (from the database's return to
each job finished) is printed (``pytest -s``) and quoted in the README.

Two shorter tests: on PostgreSQL, connections cut for 3 s during a long step
that makes no query (the heartbeat and the next progress report must
reconnect, or the worker loses its job to another); and a worker whose row
was taken over while the database was away hands back nothing.
"""

from __future__ import annotations

import re
import sqlite3
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.utils import timezone

from mtdash.common.running import run_claimed
from mtdash.common.sweeper import job_models
from mtdash.common.task_options import retry_delays
from mtdash.evaluation.models import CorpusScore, ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import OrangeChunk, OrangeJob
from scoring.orange import OrangeOptions
from tests.support import services
from tests.support.tcp_proxy import TcpProxy
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    create_demo_test_set,
    demo_nbest_text,
    make_nbest,
    remove_artifacts_afterwards_fixture,
    single_run,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

OUTAGE_SECONDS = 60
RECOVERY_LIMIT = 120.0
HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]
SCORING_METRICS = ["bleu", "chrf", "ter"]
ORANGE_METRICS = ["bleu", "wer"]
OPTIONS = OrangeOptions(curve_step=2, n_bootstrap=50)
DELAY = 5  # each metric and chunk waits this long on its first attempt
ENV = {
    "MTDASH_JOB_LEASE_SECONDS": "4",
    "MTDASH_JOB_QUEUED_GRACE_SECONDS": "2",
    "MTDASH_SWEEP_SECONDS": "1",
    "MTDASH_JOB_TEST_DELAY_SECONDS": str(DELAY),
}


class PostgresOutage:
    """The workers' path to PostgreSQL, through a proxy this test can cut."""

    kind = "PostgreSQL unreachable"
    # Live connections were reset, and new ones refused.
    errors = ("server closed the connection unexpectedly", "Connection refused")

    def __init__(self, settings_dict: dict):
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = int(settings_dict.get("PORT") or 5432)
        self.proxy = TcpProxy(host, port).start()
        self.worker_db_url = services.database_url(
            dict(settings_dict, HOST="127.0.0.1", PORT=self.proxy.port)
        )

    def begin(self) -> None:
        self.proxy.stop()

    def end(self) -> None:
        self.proxy.start()

    def close(self) -> None:
        self.proxy.close()


class SqliteOutage:
    """Another connection holding SQLite's exclusive lock."""

    kind = "SQLite locked"
    errors = ("OperationalError: database is locked",)

    def __init__(self, settings_dict: dict):
        self.path = Path(settings_dict["NAME"]).resolve()
        self.worker_db_url = services.database_url(settings_dict)
        self.holder: sqlite3.Connection | None = None

    def begin(self) -> None:
        self.holder = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self.holder.execute("BEGIN EXCLUSIVE")

    def end(self) -> None:
        self.holder.execute("ROLLBACK")
        self.holder.close()
        self.holder = None

    def close(self) -> None:
        if self.holder is not None:
            self.end()


OUTAGES = {"postgresql": PostgresOutage, "sqlite": SqliteOutage}


@pytest.fixture(scope="module", params=sorted(OUTAGES))
def outage(request, django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        vendor, settings_dict = connection.vendor, connection.settings_dict
    if vendor != request.param:
        pytest.skip(f"the {request.param} outage needs the suite to run on it")
    outage = OUTAGES[vendor](settings_dict)
    yield outage
    outage.close()


@pytest.fixture(scope="module")
def broker(outage, tmp_path_factory):
    from mtdash.celery import app as celery_app

    previous = celery_app.conf.broker_url
    broker = services.Broker(
        tmp_path_factory.mktemp("outage-redis"), outage.worker_db_url
    )
    yield broker
    services.stop(broker.process)
    services.use_broker(previous)


@pytest.fixture(autouse=True)
def short_leases(settings):
    settings.MTDASH_JOB_LEASE_SECONDS = 4
    settings.MTDASH_JOB_QUEUED_GRACE_SECONDS = 2


@pytest.fixture
def processes():
    """Processes a test starts, killed after it (with a prefork worker's
    pool) once its claims are checked. Not stopped politely: a worker whose
    scoring job succeeded may be running the comparison it queued (1,000
    resamples), which a warm shutdown waits for until stop's 15 s run out."""
    started = []
    yield started
    for process in started:
        if process.poll() is None:
            services.kill(process)


def orange_mid_job(job: OrangeJob) -> bool:
    done = OrangeChunk.objects.filter(job=job, status="done").count()
    return 0 < done < job.n_chunks


def finished(model, pk: int):
    row = model.objects.get(pk=pk)
    return row if row.is_finished else None


def worker_logs(tmp_path: Path) -> str:
    return "\n".join(path.read_text() for path in sorted(tmp_path.glob("*.log")))


def test_jobs_survive_a_60_s_database_outage_and_store_their_results_once(
    outage, broker, team, owner, test_set, processes, tmp_path,
    remove_artifacts_afterwards,
):  # fmt: skip
    processes.append(broker.worker(tmp_path, "worker-solo", ENV))
    processes.append(broker.worker(tmp_path, "worker-prefork", ENV, pool="prefork"))
    processes.append(services.start_beat(broker.url, broker.db_url, tmp_path, env=ENV))
    scoring = create_system_output(
        test_set, owner, "outage", HYPOTHESES, metrics=SCORING_METRICS
    )
    services.wait_until(
        lambda: ScoringJob.objects.filter(pk=scoring.pk, status="running").exists(),
        30,
        what="the scoring job's claim",
    )
    demo = create_demo_test_set(team, owner)
    nbest = make_nbest(demo, demo_nbest_text(), name="demo 7-best", user=owner)
    orange = create_orange_job(nbest, owner, ORANGE_METRICS, OPTIONS, max_sentences=4)
    assert orange.n_chunks == 4

    # Cut while one metric is saved and others are not, and while some chunks
    # are done and others running or queued.
    services.wait_until(
        lambda: (
            ScoringJob.objects.filter(
                pk=scoring.pk, status="running", progress__gte=33
            ).exists()
            and orange_mid_job(orange)
        ),
        60,
        what="both jobs half-way",
    )
    scoring_at_cut = ScoringJob.objects.get(pk=scoring.pk).progress
    chunks_at_cut = sorted(
        OrangeChunk.objects.filter(job=orange).values_list("index", "status")
    )
    outage.begin()
    try:
        time.sleep(OUTAGE_SECONDS)
    finally:
        outage.end()
    back_at = time.monotonic()
    print(f"\nat the cut: scoring job {scoring_at_cut}%, chunks {chunks_at_cut}")

    # Each job's recovery: from the database's return to the job finished.
    pending = {
        "scoring job": (ScoringJob, scoring.pk),
        "ORANGE job": (OrangeJob, orange.pk),
    }
    recovered = {}

    def all_finished() -> bool:
        for name, (model, pk) in list(pending.items()):
            if model.objects.get(pk=pk).is_finished:
                recovered[name] = time.monotonic() - back_at
                del pending[name]
        return not pending

    services.wait_until(all_finished, RECOVERY_LIMIT, what=f"{sorted(pending)}")
    for name, seconds in recovered.items():
        print(
            f"RECOVERY {OUTAGE_SECONDS} s outage ({outage.kind}), {name}: {seconds:.1f} s"
        )

    logs = worker_logs(tmp_path)
    # The workers really lost the database (the test cannot pass vacuously)
    # and waited with the backoff of task_options, never giving a job up.
    for error in outage.errors:
        assert error in logs, logs[-5000:]
    delays = [int(d) for d in re.findall(r"Retry in (\d+)s", logs)]
    assert set(delays) <= set(retry_delays()), delays
    assert not re.search(r"(score_output|rank_orange_chunk)\[.*raised unexpected", logs)
    print(f"task retries during the outage, countdowns: {sorted(delays)}")

    scoring = ScoringJob.objects.get(pk=scoring.pk)
    assert scoring.status == "succeeded", scoring.error_message
    scores = CorpusScore.objects.filter(output=scoring.output)
    assert sorted(scores.values_list("metric", flat=True)) == sorted(SCORING_METRICS)

    orange = OrangeJob.objects.get(pk=orange.pk)
    assert orange.status == "succeeded", orange.error_message
    assert set(orange.chunks.values_list("status", flat=True)) == {"done"}
    results = {s.metric: s.to_orange_result() for s in orange.scores.all()}
    assert orange.scores.count() == len(ORANGE_METRICS)
    for spec in ORANGE_METRICS:
        assert results[spec] == single_run(demo, demo_nbest_text(), spec, OPTIONS)

    # Nothing stranded: the jobs the two queued on success (the comparison,
    # counts) finish too, however long a loaded machine takes to run them.
    def nothing_unfinished() -> bool:
        return not any(model.objects.unfinished().exists() for model in job_models())

    services.wait_until(nothing_unfinished, RECOVERY_LIMIT, what="every job")


HEARTBEAT_LEASE = 12  # renewed every 4 s


def test_the_heartbeat_reconnects_after_a_short_outage_and_keeps_the_job(
    outage, broker, owner, test_set, processes, tmp_path
):
    """A step that touches no database (a long metric) outlives a 3-second
    outage; the heartbeat thread must reconnect and renew the lease, or the
    sweeper hands the job to another worker and the work is done twice."""
    if isinstance(outage, SqliteOutage):
        pytest.skip("a lock breaks no SQLite connection: nothing to reconnect")
    env = dict(
        ENV,
        MTDASH_JOB_LEASE_SECONDS=str(HEARTBEAT_LEASE),
        MTDASH_JOB_TEST_DELAY_SECONDS="25",
    )
    processes.append(broker.worker(tmp_path, "worker-long", env))
    processes.append(broker.worker(tmp_path, "worker-spare", env))
    processes.append(services.start_beat(broker.url, broker.db_url, tmp_path, env=env))
    job = create_system_output(test_set, owner, "long-step", HYPOTHESES)
    claimed = services.wait_until(
        lambda: ScoringJob.objects.filter(pk=job.pk, status="running").first(),
        30,
        what="the claim",
    )
    # A first renewal: the heartbeat thread has its own connection to break.
    services.wait_until(
        lambda: ScoringJob.objects.filter(
            pk=job.pk, lease_expires_at__gt=claimed.lease_expires_at
        ).exists(),
        HEARTBEAT_LEASE,
        what="a heartbeat",
    )
    outage.begin()
    try:
        time.sleep(3)
    finally:
        outage.end()
    restored = timezone.now()
    renewed = services.wait_until(
        lambda: ScoringJob.objects.filter(
            pk=job.pk,
            lease_expires_at__gte=restored + timedelta(seconds=HEARTBEAT_LEASE),
        ).first(),
        HEARTBEAT_LEASE - 2,
        what="a renewal after the outage",
    )
    print(
        f"\nlease renewed {(timezone.now() - restored).total_seconds():.1f} s "
        "after the database came back"
    )
    assert renewed.status == "running" and renewed.claimed_by == claimed.claimed_by

    done = services.wait_until(lambda: finished(ScoringJob, job.pk), 60, what="job")
    assert done.status == "succeeded", done.error_message
    assert done.attempts == 1 and done.claimed_by == claimed.claimed_by
    assert CorpusScore.objects.filter(output=job.output).count() == 1
    assert "could not renew a lease" in worker_logs(tmp_path)


def test_a_worker_whose_row_was_taken_over_meanwhile_hands_back_nothing(
    owner, test_set
):
    """The database was away long enough for this worker's lease to run out
    and another worker to take the row; this worker's hand-back, once the
    database answers again, must leave that worker's row alone."""
    job = create_system_output(test_set, owner, "taken-over", HYPOTHESES, queue=False)
    rows = ScoringJob.objects.filter(pk=job.pk)
    assert rows.claim() == 1

    def taken_over_while_the_database_was_away():
        rows.update(
            claimed_by="otherhost:7",
            attempts=2,
            lease_expires_at=timezone.now() + timedelta(minutes=1),
        )
        raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(OperationalError):
        run_claimed(rows, taken_over_while_the_database_was_away)
    row = rows.get()
    assert (row.status, row.claimed_by, row.attempts) == ("running", "otherhost:7", 2)
