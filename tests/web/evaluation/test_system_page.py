"""The system page: corpus scores with intervals, analyses, sentence table."""

import re

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import TestSetAnalysis
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.evaluation.systems.figures import word_accuracy_figure
from mtdash.evaluation.systems.page import sentence_table
from tests.conftest import PASSWORD

HYPOTHESES = ["the cat is on the mat", "it rains hard", "<script>alert(1)</script>"]


@pytest.fixture
def fast_comparisons(settings):
    settings.MTDASH_COMPARISON_SAMPLES = 200
    settings.MTDASH_COMPARISON_TRIALS = 200


@pytest.fixture
def output(test_set, owner, fast_comparisons):
    job = create_system_output(
        test_set, owner, "good <b>sys</b>", HYPOTHESES, queue=False
    )
    run_scoring_job(job.pk)
    other = create_system_output(
        test_set, owner, "other", ["a cat", "rain", "hello"], queue=False
    )
    run_scoring_job(other.pk)
    return job.output


@pytest.fixture
def compared(output):
    compare_test_set(output.test_set)
    return output


def page(client, user, output, **params):
    client.login(username=user.username, password=PASSWORD)
    return client.get(reverse("output_detail", args=[output.pk]), params)


def test_an_anonymous_visitor_is_sent_to_log_in(client, output):
    response = client.get(reverse("output_detail", args=[output.pk]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    "name", ["output_detail", "output_sentences", "sentence_detail"]
)
def test_another_team_gets_404(client, outsider, output, name):
    client.login(username=outsider.username, password=PASSWORD)
    args = [output.pk, 1] if name == "sentence_detail" else [output.pk]
    assert client.get(reverse(name, args=args)).status_code == 404


def test_a_member_sees_scores_with_pending_intervals_before_the_worker(
    client, member, output
):
    response = page(client, member, output)
    assert response.status_code == 200
    text = response.content.decode()
    assert "interval pending" in text
    assert 'id="analyses-pending"' in text
    assert "bleu|" in text  # the signature on hover


def test_intervals_and_ranks_come_from_the_comparison(client, owner, compared):
    text = page(client, owner, compared).content.decode()
    assert "interval pending" not in text
    assert "95% bootstrap interval" in text
    assert "of 2" in text  # rank range among the two compared outputs
    assert 'id="figure-histogram"' in text
    assert 'id="figure-length"' in text
    assert 'id="figure-word-accuracy"' in text


def test_every_text_is_escaped(client, owner, compared):
    text = page(client, owner, compared).content.decode()
    assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<b>sys</b>" not in text


def test_the_table_sorts_by_a_metric_both_ways(compared):
    columns = {"bleu": compared.corpus_scores.get(metric="bleu").pk}
    ascending = sentence_table(compared, columns, sort="bleu")
    descending = sentence_table(compared, columns, sort="-bleu")
    scores = [row.scores[0] for row in ascending.rows]
    assert scores == sorted(scores)
    assert [row.scores[0] for row in descending.rows] == sorted(scores, reverse=True)
    assert ascending.rows[-1].number == 1  # the exact match scores best
    assert sentence_table(compared, columns, sort="nonsense").sort == "number"


def test_the_table_searches_hypotheses_sources_and_references(compared):
    columns = {}
    assert [
        r.number for r in sentence_table(compared, columns, query="RAINS").rows
    ] == [2]
    assert [
        r.number for r in sentence_table(compared, columns, query="tapis").rows
    ] == [1]
    # Reference B of segment 3 is "hello all".
    assert [r.number for r in sentence_table(compared, columns, query="all").rows] == [
        3
    ]
    assert sentence_table(compared, columns, query="zzz").n_matching == 0


def test_the_table_pages_by_fifty(test_set, owner, fast_comparisons):
    from mtdash.evaluation.services.uploads import TestSetData, create_test_set

    n = 120
    big = create_test_set(
        test_set.team,
        owner,
        TestSetData(
            name="big",
            source_language="fr",
            target_language="en",
            text_type="",
            description="",
            sources=[f"source {i}" for i in range(n)],
            references={"A": [f"reference {i}" for i in range(n)]},
        ),
    )
    job = create_system_output(
        big, owner, "sys", [f"reference {i}" for i in range(n)], queue=False
    )
    third = sentence_table(job.output, {}, page=3)
    assert (third.page, third.n_pages, third.n_matching) == (3, 3, n)
    assert [row.number for row in third.rows] == list(range(101, 121))
    assert sentence_table(job.output, {}, page=99).page == 3
    client_page = sentence_table(job.output, {}, sort="-number", page=1)
    assert client_page.rows[0].number == n


def test_the_page_links_rows_to_sentences_and_keeps_the_query(client, owner, compared):
    text = page(client, owner, compared, q="cat", sort="-bleu").content.decode()
    assert reverse("sentence_detail", args=[compared.pk, 1]) in text
    assert 'value="cat"' in text
    assert 'aria-sort="descending"' in text


def test_output_sentences_goes_to_the_table_with_its_query(client, owner, output):
    client.login(username=owner.username, password=PASSWORD)
    response = client.get(
        reverse("output_sentences", args=[output.pk]), {"sort": "-bleu", "page": "2"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("?sort=-bleu&page=2#sentences")


def test_the_worker_stores_compare_mt_buckets(compared):
    data = TestSetAnalysis.objects.get(kind=f"output:{compared.pk}").data
    bleu = data["metrics"]["bleu"]
    # Reference lengths (13a tokens, mean of A and B): 6.5, 3, 2.5 -> all "<10".
    assert bleu["length_buckets"]["counts"] == [3, 0, 0, 0, 0, 0, 0]
    assert sum(bleu["histogram"]["counts"]) == 3
    assert sum(bleu["score_buckets"]["counts"]) == 3
    references = data["word_accuracy"][0]
    assert references["key"] == "references"
    # Worked by hand (13a tokens). Frequencies on references A and B:
    #   3: the, is   2: cat, on, mat, it, hello   1: raining, everyone,
    #   there, a, rains, all   0 ("<1"): "hard" and the 11 <script> tokens.
    # Matches against A: "the the cat is on mat" all 6 (the x2, is | cat,
    # on, mat), "it"; against B ("there is a cat on the mat", "it rains"):
    # the x1, is | cat, on, mat, it | rains. Counts are summed over A and B.
    labels = references["labels"]
    bucket = {label: labels.index(label) for label in ("<1", "1", "2", "3")}
    by = {
        name: {label: references[name][i] for label, i in bucket.items()}
        for name in ("matches", "reference_words", "output_words", "f_measure")
    }
    assert by["matches"] == {"<1": 0, "1": 1, "2": 8, "3": 5}
    assert by["reference_words"] == {"<1": 0, "1": 6, "2": 10, "3": 6}
    assert by["output_words"] == {"<1": 24, "1": 2, "2": 8, "3": 6}
    assert by["f_measure"]["2"] == pytest.approx(2 * 1.0 * 0.8 / 1.8)
    assert by["f_measure"]["3"] == pytest.approx(5 / 6)
    assert by["f_measure"]["<1"] == 0.0
    figure = word_accuracy_figure(references)
    assert figure["data"][0]["x"][0] == "&lt;1"


def test_refresh_skips_outputs_whose_inputs_did_not_change(compared):
    from mtdash.evaluation.systems import analyses as system_analyses

    stored = TestSetAnalysis.objects.get(kind=f"output:{compared.pk}")
    system_analyses.refresh(compared.test_set, [compared.pk])
    again = TestSetAnalysis.objects.get(kind=f"output:{compared.pk}")
    assert again.computed_at == stored.computed_at


def test_a_hidden_output_is_analysed_but_not_compared(client, owner, output):
    output.hidden = True
    output.save()
    compare_test_set(output.test_set)
    assert TestSetAnalysis.objects.filter(kind=f"output:{output.pk}").exists()
    text = page(client, owner, output).content.decode()
    assert "hidden: not compared" in text and "interval pending" not in text


def test_analyses_of_deleted_outputs_are_dropped(compared):
    kind = f"output:{compared.pk}"
    test_set = compared.test_set
    compared.delete()
    compare_test_set(test_set)
    assert not TestSetAnalysis.objects.filter(kind=kind).exists()


def test_the_page_loads_the_partial_plotly_bundle_once(client, owner, compared):
    text = page(client, owner, compared).content.decode()
    # The bundle once, and once its style sheet (the CSP takes no inline
    # style, so Plotly's CSS comes as a file).
    assert text.count("vendor/plotly-basic-") == 2
    assert len(re.findall(r"vendor/plotly-basic-[^\"]*\.js", text)) == 1
    assert len(re.findall(r"vendor/plotly-basic-[^\"]*\.css", text)) == 1
    assert "plotly-3.3.0.min.js" not in text


def test_the_charts_draw_the_stored_buckets(compared):
    from mtdash.evaluation.systems import figures as system_figures

    bleu = TestSetAnalysis.objects.get(kind=f"output:{compared.pk}").data["metrics"][
        "bleu"
    ]
    length = system_figures.length_figure("bleu", bleu)
    assert length["data"][0]["y"] == bleu["length_buckets"]["corpus_scores"]
    assert length["data"][0]["x"][0] == "&lt;10"
    assert [a["text"] for a in length["layout"]["annotations"]][0] == "n=3"
    histogram = system_figures.histogram_figure("bleu", bleu)
    assert sum(histogram["data"][0]["y"]) == 3
    assert histogram["layout"]["xaxis"]["title"]["text"] == "sentence bleu"
    buckets = system_figures.score_buckets_figure("bleu", bleu)
    assert buckets["data"][0]["y"] == bleu["score_buckets"]["counts"]
