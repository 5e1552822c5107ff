"""The result page: paper-style table, curve figure, exports, above-reference review."""

import csv
import json
from types import SimpleNamespace

import pytest
from django.urls import reverse

from mtdash.orange.jobs.figures import orange_curve_figure
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.jobs.results import above_reference_page
from mtdash.orange.models import OrangeJob
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

METRICS = ["bleu", "rouge-l", "rouge-s:d=4", "wer"]


@pytest.fixture
def job(nbest, owner):
    options = OrangeOptions(curve_step=1, n_bootstrap=100, seed=1)
    return run_orange_job_now(
        create_orange_job(nbest, owner, METRICS, options, queue=False, max_sentences=2)
    )


@pytest.fixture
def logged_in(client, member):
    client.login(username=member.username, password=PASSWORD)
    return client


def test_the_curve_figure_has_one_line_per_metric_and_marks_the_best():
    results = [
        SimpleNamespace(metric="bleu", curve=[[1, 50.0], [2, 40.0], [3, 35.0]]),
        SimpleNamespace(metric="rouge-s:d=4", curve=[[1, 45.0], [2, 30.0], [3, 25.0]]),
    ]
    figure = orange_curve_figure(results, best={"rouge-s:d=4"})
    lines = figure["data"]
    # Named by spec, with the variant parameter written out (bleu -> bleu:n=4),
    # and BLEU as the smoothed sentence BLEU that ORANGE scores.
    assert [line["name"] for line in lines] == [
        "bleu:n=4 · BLEU (add-one sentence)",
        "rouge-s:d=4 (best)",
    ]
    assert lines[1]["x"] == [1, 2, 3] and lines[1]["y"] == [45.0, 30.0, 25.0]
    assert lines[1]["line"]["width"] > lines[0]["line"]["width"]
    assert figure["layout"]["xaxis"]["type"] == "linear"
    assert "lower is better" in figure["layout"]["yaxis"]["title"]["text"]
    json.dumps(figure)  # JSON-safe for json_script
    assert orange_curve_figure([]) is None


def test_the_curve_of_a_long_list_is_drawn_on_a_log_axis_without_markers():
    curve = [[n, 20.0] for n in [1, *range(64, 16385, 64)]]
    figure = orange_curve_figure([SimpleNamespace(metric="per", curve=curve)])
    assert figure["layout"]["xaxis"]["type"] == "log"
    assert figure["data"][0]["mode"] == "lines"


def test_the_job_page_shows_the_table_with_the_best_metric_marked(logged_in, job):
    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    page = logged_in.get(job.get_absolute_url()).content.decode()
    scores = list(job.scores.all())
    best = min(scores, key=lambda s: s.orange)
    assert 'id="orange-table"' in page
    for score in scores:
        assert f'data-metric="{score.metric}"' in page
        assert f"{score.orange:.2f}%" in page
    # One best metric, by the paired test (the first of the lowest).
    assert f'<tr class="best" data-metric="{best.metric}"' in page
    assert page.count('<tr class="best"') == 1
    assert "↑" not in page and "↓" not in page  # no arrows: lower ORANGE is better
    assert 'id="orange-curve-figure"' in page
    assert reverse("orange_job_export", args=[job.pk, "csv"]) in page


def test_the_page_embeds_the_curve_figure_as_json(logged_in, job):
    response = logged_in.get(job.get_absolute_url())
    figure = response.context["figure"]
    names = [line["name"].split(" (")[0] for line in figure["data"]]
    assert names == ["bleu:n=4 · BLEU", "rouge-l", "rouge-s:d=4", "wer"]
    assert figure["data"][0]["x"] == [1, 2, 3]
    assert figure["data"][0]["y"][-1] == pytest.approx(
        job.scores.get(metric="bleu").orange
    )


def test_the_review_list_escapes_candidates_and_shows_sources_and_references(
    logged_in, job
):
    url = job.get_absolute_url() + "?metric=rouge-s%3Ad%3D4"
    page = logged_in.get(url).content.decode()
    assert "<script>alert" not in page
    assert "hello everyone &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "bonjour à tous" in page  # the source of segment 3
    assert "Ref B</span> hello all" in page
    assert 'aria-current="page">rouge-s:d=4' in page


def test_the_review_list_ranks_candidates_best_first_and_pages(job):
    score = job.scores.get(metric="wer")  # lower is better
    first = above_reference_page(job, score, 1, per_page=1)
    assert first.page.paginator.num_pages == score.n_sentences_above
    sentence = first.sentences[0]
    values = [candidate.score for candidate in sentence.candidates]
    assert values == sorted(values)
    assert all(value < sentence.oracle_score for value in values)
    second = above_reference_page(job, score, 2, per_page=1)
    assert second.sentences[0].sentence_id > sentence.sentence_id


def test_the_csv_export_has_one_row_per_metric(logged_in, job):
    response = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"]))
    assert response["Content-Type"].startswith("text/csv")
    # The settings are "#" lines above the header.
    lines = response.content.decode().splitlines()
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    table = {row["metric"]: row for row in rows}
    assert list(table) == METRICS
    bleu = job.scores.get(metric="bleu")
    assert float(table["bleu"]["orange_percent"]) == bleu.orange
    assert float(table["bleu"]["ci_low"]) == bleu.ci_low
    assert table["bleu"]["signature"] == bleu.signature
    lowest = min(float(row["orange_percent"]) for row in table.values())
    marked = {metric for metric, row in table.items() if row["best"] == "yes"}
    assert marked == {
        metric
        for metric, row in table.items()
        if float(row["orange_percent"]) == lowest
    }


def test_the_latex_export_is_a_booktabs_table_like_the_papers(logged_in, job):
    response = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"]))
    assert response["Content-Type"] == "application/x-latex; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="orange-{job.pk}.tex"'
    )
    text = response.content.decode()
    assert (
        r"Method & ORANGE & Avg Rank & 95\%-CI-L & 95\%-CI-U & ORANGE 95\%-CI \\"
        in text
    )
    assert r"\toprule" in text and r"\bottomrule" in text
    assert r"\textbf{" in text
    bleu = job.scores.get(metric="bleu")
    assert f"{bleu.orange:.2f}\\%" in text
    assert "% ORANGE over toy 3-best: 2 references (A, B), jackknife" in text


def test_there_is_nothing_to_export_before_the_job_succeeds(logged_in, nbest, owner):
    queued = create_orange_job(nbest, owner, ["bleu"], queue=False)
    assert (
        logged_in.get(reverse("orange_job_export", args=[queued.pk, "csv"])).status_code
        == 404
    )
    page = logged_in.get(queued.get_absolute_url()).content.decode()
    assert 'id="orange-job-progress"' in page and 'id="orange-table"' not in page


def test_the_status_endpoint_reports_progress(logged_in, job):
    data = logged_in.get(reverse("orange_job_status", args=[job.pk])).json()
    assert {
        name: data[name] for name in ("status", "progress", "error_message", "finished")
    } == {
        "status": "succeeded",
        "progress": 100,
        "error_message": "",
        "finished": True,
    }


def test_a_line_break_in_the_nbest_name_cannot_end_the_latex_comment(logged_in, job):
    job.nbest.name = "toy\n\\input{/etc/passwd}"
    job.nbest.save(update_fields=["name"])
    response = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"]))
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("% ORANGE over toy \\input{/etc/passwd}: ")
    assert not any(line.startswith("\\input") for line in lines)
