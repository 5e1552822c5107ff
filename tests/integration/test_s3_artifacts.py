"""Artifacts in S3-compatible object storage, against a real local server.

moto runs in server mode on a loopback port (a separate process speaking the
S3 HTTP API, as MinIO would); this process and a real Celery worker are
configured with ``MTDASH_ARTIFACT_STORAGE=s3`` and the ``MTDASH_S3_*``
variables, each with an artifact directory of its own that must stay empty.
An n-best list is uploaded through the web view, ranked by the worker from
the bucket, and compared with the same list ranked from the file system.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import boto3
import numpy as np
import pytest
from django.urls import reverse

from mtdash.env import artifact_storage as storage_setting
from mtdash.orange.artifact_storage import artifact_storage, read_range
from mtdash.orange.jobs import artifacts
from mtdash.orange.jobs.lifecycle import (
    create_orange_job,
    plan_chunks,
    run_orange_chunk,
)
from mtdash.orange.jobs.metric_significance import RANKS_FILE
from mtdash.orange.models import NBestList, OrangeChunk, OrangeJob
from mtdash.orange.nbest.uploads import (
    create_nbest_list,
    parse_nbest_upload,
)
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.support import services
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (
    TOY_NBEST,
    check_waiting_uploads,
    create_demo_test_set,
    demo_nbest_text,
    make_nbest,
    single_run,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

METRICS = ["bleu", "rouge-s:d=4", "wer"]
OPTIONS = OrangeOptions(curve_step=2, n_bootstrap=300, seed=5)
FILE_SYSTEM = {"BACKEND": "mtdash.orange.artifact_storage.ArtifactFileSystemStorage"}


@dataclass(frozen=True)
class Bucket:
    name: str
    env: dict[str, str]  # what the app reads: MTDASH_* and boto3's AWS_*

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.env["MTDASH_S3_ENDPOINT_URL"],
            region_name=self.env["MTDASH_S3_REGION"],
            aws_access_key_id=self.env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=self.env["AWS_SECRET_ACCESS_KEY"],
        )

    def keys(self, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2")
        return sorted(
            item["Key"]
            for page in pages.paginate(Bucket=self.name, Prefix=prefix)
            for item in page.get("Contents", ())
        )


def start_moto(log_path: Path) -> tuple[subprocess.Popen, str]:
    """moto's S3 server on a free loopback port, once it answers HTTP."""
    port = services.free_port()
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(endpoint, timeout=1).close()
            return process, endpoint
        except urllib.error.HTTPError:
            return process, endpoint  # it answered
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                services.stop(process)
                pytest.skip(
                    f"moto's S3 server did not start on {endpoint}: "
                    + log_path.read_text()[-1000:]
                )
            time.sleep(0.1)


@pytest.fixture(scope="module")
def bucket(tmp_path_factory):
    process, endpoint = start_moto(tmp_path_factory.mktemp("moto") / "moto.log")
    name = f"mtdash-{uuid.uuid4().hex[:12]}"
    env = {
        "MTDASH_ARTIFACT_STORAGE": "s3",
        "MTDASH_S3_BUCKET": name,
        "MTDASH_S3_ENDPOINT_URL": endpoint,
        "MTDASH_S3_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "mtdash-test",
        "AWS_SECRET_ACCESS_KEY": "mtdash-test-secret",
    }
    created = Bucket(name, env)
    created.client().create_bucket(Bucket=name)
    yield created
    services.stop(process)


@pytest.fixture
def s3_artifacts(bucket, settings, monkeypatch, tmp_path):
    """This process on the bucket (through the same variables as a server),
    with an artifact directory that must stay empty; returns that directory."""
    for name, value in bucket.env.items():
        monkeypatch.setenv(name, value)
    settings.MTDASH_ARTIFACT_DIR = tmp_path / "web-artifacts"
    # Changing STORAGES makes Django forget the backends it made.
    settings.STORAGES = {
        **settings.STORAGES,
        "artifacts": storage_setting("MTDASH_ARTIFACT_STORAGE"),
    }
    assert type(artifact_storage()).__name__ == "S3Storage"
    return settings.MTDASH_ARTIFACT_DIR


