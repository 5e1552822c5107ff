"""Reviewing candidates ranked above the references: sampling, marking, the
report (Wilson interval, kappa, the paper's criterion), exports, API, access."""

import csv
import io
import math
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.models import OrangeReviewMark
from mtdash.orange.reviews.reviewing import ReviewError, create_review, mark_item
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    demo_world_fixture,
)

OPTIONS = OrangeOptions(curve_step=1, n_bootstrap=50, seed=1)
Z = 1.959963984540054


@pytest.fixture
def job(demo_world, owner):
    _, nbest = demo_world
    return run_orange_job_now(
        create_orange_job(nbest, owner, ["wer", "bleu"], OPTIONS, queue=False)
    )


@pytest.fixture
def logged_in(client, member):
    client.login(username=member.username, password=PASSWORD)
    return client


def token_client(user) -> APIClient:
    """A client with a token made as users make one (``create_api_token``)."""
    out = io.StringIO()
    call_command("create_api_token", user.username, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    return client


def _population(job, metric):
    score = job.scores.get(metric=metric)
    return [
        (int(s), int(j)) for s, _, candidates in score.above_reference
        for j, _ in candidates
    ]  # fmt: skip


def test_a_sample_is_seeded_without_repeats_from_the_candidates_above(job, owner):
    population = _population(job, "wer")
    assert len(population) > 10, "the demo list needs candidates above the refs"
    review = create_review(job, "wer", 8, 3, owner)
    items = [(i.sentence_id, i.candidate_index) for i in review.items.all()]
    assert review.population == len(population) and len(items) == 8
    assert len(set(items)) == 8 and set(items) <= set(population)
    again = create_review(job, "wer", 8, 3, owner)
    assert [(i.sentence_id, i.candidate_index) for i in again.items.all()] == items
    other = create_review(job, "wer", 8, 4, owner)
    assert [(i.sentence_id, i.candidate_index) for i in other.items.all()] != items
    everything = create_review(job, "wer", 10_000 // 10, 1, owner)
    assert everything.size == len(population)  # capped at what there is
    with pytest.raises(ReviewError):
        create_review(job, "chrf", 5, 1, owner)


def test_the_review_page_shows_one_item_with_highlights_and_keys(logged_in, job):
    response = logged_in.post(
        reverse("orange_review_new", args=[job.pk]),
        {"metric": "wer", "size": 5, "seed": 1},
    )
    review = job.reviews.get()
    assert response.status_code == 302 and response["Location"] == (
        review.get_absolute_url()
    )
    page = logged_in.get(review.get_absolute_url()).content.decode()
    first = review.items.get(position=0)
    assert 'data-position="1"' in page
    assert f"segment {first.sentence_id + 1}" in page
    assert 'class="match-' in page  # n-gram highlighting
    assert "<kbd>g</kbd>" in page and "<kbd>w</kbd>" in page and "<kbd>u</kbd>" in page
    assert "0 of 5 marked by you" in page
    assert "Reference A" in page and "Reference D" in page  # every reference
    assert "against the other references" in page
    assert re.search(r"js/review\.[0-9a-f]{12}\.js", page)


def test_marking_moves_on_and_coming_back_resumes(logged_in, member, job):
    review = create_review(job, "wer", 3, 1, member)
    items = list(review.items.all())
    url = review.get_absolute_url()
    for item, verdict in zip(items[:2], ["worse", "good"]):
        response = logged_in.post(url, {"item": item.pk, "verdict": verdict})
        assert response.status_code == 302
    page = logged_in.get(url).content.decode()
    assert 'data-position="3"' in page and "2 of 3 marked by you" in page
    logged_in.post(url, {"item": items[0].pk, "verdict": "unsure"})  # changed mind
    marks = OrangeReviewMark.objects.filter(reviewer=member)
    assert sorted(marks.values_list("verdict", flat=True)) == ["good", "unsure"]
    assert logged_in.post(url, {"item": items[2].pk, "verdict": "bad"}).status_code == (
        302
    )
    assert marks.count() == 2  # an unknown verdict is not stored
    logged_in.post(url, {"item": items[2].pk, "verdict": "worse"})
    assert 'id="review-done"' in logged_in.get(url).content.decode()


def test_the_report_counts_reviewers_agreement_and_the_criterion(
    client, owner, member, job
):
    review = create_review(job, "wer", 6, 2, owner)
    items = list(review.items.all())
    alice = ["worse", "worse", "worse", "good", "unsure", "worse"]
    bob = ["worse", "good", "worse", "good", "worse"]  # one item fewer
    for item, verdict in zip(items, alice):
        mark_item(item, owner, verdict)
    for item, verdict in zip(items, bob):
        mark_item(item, member, verdict)
    client.login(username=owner.username, password=PASSWORD)
    response = client.get(reverse("orange_review_report", args=[review.pk]))
    report = response.context["report"]
    by_name = {row.reviewer: row for row in report.reviewers}
    assert (by_name["alice"].good, by_name["alice"].worse) == (1, 4)
    assert by_name["alice"].unsure == 1
    assert (by_name["bob"].good, by_name["bob"].worse) == (2, 3)
    # Pooled decided marks: worse 7 of 10; Wilson by hand.
    n, p = 10, 0.7
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    assert report.overall.share_worse == pytest.approx(0.7, abs=1e-12)
    assert report.overall.low == pytest.approx(centre - half, abs=1e-9)
    assert report.overall.high == pytest.approx(centre + half, abs=1e-9)
    # Agreement on the 5 common items: alice w w w g u / bob w g w g w ->
    # 3 of 5 agree; p_e = (3*3 + 1*2 + 1*0) / 25 = 11/25; kappa = (15/25 - 11/25)
    # / (14/25) = 4/14.
    (pair,) = report.agreement
    assert pair.n_items == 5 and pair.raw_agreement == pytest.approx(0.6)
    assert pair.kappa == pytest.approx(4 / 14, abs=1e-12)
    assert not report.confident  # 3 as good of 10: not a small portion
    page = response.content.decode()
    assert "70.0%" in page and "can be confidently applied" in page
    assert "Lin &amp; Och 2004" in page
    csv_text = client.get(reverse("orange_review_export", args=[review.pk, "csv"]))
    lines = csv_text.content.decode().splitlines()
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    assert rows[0]["reviewer"] == "alice" and rows[0]["worse"] == "4"
    assert rows[2]["reviewer"] == "all reviewers"
    tex = client.get(reverse("orange_review_export", args=[review.pk, "tex"]))
    assert r"Reviewer & Good & Worse & Unsure" in tex.content.decode()


def test_reviews_are_team_scoped_and_need_a_login(client, outsider, owner, job):
    review = create_review(job, "wer", 2, 1, owner)
    urls = [
        review.get_absolute_url(),
        reverse("orange_review_report", args=[review.pk]),
        reverse("orange_review_export", args=[review.pk, "csv"]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # to the login page
    client.login(username=outsider.username, password=PASSWORD)
    for url in urls:
        assert client.get(url).status_code == 404
    item = review.items.first()
    assert client.post(urls[0], {"item": item.pk, "verdict": "good"}).status_code == (
        404
    )
    new = client.post(reverse("orange_review_new", args=[job.pk]), {"metric": "wer"})
    assert new.status_code == 404
    assert not OrangeReviewMark.objects.exists()


def test_the_api_creates_a_sample_and_reads_its_report(owner, member, outsider, job):
    api = token_client(owner)
    created = api.post(
        f"/api/v1/orange/{job.pk}/reviews",
        {"metric": "bleu", "size": 4, "seed": 9},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["size"] == 4
    review = job.reviews.get(pk=body["id"])
    for item in review.items.all():
        mark_item(item, member, "worse")
    report = api.get(f"/api/v1/orange/reviews/{review.pk}/report").json()
    assert report["overall"]["worse"] == 4 and report["overall"]["good"] == 0
    assert report["metric"] == "bleu" and report["label"] == "bleu:n=4"
    assert "Wilson score interval" in report["interval"]
    assert report["agreement"] == []
    bad = api.post(
        f"/api/v1/orange/{job.pk}/reviews", {"metric": "nope", "size": 4}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["errors"]
    stranger = token_client(outsider)
    assert stranger.get(f"/api/v1/orange/reviews/{review.pk}/report").status_code == 404
    assert (
        stranger.post(
            f"/api/v1/orange/{job.pk}/reviews", {"metric": "bleu"}, format="json"
        ).status_code
        == 404
    )


DUPLICATES = """\
0 ||| the cat is on the mat ||| d=1 ||| -1.0
0 ||| a cat on a mat ||| d=2 ||| -2.0
0 ||| the cat is on the mat ||| d=3 ||| -3.0
1 ||| it rains ||| d=1 ||| -1.0
1 ||| rain ||| d=2 ||| -2.0
2 ||| hello ||| d=1 ||| -1.0
2 ||| hello everyone ||| d=2 ||| -2.0
"""


def test_identical_candidates_are_collapsed_with_a_count(
    client, owner, test_set, artifact_dir
):
    from mtdash.orange.jobs.results import above_reference_page
    from mtdash.orange.reviews.reviewing import item_view
    from tests.web.orange.orange_support import make_nbest

    nbest = make_nbest(test_set, DUPLICATES, name="with copies", user=owner)
    job = run_orange_job_now(create_orange_job(nbest, owner, ["bleu"], OPTIONS))
    score = job.scores.get()
    page = above_reference_page(job, score, 1)
    first = next(s for s in page.sentences if s.sentence_id == 0)
    copy = next(c for c in first.candidates if c.text == "the cat is on the mat")
    assert copy.indices == (0, 2) and copy.copies == 2 and copy.features == "d=1"
    assert first.n_above == len(score.above_reference[0][2])
    assert first.n_distinct == first.n_above - 1
    client.login(username=owner.username, password=PASSWORD)
    html = client.get(job.get_absolute_url()).content.decode()
    assert "×2" in html and 'title="also #3"' in html and "<code>d=1</code>" in html
    review = create_review(job, "bleu", 10, 1, owner)
    item = review.items.get(sentence_id=0, candidate_index=2)
    assert item_view(item, owner).copies == 2
