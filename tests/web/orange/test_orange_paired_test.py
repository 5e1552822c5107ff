"""The paired test between a job's metrics, stored at merge, on the page, in the
exports, the test-set summary and the API; the curve step adapted to N."""

import csv

import numpy as np
import pytest
from django.urls import reverse

from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.jobs.metric_significance import load_normalised_ranks
from mtdash.orange.summary import orange_summary
from scoring import get_metric
from scoring.orange import (
    OrangeOptions,
    compare_metrics,
    curve_points,
    normalised_ranks,
    rank_chunk_metrics,
)
from scoring.orange.nbest import NBestList as TextNBest
from scoring.orange.nbest import iter_nbest
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    demo_nbest_text,
    demo_world_fixture,
    nbest_fixture,
)

# bleu and bleu:n=4 are the same metric written twice: identical ranks.
METRICS = ["bleu", "bleu:n=4", "rouge-s:d=4", "wer", "per"]
OPTIONS = OrangeOptions(curve_step=1, n_bootstrap=300, seed=5)


@pytest.fixture
def job(demo_world, owner):
    _, nbest = demo_world
    return run_orange_job_now(
        create_orange_job(nbest, owner, METRICS, OPTIONS, queue=False, max_sentences=5)
    )


@pytest.fixture
def logged_in(client, member):
    client.login(username=member.username, password=PASSWORD)
    return client


def _one_run_ranks(test_set, text: str) -> dict[str, np.ndarray]:
    """Every metric's normalised ranks from one unchunked run, as the CLI ranks."""
    lists = TextNBest.from_entries(iter_nbest(text.splitlines(), "nbest"))
    streams = test_set.reference_streams()
    references = [tuple(stream[i] for stream in streams) for i in lists.sentence_ids]
    rankings = rank_chunk_metrics(
        [get_metric(spec) for spec in METRICS],
        lists.candidates,
        references,
        sentence_ids=lists.sentence_ids,
        curve_n=curve_points(max(len(c) for c in lists.candidates), 1),
        options=OPTIONS,
    )
    return {spec: normalised_ranks(r) for spec, r in zip(METRICS, rankings)}


def test_the_merge_keeps_the_ranks_and_stores_the_paired_test(job, demo_world):
    test_set, _ = demo_world
    stored = load_normalised_ranks(job)
    expected = _one_run_ranks(test_set, demo_nbest_text())
    assert list(stored) == METRICS
    for spec in METRICS:
        np.testing.assert_allclose(stored[spec], expected[spec], rtol=0, atol=1e-12)
    comparison = compare_metrics(expected, n_bootstrap=300, seed=5)
    scores = {score.metric: score for score in job.scores.all()}
    for row in comparison.metrics:
        score = scores[row.metric]
        assert score.tested
        assert (score.best, score.equivalent) == (row.best, row.equivalent)
        assert score.orange == pytest.approx(row.orange, abs=1e-9)
        assert score.difference == pytest.approx(row.difference, abs=1e-9)
    # Every metric at the lowest ORANGE is best (issue 19 item 3; this test
    # required exactly one best, the first of a tie, before).
    lowest = min(score.orange for score in scores.values())
    assert {m for m, score in scores.items() if score.best} == {
        m for m, score in scores.items() if score.orange <= lowest + 1e-9
    }
    # The same metric written twice is never told apart.
    first, second = scores["bleu"], scores["bleu:n=4"]
    assert (first.best, first.equivalent, first.p_value) == (
        second.best,
        second.equivalent,
        second.p_value,
    )


def test_the_page_marks_best_green_and_equivalent_gray_by_spec(logged_in, job):
    page = logged_in.get(job.get_absolute_url()).content.decode()
    scores = list(job.scores.all())
    best = next(s for s in scores if s.best)
    assert f'<tr class="best" data-metric="{best.metric}"' in page
    for score in scores:
        if score.equivalent:
            assert f'<tr class="equivalent" data-metric="{score.metric}"' in page
    assert page.count('<tr class="equivalent"') == sum(s.equivalent for s in scores)
    assert "<code>bleu:n=4</code>" in page and "<code>bleu</code>" not in page
    assert "statistically equivalent" in page
    # The ORANGE interval next to the rank interval.
    bleu = job.scores.get(metric="bleu")
    assert f"{bleu.orange_ci_low:.2f}–{bleu.orange_ci_high:.2f}%" in page
    assert f"{bleu.ci_low:.2f}–{bleu.ci_high:.2f}" in page


