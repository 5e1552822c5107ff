"""Work that matters first, with a real worker process and a real Redis
(issue 23 item 5): scoring jobs submitted while an ORANGE job's chunks fill
the queue start as soon as the worker's slot frees, before the ORANGE backlog
drains, and the comparison their scores ask for (an analysis) comes next.

One slot (a solo worker), and every chunk and scoring metric waits a second
on its first attempt (``MTDASH_JOB_TEST_DELAY_SECONDS``), so the order in
which the worker took the rows is read from their start times. Before the
queues, every kind of job shared one first-in-first-out queue and the
scoring jobs started after the last chunk; with separate queues read
round-robin, a chunk would run between two scoring jobs.
"""

import pytest

from mtdash.evaluation.models import ComparisonJob, ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import OrangeChunk, OrangeJob
from scoring.orange import OrangeOptions
from tests.support import services
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    create_demo_test_set,
    demo_nbest_text,
    make_nbest,
    remove_artifacts_afterwards_fixture,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

N_CHUNKS = 12
N_SCORING = 3
WORKER_ENV = {"MTDASH_JOB_TEST_DELAY_SECONDS": "1"}


def all_finished(jobs) -> list:
    """The jobs, oldest first, once there is at least one and all have ended."""
    jobs = list(jobs.order_by("pk"))
    return jobs if jobs and all(job.is_finished for job in jobs) else []


@pytest.fixture(name="broker", scope="module")
def broker_fixture(django_db_blocker, tmp_path_factory):
    with services.module_broker("priorities", django_db_blocker, tmp_path_factory) as b:
        yield b


@pytest.fixture(name="worker")
def worker_fixture(broker, tmp_path):
    process = broker.worker(tmp_path, "worker", WORKER_ENV)
    yield process
    services.stop(process)


# remove_artifacts_afterwards comes before worker so that its teardown (which
# deletes the n-best list and, by cascade, the ORANGE job) runs after the
# worker has stopped: a worker still merging the job's scores would insert
# rows the cascade did not see.
def test_scoring_jobs_go_ahead_of_an_orange_backlog_then_the_comparison(
    team, owner, remove_artifacts_afterwards, worker
):
    test_set = create_demo_test_set(team, owner)
    nbest = make_nbest(test_set, demo_nbest_text(N_CHUNKS), name="7-best", user=owner)
    orange = create_orange_job(
        nbest, owner, ["bleu"], OrangeOptions(n_bootstrap=10, seed=1), max_sentences=1
    )
    assert orange.n_chunks == N_CHUNKS
    services.wait_until(
        lambda: orange.chunks.filter(started_at__isnull=False).exists(),
        what="the first chunk to start",
        timeout=60,
    )
    hypotheses = [f"a hypothesis {i}" for i in range(test_set.segments.count())]
    jobs = [
        create_system_output(test_set, owner, f"system {k}", hypotheses)
        for k in range(N_SCORING)
    ]

    services.wait_until(
        lambda: not orange.chunks.exclude(status=OrangeChunk.Status.DONE).exists(),
        what="every chunk to be done",
        timeout=180,
    )

    # Every job ends before the test does: the merge after the last chunk
    # and the comparison still write rows.
    comparisons = services.wait_until(
        lambda: all_finished(ComparisonJob.objects.filter(test_set=test_set)),
        what="the comparisons to finish",
        timeout=60,
    )
    services.wait_until(
        lambda: all_finished(OrangeJob.objects.filter(pk=orange.pk)),
        what="the ORANGE job's merge",
        timeout=60,
    )

    scoring = [ScoringJob.objects.get(pk=job.pk) for job in jobs]
    assert all(job.status == ScoringJob.Status.SUCCEEDED for job in scoring)
    chunk_starts = sorted(orange.chunks.values_list("started_at", flat=True))
    last_scoring_start = max(job.started_at for job in scoring)
    # The chunk running when they were submitted (and at most one more, had
    # its message been taken in the instant before) ran first; the rest of
    # the backlog waited for every scoring job.
    assert sum(start < last_scoring_start for start in chunk_starts) <= 2
    comparison = comparisons[0]
    assert comparison.started_at is not None
    assert sum(start < comparison.started_at for start in chunk_starts) <= 2
    assert worker.poll() is None