def use_file_system(settings, directory: Path) -> None:
    settings.MTDASH_ARTIFACT_DIR = directory
    settings.STORAGES = {**settings.STORAGES, "artifacts": FILE_SYSTEM}


@dataclass(frozen=True)
class S3Worker:
    process: subprocess.Popen
    artifact_dir: Path


@pytest.fixture(scope="module")
def s3_worker(bucket, django_db_setup, django_db_blocker, tmp_path_factory):
    """A Celery worker configured for the bucket, on a Redis of this module's
    own (so no file-system worker of another module takes its chunks)."""
    from django.db import connection

    from mtdash.celery import app

    work_dir = tmp_path_factory.mktemp("s3-worker")
    with django_db_blocker.unblock():
        db_url = services.database_url(connection.settings_dict)
    previous = app.conf.broker_url
    broker = services.Broker(work_dir, db_url)
    artifact_dir = work_dir / "artifacts"
    process = services.start_worker(
        broker.url,
        db_url,
        work_dir / "worker.log",
        env={**bucket.env, "MTDASH_ARTIFACT_DIR": str(artifact_dir)},
    )
    yield S3Worker(process, artifact_dir)
    services.stop(process)
    services.stop(broker.process)
    services.use_broker(previous)


def files_under(directory: Path) -> list[Path]:
    return (
        [p for p in directory.rglob("*") if p.is_file()] if directory.exists() else []
    )


def wait_for(job_id: int, timeout: float = 120.0) -> OrangeJob:
    return services.wait_until(
        lambda: (job := OrangeJob.objects.get(pk=job_id)).is_finished and job,
        timeout,
        what=f"ORANGE job {job_id} to finish",
    )


def results_by_metric(job: OrangeJob) -> dict:
    return {score.metric: score.to_orange_result() for score in job.scores.all()}


def test_a_list_uploaded_through_the_page_is_ranked_by_a_worker_from_the_bucket(
    client, team, owner, bucket, s3_worker, settings, s3_artifacts, tmp_path
):
    test_set = create_demo_test_set(team, owner)
    text = demo_nbest_text()

    # The same list from the file system, chunks run here: the reference.
    use_file_system(settings, tmp_path / "file-system")
    on_disk = make_nbest(test_set, text, name="on disk", user=owner)
    disk_job = create_orange_job(
        on_disk, owner, METRICS, OPTIONS, queue=False, max_sentences=4
    )
    for chunk_id in disk_job.chunks.values_list("pk", flat=True):
        run_orange_chunk(chunk_id)
    disk_job.refresh_from_db()
    assert disk_job.status == OrangeJob.Status.SUCCEEDED, disk_job.error_message
    assert files_under(tmp_path / "file-system")

    # Now through S3: the upload page, then a real worker.
    settings.STORAGES = {
        **settings.STORAGES,
        "artifacts": storage_setting("MTDASH_ARTIFACT_STORAGE"),
    }
    client.login(username=owner.username, password=PASSWORD)
    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "in S3", "description": "", "nbest_file": text_file("d.nbest", text)},
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    # The real worker checks it, from the bucket and back into it.
    nbest = services.wait_until(
        lambda: (row := NBestList.objects.get(name="in S3")).is_finished and row,
        120,
        what="the n-best list's check",
    )
    assert nbest.status == NBestList.Status.SUCCEEDED, nbest.error_message
    assert bucket.keys(nbest.artifact) == [
        f"{nbest.artifact}/{artifacts.CANDIDATES_FILE}",
        f"{nbest.artifact}/{artifacts.INDEX_FILE}",
    ]

    job = create_orange_job(nbest, owner, METRICS, OPTIONS, max_sentences=4)
    job = wait_for(job.pk)

    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    chunks = list(job.chunks.order_by("index"))
    assert [c.status for c in chunks] == [OrangeChunk.Status.DONE] * 4
    # The chunks' partial rankings, and the merge's per-sentence normalised
    # ranks that the paired test between metrics reads.
    assert bucket.keys(job.artifact) == sorted(
        [f"{job.artifact}/{chunk.partial_name}" for chunk in chunks]
        + [f"{job.artifact}/{RANKS_FILE}"]
    )
    results = results_by_metric(job)
    assert results == results_by_metric(disk_job)
    for spec in METRICS:
        assert results[spec] == single_run(test_set, text, spec, OPTIONS)
    # Nothing touched a local artifact directory, here or in the worker.
    assert files_under(s3_artifacts) == []
    assert files_under(s3_worker.artifact_dir) == []
    # The results page reads the candidates it shows from the bucket too.
    page = client.get(job.get_absolute_url())
    assert page.status_code == 200

    nbest.delete()  # its job goes with it (a cascade)

    assert bucket.keys(nbest.artifact) == []
    assert bucket.keys(job.artifact) == []
    assert s3_worker.process.poll() is None


