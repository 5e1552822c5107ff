"""WNM in web ORANGE jobs: saliences of the whole test set, by its document ids.

WNM weighs each word by its salience in the sentence's document, compared
with the rest of the test set (Babych 2004), so a chunk cannot compute the
weights from its own sentences: every chunk binds WNM to the saliences of
the stored test set (all references of all segments, each segment's
``document_id``). A test set uploaded without document ids cannot give
them, and a job asking for WNM over it is refused with a message that says
what to upload.
"""

import numpy as np
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from mtdash.orange.jobs import lifecycle as orange_jobs
from mtdash.orange.jobs.lifecycle import (
    check_orange_metrics,
    create_orange_job,
    run_orange_chunk,
)
from mtdash.orange.jobs.metrics import (
    chunk_metrics,
    document_ids_of,
    job_metric,
    references_by_segment,
)
from mtdash.orange.models import OrangeJob
from scoring import MetricError, get_metric
from scoring.orange import OrangeOptions, needs_test_set_references, prepare_metrics
from scoring.orange.dispatch import orange_metrics
from scoring.orange.nbest import NBestList as TextNBest
from scoring.orange.nbest import iter_nbest
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    command_line_results,
    create_demo_test_set,
    demo_nbest_text,
    demo_world_fixture,
    make_nbest,
    nbest_fixture,
)

SPECS = ["wnm", "bleus"]
OPTIONS = OrangeOptions(curve_step=2, n_bootstrap=200, seed=7)
REFUSAL = (
    "wnm needs document ids; this test set was uploaded without them "
    "(upload it again with a document id file)"
)


def run_chunks_reversed(job) -> OrangeJob:
    """Every chunk in this process, last first (the merge follows the last)."""
    for chunk_id in reversed(list(job.chunks.values_list("pk", flat=True))):
        run_orange_chunk(chunk_id)
    job.refresh_from_db()
    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    return job


def direct_results(test_set, nbest_text, specs, metrics=None):
    """``scoring.orange.dispatch.orange_metrics`` on the n-best list's
    candidates, the test set's references and document ids of its sentences
    (``metrics``: already bound ones, else the plain registry metrics)."""
    lists = TextNBest.from_entries(iter_nbest(nbest_text.splitlines(), "nbest"))
    streams = test_set.reference_streams()
    _, documents = test_set.sources_and_document_ids()
    ids = lists.sentence_ids
    return orange_metrics(
        metrics or {spec: get_metric(spec) for spec in specs},
        lists.candidates,
        [tuple(stream[i] for stream in streams) for i in ids],
        OPTIONS,
        sentence_ids=ids,
        document_ids=[documents[i] for i in ids],
    )


def whole_test_set_metrics(test_set, specs):
    """``specs`` bound to every reference and document of the test set (what
    the command line does with --refs and --docs)."""
    _, documents = test_set.sources_and_document_ids()
    references = list(zip(*test_set.reference_streams()))
    return prepare_metrics({s: get_metric(s) for s in specs}, references, documents)


def assert_same_result(stored, expected):
    assert stored.orange == expected.orange
    assert stored.avg_rank == pytest.approx(expected.avg_rank, abs=1e-9)
    assert stored.n_sentences == expected.n_sentences
    assert stored == expected  # and everything else: curve, CI, oracles


# -- which metrics a job may ask for ----------------------------------------


def test_wnm_is_accepted_only_for_a_test_set_with_document_ids():
    assert check_orange_metrics(["wnm", "bleu"], has_document_ids=True) == [
        "wnm",
        "bleu",
    ]
    assert check_orange_metrics(["bleu", "nist"], has_document_ids=False) == [
        "bleu",
        "nist",
    ]
    with pytest.raises(MetricError) as refused:
        check_orange_metrics(["bleu", "wnm"], has_document_ids=False)
    assert str(refused.value) == REFUSAL
    # Plain counts matched segment by segment read no documents.
    assert check_orange_metrics(["wnm:weights=none"], has_document_ids=False) == [
        "wnm:weights=none"
    ]


