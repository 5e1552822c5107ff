"""A real worker stops a scoring job whose output was deleted, and fails at
once a job queued with a metric parameter out of its bounds.

Found from outside: ``-F metric=bleu:n=100000000`` grew a worker to 3.46 GB
until it was killed, and deleting the output did not stop it. The module has
its own Redis and one worker (solo pool, one task at a time), so "the worker
is free again" is measured by a second job finishing. Times are printed
(``pytest -s``).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from mtdash.evaluation.manage.actions import delete_output
from mtdash.evaluation.models import CorpusScore, ScoringJob, SystemOutput
from mtdash.evaluation.services.scoring_jobs import queue_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.support import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]
# TER of 3,000 segments of 200 random words takes about 35 s on one core
# in the compiled kernels (~12 ms a segment); they report after each grid
# of 250 segments (scoring.batch.segment_rows.PROGRESS_MIN_SEGMENTS).
LONG_SEGMENTS, LONG_WORDS = 3000, 200
LONG_METRIC = "ter"
# From the deletion to the worker dropping the job: a few progress reports.
STOP_LIMIT = 15.0
# From queueing a job with an out-of-bounds spec to its failure.
FAIL_LIMIT = 10.0


@pytest.fixture(scope="module")
def broker(django_db_setup, django_db_blocker, tmp_path_factory):
    from django.db import connection

    from mtdash.celery import app as celery_app

    with django_db_blocker.unblock():
        db_url = services.database_url(connection.settings_dict)
    previous = celery_app.conf.broker_url
    broker = services.Broker(tmp_path_factory.mktemp("deleted-output-redis"), db_url)
    yield broker
    services.stop(broker.process)
    services.use_broker(previous)


class LogSince:
    """What a worker logged from the moment this was made on."""

    def __init__(self, path: Path):
        self.path, self.start = path, path.stat().st_size

    def read_text(self) -> str:
        with self.path.open("rb") as log:
            log.seek(self.start)
            return log.read().decode(errors="replace")


@pytest.fixture(scope="module")
def module_worker(broker, tmp_path_factory):
    """The module's one worker, shared by its tests: each claim is about
    what a running worker does with a job (drop it, fail it), and a worker
    process costs some 2.5 s of CPU to start. Each test checks that it is
    still alive."""
    logs = tmp_path_factory.mktemp("deleted-output-worker")
    process = broker.worker(logs, "scorer", {})
    yield process, logs / "scorer.log"
    services.stop(process)


@pytest.fixture
def worker(module_worker):
    """The module's worker, alive; (process, its log from this test on)."""
    process, log_path = module_worker
    assert process.poll() is None, log_path.read_text()[-3000:]
    return process, LogSince(log_path)


def random_segments(rng: random.Random, count: int, words: int) -> list[str]:
    vocabulary = [f"w{i}" for i in range(300)]
    return [" ".join(rng.choices(vocabulary, k=words)) for _ in range(count)]


@pytest.fixture
def long_test_set(team, owner):
    rng = random.Random(24)
    data = TestSetData(
        name="long random en-en",
        source_language="en",
        target_language="en",
        text_type="news",
        description="",
        sources=random_segments(rng, LONG_SEGMENTS, 5),
        references={"A": random_segments(rng, LONG_SEGMENTS, LONG_WORDS)},
    )
    return create_test_set(team, owner, data), rng


def finished(pk: int) -> ScoringJob | None:
    job = ScoringJob.objects.filter(pk=pk).first()
    return job if job is not None and job.is_finished else None


def test_a_job_whose_output_is_deleted_stops_and_frees_the_worker(
    worker, long_test_set, test_set, owner
):
    process, log = worker
    long_set, rng = long_test_set
    hypotheses = random_segments(rng, LONG_SEGMENTS, LONG_WORDS)
    job = create_system_output(
        long_set, owner, "long", hypotheses, metrics=[LONG_METRIC]
    )
    services.wait_until(
        lambda: ScoringJob.objects.filter(pk=job.pk, progress__gte=2).exists(),
        120,
        what="the TER job to be computing",
    )

    delete_output(SystemOutput.objects.get(pk=job.output_id))
    deleted_at = time.monotonic()
    services.wait_until(
        lambda: "stopping the work" in log.read_text(),
        STOP_LIMIT,
        what="the worker to drop the job of the deleted output",
    )
    stopped_after = time.monotonic() - deleted_at
    print(f"\nSTOPPED after the output was deleted: {stopped_after:.1f} s")

    # Free again: a job queued now runs at once, not after TER's ~35 s.
    after = create_system_output(test_set, owner, "after", HYPOTHESES)
    done = services.wait_until(
        lambda: finished(after.pk), 30, what="the next job on the freed worker"
    )
    assert done.status == ScoringJob.Status.SUCCEEDED, done.error_message
    assert process.poll() is None
    assert not ScoringJob.objects.filter(pk=job.pk).exists()
    assert not CorpusScore.objects.filter(output_id=job.output_id).exists()
    assert "Traceback" not in log.read_text()


def test_a_job_queued_with_bleu_n_of_a_hundred_million_fails_at_once(
    worker, test_set, owner
):
    process, _ = worker
    # Straight into the row, as a job queued before the bounds existed, past
    # the forms and the API that refuse the spec.
    job = create_system_output(
        test_set, owner, "huge-n", HYPOTHESES, metrics=["bleu", "bleu:n=100000000"]
    )
    queued_at = time.monotonic()
    done = services.wait_until(lambda: finished(job.pk), FAIL_LIMIT, what="the job")
    print(f"\nFAILED after being queued: {time.monotonic() - queued_at:.1f} s")

    assert done.status == ScoringJob.Status.FAILED
    assert done.error_message.startswith(
        "MetricError: bleu: n=100000000 is out of range; allowed: from 1 to 9"
    )
    # Every spec is read before any is computed: not even plain BLEU is saved.
    assert not CorpusScore.objects.filter(output=done.output).exists()
    assert process.poll() is None


def test_a_job_row_made_directly_with_that_spec_fails_as_well(worker, test_set, owner):
    output_job = create_system_output(test_set, owner, "row", HYPOTHESES, queue=False)
    job = ScoringJob.objects.create(
        output=output_job.output, metrics=["bleu:n=100000000"], created_by=owner
    )
    queue_scoring_job(job.pk)
    done = services.wait_until(lambda: finished(job.pk), FAIL_LIMIT, what="the job")
    assert done.status == ScoringJob.Status.FAILED
    assert "bleu: n=100000000 is out of range; allowed: from 1 to 9" in (
        done.error_message
    )
