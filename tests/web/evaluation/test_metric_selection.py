import pytest
from django.urls import reverse

from mtdash.common.metric_specs import parse_metric_specs
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD
from tests.web.helpers import text_file


@pytest.fixture
def client_owner(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def post_output(client, test_set, **fields):
    data = {"system_name": "sys1", "hypothesis_file": text_file("hyp.en", "a\nb\nc\n")}
    data.update(fields)
    return client.post(reverse("output_new", args=[test_set.pk]), data)


@pytest.mark.parametrize(
    "text, specs",
    [
        ("bleu", ["bleu"]),
        (
            "bleu:n=2,smooth=none rouge-w:w=1.2, chrf",
            ["bleu:n=2,smooth=none", "rouge-w:w=1.2", "chrf"],
        ),
        ("bleu,bleu:n=2\nbleu:n=3;", ["bleu", "bleu:n=2", "bleu:n=3"]),
        ("  ", []),
    ],
)
def test_it_splits_typed_metric_specs(text, specs):
    assert parse_metric_specs(text) == specs


def test_it_scores_an_upload_with_the_chosen_metrics(client_owner, test_set):
    post_output(
        client_owner, test_set, metrics=["bleu"], more_metrics="bleu:n=2 bleu:n=1"
    )
    assert ScoringJob.objects.get().metrics == ["bleu", "bleu:n=2", "bleu:n=1"]


def test_it_rejects_an_unknown_metric_and_lists_the_valid_ones(client_owner, test_set):
    response = post_output(client_owner, test_set, more_metrics="blue")
    page = response.content.decode()
    assert "blue: unknown metric" in page
    assert "valid metrics: bleu" in page
    assert not ScoringJob.objects.exists()


def test_it_rejects_a_bad_parameter_and_lists_the_valid_ones(client_owner, test_set):
    page = post_output(
        client_owner, test_set, more_metrics="bleu:n=zero"
    ).content.decode()
    assert "bleu:n=zero" in page and "valid parameters of bleu" in page


def test_rescoring_queues_one_job_per_output(client_owner, test_set, owner):
    for name in ("s1", "s2"):
        create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
    response = client_owner.post(
        reverse("test_set_rescore", args=[test_set.pk]), {"more_metrics": "bleu:n=2"}
    )
    assert response.status_code == 302
    new_jobs = ScoringJob.objects.filter(metrics=["bleu:n=2"])
    assert new_jobs.count() == 2


def test_rescoring_needs_at_least_one_metric(client_owner, test_set):
    response = client_owner.post(reverse("test_set_rescore", args=[test_set.pk]), {})
    assert "choose at least one metric" in response.content.decode()


def test_outsiders_cannot_rescore(client, outsider, test_set):
    client.login(username=outsider.username, password=PASSWORD)
    response = client.post(
        reverse("test_set_rescore", args=[test_set.pk]), {"metrics": ["bleu"]}
    )
    assert response.status_code == 404
    assert not ScoringJob.objects.exists()


def test_the_leaderboard_ranks_by_the_metric_asked_for(test_set, owner):
    outputs = {
        "unigram-perfect": ["the cat is mat the on", "raining is it", "everyone hello"],
        "bigram-better": ["the cat is on", "it is", "hello"],
    }
    for name, hypotheses in outputs.items():
        job = create_system_output(
            test_set,
            owner,
            name,
            hypotheses,
            metrics=["bleu:n=1", "bleu:n=2"],
            queue=False,
        )
        run_scoring_job(job.pk)
    by_unigrams = build_leaderboard(test_set, rank_by="bleu:n=1")
    by_bigrams = build_leaderboard(test_set, rank_by="bleu:n=2")
    assert by_unigrams.primary_metric == "bleu:n=1"
    assert [row.system for row in by_unigrams.rows][0] == "unigram-perfect"
    assert [row.system for row in by_bigrams.rows][0] == "bigram-better"
    assert by_unigrams.columns[0].decimals == 2  # BLEU is on the 0–100 scale
