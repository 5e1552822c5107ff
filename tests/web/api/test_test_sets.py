"""Test sets over the API: upload (validated by the web form's code, atomic,
idempotent), list, read; another team's test set is a 404."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection

from mtdash.api.models import IdempotentRequest
from mtdash.evaluation.models import ReferenceSegment, ReferenceSet, Segment, TestSet
from mtdash.teams.models import Membership, Team
from tests.web.api.conftest import test_set_upload
from tests.web.helpers import text_file

URL = "/api/v1/test-sets/"
MALFORMED = Path(__file__).resolve().parents[2] / "fixtures" / "malformed"


def test_an_upload_answers_its_id_segments_and_references(api, team):
    response = api.post(URL, test_set_upload(text_type="news"), format="multipart")
    assert response.status_code == 201, response.json()
    test_set = TestSet.objects.get(name="api toy")
    assert response.json() == {
        "id": test_set.pk,
        "name": "api toy",
        "n_segments": 3,
        "references": ["A", "B"],
    }
    assert test_set.team == team and test_set.text_type == "news"
    assert test_set.reference_streams() == [
        ["one", "two", "three"],
        ["a one", "a two", "a three"],
    ]


def test_labels_default_to_letters_and_document_ids_are_stored(api):
    data = test_set_upload(document_ids=text_file("ids", "d1\nd1\nd2\n"))
    del data["reference_label"]
    response = api.post(URL, data, format="multipart")
    assert response.status_code == 201, response.json()
    assert response.json()["references"] == ["A", "B"]
    assert list(Segment.objects.values_list("document_id", flat=True)) == [
        "d1",
        "d1",
        "d2",
    ]


def test_the_list_and_the_detail_show_only_the_users_teams(api, outsider_api, test_set):
    listed = api.get(URL).json()
    assert [item["id"] for item in listed] == [test_set.pk]
    detail = api.get(f"{URL}{test_set.pk}").json()
    assert detail["n_segments"] == 3 and detail["references"] == ["A", "B"]
    assert detail["team"] == "Alpha lab" and detail["source_language"] == "fr"
    assert outsider_api.get(URL).json() == []
    response = outsider_api.get(f"{URL}{test_set.pk}")
    assert response.status_code == 404
    assert response.json()["errors"][0]["file"] is None


def test_a_team_is_named_when_the_user_has_several(api, owner):
    other = Team.objects.create(name="Beta lab")
    Membership.objects.create(team=other, user=owner)
    response = api.post(URL, test_set_upload(), format="multipart")
    assert response.status_code == 400
    assert "several teams" in response.json()["errors"][0]["message"]
    response = api.post(URL, test_set_upload(team="Beta lab"), format="multipart")
    assert response.status_code == 201
    assert TestSet.objects.get().team == other


def test_another_teams_name_is_refused_like_an_unknown_one(api, outsider):
    response = api.post(URL, test_set_upload(team="Other lab"), format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "file": None,
            "line": None,
            "message": "team: you are not in a team named 'Other lab'",
        }
    ]
    assert not TestSet.objects.exists()


def test_an_unknown_format_is_a_400(api):
    response = api.post(URL, test_set_upload(format="docx"), format="multipart")
    assert response.status_code == 400
    message = response.json()["errors"][0]["message"]
    assert message == (
        "format: 'docx' is not supported (yet); use one of auto, plain, sgml, "
        "wmt-xml, tsv"
    )
    assert not TestSet.objects.exists()


def test_one_tsv_file_holds_the_whole_test_set_and_its_outputs(api):
    tsv = (
        "source\tref:A\tref:B\tsystem:sys-x\n"
        "un\tone\ta one\tone\n"
        "deux\ttwo\ta two\ttoo\n"
        "trois\tthree\ta three\ttree\n"
    )
    data = {
        "name": "tsv toy",
        "source_language": "fr",
        "target_language": "en",
        "format": "tsv",
        "source": text_file("all.tsv", tsv),
    }
    response = api.post(URL, data, format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["n_segments"], body["references"]) == (3, ["A", "B"])
    test_set = TestSet.objects.get()
    assert test_set.outputs.get().system.name == "sys-x"


def test_missing_fields_are_named_as_the_api_names_them(api):
    data = test_set_upload()
    del data["source"], data["name"]
    response = api.post(URL, data, format="multipart")
    assert response.status_code == 400
    messages = [e["message"] for e in response.json()["errors"]]
    assert any(m.startswith("name: ") for m in messages), messages


@pytest.mark.parametrize(
    "slot, fixture, line, start",
    [
        ("source", "empty.src", None, "the file is empty (0 bytes)"),
        ("reference", "short.ref", 3, "the file ends after 2 lines"),
        ("reference", "latin1.hyp", 1, "invalid UTF-8"),
        ("reference", "nul.hyp", 2, "contains a NUL character"),
        ("document_ids", "zero-width.docs", 2, "the document id contains U+200B"),
    ],
)
def test_a_malformed_file_is_named_with_its_line_and_nothing_is_stored(
    api, slot, fixture, line, start
):
    body = (MALFORMED / fixture).read_bytes()
    data = test_set_upload()
    if slot == "reference":
        data["reference"] = [data["reference"][0], text_file(fixture, body)]
    else:
        data[slot] = text_file(fixture, body)
    response = api.post(URL, data, format="multipart")
    assert response.status_code == 400, response.json()
    [problem] = response.json()["errors"]
    assert problem["file"] == fixture and problem["line"] == line
    assert problem["message"].startswith(start), problem
    for model in (TestSet, Segment, ReferenceSet, ReferenceSegment, IdempotentRequest):
        assert not model.objects.exists()


def test_a_file_over_the_limit_is_refused_with_its_size(api, settings):
    settings.MTDASH_MAX_UPLOAD_BYTES = 10
    response = api.post(URL, test_set_upload(), format="multipart")
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert problem["file"] == "src.fr"
    assert problem["message"] == "the file is 14 bytes; the limit is 10"
    assert not TestSet.objects.exists()


def test_a_retry_with_the_same_key_returns_the_first_result(api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "upload-1"}
    first = api.post(URL, test_set_upload(), format="multipart", **headers)
    again = api.post(URL, test_set_upload(), format="multipart", **headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert TestSet.objects.count() == 1 and Segment.objects.count() == 3


def test_the_same_key_with_another_request_is_refused(api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "upload-2"}
    api.post(URL, test_set_upload(), format="multipart", **headers)
    other = test_set_upload(name="another name")
    response = api.post(URL, other, format="multipart", **headers)
    assert response.status_code == 422
    assert "different request" in response.json()["errors"][0]["message"]
    assert TestSet.objects.count() == 1


def test_without_a_key_a_second_upload_is_refused_by_name(api):
    assert api.post(URL, test_set_upload(), format="multipart").status_code == 201
    response = api.post(URL, test_set_upload(), format="multipart")
    assert response.status_code == 400
    assert "already has a test set named" in response.json()["errors"][0]["message"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_create_once(api):
    if connection.vendor == "sqlite" and connection.settings_dict["NAME"] == ":memory:":
        pytest.skip("threads need a database file")
    barrier = threading.Barrier(4)
    answers = []

    def post():
        barrier.wait()
        response = api.post(
            URL, test_set_upload(), format="multipart", HTTP_IDEMPOTENCY_KEY="race"
        )
        answers.append((response.status_code, response.json()))
        connection.close()

    threads = [threading.Thread(target=post) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert TestSet.objects.count() == 1
    assert IdempotentRequest.objects.count() == 1
    # Every answer is the one result (none is a "name taken" 400).
    assert {(status, body["id"]) for status, body in answers} == {
        (201, TestSet.objects.get().pk)
    }
