"""The compare page: two outputs of a test set side by side."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from mtdash.evaluation.compare.page import ngram_cache_key
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.models import ComparisonJob, MetricComparison
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# References: "the cat is on the mat" / "there is a cat on the mat", ...
OUTPUTS = {
    "fair": ["the cat on mat", "it raining", "hello everyone"],
    "good": ["the cat is on the mat", "it is raining", "hello every one"],
    "<script>alert(1)</script>": ["the <script>x</script> cat", "it", "hello"],
}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def outputs(test_set, owner):
    made = {}
    for name, hypotheses in OUTPUTS.items():
        job = create_system_output(
            test_set, owner, name, hypotheses, metrics=["bleu", "ter"], queue=False
        )
        run_scoring_job(job.pk)
        made[name] = job.output
    options = ComparisonSettings(
        seed=12345, n_samples=200, n_trials=200, confidence=0.95, alpha=0.05
    )
    compare_test_set(test_set, options=options)
    return made


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def url(test_set, **query):
    base = reverse("compare_outputs", args=[test_set.pk])
    return base + (
        "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    )


def sentence_numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="sentence-(\d+)"', page)]


def test_it_shows_a_form_to_pick_two_outputs(logged_in, test_set, outputs):
    response = logged_in.get(url(test_set))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="compare-a"' in page and 'id="compare-b"' in page
    for output in outputs.values():
        assert f'<option value="{output.pk}"' in page
    assert 'id="significance"' not in page


def test_it_is_a_404_for_another_team(client, outsider, test_set, outputs):
    client.login(username=outsider.username, password=PASSWORD)
    a, b = outputs["fair"], outputs["good"]
    assert client.get(url(test_set, a=a.pk, b=b.pk)).status_code == 404
    ngrams = reverse("compare_ngrams", args=[test_set.pk]) + f"?a={a.pk}&b={b.pk}"
    assert client.get(ngrams).status_code == 404


def test_it_asks_anonymous_users_to_log_in(client, test_set):
    response = client.get(url(test_set))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_it_rejects_an_output_of_another_test_set(logged_in, test_set, team, owner):
    from mtdash.evaluation.services.uploads import TestSetData, create_test_set

    other = create_test_set(
        team,
        owner,
        TestSetData(
            name="other",
            source_language="fr",
            target_language="en",
            text_type="",
            description="",
            sources=["un", "deux", "trois"],
            references={"A": ["one", "two", "three"]},
        ),
    )
    mine = create_system_output(test_set, owner, "mine", ["a", "b", "c"], queue=False)
    theirs = create_system_output(other, owner, "theirs", ["a", "b", "c"], queue=False)
    response = logged_in.get(url(test_set, a=mine.output.pk, b=theirs.output.pk))
    assert response.status_code == 400
    page = response.content.decode()
    assert f"there is no output {theirs.output.pk} in the test set" in page
    assert 'id="compare-error"' in page


def test_it_rejects_a_bad_id_and_the_same_output_twice(logged_in, test_set, outputs):
    a = outputs["fair"].pk
    assert logged_in.get(url(test_set, a="x", b=a)).status_code == 400
    response = logged_in.get(url(test_set, a=a, b=a))
    assert response.status_code == 400
    assert "two different outputs" in response.content.decode()


def test_the_p_values_shown_are_the_stored_ones(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk)).content.decode()
    for column in ("bleu", "ter"):
        comparison = MetricComparison.objects.get(test_set=test_set, column=column)
        i = comparison.output_ids.index(a.pk)
        j = comparison.output_ids.index(b.pk)
        row = re.search(rf'<tr data-column="{column}">(.*?)</tr>', page, re.S).group(1)
        shown = [float(p) for p in re.findall(r'data-p="([^"]+)"', row)]
        expected = [
            comparison.matrices["bootstrap_p"][i][j],
            comparison.matrices["ar_p"][i][j],
        ]
        assert shown == pytest.approx(expected, abs=1e-12)
        summary = comparison.summary[str(b.pk)]
        assert f"{summary['score']:.2f}" in row
        assert f"{summary['low']:.2f}–{summary['high']:.2f}" in row


def test_a_hidden_output_has_no_tests_and_says_why(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    b.hidden = True
    b.save()
    compare_test_set(test_set)
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk)).content.decode()
    assert "B hidden: hidden outputs are left out" in page
    assert 'data-p="' not in page


def test_user_text_is_escaped(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["<script>alert(1)</script>"]
    cache.set(ngram_cache_key(test_set, a, b), None)
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk, order="index")).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>x</script>" not in page
    # The chart's labels are escaped for Plotly too (it renders some HTML).
    assert "\\u003Cscript\\u003Ealert" not in page
    ngrams = reverse("compare_ngrams", args=[test_set.pk]) + f"?a={a.pk}&b={b.pk}"
    assert "<script>" not in logged_in.get(ngrams).content.decode()


def test_sentences_are_sorted_by_how_much_better_b_is(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk, metric="bleu")).content.decode()
    response = logged_in.get(url(test_set, a=a.pk, b=b.pk, metric="bleu"))
    scores = response.context["sentences"]
    improvements = [s.score_b - s.score_a for s in scores]
    assert improvements == sorted(improvements, reverse=True)
    assert sentence_numbers(page) == [s.number for s in scores]
    reverse_order = logged_in.get(url(test_set, a=a.pk, b=b.pk, order="a"))
    assert sentence_numbers(reverse_order.content.decode()) == list(
        reversed(sentence_numbers(page))
    ) or [s.improvement for s in reverse_order.context["sentences"]] == sorted(
        s.improvement for s in scores
    )


def test_for_an_error_rate_lower_is_better(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    response = logged_in.get(url(test_set, a=a.pk, b=b.pk, metric="ter"))
    page = response.content.decode()
    sentences = response.context["sentences"]
    # good has fewer errors on sentences 1-2, fair none on 3 ("hello everyone").
    assert [s.improvement for s in sentences] == sorted(
        (s.score_a - s.score_b for s in sentences), reverse=True
    )
    assert sentences[0].better == "B"
    assert sentences[-1].number == 3 and sentences[-1].better == "A"
    assert sentences[-1].score_a == pytest.approx(0.0)
    assert "a negative B − A means B is better" in page
    assert "lower is better" in response.context["figure"]["layout"]["title"]["text"]
    assert "below the diagonal" in response.context["figure"]["layout"]["title"]["text"]


def test_an_unknown_metric_is_refused_naming_the_choices(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    response = logged_in.get(url(test_set, a=a.pk, b=b.pk, metric="rouge-l"))
    assert response.status_code == 400
    assert "choose one of: bleu, ter" in response.content.decode()


def test_tokens_are_highlighted_with_classes(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    response = logged_in.get(url(test_set, a=a.pk, b=b.pk, order="index", n="2"))
    first = response.context["sentences"][0]
    # fair: "the cat on mat"; good: "the cat is on the mat" (= reference A).
    assert first.hypothesis_b[2] == (
        "is",
        "n1-improving n2-improving n3-improving n4-improving",
    )
    assert first.hypothesis_a[0][1].startswith("n1-confirmed n2-confirmed")
    assert dict(first.hypothesis_a)["mat"] == "n1-confirmed"
    page = response.content.decode()
    assert 'class="compare-sentences order-2"' in page
    assert (
        '<span class="n1-improving n2-improving n3-improving n4-improving">is</span>'
        in page
    )


def test_clicking_a_point_opens_its_page(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    response = logged_in.get(url(test_set, a=a.pk, b=b.pk, focus="3"))
    assert 3 in [s.number for s in response.context["sentences"]]
    assert 'class="sentence card focused" id="sentence-3"' in response.content.decode()
    figure = response.context["figure"]
    assert sorted(n for trace in figure["data"] for n in trace["customdata"]) == [
        1,
        2,
        3,
    ]


def test_the_ngram_tables_are_fetched_once_then_cached(logged_in, test_set, outputs):
    a, b = outputs["fair"], outputs["good"]
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk)).content.decode()
    assert 'id="ngram-loading"' in page
    ngrams = reverse("compare_ngrams", args=[test_set.pk]) + f"?a={a.pk}&b={b.pk}"
    tables = logged_in.get(ngrams, headers={"X-Requested-With": "fetch"})
    assert tables.status_code == 200
    assert "<html" not in tables.content.decode()  # the fragment the script inserts
    table = tables.context["ngram_table"]
    unigrams = {t.ngram: (t.improving, t.worsening) for t in table.orders[0].improving}
    assert unigrams["is"] == (2, 0)  # "it is raining" too
    assert unigrams["the"] == (1, 0)  # B has both of reference A's "the"
    worsening = {t.ngram: (t.improving, t.worsening) for t in table.orders[0].worsening}
    assert worsening == {"everyone": (0, 1)}
    assert cache.get(ngram_cache_key(test_set, a, b)) is not None
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk)).content.decode()
    assert 'id="ngram-loading"' not in page and 'id="ngram-order-1"' in page


def test_the_ngram_link_without_a_script_opens_a_whole_page(
    logged_in, test_set, outputs
):
    a, b = outputs["fair"], outputs["good"]
    ngrams = reverse("compare_ngrams", args=[test_set.pk]) + f"?a={a.pk}&b={b.pk}"
    page = logged_in.get(ngrams).content.decode()
    assert "<html" in page and 'id="ngram-order-1"' in page
    assert reverse("compare_outputs", args=[test_set.pk]) in page


def test_each_sentence_links_to_both_outputs_sentence_pages(
    logged_in, test_set, outputs
):
    a, b = outputs["fair"], outputs["good"]
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk, order="index")).content.decode()
    for output in (a, b):
        assert reverse("sentence_detail", args=[output.pk, 2]) in page
        assert reverse("output_detail", args=[output.pk]) in page


def test_a_metric_scored_since_the_last_comparison_says_so(
    logged_in, test_set, outputs
):
    a, b = outputs["fair"], outputs["good"]
    MetricComparison.objects.filter(test_set=test_set, column="ter").delete()
    # The scoring jobs queued comparisons; the fixture ran one in their place.
    ComparisonJob.objects.update(status=ComparisonJob.Status.SUCCEEDED)
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk)).content.decode()
    row = re.search(r'<tr data-column="ter">(.*?)</tr>', page, re.S).group(1)
    assert "not compared yet: no comparison job has run since it was scored" in row
    from mtdash.evaluation.leaderboard.comparisons import request_comparison

    request_comparison(test_set.pk)
    page = logged_in.get(url(test_set, a=a.pk, b=b.pk)).content.decode()
    row = re.search(r'<tr data-column="ter">(.*?)</tr>', page, re.S).group(1)
    assert "not compared yet: the comparison job is pending" in row
    assert 'data-p="' in re.search(
        r'<tr data-column="bleu">(.*?)</tr>', page, re.S
    ).group(1)
