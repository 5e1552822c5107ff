"""Two identical uploads at the same moment: one is stored, the other gets the
form's "already exists" error (never HTTP 500), and nothing half-made stays.

The race tests run two real requests in two threads against the real database
(each thread has its own connection; SQLite's IMMEDIATE transactions make the
second writer wait, PostgreSQL's unique index makes it wait). A barrier inside
the save makes the race certain: both requests have passed the form's check
before either stores anything. The unit tests create the conflicting row
between the check and the save in one thread, so the path is covered too.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from mtdash.evaluation import forms as evaluation_forms
from mtdash.evaluation.models import (
    Hypothesis,
    ReferenceSegment,
    ReferenceSet,
    ScoringJob,
    Segment,
    System,
    SystemOutput,
    TestSet,
)
from mtdash.evaluation.services.uploads import TestSetData
from mtdash.orange import forms as orange_forms
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.uploads import create_nbest_list, parse_nbest_upload
from tests.web.helpers import build_test_set_form, text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
)

TEST_SET_TAKEN = "The team already has a test set named “newstest toy”."
OUTPUT_TAKEN = "“sys1” already has an output on this test set."
NBEST_TAKEN = "This test set already has an n-best list named “toy 3-best”."


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    """Scoring jobs are queued after commit; here they only need to be created."""
    monkeypatch.setattr(
        "mtdash.evaluation.services.scoring_jobs.queue_scoring_job", lambda pk: None
    )


def files_under(directory) -> list:
    if not directory.exists():
        return []
    return sorted(path for path in directory.rglob("*") if path.is_file())


def only_artifact_of(nbest: NBestList, artifact_dir) -> bool:
    files = files_under(artifact_dir)
    mine = artifact_dir / nbest.artifact
    return bool(files) and all(path.is_relative_to(mine) for path in files)


def wait_before_saving(monkeypatch, module, function_name: str, parties: int):
    """Both requests pass the form's check, then meet here before storing."""
    barrier = threading.Barrier(parties, timeout=30)
    original = getattr(module, function_name)

    def waiting(*args, **kwargs):
        barrier.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(module, function_name, waiting)


def post_at_once(user, url: str, make_data, parties: int = 2) -> list:
    """``parties`` clients post at the same moment; their responses, in any order."""
    start = threading.Barrier(parties, timeout=30)
    responses: list = []
    errors: list = []

    def post() -> None:
        try:
            client = Client()
            client.force_login(user)
            data = make_data()
            start.wait()
            responses.append(client.post(url, data))
        except BaseException as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(parties)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert len(responses) == parties
    return responses


def one_stored_one_refused(responses, message: str):
    codes = sorted(response.status_code for response in responses)
    assert codes == [200, 302], codes
    refused = next(r for r in responses if r.status_code == 200)
    assert message in refused.content.decode()
    return next(r for r in responses if r.status_code == 302)


# --- two real requests at once --------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_identical_test_set_uploads_at_once_store_one(owner, team, monkeypatch):
    wait_before_saving(monkeypatch, evaluation_forms, "create_test_set", 2)

    responses = post_at_once(
        owner, reverse("test_set_new"), lambda: build_test_set_form(team)
    )

    stored = one_stored_one_refused(responses, TEST_SET_TAKEN)
    test_set = TestSet.objects.get()
    assert stored["Location"] == test_set.get_absolute_url()
    assert Segment.objects.count() == 3
    assert ReferenceSet.objects.count() == 2
    assert ReferenceSegment.objects.count() == 6