def test_a_worker_reports_a_missing_object(
    test_set, owner, bucket, s3_worker, s3_artifacts
):
    nbest = make_nbest(test_set, TOY_NBEST, user=owner)
    job = create_orange_job(nbest, owner, ["bleu"], OPTIONS, queue=False)
    bucket.client().delete_object(
        Bucket=bucket.name, Key=f"{nbest.artifact}/{artifacts.CANDIDATES_FILE}"
    )
    from mtdash.orange.jobs.lifecycle import queue_chunks

    queue_chunks(list(job.chunks.values_list("pk", flat=True)))
    job = wait_for(job.pk)

    assert job.status == OrangeJob.Status.FAILED
    assert "FileNotFoundError" in job.error_message
    assert artifacts.CANDIDATES_FILE in job.error_message
    nbest.delete()
    assert bucket.keys(nbest.artifact) == []


@pytest.mark.parametrize(
    "content",
    [
        TOY_NBEST + "2 ||| no score ||| ||| high\n",
        TOY_NBEST.encode("utf-8") + b"2 ||| caf\xe9 ||| ||| -2\n",
        TOY_NBEST + "7 ||| no such segment ||| ||| -1\n",
    ],
    ids=["score", "utf-8", "sentence id"],
)
def test_a_malformed_upload_leaves_no_object(
    client, test_set, owner, bucket, s3_artifacts, content, monkeypatch
):
    # The check runs here, on the bucket: the message that would wake a
    # worker is kept from the broker, where a file-system worker started by
    # an earlier test of this process could take it, fail to find the
    # upload on its disk and leave the bucket's object behind.
    from mtdash.celery import app

    sent = []
    monkeypatch.setattr(app, "send_task", lambda name, args: sent.append(name))
    before = bucket.keys()
    client.login(username=owner.username, password=PASSWORD)
    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "bad", "description": "", "nbest_file": text_file("b.nbest", content)},
    )
    assert response.status_code == 302
    assert sent == [NBestList.task_name]
    check_waiting_uploads()
    nbest = NBestList.objects.get()
    assert nbest.status == NBestList.Status.FAILED
    page = client.get(response["Location"]).content.decode()
    assert "Nothing was stored." in page
    assert bucket.keys() == before


def test_an_upload_failing_after_its_first_object_leaves_no_object(
    test_set, owner, bucket, s3_artifacts, monkeypatch
):
    before = bucket.keys()
    parsed = parse_nbest_upload(TOY_NBEST.encode(), "toy.nbest", 3)

    def failing_savez(*args, **kwargs):  # the index, after the candidates
        raise OSError("connection reset")

    with monkeypatch.context() as patch:
        patch.setattr(np, "savez", failing_savez)
        with pytest.raises(OSError, match="connection reset"):
            create_nbest_list(test_set, owner, "toy", parsed)
    assert bucket.keys() == before

    def failing_create(**kwargs):  # both objects stored, then the row fails
        raise RuntimeError("database went away")

    with monkeypatch.context() as patch:
        patch.setattr(NBestList.objects, "create", failing_create)
        with pytest.raises(RuntimeError, match="database went away"):
            create_nbest_list(test_set, owner, "toy", parsed)
    assert bucket.keys() == before
    assert files_under(s3_artifacts) == []


