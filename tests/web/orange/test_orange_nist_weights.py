"""A web ORANGE job scores NIST with the whole test set's information weights.

The job's chunks are ranked apart, each with a few sentences; every chunk
must still use the weights of every reference of the test set (mteval-v13a,
SPEC section 2). The demo world's n-best list covers 16 of the test set's 48
segments, so weights from the chunk, or from the n-best list's sentences
only, would give other numbers than ``python -m scoring orange`` over the
reference files, which counts every line.
"""

import numpy as np
import pytest

from mtdash.orange.jobs.lifecycle import (
    create_orange_job,
    run_orange_chunk,
    run_orange_job_now,
)
from mtdash.orange.jobs.metrics import chunk_metrics, references_by_segment
from mtdash.orange.reviews.reviewing import create_review, item_view
from scoring import get_metric
from scoring.orange import OrangeOptions, orange_for_metric
from scoring.orange.nbest import NBestList as TextNBest
from scoring.orange.nbest import iter_nbest
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    command_line_results,
    demo_nbest_text,
    demo_world_fixture,
    single_run,
)

NIST_SPECS = ["nist", "nist:n=3,lowercase=true", "bleus:n=4"]
OPTIONS = OrangeOptions(curve_step=2, n_bootstrap=200, seed=7)


def test_the_chunks_metrics_carry_the_weights_of_every_reference_of_the_test_set(
    demo_world, owner
):
    test_set, nbest = demo_world
    job = create_orange_job(nbest, owner, NIST_SPECS, OPTIONS, queue=False)
    _, references = references_by_segment(test_set, job.reference_labels)
    assert len(references) == test_set.segments.count() == 48
    assert all(len(segment) == 4 for segment in references)
    nist, nist_3, bleus = chunk_metrics(job)
    assert nist.reference_weights.n_segments == 48 * 4
    assert nist_3.reference_weights.n_segments == 48 * 4
    assert bleus == get_metric("bleus:n=4")  # other metrics as specified


@pytest.mark.parametrize("max_sentences", [3, 16])
def test_a_chunked_jobs_nist_orange_equals_the_command_lines(
    demo_world, owner, tmp_path, max_sentences
):
    test_set, nbest = demo_world
    job = create_orange_job(
        nbest, owner, NIST_SPECS, OPTIONS, queue=False, max_sentences=max_sentences
    )
    for chunk_id in reversed(list(job.chunks.values_list("pk", flat=True))):
        run_orange_chunk(chunk_id)
    job.refresh_from_db()
    assert job.status == job.Status.SUCCEEDED, job.error_message

    expected = command_line_results(test_set, tmp_path, NIST_SPECS)
    bound = dict(zip(job.metrics, chunk_metrics(job)))
    for score in job.scores.all():
        assert score.to_orange_result() == expected[score.metric], score.metric
        # NIST's signature names the references its weights come from.
        weights = getattr(bound[score.metric], "reference_weights", None)
        if weights is not None:
            assert f"info:refs-{weights.fingerprint[:12]}" in score.signature
        else:
            assert "info:refs-" not in score.signature


def test_the_weights_are_not_those_of_the_n_best_lists_sentences_alone(
    demo_world, owner, tmp_path
):
    # Binding NIST to the 16 ranked sentences' references only (what a
    # plain orange_for_metric call over them does) moves the oracle scores.
    test_set, _ = demo_world
    whole = command_line_results(test_set, tmp_path, ["nist"])["nist"]
    assert single_run(test_set, demo_nbest_text(), "nist", OPTIONS) == whole
    lists = TextNBest.from_entries(iter_nbest(demo_nbest_text().splitlines(), "x"))
    streams = test_set.reference_streams()
    ranked_only = orange_for_metric(
        get_metric("nist"),
        "nist",
        lists.candidates,
        [tuple(stream[i] for stream in streams) for i in lists.sentence_ids],
        OPTIONS,
        sentence_ids=lists.sentence_ids,
    )
    assert whole.n_sentences == ranked_only.n_sentences == 16
    oracles = [item["oracle_score"] for item in whole.above_reference]
    assert oracles != [item["oracle_score"] for item in ranked_only.above_reference]


def test_the_review_page_scores_the_references_with_the_jobs_weights(demo_world, owner):
    # Each reference's jackknife score on the review page averages to the
    # oracle score the job stored: the same test-set-wide weights.
    _, nbest = demo_world
    job = create_orange_job(nbest, owner, ["nist"], OPTIONS, queue=False)
    job = run_orange_job_now(job)
    review = create_review(job, "nist", 3, 1, owner)
    oracles = {
        int(sentence): oracle
        for sentence, oracle, _ in job.scores.get().above_reference
    }
    for item in review.items.all():
        scores = [reference.score for reference in item_view(item, owner).references]
        assert len(scores) == 4
        assert np.mean(scores) == pytest.approx(oracles[item.sentence_id], rel=1e-12)
