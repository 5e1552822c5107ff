"""ORANGE chunks ranked by real Celery workers through a real Redis.

Two worker processes share the chunks of one job; the merged result must
equal one ``scoring.orange.orange_for_metric`` run. Artifacts go to the default
directory because the workers, separate processes, read it from there.
"""

import time

import pytest

from mtdash.orange.jobs.artifacts import CANDIDATES_FILE, artifact_path
from mtdash.orange.jobs.lifecycle import create_orange_job, queue_chunks
from mtdash.orange.models import OrangeChunk, OrangeJob
from scoring.orange import OrangeOptions
from tests.support import services
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    create_demo_test_set,
    demo_nbest_text,
    make_nbest,
    remove_artifacts_afterwards_fixture,
    single_run,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

METRICS = ["bleu", "rouge-s:d=4", "wer", "nist"]  # NIST: the test set's weights
OPTIONS = OrangeOptions(curve_step=2, n_bootstrap=500, seed=11)


@pytest.fixture(scope="module")
def second_worker(
    celery_worker_process, redis_url, django_db_blocker, tmp_path_factory
):
    """Another worker process on the same broker and database: chunks are shared."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_url = services.database_url(connection.settings_dict)
    log_path = tmp_path_factory.mktemp("worker2") / "worker.log"
    process = services.start_worker(redis_url, db_url, log_path)
    yield process
    services.stop(process)


def wait_for(job_id: int, timeout: float = 120.0) -> OrangeJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = OrangeJob.objects.get(pk=job_id)
        if job.is_finished:
            return job
        time.sleep(0.2)
    raise AssertionError(
        f"ORANGE job {job_id} did not finish in {timeout} s ({job.status})"
    )


def test_workers_share_the_chunks_and_the_merge_equals_one_run(
    team, owner, celery_worker_process, second_worker, remove_artifacts_afterwards
):
    test_set = create_demo_test_set(team, owner)
    nbest = make_nbest(test_set, demo_nbest_text(), name="demo 7-best", user=owner)

    job = create_orange_job(
        nbest, owner, METRICS, OPTIONS, max_sentences=4
    )  # queued on commit
    assert job.n_chunks == 4
    job = wait_for(job.pk)

    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    assert job.progress == 100
    chunks = list(job.chunks.all())
    assert [chunk.status for chunk in chunks] == [OrangeChunk.Status.DONE] * 4
    assert all(chunk.attempts == 1 and chunk.claimed_by for chunk in chunks)
    results = {score.metric: score.to_orange_result() for score in job.scores.all()}
    for spec in METRICS:
        assert results[spec] == single_run(test_set, demo_nbest_text(), spec, OPTIONS)
    assert celery_worker_process.poll() is None and second_worker.poll() is None


def test_a_worker_records_a_chunk_failure_on_the_job(
    test_set, owner, celery_worker_process, remove_artifacts_afterwards
):
    nbest = make_nbest(test_set, TOY_NBEST, user=owner)
    job = create_orange_job(
        nbest, owner, ["bleu"], OPTIONS, queue=False, max_sentences=1
    )
    (artifact_path(nbest.artifact) / CANDIDATES_FILE).unlink()
    queue_chunks(list(job.chunks.values_list("pk", flat=True)))

    job = wait_for(job.pk)

    assert job.status == OrangeJob.Status.FAILED
    assert job.error_message.startswith("chunk ")
    assert (
        "FileNotFoundError" in job.error_message
        and CANDIDATES_FILE in job.error_message
    )
