"""A real worker checks a gzip upload and ranks it with kernels already in
Numba's cache: no compiling in its chunks, and no warm-up at its start.

The worker (a process of its own) compiles nothing as it starts; the
fixture first compiles the kernels of the job's metrics into the shared
cache (``python -m scoring.orange.precompile``, as ``bin/run`` does for the
demo's), so its chunks only load them; a gzip n-best list posted to
the upload page is checked by it (the row goes queued → succeeded, the
upload replaced by the candidates and their index), a malformed one is
refused with the request-time message and leaves no file, and an ORANGE
job's chunks then take a fraction of a second each: no compilation in them.
(``test_worker_compiles_on_demand.py`` starts a worker on an empty cache.)
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import time

import pytest
from django.urls import reverse

from mtdash.orange.jobs.artifacts import (
    CANDIDATES_FILE,
    INDEX_FILE,
    artifact_path,
)
from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import NBestList, OrangeJob
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.support import services
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    create_demo_test_set,
    demo_nbest_text,
    remove_artifacts_afterwards_fixture,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

JOB_METRICS = ["bleu", "rouge-l", "wer"]
# A chunk of 16 sentences x 7 candidates x 3 metrics ranks in milliseconds;
# compiling even one kernel takes seconds, so a chunk over this compiled.
CHUNK_SECONDS = 5.0


@pytest.fixture(scope="module")
def warm_worker(celery_worker_process, redis_url, django_db_blocker, tmp_path_factory):
    """A worker of this test's own (for its log); yields (process, log path).
    It shares the project's Numba cache (NUMBA_CACHE_DIR under
    MTDASH_DATA_DIR), where the job's kernels are compiled first (only what
    changed since the last run: seconds from the cache)."""
    from django.db import connection

    prepared = subprocess.run(
        [sys.executable, "-m", "scoring.orange.precompile", *JOB_METRICS],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert prepared.returncode == 0, prepared.stderr[-3000:]
    print(f"\n{prepared.stdout.splitlines()[0]}")
    with django_db_blocker.unblock():
        db_url = services.database_url(connection.settings_dict)
    work = tmp_path_factory.mktemp("warm-worker")
    log_path = work / "worker.log"
    process = services.start_worker(redis_url, db_url, log_path)
    yield process, log_path
    services.stop(process)


def wait_until_finished(model, pk: int, timeout: float = 180.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = model.objects.get(pk=pk)
        if row.is_finished:
            return row
        time.sleep(0.2)
    raise AssertionError(f"{model.__name__} {pk} did not finish ({row.status})")


def post_nbest(client, test_set, name: str, file_name: str, data: bytes):
    return client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": name, "description": "", "nbest_file": text_file(file_name, data)},
    )


def test_the_worker_is_ready_without_warming_up_kernels(warm_worker):
    """A worker starts taking tasks at once and compiles nothing up front
    (it used to compile every kernel on a thread: minutes on a cold cache)."""
    process, log_path = warm_worker
    log = log_path.read_text()
    assert "ready." in log and process.poll() is None
    assert "batch kernels" not in log


def test_a_gzip_upload_is_checked_and_ranked_by_a_warm_worker(
    client, team, owner, warm_worker, remove_artifacts_afterwards
):
    test_set = create_demo_test_set(team, owner)
    client.login(username=owner.username, password=PASSWORD)
    data = gzip.compress(demo_nbest_text().encode("utf-8"))

    response = post_nbest(client, test_set, "demo 7-best", "demo.nbest.gz", data)

    assert response.status_code == 302, response.content.decode()[-2000:]
    nbest = wait_until_finished(NBestList, NBestList.objects.get().pk)
    assert nbest.status == NBestList.Status.SUCCEEDED, nbest.error_message
    assert (nbest.n_sentences, nbest.file_name) == (16, "demo.nbest")
    stored = sorted(p.name for p in artifact_path(nbest.artifact).iterdir())
    assert stored == sorted([CANDIDATES_FILE, INDEX_FILE])

    job = create_orange_job(
        nbest,
        owner,
        JOB_METRICS,
        OrangeOptions(n_bootstrap=100),
        max_sentences=8,
    )
    job = wait_until_finished(OrangeJob, job.pk)

    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    seconds = [chunk.elapsed.total_seconds() for chunk in job.chunks.all()]
    print(f"\nchunk times on warm workers: {seconds}")
    assert max(seconds) < CHUNK_SECONDS


def test_a_malformed_upload_is_refused_by_the_worker_and_keeps_nothing(
    client, team, owner, warm_worker, remove_artifacts_afterwards
):
    test_set = create_demo_test_set(team, owner)
    client.login(username=owner.username, password=PASSWORD)
    text = demo_nbest_text() + "16 ||| one more ||| ||| x\n"

    response = post_nbest(client, test_set, "bad", "bad.nbest", text.encode())

    nbest = wait_until_finished(NBestList, NBestList.objects.get().pk)
    assert nbest.status == NBestList.Status.FAILED
    line = text.count("\n")
    assert nbest.error_message == f"bad.nbest, line {line}: score 'x' is not a number"
    assert not artifact_path(nbest.artifact).exists()
    page = client.get(response["Location"]).content.decode()
    assert "score &#x27;x&#x27; is not a number" in page
