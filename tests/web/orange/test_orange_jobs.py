"""ORANGE jobs: metric checks, chunk planning, claiming, merging, failures, retries.

The central check: a job split into chunks (ranked in any order, some of
them twice) gives exactly the result of one ``scoring.orange.orange_for_metric``
call on the same data.
"""

import pytest
from django.db import OperationalError
from django.urls import reverse

from mtdash.orange.jobs import lifecycle as orange_jobs
from mtdash.orange.jobs.artifacts import artifact_path
from mtdash.orange.jobs.lifecycle import (
    OrangeJobError,
    create_orange_job,
    plan_chunks,
    retry_orange_job,
    run_orange_chunk,
    run_orange_job_now,
)
from mtdash.orange.models import OrangeChunk, OrangeJob, OrangeScore
from scoring import MetricError
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    demo_nbest_text,
    demo_world_fixture,
    make_nbest,
    nbest_fixture,
    single_run,
)

METRICS = ["bleu", "rouge-s:d=4", "wer"]  # WER: lower is better
OPTIONS = OrangeOptions(curve_step=2, n_bootstrap=200, seed=7)


def results_by_metric(job):
    return {score.metric: score.to_orange_result() for score in job.scores.all()}


def test_it_plans_chunks_of_consecutive_sentences_within_both_limits():
    assert plan_chunks([3] * 5, max_sentences=2, max_candidates=100) == [
        (0, 2),
        (2, 4),
        (4, 5),
    ]
    assert plan_chunks([5, 5, 20, 1], max_sentences=10, max_candidates=10) == [
        (0, 2), (2, 3), (3, 4),
    ]  # fmt: skip
    assert plan_chunks([1024] * 40, max_sentences=16, max_candidates=16384) == [
        (0, 16), (16, 32), (32, 40),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "max_sentences, order, all_references",
    [
        (1, "forward", False),
        (5, "reversed", False),
        (16, "forward", False),
        (6, "reversed", True),
    ],
)
def test_a_chunked_job_gives_exactly_the_single_run_result(
    demo_world,
    owner,
    max_sentences,
    order,
    all_references,
):
    test_set, nbest = demo_world
    options = OrangeOptions(
        all_references=all_references, curve_step=2, n_bootstrap=200, seed=7
    )
    job = create_orange_job(
        nbest, owner, METRICS, options, queue=False, max_sentences=max_sentences
    )
    assert job.n_chunks == -(-16 // max_sentences)
    chunk_ids = list(job.chunks.values_list("pk", flat=True))
    for chunk_id in chunk_ids if order == "forward" else reversed(chunk_ids):
        run_orange_chunk(chunk_id)

    job.refresh_from_db()
    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    assert job.progress == 100
    results = results_by_metric(job)
    for spec in METRICS:
        expected = single_run(test_set, demo_nbest_text(), spec, options)
        assert results[spec] == expected
    assert results["bleu"].n_short == 2 and results["bleu"].max_candidates == 7


def test_the_stored_score_keeps_the_table_figures_and_the_review_counts(
    demo_world, owner
):
    _, nbest = demo_world
    job = run_orange_job_now(
        create_orange_job(nbest, owner, ["wer"], OPTIONS, queue=False)
    )
    score = OrangeScore.objects.get(job=job)
    result = score.to_orange_result()
    above = [item for item in result.above_reference if item["candidates"]]
    assert score.n_sentences_above == len(above)
    assert score.n_candidates_above == sum(len(item["candidates"]) for item in above)
    assert score.ci_low <= score.avg_rank <= score.ci_high
    assert score.higher_is_better is False
    assert score.signature.startswith("wer|nrefs:3|")  # jackknife: K - 1 = 3 references


def test_running_a_chunk_again_replaces_its_partial_result(demo_world, owner):
    test_set, nbest = demo_world
    job = create_orange_job(
        nbest, owner, ["bleu"], OPTIONS, queue=False, max_sentences=6
    )
    first, *others = job.chunks.all()
    assert run_orange_chunk(first.pk)
    OrangeChunk.objects.filter(pk=first.pk).update(status=OrangeChunk.Status.QUEUED)
    assert run_orange_chunk(first.pk)  # e.g. redelivered after its worker was lost
    for chunk in others:
        run_orange_chunk(chunk.pk)

    job.refresh_from_db()
    assert OrangeChunk.objects.get(pk=first.pk).attempts == 2
    partials = sorted(path.name for path in artifact_path(job.artifact).iterdir())
    # The chunks' partials, and the normalised ranks the paired test keeps.
    assert partials == [
        "chunk-00000.npz",
        "chunk-00001.npz",
        "chunk-00002.npz",
        "normalised-ranks.npz",
    ]
    assert results_by_metric(job)["bleu"] == single_run(
        test_set, demo_nbest_text(), "bleu", OPTIONS
    )


def test_a_chunk_delivered_twice_is_ranked_once(nbest, owner):
    job = create_orange_job(
        nbest, owner, ["bleu"], OPTIONS, queue=False, max_sentences=1
    )
    chunk = job.chunks.first()
    assert run_orange_chunk(chunk.pk) is True
    assert run_orange_chunk(chunk.pk) is False
    assert OrangeChunk.objects.get(pk=chunk.pk).attempts == 1


def test_progress_follows_finished_chunks_and_only_the_last_one_merges(nbest, owner):
    job = create_orange_job(
        nbest, owner, ["bleu", "rouge-l"], OPTIONS, queue=False, max_sentences=1
    )
    chunks = list(job.chunks.all())
    assert len(chunks) == 3
    progress = []
    for chunk in chunks:
        run_orange_chunk(chunk.pk)
        job.refresh_from_db()
        progress.append((job.status, job.progress, job.scores.count()))
    assert progress == [("running", 33, 0), ("running", 66, 0), ("succeeded", 100, 2)]


def test_it_queues_the_chunks_only_after_the_transaction_commits(
    nbest, owner, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(orange_jobs, "queue_chunks", lambda ids: sent.extend(ids))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = create_orange_job(nbest, owner, ["bleu"], OPTIONS, max_sentences=1)
    assert sent == []
    for callback in callbacks:
        callback()
    assert sent == list(job.chunks.values_list("pk", flat=True)) and len(sent) == 3


def test_a_failing_chunk_fails_the_job_with_a_readable_message_and_can_be_retried(
    nbest, owner, test_set, monkeypatch, django_capture_on_commit_callbacks
):
    real_rank = orange_jobs.rank_nbest_chunk

    def failing_on_sentence_1(metrics, words, references, **kwargs):
        if 1 in words.sentence_ids.tolist():
            raise MetricError("this metric cannot score an empty reference")
        return real_rank(metrics, words, references, **kwargs)

    monkeypatch.setattr(orange_jobs, "rank_nbest_chunk", failing_on_sentence_1)
    job = create_orange_job(
        nbest, owner, ["bleu"], OPTIONS, queue=False, max_sentences=1
    )
    for chunk in job.chunks.all():
        run_orange_chunk(chunk.pk)

    job.refresh_from_db()
    assert job.status == OrangeJob.Status.FAILED
    assert job.error_message == (
        "chunk 2 of 3 (n-best sentences 2–2): MetricError: this metric cannot score an "
        "empty reference"
    )
    statuses = list(job.chunks.values_list("status", flat=True))
    assert statuses == ["done", "failed", "queued"]  # the third saw the job had failed

    monkeypatch.setattr(orange_jobs, "rank_nbest_chunk", real_rank)
    sent = []
    monkeypatch.setattr(orange_jobs, "queue_chunks", lambda ids: sent.extend(ids))
    with django_capture_on_commit_callbacks(execute=True):
        retried = retry_orange_job(job)
    assert sent == retried and len(retried) == 2
    for chunk_id in sent:
        run_orange_chunk(chunk_id)
    job.refresh_from_db()
    assert job.status == OrangeJob.Status.SUCCEEDED
    assert results_by_metric(job)["bleu"] == single_run(
        test_set, TOY_NBEST, "bleu", OPTIONS
    )


def test_a_merge_interrupted_by_a_transient_fault_is_done_by_the_retried_task(
    nbest, owner, test_set, monkeypatch
):
    job = create_orange_job(
        nbest, owner, ["bleu"], OPTIONS, queue=False, max_sentences=2
    )
    first, last = job.chunks.all()
    run_orange_chunk(first.pk)
    real_merge = orange_jobs.merge_job
    monkeypatch.setattr(
        orange_jobs,
        "merge_job",
        lambda job: (_ for _ in ()).throw(OperationalError("locked")),
    )
    with pytest.raises(OperationalError):
        run_orange_chunk(last.pk)
    job.refresh_from_db()
    assert job.status == OrangeJob.Status.RUNNING  # handed back, not stuck in "merging"

    monkeypatch.setattr(orange_jobs, "merge_job", real_merge)
    assert (
        run_orange_chunk(last.pk) is False
    )  # Celery's retry: chunk done, so it merges
    job.refresh_from_db()
    assert job.status == OrangeJob.Status.SUCCEEDED
    assert results_by_metric(job)["bleu"] == single_run(
        test_set, TOY_NBEST, "bleu", OPTIONS
    )


def test_a_job_needs_two_references(team, owner, artifact_dir):
    from mtdash.evaluation.services.uploads import TestSetData, create_test_set

    data = TestSetData("one ref", "fr", "en", "", "", ["un"], {"A": ["one"]})
    one_reference = create_test_set(team, owner, data)
    nbest_list = make_nbest(one_reference, "0 ||| one ||| ||| -1\n")
    with pytest.raises(OrangeJobError, match="at least 2 reference translations"):
        create_orange_job(nbest_list, owner, ["bleu"], queue=False)


# -- the form ---------------------------------------------------------------------


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def post_job(client, nbest_list, **fields):
    data = {"curve_step": 1, "n_bootstrap": 100, "seed": 3, "more_metrics": ""}
    data.update(fields)
    return client.post(reverse("nbest_detail", args=[nbest_list.pk]), data)


def test_the_form_starts_a_job_with_registry_specs_and_options(
    logged_in, nbest, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr(orange_jobs, "queue_chunks", lambda ids: sent.extend(ids))
    with django_capture_on_commit_callbacks(execute=True):
        response = post_job(
            logged_in, nbest, metrics=["bleu"],
            more_metrics="rouge-w:w=1.2 rouge-s:d=4",
            all_references="on",
        )  # fmt: skip
    job = OrangeJob.objects.get()
    assert response["Location"] == job.get_absolute_url()
    assert job.metrics == ["bleu", "rouge-w:w=1.2", "rouge-s:d=4"]
    assert (job.all_references, job.curve_step, job.n_bootstrap, job.seed) == (
        True,
        1,
        100,
        3,
    )
    assert job.reference_labels == ["A", "B"]
    assert len(sent) == job.n_chunks == job.chunks.count()


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"more_metrics": "blue"}, "blue: unknown metric"),
        ({"more_metrics": "rouge-w:w=-1"}, "rouge-w:w=-1:"),
        (  # the toy test set has no document ids (tests/web/orange/test_orange_wnm.py)
            {"more_metrics": "wnm"},
            "wnm needs document ids; this test set was uploaded without them",
        ),
        ({}, "choose at least one metric"),
        ({"metrics": ["bleu"], "curve_step": 0}, "greater than or equal to 1"),
    ],
)
def test_the_form_refuses_bad_metrics_and_options(logged_in, nbest, fields, message):
    response = post_job(logged_in, nbest, **fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not OrangeJob.objects.exists()
