"""The API refuses a metric parameter out of its bounds with 400, stores
nothing, and quotes only the start of a long spec.

``curl -F metric=bleu:n=100000000`` on an output upload once grew a worker
to 3.46 GB; an unknown 20,000-character spec came back twice in a 40 KB
reply.
"""

from __future__ import annotations

from mtdash.api.models import IdempotentRequest
from mtdash.evaluation.models import ScoringJob, SystemOutput
from tests.web.helpers import text_file

HYPOTHESES = "the cat sat on the mat\nit is raining\nhello all of you\n"


def upload(api, test_set, metric):
    return api.post(
        f"/api/v1/test-sets/{test_set.pk}/outputs/",
        {
            "system": "sys-a",
            "hypotheses": text_file("hyp.en", HYPOTHESES),
            "metric": metric,
        },
        format="multipart",
    )


def test_bleu_with_n_of_a_hundred_million_is_refused_with_400(api, test_set, queued):
    response = upload(api, test_set, ["bleu:n=100000000"])

    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert problem["message"].startswith(
        "metric: bleu:n=100000000: bleu: n=100000000 is out of range; "
        "allowed: from 1 to 9\n"
    )
    assert not SystemOutput.objects.exists()
    assert not ScoringJob.objects.exists()
    assert queued == []


def test_every_spec_is_checked_so_a_good_one_does_not_let_a_bad_one_through(
    api, test_set, queued
):
    response = upload(api, test_set, ["chrf", "chrf:char_order=100000"])
    assert response.status_code == 400
    assert (
        "char_order=100000 is out of range; allowed: from 0 to 10"
        in (response.json()["errors"][0]["message"])
    )
    assert not SystemOutput.objects.exists()


def test_a_twenty_thousand_character_spec_gets_a_short_reply(api, test_set):
    response = upload(api, test_set, ["z" * 20_000])

    assert response.status_code == 400
    assert len(response.content) < 1_000
    [problem] = response.json()["errors"]
    assert problem["message"] == (
        "metric: " + "z" * 60 + "…: the metric spec is 20000 characters long; "
        "at most 100 can be stored"
    )
    assert not SystemOutput.objects.exists()
    assert not IdempotentRequest.objects.filter(status_code=201).exists()
