import pytest
from django.urls import reverse

from mtdash.evaluation.models import ReferenceSegment, Segment, TestSet
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.conftest import PASSWORD
from tests.web.helpers import build_test_set_form, text_file

URL = reverse("test_set_new")


@pytest.fixture
def client_owner(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def error_text(response) -> str:
    return response.content.decode()


def test_it_stores_a_test_set_with_its_references(client_owner, team):
    response = client_owner.post(
        URL, build_test_set_form(team, reference_labels="human-1, human-2")
    )
    test_set = TestSet.objects.get(name="newstest toy")
    assert response.status_code == 302
    assert response["Location"] == test_set.get_absolute_url()
    assert list(test_set.segments.values_list("source", flat=True)) == [
        "un",
        "deux",
        "trois",
    ]
    assert [s.reference_streams() for s in [test_set]][0] == [
        ["one", "two", "three"],
        ["a one", "a two", "a three"],
    ]
    assert list(test_set.reference_sets.values_list("label", flat=True)) == [
        "human-1",
        "human-2",
    ]


def test_it_keeps_document_ids(client_owner, team):
    form = build_test_set_form(
        team, document_ids_file=text_file("docs", "d1\nd1\nd2\n")
    )
    client_owner.post(URL, form)
    docs = Segment.objects.order_by("index").values_list("document_id", flat=True)
    assert list(docs) == ["d1", "d1", "d2"]


def test_it_accepts_crlf_and_a_byte_order_mark(client_owner, team):
    form = build_test_set_form(
        team, source_file=text_file("src.fr", b"\xef\xbb\xbfun\r\ndeux\r\ntrois\r\n")
    )
    client_owner.post(URL, form)
    assert list(Segment.objects.values_list("source", flat=True)) == [
        "un",
        "deux",
        "trois",
    ]


def test_it_rejects_a_reference_with_too_few_lines(client_owner, team):
    refs = [text_file("ref.A.en", "one\ntwo\n")]
    response = client_owner.post(URL, build_test_set_form(team, reference_files=refs))
    assert response.status_code == 200
    assert "ref.A.en, line 3: the file ends after 2 lines" in error_text(response)
    assert "the source file src.fr has 3" in error_text(response)
    assert not TestSet.objects.exists()


def test_it_rejects_a_reference_with_an_extra_line(client_owner, team):
    refs = [text_file("ref.A.en", "one\ntwo\nthree\nfour\n")]
    response = client_owner.post(URL, build_test_set_form(team, reference_files=refs))
    assert "ref.A.en, line 4: extra line" in error_text(response)
    assert not TestSet.objects.exists()


def test_it_rejects_invalid_utf8_naming_file_and_line(client_owner, team):
    refs = [text_file("ref.A.en", b"one\ntwo\nthr\xe9e\n")]
    response = client_owner.post(URL, build_test_set_form(team, reference_files=refs))
    assert (
        "ref.A.en, line 3: invalid UTF-8 (byte 0xe9 at byte 4 of the line)"
        in error_text(response)
    )
    assert not TestSet.objects.exists()
    assert not ReferenceSegment.objects.exists()


def test_it_rejects_an_empty_source_file(client_owner, team):
    response = client_owner.post(
        URL, build_test_set_form(team, source_file=text_file("src.fr", b""))
    )
    # Django itself refuses a 0-byte upload; a file of blank lines reaches our check.
    assert response.status_code == 200
    assert not TestSet.objects.exists()
    form = build_test_set_form(team, source_file=text_file("src.fr", "\n\n\n"))
    response = client_owner.post(URL, form)
    assert "src.fr: the file is empty" in error_text(response)


def test_it_stores_nothing_when_a_later_reference_is_bad(client_owner, team):
    refs = [
        text_file("ref.A.en", "one\ntwo\nthree\n"),
        text_file("ref.B.en", b"\xff\n"),
    ]
    response = client_owner.post(URL, build_test_set_form(team, reference_files=refs))
    assert "ref.B.en, line 1: invalid UTF-8" in error_text(response)
    assert not TestSet.objects.exists()
    assert not ReferenceSegment.objects.exists()


def test_it_rejects_a_file_over_the_size_limit(client_owner, team, settings):
    settings.MTDASH_MAX_UPLOAD_BYTES = 10
    response = client_owner.post(URL, build_test_set_form(team))
    assert "src.fr: the file is 14 bytes; the limit is 10" in error_text(response)
    assert not TestSet.objects.exists()


def test_it_rejects_a_label_count_that_differs_from_the_files(client_owner, team):
    response = client_owner.post(URL, build_test_set_form(team, reference_labels="A"))
    assert "Give one label per reference file (2 files, 1 labels)" in error_text(
        response
    )


def test_it_rejects_a_duplicate_test_set_name(client_owner, team, test_set):
    response = client_owner.post(URL, build_test_set_form(team, name=test_set.name))
    assert "already has a test set named" in error_text(response)
    assert TestSet.objects.count() == 1


def test_it_rejects_a_bad_language_code(client_owner, team):
    response = client_owner.post(
        URL, build_test_set_form(team, source_language="French")
    )
    assert "Select a valid choice. French is not one of the available choices." in (
        error_text(response)
    )
    assert not TestSet.objects.exists()


def test_it_does_not_let_a_user_upload_into_another_team(client, outsider, team):
    client.login(username=outsider.username, password=PASSWORD)
    response = client.post(URL, build_test_set_form(team))
    assert response.status_code == 200
    assert "Select a valid choice" in error_text(response)
    assert not TestSet.objects.exists()


def test_it_escapes_sentences_shown_back(client_owner, team, test_set):
    TestSet.objects.filter(pk=test_set.pk).update(
        description="<script>alert(1)</script>"
    )
    response = client_owner.get(test_set.get_absolute_url())
    assert b"<script>alert(1)</script>" not in response.content
    assert b"&lt;script&gt;alert(1)&lt;/script&gt;" in response.content


AWKWARD_TEXTS = [
    "tab\there",
    "back\\slash and \\N",
    "quotes \"double\" and 'single'",
    "",
    "ünïcödé 中文 😀",
]


def test_stored_segments_keep_every_character(team, owner):
    """Sources, references and hypotheses are written as plain rows (COPY on
    PostgreSQL): tabs, backslashes, a literal \\N, quotes, an empty line and
    non-Latin text come back as given, in order."""
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="awkward",
            source_language="de",
            target_language="en",
            text_type="",
            description="",
            sources=[text or "x" for text in AWKWARD_TEXTS],
            references={"A": AWKWARD_TEXTS},
            document_ids=["d\t1", "d\\2", "d3", "d3", "d4"],
        ),
    )
    output = create_system_output(
        test_set, owner, "sys", list(reversed(AWKWARD_TEXTS)), queue=False
    ).output
    segments = list(test_set.segments.order_by("index"))
    assert [s.source for s in segments] == [text or "x" for text in AWKWARD_TEXTS]
    assert [s.document_id for s in segments] == ["d\t1", "d\\2", "d3", "d3", "d4"]
    reference = test_set.reference_sets.get(label="A")
    assert [r.text for r in reference.segments.order_by("index")] == AWKWARD_TEXTS
    assert output.hypotheses() == list(reversed(AWKWARD_TEXTS))