def test_the_test_sets_document_ids_are_read_in_segment_order(
    demo_world, test_set, owner
):
    demo, _ = demo_world
    assert demo.has_document_ids() and not test_set.has_document_ids()
    indices, references = references_by_segment(demo, ["A", "B", "C", "D"])
    assert indices == list(range(48))
    assert document_ids_of(demo, indices) == demo.sources_and_document_ids()[1]
    assert document_ids_of(test_set, [0, 1, 2]) is None


def test_a_job_with_wnm_over_a_test_set_without_document_ids_is_refused(nbest, owner):
    with pytest.raises(MetricError, match="uploaded without them"):
        create_orange_job(nbest, owner, SPECS, OPTIONS, queue=False)
    assert not OrangeJob.objects.exists()
    # Unweighted WNM runs there.
    job = create_orange_job(nbest, owner, ["wnm:weights=none"], OPTIONS, queue=False)
    assert run_chunks_reversed(job).scores.get().metric == "wnm:weights=none"


# -- the job's result ----------------------------------------------------------


@pytest.mark.parametrize("max_sentences", [5, 48])
def test_a_chunked_wnm_job_equals_orange_metrics_on_the_whole_test_set(
    team, owner, artifact_dir, max_sentences
):
    # An n-best list for all 48 sentences: saliences from its sentences are
    # those of the test set, so the plain library call is the reference.
    test_set = create_demo_test_set(team, owner)
    text = demo_nbest_text(48)
    nbest = make_nbest(test_set, text, name="demo 7-best, all", user=owner)
    job = create_orange_job(
        nbest, owner, SPECS, OPTIONS, queue=False, max_sentences=max_sentences
    )
    assert job.n_chunks == -(-48 // max_sentences)
    job = run_chunks_reversed(job)

    expected = direct_results(test_set, text, SPECS)
    stored = {score.metric: score.to_orange_result() for score in job.scores.all()}
    assert list(stored) == SPECS
    for spec in SPECS:
        assert_same_result(stored[spec], expected[spec])
    wnm = job.scores.get(metric="wnm")
    assert wnm.higher_is_better and wnm.signature.startswith("wnm|")
    # The signature names the test set whose saliences the chunks used.
    bound = whole_test_set_metrics(test_set, ["wnm"])["wnm"]
    assert f"salience:testset-{bound.test_set.fingerprint[:12]}" in wnm.signature


def test_a_part_of_the_test_set_is_ranked_with_the_whole_test_sets_saliences(
    demo_world, owner, tmp_path
):
    # The demo n-best list covers 16 of 48 segments (3 documents of 6): the
    # job's WNM equals the command line's over the whole reference files and
    # document ids, not saliences counted over the 16 sentences alone.
    test_set, nbest = demo_world
    job = run_chunks_reversed(
        create_orange_job(nbest, owner, SPECS, OPTIONS, queue=False, max_sentences=3)
    )
    stored = {score.metric: score.to_orange_result() for score in job.scores.all()}
    bound = whole_test_set_metrics(test_set, SPECS)
    expected = direct_results(test_set, demo_nbest_text(), SPECS, metrics=bound)
    command_line = command_line_results(test_set, tmp_path, SPECS, with_documents=True)
    for spec in SPECS:
        assert_same_result(stored[spec], expected[spec])
        assert command_line[spec] == expected[spec]

    ranked_only = direct_results(test_set, demo_nbest_text(), ["wnm"])["wnm"]
    oracles = [item["oracle_score"] for item in stored["wnm"].above_reference]
    assert oracles != [item["oracle_score"] for item in ranked_only.above_reference]


def test_the_chunks_and_the_review_page_get_wnm_bound_to_the_test_set(
    demo_world, owner
):
    test_set, nbest = demo_world
    job = create_orange_job(nbest, owner, SPECS, OPTIONS, queue=False)
    expected = whole_test_set_metrics(test_set, ["wnm"])["wnm"]
    wnm, bleus = chunk_metrics(job)
    reviewed = job_metric(job, "wnm")
    for metric in (wnm, reviewed):
        assert not needs_test_set_references(metric)
        assert metric.test_set == expected.test_set  # same saliences, bit for bit
        assert metric.test_set.document_of(20) == "news-culture-03"
    assert bleus == get_metric("bleus")


# -- the form and the API ------------------------------------------------------


def post_job(client, nbest_list, **fields):
    data = {"curve_step": 1, "n_bootstrap": 100, "seed": 3, "more_metrics": ""}
    data.update(fields)
    return client.post(reverse("nbest_detail", args=[nbest_list.pk]), data)


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def test_the_form_starts_a_wnm_job_for_a_test_set_with_document_ids(
    logged_in, demo_world, django_capture_on_commit_callbacks, monkeypatch
):
    _, nbest = demo_world
    sent = []
    monkeypatch.setattr(orange_jobs, "queue_chunks", lambda ids: sent.extend(ids))
    with django_capture_on_commit_callbacks(execute=True):
        response = post_job(logged_in, nbest, more_metrics="wnm bleus")
    job = OrangeJob.objects.get()
    assert response["Location"] == job.get_absolute_url()
    assert job.metrics == SPECS
    assert len(sent) == job.n_chunks


@pytest.fixture
def api(owner, monkeypatch):
    monkeypatch.setattr(orange_jobs, "queue_chunks", lambda ids: None)
    client = APIClient()
    client.force_authenticate(user=owner)
    return client


def test_the_api_refuses_wnm_without_document_ids_with_the_same_message(api, nbest):
    response = api.post(
        f"/api/v1/nbest/{nbest.pk}/orange/", {"metrics": ["wnm"]}, format="json"
    )
    assert response.status_code == 400
    assert REFUSAL in response.json()["errors"][0]["message"]
    assert not OrangeJob.objects.exists()


def test_the_api_starts_a_wnm_job_for_a_test_set_with_document_ids(api, demo_world):
    _, nbest = demo_world
    response = api.post(
        f"/api/v1/nbest/{nbest.pk}/orange/", {"metrics": SPECS}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert OrangeJob.objects.get(pk=response.json()["job_id"]).metrics == SPECS


def test_wnm_bound_to_one_sentence_scores_the_references_as_the_job_did(
    demo_world, owner
):
    # Each reference against the others (the review page's jackknife) with
    # the sentence's document's saliences averages to the stored oracle score.
    _, nbest = demo_world
    job = run_chunks_reversed(
        create_orange_job(nbest, owner, ["wnm"], OPTIONS, queue=False)
    )
    stored = job.scores.get().to_orange_result()
    assert stored.above_reference
    streams = nbest.test_set.reference_streams()
    for item in stored.above_reference:
        sentence = int(item["sentence"])
        metric = job_metric(job, "wnm", sentence_id=sentence)
        references = [stream[sentence] for stream in streams]
        scores = []
        for k, reference in enumerate(references):
            others = [[r] for j, r in enumerate(references) if j != k]
            statistics = metric.segment_statistics([reference], others)
            scores.append(metric.sentence_scores_from_statistics(statistics)[0])
        assert np.mean(scores) == pytest.approx(item["oracle_score"], rel=1e-12)
    assert job_metric(job, "bleus", sentence_id=3) == get_metric("bleus")


def test_the_review_page_of_a_wnm_job_scores_the_references_by_the_document(
    client, demo_world, owner
):
    _, nbest = demo_world
    job = run_chunks_reversed(
        create_orange_job(nbest, owner, ["wnm"], OPTIONS, queue=False)
    )
    client.login(username=owner.username, password=PASSWORD)
    response = client.post(
        reverse("orange_review_new", args=[job.pk]),
        {"metric": "wnm", "size": 3, "seed": 1},
    )
    assert response.status_code == 302
    review = job.reviews.get()
    page = client.get(review.get_absolute_url())
    assert page.status_code == 200
    first = review.items.get(position=0)
    assert f"segment {first.sentence_id + 1}" in page.content.decode()
    assert "against the other references" in page.content.decode()
