"""Faults with real processes: workers killed with SIGKILL (the main process,
or only the pool child that runs the task), messages lost when Redis restarts
without persistence, an upload while Redis is down, a job whose workers keep
dying. Every job must finish, or fail with a reason, once a worker is back.

The module has its own Redis and worker processes, with a 4-second lease (so
a dead worker's row can be taken over 4 s after its last heartbeat) and a
2-second grace for queued rows. The sweeper is either called from here while
waiting, as Celery beat would call it, or run by a real beat process.
Recovery times are printed (``pytest -s``) and quoted in the README.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
import redis
from django.urls import reverse

from mtdash.common.jobs import Job
from mtdash.common.sweeper import sweep_jobs
from mtdash.evaluation.models import CorpusScore, ScoringJob
from mtdash.evaluation.services.scoring_jobs import queue_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import OrangeChunk, OrangeJob
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.support import services
from tests.support.leases import (  # noqa: F401  (autouse fixture)
    LEASE,
    WORKER_ENV,
    short_leases_fixture,
)
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    create_demo_test_set,
    demo_nbest_text,
    make_nbest,
    remove_artifacts_afterwards_fixture,
    single_run,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]
# The first attempt of each metric or chunk hangs: the worker is killed there.
SLOW = dict(WORKER_ENV, MTDASH_JOB_TEST_DELAY_SECONDS="60")
RECOVERY_LIMIT = 120.0


@pytest.fixture(scope="module")
def broker(django_db_setup, django_db_blocker, tmp_path_factory):
    with services.module_broker(
        "fault-redis", django_db_blocker, tmp_path_factory
    ) as own:
        yield own


@pytest.fixture
def processes():
    """Processes a test starts; whatever is still alive is killed after it
    (with a prefork worker's pool). Not stopped politely: once a scoring job
    succeeds its worker runs the comparison it queued (1,000 resamples),
    which a warm shutdown waited for until stop's 15 s ran out, spending
    that CPU and wall time on a result no test reads."""
    started = []
    yield started
    for process in started:
        if process.poll() is None:
            services.kill(process)


def report(fault: str, seconds: float) -> None:
    print(f"\nRECOVERY {fault}: {seconds:.1f} s")


def wait_until(predicate, timeout: float, *, sweep: bool = False, what: str = ""):
    """Poll ``predicate``; with ``sweep``, run the sweeper about every second
    in this process, as Celery beat would."""
    last_sweep = [0.0]

    def sweep_now_and_then() -> None:
        if time.monotonic() - last_sweep[0] >= 1:
            sweep_jobs()
            last_sweep[0] = time.monotonic()

    between = sweep_now_and_then if sweep else None
    return services.wait_until(predicate, timeout, what=what, between=between)


def finished(model: type[Job], pk: int):
    row = model.objects.get(pk=pk)
    return row if row.is_finished else None


def running(model: type[Job], pk: int):
    row = model.objects.get(pk=pk)
    return row if row.status == "running" and row.claimed_by else None


def assert_scored_once(job: ScoringJob) -> None:
    assert job.status == "succeeded", job.error_message
    assert CorpusScore.objects.filter(output=job.output).count() == 1


def test_a_job_whose_worker_main_process_is_killed_completes_on_a_new_worker(
    broker, owner, test_set, processes, tmp_path
):
    processes.append(broker.worker(tmp_path, "doomed", SLOW))
    job = create_system_output(test_set, owner, "kill-main", HYPOTHESES)
    claimed = wait_until(lambda: running(ScoringJob, job.pk), 30, what="the claim")
    # The heartbeat renews the lease although the metric reports no progress.
    renewed = wait_until(
        lambda: ScoringJob.objects.filter(
            pk=job.pk, lease_expires_at__gt=claimed.lease_expires_at
        ).first(),
        LEASE,
        what="a heartbeat",
    )
    assert renewed.progress == 0 and renewed.attempts == 1

    os.kill(processes[0].pid, signal.SIGKILL)
    killed_at = time.monotonic()
    processes.append(broker.worker(tmp_path, "rescuer", WORKER_ENV))
    done = wait_until(
        lambda: finished(ScoringJob, job.pk), RECOVERY_LIMIT, sweep=True, what="job"
    )
    report(
        "kill -9 of the worker's main process (scoring job)",
        time.monotonic() - killed_at,
    )

    assert_scored_once(done)
    assert done.attempts == 2 and done.claimed_by != claimed.claimed_by


def test_a_job_whose_pool_child_is_killed_completes(
    broker, owner, test_set, processes, tmp_path
):
    worker = broker.worker(tmp_path, "prefork", SLOW, pool="prefork")
    processes.append(worker)
    job = create_system_output(test_set, owner, "kill-child", HYPOTHESES)
    claimed = wait_until(lambda: running(ScoringJob, job.pk), 30, what="the claim")
    child = int(claimed.claimed_by.rsplit(":", 1)[1])
    assert child in services.child_pids(worker.pid)

    os.kill(child, signal.SIGKILL)
    killed_at = time.monotonic()
    # The same worker forks a new child; the redelivered message finds the row
    # leased and skips it; once the lease expires the sweeper sends it again.
    done = wait_until(
        lambda: finished(ScoringJob, job.pk), RECOVERY_LIMIT, sweep=True, what="job"
    )
    report("kill -9 of the pool child (scoring job)", time.monotonic() - killed_at)

    assert_scored_once(done)
    assert done.attempts == 2 and worker.poll() is None


def test_an_orange_job_whose_chunk_worker_is_killed_completes(
    broker, team, owner, processes, tmp_path, remove_artifacts_afterwards
):
    metrics, options = ["bleu", "wer"], OrangeOptions(curve_step=2, n_bootstrap=50)
    test_set = create_demo_test_set(team, owner)
    nbest = make_nbest(test_set, demo_nbest_text(), name="demo 7-best", user=owner)
    processes.append(broker.worker(tmp_path, "doomed", SLOW))
    job = create_orange_job(nbest, owner, metrics, options, max_sentences=4)
    assert job.n_chunks == 4
    chunk = wait_until(
        lambda: OrangeChunk.objects.filter(job=job, status="running").first(),
        30,
        what="a chunk claim",
    )

    os.kill(processes[0].pid, signal.SIGKILL)
    killed_at = time.monotonic()
    processes.append(broker.worker(tmp_path, "rescuer", WORKER_ENV))
    done = wait_until(
        lambda: finished(OrangeJob, job.pk), RECOVERY_LIMIT, sweep=True, what="job"
    )
    report(
        "kill -9 of the worker running an ORANGE chunk", time.monotonic() - killed_at
    )

    assert done.status == "succeeded", done.error_message
    chunks = {c.pk: c for c in done.chunks.all()}
    assert {c.status for c in chunks.values()} == {"done"}
    assert chunks[chunk.pk].attempts == 2
    assert done.attempts == 1  # merged exactly once
    results = {score.metric: score.to_orange_result() for score in done.scores.all()}
    assert sorted(results) == sorted(metrics)
    for spec in metrics:
        assert results[spec] == single_run(test_set, demo_nbest_text(), spec, options)


def test_lost_messages_and_an_upload_during_a_redis_outage_are_sent_again_by_beat(
    broker, client, owner, test_set, processes, tmp_path
):
    """Redis dies and comes back empty: a queued job's message is gone; an
    upload made meanwhile answers success and is queued. Real Celery beat
    then runs the sweeper, which sends both again."""
    # The test set's upload queued its readability count already (in the
    # analysis queue; a scoring job waits in the scoring queue).
    waiting = redis.Redis.from_url(broker.url).llen("scoring")
    queued = create_system_output(test_set, owner, "lost-message", HYPOTHESES)
    assert redis.Redis.from_url(broker.url).llen("scoring") == waiting + 1
    broker.kill()
    client.login(username=owner.username, password=PASSWORD)
    started = time.monotonic()
    response = client.post(
        reverse("output_new", args=[test_set.pk]),
        {
            "system_name": "during-outage",
            "hypothesis_file": text_file("hyp.en", "\n".join(HYPOTHESES) + "\n"),
        },
    )
    upload_seconds = time.monotonic() - started
    uploaded = ScoringJob.objects.get(output__system__name="during-outage")
    assert response.status_code == 302
    assert response["Location"] == reverse("job_detail", args=[uploaded.pk])
    assert uploaded.status == "queued"

    broker.restart()
    assert redis.Redis.from_url(broker.url).llen("scoring") == 0  # lost
    back_at = time.monotonic()
    beat_env = dict(WORKER_ENV, MTDASH_SWEEP_SECONDS="1")
    processes.append(
        services.start_beat(broker.url, broker.db_url, tmp_path, env=beat_env)
    )
    processes.append(broker.worker(tmp_path, "worker", WORKER_ENV))
    for job in (queued, uploaded):
        done = wait_until(
            lambda job=job: finished(ScoringJob, job.pk), RECOVERY_LIMIT, what="job"
        )
        assert_scored_once(done)
    print(f"\nupload while Redis was down answered 302 in {upload_seconds:.1f} s")
    report(
        "Redis restarted empty (2 queued jobs, beat + new worker)",
        time.monotonic() - back_at,
    )


def test_a_job_whose_workers_keep_dying_fails_with_a_reason(
    broker, owner, test_set, processes, tmp_path, settings
):
    settings.MTDASH_JOB_MAX_ATTEMPTS = 1
    limit = {"MTDASH_JOB_MAX_ATTEMPTS": "1"}
    worker = broker.worker(tmp_path, "doomed", dict(SLOW, **limit))
    processes.append(worker)
    job = create_system_output(test_set, owner, "always-dies", HYPOTHESES)
    claimed = wait_until(lambda: running(ScoringJob, job.pk), 30, what="the claim")

    os.kill(worker.pid, signal.SIGKILL)
    killed_at = time.monotonic()
    processes.append(broker.worker(tmp_path, "next", dict(WORKER_ENV, **limit)))
    failed = wait_until(
        lambda: finished(ScoringJob, job.pk), RECOVERY_LIMIT, sweep=True, what="job"
    )
    report("a job out of attempts is failed", time.monotonic() - killed_at)

    assert failed.status == "failed"
    assert failed.error_message == (
        f"the worker running this job stopped 1 time (last: {claimed.claimed_by}); "
        "see the worker logs"
    )
    queue_scoring_job(job.pk)  # a late message changes nothing
    time.sleep(1)
    assert ScoringJob.objects.get(pk=job.pk).status == "failed"
