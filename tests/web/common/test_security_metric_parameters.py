"""Metric specs typed into web forms: no server file paths, no over-long specs.

A parameter that names a file on the server (``red:model=``,
``meteor:paraphrase=``, ``wordnet=``) is for the command line and the
server's configuration; a form refuses it with a message naming the
parameter, before the metric is built, so no path is ever opened.
"""

from __future__ import annotations

import builtins

import pytest
from django.urls import reverse

from mtdash.common.metric_specs import check_metric_specs
from mtdash.evaluation.models import ScoringJob
from mtdash.orange.models import OrangeJob
from scoring import MetricError, canonical_spec, get_metric
from tests.conftest import PASSWORD
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

FILE_SPECS = [
    ("red:model=/dev/zero", "model"),
    ("red:model=/etc/shadow", "model"),
    ("red:features=semantic,wordnet=/etc", "wordnet"),
    ("meteor:paraphrase=/etc/passwd", "paraphrase"),
    ("meteor:wordnet=/usr/share/wordnet", "wordnet"),
    ("METEOR:norm=true,paraphrase=/tmp/x.gz", "paraphrase"),
]


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


@pytest.fixture
def no_file_is_opened(monkeypatch):
    """Fail the test if anything opens one of the hostile paths."""
    real_open = builtins.open
    hostile = ("/dev/zero", "/etc/shadow", "/etc/passwd", "/tmp/x.gz")

    def guarded(file, *args, **kwargs):
        if str(file) in hostile:
            raise AssertionError(f"{file} was opened")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)


def post_output(client, test_set, more_metrics):
    return client.post(
        reverse("output_new", args=[test_set.pk]),
        {
            "system_name": "sys1",
            "hypothesis_file": text_file("hyp.en", "a\nb\nc\n"),
            "more_metrics": more_metrics,
        },
    )


def spec_of_length(length: int) -> str:
    """A valid BLEU spec whose canonical form is ``length`` characters long."""
    stem = "bleu:n=2,tokenize=mteval13a-sgml,lowercase=true,smooth=floor,smooth_value=0.1,sentence_smooth=none"
    digits = length - len(stem)
    spec = stem.replace("smooth_value=0.1", "smooth_value=0.1" + "3" * digits)
    assert len(canonical_spec(spec)) == len(spec) == length
    return spec


@pytest.mark.parametrize(("spec", "parameter"), FILE_SPECS)
def test_an_output_upload_refuses_a_parameter_that_names_a_server_file(
    logged_in, test_set, no_file_is_opened, spec, parameter
):
    response = post_output(logged_in, test_set, spec)

    assert response.status_code == 200
    form_errors = response.context["form"].errors
    assert "more_metrics" in form_errors, form_errors.as_json()
    errors = form_errors["more_metrics"]
    assert errors == [
        f"{spec}: the parameter '{parameter}' names a file on the server, which only "
        "the command line and the server configuration may set; leave it out to use "
        "the server's default"
    ]
    assert not ScoringJob.objects.exists()


def test_the_message_does_not_tell_whether_the_file_exists(logged_in, test_set):
    there = post_output(logged_in, test_set, "red:model=/etc/hostname")
    missing = post_output(logged_in, test_set, "red:model=/etc/no-such-file")
    first = there.context["form"].errors["more_metrics"][0]
    second = missing.context["form"].errors["more_metrics"][0]
    assert first.replace("/etc/hostname", "X") == second.replace(
        "/etc/no-such-file", "X"
    )


def test_scoring_more_metrics_refuses_a_server_file_parameter(
    logged_in, test_set, no_file_is_opened
):
    response = logged_in.post(
        reverse("test_set_rescore", args=[test_set.pk]),
        {"more_metrics": "bleu meteor:paraphrase=/etc/passwd"},
    )
    assert response.status_code == 200
    assert "&#x27;paraphrase&#x27; names a file on the server" in (
        response.content.decode()
    )
    assert not ScoringJob.objects.exists()


def test_an_orange_job_refuses_a_server_file_parameter(
    logged_in, nbest, no_file_is_opened
):
    response = logged_in.post(
        reverse("nbest_detail", args=[nbest.pk]),
        {
            "curve_step": 1,
            "n_bootstrap": 0,
            "seed": 1,
            "more_metrics": "bleus red:model=/dev/zero",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["more_metrics"] == [
        "red:model=/dev/zero: the parameter 'model' names a file on the server, which "
        "only the command line and the server configuration may set; leave it out to "
        "use the server's default"
    ]
    assert not OrangeJob.objects.exists()


def test_two_file_parameters_are_named_together() -> None:
    with pytest.raises(
        MetricError, match="the parameters 'wordnet', 'paraphrase' name"
    ):
        check_metric_specs(["meteor:wordnet=/a,paraphrase=/b"], has_document_ids=True)


def test_the_command_line_and_server_configuration_still_take_file_parameters(
    tmp_path,
) -> None:
    # What the form refuses is the registry's to accept: scoring itself loads it.
    metric = get_metric(f"meteor:wordnet={tmp_path},modules=exact")
    assert metric.wordnet == str(tmp_path)


def test_a_spec_longer_than_the_score_column_is_refused_before_any_job(
    logged_in, test_set
):
    spec = spec_of_length(101)
    response = post_output(logged_in, test_set, spec)

    assert response.status_code == 200
    (error,) = response.context["form"].errors["more_metrics"]
    assert error.endswith(
        "the metric spec is 101 characters long; at most 100 can be stored"
    )
    assert error.startswith(spec[:57])
    assert not ScoringJob.objects.exists()


def test_a_spec_as_long_as_the_score_column_is_accepted(logged_in, test_set):
    spec = spec_of_length(100)
    response = post_output(logged_in, test_set, spec)

    assert response.status_code == 302
    assert ScoringJob.objects.get().metrics == [spec]


def test_an_orange_spec_longer_than_its_column_is_refused(logged_in, nbest):
    spec = "bleus:n=4" + ",n=4" * 48  # 201 characters as typed
    assert len(spec) == 201
    response = logged_in.post(
        reverse("nbest_detail", args=[nbest.pk]),
        {"curve_step": 1, "n_bootstrap": 0, "seed": 1, "more_metrics": spec},
    )
    assert response.status_code == 200
    (error,) = response.context["form"].errors["more_metrics"]
    assert error.endswith("201 characters long; at most 200 can be stored")
    assert not OrangeJob.objects.exists()