@pytest.mark.django_db(transaction=True)
def test_two_identical_output_uploads_at_once_store_one(owner, test_set, monkeypatch):
    wait_before_saving(monkeypatch, evaluation_forms, "create_system_output", 2)

    responses = post_at_once(
        owner,
        reverse("output_new", args=[test_set.pk]),
        lambda: {
            "system_name": "sys1",
            "hypothesis_file": text_file("hyp.en", "the cat\nrain\nhello\n"),
        },
    )

    stored = one_stored_one_refused(responses, OUTPUT_TAKEN)
    job = ScoringJob.objects.get()
    assert stored["Location"] == job.get_absolute_url()
    assert System.objects.count() == 1
    assert SystemOutput.objects.count() == 1
    assert Hypothesis.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_identical_nbest_uploads_at_once_store_one(
    owner, test_set, artifact_dir, monkeypatch
):
    wait_before_saving(monkeypatch, orange_forms, "receive_nbest_upload", 2)

    responses = post_at_once(
        owner,
        reverse("nbest_new", args=[test_set.pk]),
        lambda: {
            "name": "toy 3-best",
            "description": "",
            "nbest_file": text_file("toy.nbest", TOY_NBEST),
        },
    )

    stored = one_stored_one_refused(responses, NBEST_TAKEN)
    nbest = NBestList.objects.get()
    assert stored["Location"] == nbest.get_absolute_url()
    # Only the stored list's artifact is left: the refused one removed its own.
    assert only_artifact_of(nbest, artifact_dir)


@pytest.mark.django_db(transaction=True)
def test_identical_uploads_without_a_forced_meeting_never_fail(owner, team):
    """Four plain simultaneous posts: however they interleave, one is stored."""
    responses = post_at_once(
        owner, reverse("test_set_new"), lambda: build_test_set_form(team), parties=4
    )

    codes = sorted(response.status_code for response in responses)
    assert codes == [200, 200, 200, 302], codes
    assert TestSet.objects.count() == 1
    assert Segment.objects.count() == 3


# --- the conflict forced in one thread -------------------------------------------


def store_first(monkeypatch, module, function_name: str, make_conflict):
    """The form's check has passed; the identical upload is stored just before ours."""
    original = getattr(module, function_name)

    def conflicting(*args, **kwargs):
        make_conflict()
        return original(*args, **kwargs)

    monkeypatch.setattr(module, function_name, conflicting)


def test_a_test_set_stored_after_the_check_gives_the_form_error(
    client, owner, team, monkeypatch
):
    client.force_login(owner)
    first = TestSetData(
        name="newstest toy",
        source_language="de",
        target_language="en",
        text_type="",
        description="the first upload",
        sources=["a", "b"],
        references={"A": ["x", "y"]},
    )
    original = evaluation_forms.create_test_set
    store_first(
        monkeypatch,
        evaluation_forms,
        "create_test_set",
        lambda: original(team, owner, first),
    )

    response = client.post(reverse("test_set_new"), build_test_set_form(team))

    assert response.status_code == 200
    assert TEST_SET_TAKEN in response.content.decode()
    test_set = TestSet.objects.get()
    assert test_set.description == "the first upload"
    assert Segment.objects.count() == 2  # none of the refused upload's rows
    assert ReferenceSet.objects.count() == 1
    assert ReferenceSegment.objects.count() == 2


def test_an_output_stored_after_the_check_gives_the_form_error(
    client, owner, test_set, monkeypatch
):
    client.force_login(owner)
    original = evaluation_forms.create_system_output
    store_first(
        monkeypatch,
        evaluation_forms,
        "create_system_output",
        lambda: original(test_set, owner, "sys1", ["first", "second", "third"]),
    )

    response = client.post(
        reverse("output_new", args=[test_set.pk]),
        {"system_name": "sys1", "hypothesis_file": text_file("hyp.en", "a\nb\nc\n")},
    )

    assert response.status_code == 200
    assert OUTPUT_TAKEN in response.content.decode()
    output = SystemOutput.objects.get()
    assert output.hypotheses() == ["first", "second", "third"]
    assert ScoringJob.objects.count() == 1
    assert System.objects.count() == 1


def test_an_nbest_list_stored_after_the_check_gives_the_form_error_and_no_artifact(
    client, owner, test_set, artifact_dir, monkeypatch
):
    client.force_login(owner)
    parsed = parse_nbest_upload(TOY_NBEST.encode(), "first.nbest", 3)
    store_first(
        monkeypatch,
        orange_forms,
        "receive_nbest_upload",
        lambda: create_nbest_list(test_set, owner, "toy 3-best", parsed),
    )

    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {
            "name": "toy 3-best",
            "description": "",
            "nbest_file": text_file("toy.nbest", TOY_NBEST),
        },
    )

    assert response.status_code == 200
    assert NBEST_TAKEN in response.content.decode()
    nbest = NBestList.objects.get()
    assert nbest.file_name == "first.nbest"
    assert only_artifact_of(nbest, artifact_dir)