# -- how long it takes ------------------------------------------------------------


def synthetic_nbest(n_sentences: int, n_best: int, seed: int = 3) -> str:
    """``n_best`` candidates of 20-30 words for each of ``n_sentences``."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]
    return "".join(
        f"{s} ||| {' '.join(rng.choices(words, k=rng.randint(20, 30)))} "
        f"||| lm={-rng.random() * 50:.3f} ||| {-rng.random() * 60:.3f}\n"
        for s in range(n_sentences)
        for _ in range(n_best)
    )


def timed(function, repeat: int = 1):
    start = time.perf_counter()
    for _ in range(repeat):
        value = function()
    return value, (time.perf_counter() - start) / repeat


def test_chunk_reads_from_the_bucket_equal_the_file_system_and_are_timed(
    team, owner, bucket, settings, s3_artifacts, tmp_path
):
    """Print upload and chunk-read times, file system vs S3 on moto (pytest -s).

    Only equality is asserted; the times depend on the machine.
    """
    test_set = create_demo_test_set(team, owner)
    n_segments = test_set.segments.count()
    data = synthetic_nbest(n_segments, 256).encode("utf-8")
    parsed = parse_nbest_upload(data, "big.nbest", n_segments)
    spans = plan_chunks([256] * n_segments)  # as a job would: 16 sentences each

    timings, chunks_read = {}, {}
    for backend in ("file system", "S3 (moto)"):
        if backend == "file system":
            use_file_system(settings, tmp_path / "fs")
        else:
            settings.STORAGES = {
                **settings.STORAGES,
                "artifacts": storage_setting("MTDASH_ARTIFACT_STORAGE"),
            }
        nbest, upload_s = timed(
            lambda b=backend: create_nbest_list(test_set, owner, b, parsed)
        )
        index, index_s = timed(lambda n=nbest: artifacts.load_nbest_index(n.artifact))
        reads = []
        for first, stop in spans:
            read, seconds = timed(
                lambda n=nbest, f=first, s=stop, i=index: artifacts.read_candidates(
                    n.artifact, f, s, i
                ),
                repeat=3,
            )
            reads.append(read)
            timings.setdefault(backend, []).append(seconds)
        chunks_read[backend] = reads
        timings[backend] = (upload_s, index_s, sum(timings[backend]) / len(spans))

    assert chunks_read["S3 (moto)"] == chunks_read["file system"]
    assert [len(ids) for ids, _ in chunks_read["S3 (moto)"]] == [
        stop - first for first, stop in spans
    ]
    name = f"{NBestList.objects.get(name='S3 (moto)').artifact}/candidates.txt.gz"
    size = artifact_storage().size(name)
    _, whole_s = timed(lambda: artifact_storage().open(name, "rb").read(), repeat=3)
    first, stop = spans[0]
    offsets = artifacts.load_nbest_index(name.rsplit("/", 1)[0]).offsets
    start, end = int(offsets[first]), int(offsets[stop])
    _, range_s = timed(lambda: read_range(name, start, end), repeat=3)
    print(
        f"\nARTIFACTS {len(data) / 1e6:.1f} MB n-best list "
        f"({n_segments} sentences x 256), {size / 1e6:.2f} MB compressed, "
        f"{len(spans)} chunks of {spans[0][1] - spans[0][0]} sentences"
    )
    for backend, (upload_s, index_s, chunk_s) in timings.items():
        print(
            f"ARTIFACTS {backend}: upload (check + compress + store) "
            f"{upload_s * 1000:.0f} ms, index {index_s * 1000:.1f} ms, "
            f"chunk read {chunk_s * 1000:.1f} ms"
        )
    print(
        f"ARTIFACTS S3 (moto): a chunk's bytes ({(end - start) / 1e6:.2f} MB, "
        f"HEAD + ranged GET) {range_s * 1000:.1f} ms; the whole list "
        f"({size / 1e6:.2f} MB, HEAD + GET) {whole_s * 1000:.1f} ms"
    )
    assert os.path.exists(tmp_path / "fs")
    assert files_under(s3_artifacts) == []
