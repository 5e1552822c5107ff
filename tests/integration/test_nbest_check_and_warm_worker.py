"""A real worker checks a gzip upload and ranks it with kernels made ready at
start-up, not inside its first chunk.

The worker (a process of its own) warms its kernels on a thread as it
starts and logs the time that took; ORANGE chunks wait for it before they
are claimed; a gzip n-best list posted to
the upload page is checked by it (the row goes queued → succeeded, the
upload replaced by the candidates and their index), a malformed one is
refused with the request-time message and leaves no file, and an ORANGE
job's chunks then take a fraction of a second each: no compilation in them.
"""

from __future__ import annotations

import gzip
import re
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

WARM_UP_LINE = re.compile(r"batch kernels ready in ([0-9.]+) s \((compiled|loaded)")
# A chunk of 16 sentences x 7 candidates x 3 metrics ranks in milliseconds;
# compiling even one kernel takes seconds, so a chunk over this compiled.
CHUNK_SECONDS = 5.0


@pytest.fixture(scope="module")
def warm_worker(celery_worker_process, redis_url, django_db_blocker, tmp_path_factory):
    """A worker of this test's own (for its log); yields (process, log path).
    It shares the project's Numba cache (NUMBA_CACHE_DIR under
    MTDASH_DATA_DIR), so it compiles only what changed since the last start."""
    from django.db import connection

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


def test_the_worker_warms_its_kernels_as_it_starts(warm_worker):
    """On a thread of its own: the worker is ready for scoring jobs at once,
    and logs the warm-up when it is done (a cold cache compiles for minutes)."""
    _, log_path = warm_worker
    deadline = time.monotonic() + 300
    while not (match := WARM_UP_LINE.search(log_path.read_text())):
        assert time.monotonic() < deadline, log_path.read_text()[-3000:]
        time.sleep(0.5)
    assert "ready." in log_path.read_text()
    print(f"\nworker warm-up: {float(match[1]):.2f} s ({match[2]})")


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
        ["bleu", "rouge-l", "wer"],
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