def test_the_exports_carry_best_and_equivalent(logged_in, job):
    text = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"])).content
    lines = text.decode().splitlines()  # the settings are "#" lines on top
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    scores = {score.metric: score for score in job.scores.all()}
    for row in rows:
        score = scores[row["metric"]]
        assert (row["best"] == "yes") == score.best
        assert (row["equivalent"] == "yes") == score.equivalent
    assert rows[0]["label"] == "bleu:n=4"
    latex = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"]))
    text = latex.content.decode()
    best = next(s for s in scores.values() if s.best)
    assert rf"\textbf{{{best.orange:.2f}\%}}" in text
    for score in scores.values():
        if score.equivalent:
            assert rf"\textit{{{score.orange:.2f}\%}}" in text


def test_the_test_set_summary_fills_best_and_equivalent(job, demo_world):
    test_set, _ = demo_world
    (entry,) = orange_summary(test_set)
    assert entry["job_id"] == job.pk and entry["url"] == job.get_absolute_url()
    scores = {score.metric: score for score in job.scores.all()}
    assert [m["metric"] for m in entry["metrics"]] == METRICS
    for item in entry["metrics"]:
        score = scores[item["metric"]]
        assert (item["best"], item["equivalent"]) == (score.best, score.equivalent)
        assert item["orange"] == score.orange
    assert entry["metrics"][0]["label"] == "bleu:n=4"
    assert entry["metrics"][2]["label"] == "rouge-s:d=4"


def test_the_comparison_api_answers_per_metric(job, owner, outsider):
    from tests.web.orange.test_orange_reviews import token_client

    body = token_client(owner).get(f"/api/v1/orange/{job.pk}/comparison").json()
    assert list(body) == METRICS
    best = [spec for spec, row in body.items() if row["best"]]
    assert best == [s.metric for s in job.scores.all() if s.best]
    assert body["bleu"]["label"] == "bleu:n=4"
    other = token_client(outsider).get(f"/api/v1/orange/{job.pk}/comparison")
    assert other.status_code == 404


def test_a_blank_curve_step_is_adapted_to_n(logged_in, nbest):
    response = logged_in.post(
        reverse("nbest_detail", args=[nbest.pk]),
        {"more_metrics": "bleu", "n_bootstrap": 0, "seed": 1, "curve_step": ""},
    )
    assert response.status_code == 302
    job = nbest.orange_jobs.get()
    assert job.curve_step == 1  # a 3-best list: every size
    run_orange_job_now(job)
    curve = job.scores.get().curve
    assert [n for n, _ in curve] == [1, 2, 3]  # N itself included


# bleu and bleu:n=4 rank every sentence alike: they tie at the lowest ORANGE.
TIED = ["bleu", "bleu:n=4"]


@pytest.fixture
def tied_job(demo_world, owner):
    _, nbest = demo_world
    return run_orange_job_now(
        create_orange_job(nbest, owner, TIED, OPTIONS, queue=False, max_sentences=5)
    )


def test_metrics_tying_the_lowest_orange_are_all_best_everywhere(
    logged_in, tied_job, owner
):
    # Issue 19 item 3: before, only the first in list order was best and the
    # other "equivalent" with p = 1.
    from tests.web.orange.test_orange_reviews import token_client

    scores = list(tied_job.scores.all())
    assert scores[0].orange == scores[1].orange
    assert [(s.best, s.equivalent, s.p_value) for s in scores] == [
        (True, False, None),
        (True, False, None),
    ]
    page = logged_in.get(tied_job.get_absolute_url()).content.decode()
    for spec in TIED:
        assert f'<tr class="best" data-metric="{spec}"' in page
    assert '<tr class="equivalent"' not in page
    assert "metrics tying it are all best" in page
    text = logged_in.get(reverse("orange_job_export", args=[tied_job.pk, "csv"]))
    lines = text.content.decode().splitlines()
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    assert [(r["best"], r["equivalent"]) for r in rows] == [("yes", "")] * 2
    assert "every metric tying the lowest ORANGE" in lines[2]
    latex = logged_in.get(reverse("orange_job_export", args=[tied_job.pk, "tex"]))
    tex = latex.content.decode()
    assert tex.count(rf"\textbf{{{scores[0].orange:.2f}\%}}") == 2
    assert r"\textit{" not in tex
    (entry,) = orange_summary(tied_job.nbest.test_set)
    assert [(m["best"], m["equivalent"]) for m in entry["metrics"]] == [
        (True, False)
    ] * 2
    api = token_client(owner)
    body = api.get(f"/api/v1/orange/{tied_job.pk}/comparison").json()
    assert [body[spec]["best"] for spec in TIED] == [True, True]
    results = api.get(f"/api/v1/orange/{tied_job.pk}").json()
    assert [results["metrics"][spec]["paired_test"]["best"] for spec in TIED] == [
        True,
        True,
    ]
