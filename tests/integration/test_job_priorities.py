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
from mtdash.orange.models import OrangeChunk
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


@pytest.fixture(name="broker", scope="module")
def broker_fixture(django_db_blocker, tmp_path_factory):
    with services.module_broker("priorities", django_db_blocker, tmp_path_factory) as b:
        yield b


@pytest.fixture(name="worker")
def worker_fixture(broker, tmp_path):
    process = broker.worker(tmp_path, "worker", WORKER_ENV)
    yield process
    services.stop(process)


def test_scoring_jobs_go_ahead_of_an_orange_backlog_then_the_comparison(
    team, owner, worker, remove_artifacts_afterwards
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

    scoring = [ScoringJob.objects.get(pk=job.pk) for job in jobs]
    assert all(job.status == ScoringJob.Status.SUCCEEDED for job in scoring)
    chunk_starts = sorted(orange.chunks.values_list("started_at", flat=True))
    last_scoring_start = max(job.started_at for job in scoring)
    # The chunk running when they were submitted (and at most one more, had
    # its message been taken in the instant before) ran first; the rest of
    # the backlog waited for every scoring job.
    assert sum(start < last_scoring_start for start in chunk_starts) <= 2
    comparison = ComparisonJob.objects.filter(test_set=test_set).order_by("pk")[0]
    assert comparison.started_at is not None
    assert sum(start < comparison.started_at for start in chunk_starts) <= 2
    assert worker.poll() is None
