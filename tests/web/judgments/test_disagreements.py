"""The metric–human disagreement explorer: the ranking checked by hand on a
tiny example, error rates negated, the page (texts, judges, escaping,
permissions), the cache, and the API."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.evaluation.models import CorpusScore, SegmentScore, TestSetAnalysis
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Criterion
from mtdash.judgments.overview.disagreements import (
    choose,
    disagreement_page,
    metric_choices,
    rank_points,
)

pytestmark = pytest.mark.django_db

TOLERANCE = 1e-9

# One judge: (segment, system) -> raw value. Per-judge z is an increasing
# affine map of these, so over the points it standardises like them:
# mean 3, population sd √2.5.
HUMAN = {(1, "alpha"): 2, (1, "beta"): 1, (2, "alpha"): 5, (2, "beta"): 4}
# Sentence scores of a BLEU-like metric (mean 25, population sd √125).
METRIC = {(1, "alpha"): 40.0, (1, "beta"): 30.0, (2, "alpha"): 10.0, (2, "beta"): 20.0}


def by_hand(sign: float) -> list[tuple[tuple[int, str], float]]:
    """Points and differences worked out from the definitions (module
    docstring of the service), largest |difference| first."""
    differences = {}
    for key in HUMAN:
        metric_z = sign * (METRIC[key] - 25.0) / math.sqrt(125.0)
        human_z = (HUMAN[key] - 3.0) / math.sqrt(2.5)
        differences[key] = metric_z - human_z
    return sorted(differences.items(), key=lambda item: -abs(item[1]))


@pytest.fixture
def explored(test_set, owner):
    outputs = {}
    for name in ("alpha", "beta"):
        job = create_system_output(
            test_set, owner, name, [f"{name} one", f"{name} two", "x"], queue=False
        )
        outputs[name] = job.output
    rows = ["segment,system,judge,criterion,value"]
    rows += [f"{seg},{sys},j1,adequacy,{v}" for (seg, sys), v in HUMAN.items()]
    rows += ["1,alpha,j2,fluency,3", "1,alpha,j3,fluency,4"]
    import_judgments(test_set, owner, "\n".join(rows).encode(), "j.csv")
    for metric in ("bleu", "ter"):
        for name, output in outputs.items():
            score = CorpusScore.objects.create(
                output=output, metric=metric, score=20.0, signature=f"{metric}|test"
            )
            SegmentScore.objects.bulk_create(
                SegmentScore(corpus_score=score, index=seg - 1, score=METRIC[seg, sys])
                for (seg, sys) in METRIC
                if sys == name
            )
    return test_set


def ranked(test_set, metric_name: str, criterion: str = "adequacy"):
    metric = choose(metric_choices(test_set), metric_name, "metric")
    found = disagreement_page(test_set, metric, Criterion.objects.get(name=criterion))
    return found


def test_rank_points_on_the_worked_example():
    metric_z, human_z, order = rank_points(
        np.array([0.1, 0.2, 0.3]), np.array([1.0, 0.0, -1.0])
    )
    assert np.allclose(metric_z, [-math.sqrt(1.5), 0, math.sqrt(1.5)], atol=1e-12)
    assert np.allclose(metric_z - human_z, [-math.sqrt(6), 0, math.sqrt(6)])
    assert order.tolist() == [0, 2, 1]  # ties keep the input order


def test_the_ranking_and_differences_match_the_hand_worked_example(explored):
    found = ranked(explored, "bleu")
    expected = by_hand(+1.0)
    assert [(r.segment, r.system) for r in found.rows] == [k for k, _ in expected]
    assert [(r.segment, r.system) for r in found.rows][0] == (2, "alpha")
    for row, (_, difference) in zip(found.rows, expected):
        assert abs(row.difference - difference) < TOLERANCE
    top = found.rows[0]
    assert top.metric_score == 10.0 and top.human_raw == 5.0
    assert not top.metric_rates_higher  # the judges liked it, BLEU did not
    assert found.n_points == 4 and not found.metric_negated


def test_an_error_rate_is_negated_so_both_read_higher_is_better(explored):
    found = ranked(explored, "ter")
    expected = by_hand(-1.0)
    assert found.metric_negated
    assert [(r.segment, r.system) for r in found.rows] == [k for k, _ in expected]
    for row, (_, difference) in zip(found.rows, expected):
        assert abs(row.difference - difference) < TOLERANCE


def test_external_metrics_are_choices_too(explored, owner):
    text = "".join(
        f"{sys}\t{seg}\t{METRIC.get((seg, sys), 0.0) / 100}\n"
        for sys in ("alpha", "beta")
        for seg in (1, 2, 3)
    )
    import_external_scores(
        explored, owner, "comet-x", "test model", True, text.encode(), "c.tsv"
    )
    names = [(c.name, c.external) for c in metric_choices(explored)]
    assert names == [("bleu", False), ("ter", False), ("comet-x", True)]
    found = ranked(explored, "comet-x")
    assert [(r.segment, r.system) for r in found.rows] == [k for k, _ in by_hand(+1.0)]


def test_the_ranking_is_cached_and_recomputed_after_new_judgments(explored, owner):
    ranked(explored, "bleu")
    cached = TestSetAnalysis.objects.get(kind__startswith="disagreements:")
    first_inputs = cached.inputs
    ranked(explored, "bleu")
    assert TestSetAnalysis.objects.get(pk=cached.pk).inputs == first_inputs
    # A second judge now rates alpha's segment 2 the lowest: it changes.
    text = "segment,system,judge,criterion,value\n2,alpha,j9,adequacy,1\n2,beta,j9,adequacy,5\n"
    import_judgments(explored, owner, text.encode(), "more.csv")
    found = ranked(explored, "bleu")
    assert TestSetAnalysis.objects.get(pk=cached.pk).inputs != first_inputs
    assert found.rows[0].judges != ()
    alpha2 = next(r for r in found.rows if (r.segment, r.system) == (2, "alpha"))
    assert [(j.judge, j.value) for j in alpha2.judges] == [("j1", 5.0), ("j9", 1.0)]


def test_the_page_shows_texts_scores_and_each_judge(client, member, explored):
    client.force_login(member)
    url = reverse("judgments_disagreements", args=[explored.pk])
    response = client.get(url, {"metric": "bleu", "criterion": "adequacy"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "4</strong> judged (system, segment) points" in html
    first = html[html.index('id="disagreements"') :].split("</li>")[0]
    assert "#1 · alpha · segment 2" in first
    assert "bleu rates it lower than the judges" in first
    assert "il pleut" in first  # source of segment 2
    assert "it is raining" in first and "it rains" in first  # both references
    assert "alpha two" in first  # the hypothesis
    assert '<span class="judge">j1</span> 5' in first
    output = explored.outputs.get(system__name="alpha")
    assert reverse("sentence_detail", args=[output.pk, 2]) in first


def test_the_page_says_when_an_error_rate_was_negated(client, owner, explored):
    client.force_login(owner)
    url = reverse("judgments_disagreements", args=[explored.pk])
    html = client.get(url, {"metric": "ter"}).content.decode()
    assert "ter is an error rate (lower is better): its scores are negated" in html


def test_an_unknown_choice_lists_the_valid_ones(client, owner, explored):
    client.force_login(owner)
    url = reverse("judgments_disagreements", args=[explored.pk])
    response = client.get(url, {"metric": "nope", "criterion": "adequacy"})
    assert response.status_code == 400
    assert "no metric named &#x27;nope&#x27;; choose one of: bleu, ter" in (
        response.content.decode()
    )


def test_a_test_set_without_judgments_says_so(client, owner, test_set):
    client.force_login(owner)
    url = reverse("judgments_disagreements", args=[test_set.pk])
    html = client.get(url).content.decode()
    assert "the test set has no metric yet" in html


def test_sentences_and_judges_are_escaped(client, owner, team):
    from mtdash.evaluation.services.uploads import TestSetData, create_test_set

    evil = "<script>alert(1)</script>"
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="evil",
            source_language="fr",
            target_language="en",
            text_type="",
            description="",
            sources=[evil, "b"],
            references={"A": [f"ref {evil}", "b"]},
        ),
    )
    job = create_system_output(
        test_set, owner, "sys", [f"hyp {evil}", "b"], queue=False
    )
    output = job.output
    text = f"segment,system,judge,criterion,value\n1,sys,{evil},adequacy,3\n2,sys,j,adequacy,4\n"
    import_judgments(test_set, owner, text.encode(), "j.csv")
    score = CorpusScore.objects.create(
        output=output, metric="bleu", score=1.0, signature="s"
    )
    SegmentScore.objects.bulk_create(
        [
            SegmentScore(corpus_score=score, index=0, score=1.0),
            SegmentScore(corpus_score=score, index=1, score=2.0),
        ]
    )
    client.force_login(owner)
    html = client.get(
        reverse("judgments_disagreements", args=[test_set.pk])
    ).content.decode()
    assert evil not in html
    assert (
        html.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 4
    )  # src, ref, hyp, judge


def test_the_page_needs_a_login_and_hides_other_teams(client, outsider, explored):
    url = reverse("judgments_disagreements", args=[explored.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(url).status_code == 404


def token_client(user) -> APIClient:
    out = io.StringIO()
    call_command("create_api_token", user.username, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    return client


def test_the_api_gives_the_ranked_segments(owner, explored):
    api = token_client(owner)
    url = f"/api/v1/test-sets/{explored.pk}/judgments/disagreements"
    body = api.get(url, {"metric": "ter", "criterion": "adequacy", "limit": 3}).json()
    assert body["metric"]["negated"] is True and body["points"] == 4
    expected = by_hand(-1.0)[:3]
    assert [(r["segment"], r["system"]) for r in body["results"]] == [
        k for k, _ in expected
    ]
    for row, (_, difference) in zip(body["results"], expected):
        assert abs(row["difference"] - difference) < TOLERANCE
    first = body["results"][0]
    assert {"source", "references", "hypothesis", "judges"} <= set(first)
    assert [r["label"] for r in first["references"]] == ["A", "B"]


def test_the_api_refuses_bad_choices_and_other_teams(owner, outsider, explored):
    url = f"/api/v1/test-sets/{explored.pk}/judgments/disagreements"
    answer = token_client(owner).get(url, {"metric": "bleu", "criterion": "nope"})
    assert answer.status_code == 400
    assert "adequacy, fluency" in answer.json()["errors"][0]["message"]
    assert token_client(owner).get(url, {"limit": "0"}).status_code == 400
    assert token_client(outsider).get(url).status_code == 404
    assert APIClient().get(url).status_code in (401, 403)
