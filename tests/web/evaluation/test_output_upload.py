import pytest
from django.urls import reverse

from mtdash.evaluation.models import Hypothesis, ScoringJob, SystemOutput
from tests.conftest import PASSWORD
from tests.web.helpers import text_file


@pytest.fixture
def client_member(client, member):
    client.login(username=member.username, password=PASSWORD)
    return client


def post_output(client, test_set, content, name="sys1"):
    url = reverse("output_new", args=[test_set.pk])
    return client.post(
        url, {"system_name": name, "hypothesis_file": text_file("hyp.en", content)}
    )


def test_it_stores_the_output_and_queues_a_job_after_commit(
    client_member, test_set, django_capture_on_commit_callbacks, monkeypatch
):
    queued = []
    monkeypatch.setattr(
        "mtdash.evaluation.services.scoring_jobs.queue_scoring_job", queued.append
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post_output(client_member, test_set, "the cat\nrain\nhello\n")
    job = ScoringJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == job.get_absolute_url()
    assert job.status == ScoringJob.Status.QUEUED
    assert job.metrics == ["bleu"]
    assert job.output.hypotheses() == ["the cat", "rain", "hello"]
    assert queued == []  # nothing is sent before the transaction commits
    for callback in callbacks:
        callback()
    assert queued == [job.pk]


def test_it_keeps_empty_hypotheses(client_member, test_set):
    post_output(client_member, test_set, "the cat\n\nhello\n")
    assert SystemOutput.objects.get().hypotheses() == ["the cat", "", "hello"]


def test_it_rejects_an_output_with_the_wrong_line_count(client_member, test_set):
    response = post_output(client_member, test_set, "one\ntwo\n")
    assert "hyp.en, line 3: the file ends after 2 lines, but the test set has 3" in (
        response.content.decode()
    )
    assert not SystemOutput.objects.exists()
    assert not Hypothesis.objects.exists()
    assert not ScoringJob.objects.exists()


def test_it_rejects_a_second_output_of_the_same_system(client_member, test_set):
    post_output(client_member, test_set, "a\nb\nc\n")
    response = post_output(client_member, test_set, "a\nb\nc\n")
    assert "already has an output on this test set" in response.content.decode()
    assert SystemOutput.objects.count() == 1


def test_it_rejects_a_bare_carriage_return(client_member, test_set):
    response = post_output(client_member, test_set, "a\nb\rx\nc\n")
    assert (
        "hyp.en, line 2: contains a bare carriage return" in response.content.decode()
    )
