"""The sentence view: texts, scores, matched n-grams, escaping, neighbours."""

import re

import pytest
from django.urls import reverse

from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.evaluation.systems.sentence_page import build_sentence_view
from tests.conftest import PASSWORD


@pytest.fixture
def output(test_set, owner):
    job = create_system_output(
        test_set,
        owner,
        "sys",
        ["the cat sat on the mat", "<script>alert('x')</script> is raining", "hi"],
        queue=False,
    )
    run_scoring_job(job.pk)
    return job.output


def get(client, user, output, number):
    client.login(username=user.username, password=PASSWORD)
    return client.get(reverse("sentence_detail", args=[output.pk, number]))


def test_hypothesis_tokens_carry_their_longest_matched_order(output):
    view = build_sentence_view(output, 1)
    # Against "the cat is on the mat" (A) and "there is a cat on the mat" (B):
    # "on the mat" is a trigram of both, "the cat" a bigram of A, "sat" nowhere.
    assert view.hypothesis.pairs == (
        ("the", "match-2"), ("cat", "match-2"), ("sat", "match-0"),
        ("on", "match-3"), ("the", "match-3"), ("mat", "match-3"),
    )  # fmt: skip
    a, b = view.references
    assert (a.label, b.label) == ("A", "B")
    assert [css for _, css in a.pairs] == [
        "match-2", "match-2", "match-0", "match-3", "match-3", "match-3",
    ]  # fmt: skip
    assert [css for _, css in b.pairs] == [
        "match-0", "match-0", "match-0", "match-1", "match-3", "match-3", "match-3",
    ]  # fmt: skip


def test_the_page_shows_source_references_scores_and_a_legend(client, member, output):
    response = get(client, member, output, 1)
    assert response.status_code == 200
    text = response.content.decode()
    assert "le chat est sur le tapis" in text
    assert "Reference A" in text and "Reference B" in text
    assert '<span class="match-3">mat</span>' in text
    assert 'id="match-legend"' in text
    assert 'id="sentence-scores"' in text and ">bleu<" in text
    assert 'rel="next"' in text and 'rel="prev"' not in text


def test_user_text_is_escaped_token_by_token(client, owner, output):
    text = get(client, owner, output, 2).content.decode()
    assert "<script>" not in text
    assert re.search(r'<span class="match-0">&lt;</span>', text)
    assert 'rel="prev"' in text


def test_the_last_sentence_has_no_next_and_beyond_it_is_404(client, owner, output):
    assert 'rel="next"' not in get(client, owner, output, 3).content.decode()
    assert get(client, owner, output, 4).status_code == 404
    assert get(client, owner, output, 0).status_code == 404


def test_another_team_gets_404(client, outsider, output):
    assert get(client, outsider, output, 1).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(client, output):
    response = client.get(reverse("sentence_detail", args=[output.pk, 1]))
    assert response.status_code == 302
