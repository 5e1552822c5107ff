"""ORANGE as a research team reads it: a warning wherever a list with one
candidate per sentence shows up (n-best page, job page, exports, API), the
average rank with enough decimals to show its interval, BLEU named as the
smoothed sentence BLEU it is, and every interval named (ORANGE's bootstrap
percentile interval, the review report's Wilson interval)."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from django.urls import reverse

from mtdash.orange.jobs.exports import orange_latex
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.labels import metric_name, metric_title
from mtdash.orange.reviews.reviewing import create_review
from scoring.orange import ORANGE_INTERVAL, OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    make_nbest,
    nbest_fixture,
)

ONE_BEST = """\
0 ||| the cat sat on the mat ||| lm=-3.2 ||| -4.2
1 ||| it is raining today ||| lm=-2.0 ||| -2.0
2 ||| hello all ||| lm=-1.5 ||| -1.5
"""
WARNING = "only one candidate"


@pytest.fixture
def one_best(test_set, owner, artifact_dir):
    return make_nbest(test_set, ONE_BEST, name="toy 1-best", user=owner)


def run(nbest, owner, metrics=("bleu", "wer")):
    options = OrangeOptions(curve_step=1, n_bootstrap=100, seed=1)
    return run_orange_job_now(
        create_orange_job(nbest, owner, list(metrics), options, queue=False)
    )


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def test_a_one_best_list_is_flagged_on_its_page_and_in_the_api(logged_in, one_best):
    page = logged_in.get(one_best.get_absolute_url()).content.decode()
    assert 'id="nbest-warning"' in page and WARNING in page
    # The API's n-best object, as a script polls it after the upload.
    from mtdash.api.views.orange import nbest_list_state

    assert WARNING in nbest_list_state(one_best)["warnings"][0]


def test_a_real_nbest_list_has_no_warning(logged_in, nbest, owner):
    from mtdash.api.views.orange import nbest_list_state

    assert WARNING not in logged_in.get(nbest.get_absolute_url()).content.decode()
    assert nbest_list_state(nbest)["warnings"] == []
    job = run(nbest, owner)
    assert (
        'id="orange-warning"'
        not in logged_in.get(job.get_absolute_url()).content.decode()
    )


def test_orange_on_a_one_best_list_warns_on_the_page_exports_and_json(
    logged_in, one_best, owner
):
    job = run(one_best, owner)
    page = logged_in.get(job.get_absolute_url()).content.decode()
    assert 'id="orange-warning"' in page and WARNING in page
    text = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"])).content
    comments = [line for line in text.decode().splitlines() if line.startswith("#")]
    assert any(WARNING in line for line in comments)
    assert len(pd.read_csv(io.StringIO(text.decode()), comment="#")) == 2
    tex = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"])).content
    assert any(
        line.startswith("% WARNING") and WARNING in line
        for line in tex.decode().splitlines()
    )
    body = logged_in.get(f"/api/v1/orange/{job.pk}").json()
    assert WARNING in body["warnings"][0]


def test_the_page_and_exports_name_the_interval(logged_in, nbest, owner):
    job = run(nbest, owner)
    page = logged_in.get(job.get_absolute_url()).content.decode()
    assert f'<span id="orange-interval">{ORANGE_INTERVAL}</span>' in page
    assert "percentile" in ORANGE_INTERVAL and "two-sided" in ORANGE_INTERVAL
    csv_text = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"]))
    assert (
        "95% bootstrap percentile interval over sentences" in csv_text.content.decode()
    )
    tex = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"]))
    assert ORANGE_INTERVAL in tex.content.decode()
    assert logged_in.get(f"/api/v1/orange/{job.pk}").json()["interval"] == (
        ORANGE_INTERVAL
    )


def narrow(score):
    """An average rank whose interval would print as "1.40 1.40 1.40"."""
    score.avg_rank, score.ci_low, score.ci_high = 1.4, 1.396, 1.404
    score.save(update_fields=["avg_rank", "ci_low", "ci_high"])


def test_the_average_rank_has_decimals_enough_for_its_interval(logged_in, nbest, owner):
    job = run(nbest, owner)
    narrow(job.scores.get(metric="bleu"))
    page = logged_in.get(job.get_absolute_url()).content.decode()
    row = re.search(r'<tr class="[^"]*" data-metric="bleu".*?</tr>', page, re.S)
    assert '<td class="num avg-rank">1.400</td>' in row.group(0)
    assert "1.396–1.404" in row.group(0)
    scores = list(job.scores.order_by("position"))
    latex = orange_latex(job, scores, best=[], equivalent=[])
    bleu_row = next(line for line in latex.splitlines() if line.startswith("bleu"))
    cells = [cell.strip() for cell in bleu_row.removesuffix(r" \\").split("&")]
    assert cells[2:5] == ["1.400", "1.396", "1.404"]


def test_bleu_is_named_as_the_smoothed_sentence_bleu(logged_in, nbest, owner):
    assert metric_name("bleus") == "BLEU (add-one sentence)"
    assert metric_name("bleu:n=2") == "BLEU (add-one sentence)"
    assert metric_name("bleu:sentence_smooth=none") == "BLEU (unsmoothed sentence)"
    assert metric_name("bleu:sentence_smooth=add-k,sentence_smooth_value=2") == (
        "BLEU (add-2 sentence)"
    )
    assert metric_name("wer") == "" and metric_title("wer") == "wer"
    assert metric_title("bleus") == "bleus:n=4 · BLEU (add-one sentence)"
    job = run(nbest, owner, metrics=("bleus", "wer"))
    page = logged_in.get(job.get_absolute_url()).content.decode()
    assert '<span class="metric-name">BLEU (add-one sentence)</span>' in page
    text = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"])).content
    frame = pd.read_csv(io.StringIO(text.decode()), comment="#")
    assert frame["metric_name"].fillna("").tolist() == ["BLEU (add-one sentence)", ""]
    tex = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"])).content
    assert "bleus:n=4, BLEU (add-one sentence)" in tex.decode()
    # The API's JSON (the command line's --json) names it too.
    metrics = logged_in.get(f"/api/v1/orange/{job.pk}").json()["metrics"]
    assert [entry["name"] for entry in metrics.values()] == [
        "BLEU (add-one sentence)",
        None,
    ]


def test_the_review_report_names_its_interval(logged_in, nbest, owner):
    job = run(nbest, owner)
    review = create_review(job, "wer", 2, 1, owner)
    page = logged_in.get(reverse("orange_review_report", args=[review.pk])).content
    assert "95% Wilson score interval for a proportion, two-sided" in page.decode()
    text = logged_in.get(reverse("orange_review_export", args=[review.pk, "csv"]))
    first = text.content.decode().splitlines()[0]
    assert first.startswith("# review") and "Wilson score interval" in first
    body = logged_in.get(f"/api/v1/orange/reviews/{review.pk}/report").json()
    assert body["interval"] == "95% Wilson score interval for a proportion, two-sided"


def test_the_review_pages_name_bleu_as_the_sentence_bleu(logged_in, nbest, owner):
    job = run(nbest, owner)
    review = create_review(job, "bleu", 2, 1, owner)
    name = '<span class="metric-name">BLEU (add-one sentence)</span>'
    assert name in logged_in.get(review.get_absolute_url()).content.decode()
    report = logged_in.get(reverse("orange_review_report", args=[review.pk]))
    assert name in report.content.decode()


def test_the_page_exports_and_api_name_the_paired_test_and_its_sides(
    logged_in, nbest, owner
):
    # best / equivalent / p come from a two-sided paired bootstrap: every
    # place that shows them says which test and that it is two-sided.
    job = run(nbest, owner)
    assert job.scores.filter(tested=True).exists()
    page = logged_in.get(job.get_absolute_url()).content.decode()
    named = re.search(r'<span id="orange-paired-test">(.*?)</span>', page, re.S)
    assert named and "paired bootstrap" in named.group(1)
    assert "two-sided" in named.group(1)
    assert 'title="two-sided p-value of the paired bootstrap' in page
    csv_text = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"]))
    comments = [
        line
        for line in csv_text.content.decode().splitlines()
        if line.startswith("# paired test")
    ]
    assert len(comments) == 1 and "two-sided" in comments[0]
    assert "p_value" in comments[0] and "paired bootstrap" in comments[0]
    tex = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"]))
    tex_lines = tex.content.decode().splitlines()
    assert any(
        line.startswith("% paired test") and "two-sided" in line for line in tex_lines
    )
    assert any(
        line.startswith("% bold: best") and "two-sided" in line for line in tex_lines
    )
    body = logged_in.get(f"/api/v1/orange/{job.pk}").json()
    assert body["paired_test"]["sides"] == "two-sided"
    assert "paired bootstrap" in body["paired_test"]["test"]
    comparison = logged_in.get(f"/api/v1/orange/{job.pk}/comparison").json()
    for entry in comparison.values():
        assert entry["sides"] == "two-sided"
        assert "paired bootstrap" in entry["test"]
