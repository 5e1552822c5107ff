"""Out-of-bounds metric parameters in the web forms and in a queued job.

``bleu:n=100000000`` once filled a worker's memory: the upload form, the
re-scoring form and the ORANGE form refuse it with the registry's message
before anything is stored, and a job row that holds it anyway (queued
before the bounds existed) fails when run, before its output is read or
any of its other metrics computed. A long spec is quoted by its start only.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from mtdash.evaluation.models import CorpusScore, ScoringJob, SystemOutput
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.models import OrangeJob
from tests.conftest import PASSWORD
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

HUGE_N = "bleu:n=100000000"
HUGE_N_MESSAGE = "bleu: n=100000000 is out of range; allowed: from 1 to 9"


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def post_output(client, test_set, more_metrics: str):
    return client.post(
        reverse("output_new", args=[test_set.pk]),
        {
            "system_name": "sys1",
            "hypothesis_file": text_file("hyp.en", "a\nb\nc\n"),
            "more_metrics": more_metrics,
        },
    )


def form_errors(response) -> list[str]:
    assert response.status_code == 200
    return response.context["form"].errors["more_metrics"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (HUGE_N, HUGE_N_MESSAGE),
        ("chrf:char_order=100000", "chrf: char_order=100000 is out of range"),
        ("rouge-s:d=1000", "rouge-s: d=1000 is out of range; allowed: from 0 to 100"),
        ("meteor:weights=1+5", "meteor: weights=1+5 is out of range"),
    ],
)
def test_the_upload_form_refuses_a_parameter_out_of_bounds_and_stores_nothing(
    logged_in, test_set, spec, message
):
    (error,) = form_errors(post_output(logged_in, test_set, spec))
    assert error.startswith(f"{spec}: {message}")
    assert not SystemOutput.objects.exists()
    assert not ScoringJob.objects.exists()


def test_the_rescoring_form_refuses_it_too(logged_in, test_set):
    response = logged_in.post(
        reverse("test_set_rescore", args=[test_set.pk]),
        {"more_metrics": f"bleu {HUGE_N}"},
    )
    assert any(HUGE_N_MESSAGE in error for error in form_errors(response))
    assert not ScoringJob.objects.exists()


def test_the_orange_form_refuses_it_too(logged_in, nbest):
    response = logged_in.post(
        reverse("nbest_detail", args=[nbest.pk]),
        {
            "curve_step": 1,
            "n_bootstrap": 0,
            "seed": 1,
            "more_metrics": "bleus:n=100000000",
        },
    )
    (error,) = form_errors(response)
    assert "bleus: n=100000000 is out of range; allowed: from 1 to 9" in error
    assert not OrangeJob.objects.exists()


def test_a_twenty_thousand_character_spec_is_quoted_by_its_start(logged_in, test_set):
    spec = "x" * 20_000
    response = post_output(logged_in, test_set, spec)
    (error,) = form_errors(response)
    assert len(error) < 200
    assert error.startswith("x" * 60 + "…: the metric spec is 20000 characters long")
    assert len(response.content) < 40_000  # the page itself, not two copies
    assert not SystemOutput.objects.exists()


def test_an_unknown_metric_is_quoted_by_its_start_where_no_length_applies(
    logged_in, test_set
):
    spec = "y" * 90  # under the column's length: the registry's message
    (error,) = form_errors(post_output(logged_in, test_set, spec))
    assert error.count("y" * 60) == 2 and "y" * 61 not in error
    assert error.startswith("y" * 60 + "…: unknown metric '" + "y" * 60 + "…'")


def test_a_job_row_with_the_spec_fails_before_reading_its_output(
    test_set, owner, monkeypatch
):
    job = create_system_output(
        test_set, owner, "queued-before", ["a", "b", "c"], metrics=["bleu", HUGE_N]
    )

    def unread(self):
        raise AssertionError("the output was read")

    monkeypatch.setattr(SystemOutput, "hypotheses", unread)
    assert run_scoring_job(job.pk) is True

    job.refresh_from_db()
    assert job.status == ScoringJob.Status.FAILED
    assert job.error_message.startswith(f"MetricError: {HUGE_N_MESSAGE}\n")
    assert not CorpusScore.objects.filter(output=job.output).exists()
