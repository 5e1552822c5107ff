"""Values longer than their database columns, and too many files, are form
errors: never an HTTP 500 from the database, never a bare "Bad Request"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mtdash.evaluation.models import ReferenceSet, Segment, TestSet
from tests.conftest import PASSWORD
from tests.web.helpers import build_test_set_form, text_file

URL = reverse("test_set_new")


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def assert_nothing_stored():
    assert not TestSet.objects.exists()
    assert not Segment.objects.exists()
    assert not ReferenceSet.objects.exists()


def test_a_250_character_document_id_is_a_form_error_naming_file_and_line(
    logged_in, team
):
    long_id = "d" * 250
    form = build_test_set_form(
        team, document_ids_file=text_file("docs.txt", f"d1\n{long_id}\nd2\n")
    )
    response = logged_in.post(URL, form)

    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "docs.txt, line 2: the document id is 250 characters long; "
        "at most 200 are allowed"
    ]
    assert_nothing_stored()


def test_a_200_character_document_id_is_stored(logged_in, team):
    long_id = "d" * 200
    form = build_test_set_form(
        team, document_ids_file=text_file("docs.txt", f"{long_id}\nd1\nd2\n")
    )
    assert logged_in.post(URL, form).status_code == 302
    assert Segment.objects.get(index=0).document_id == long_id


def test_a_150_character_reference_label_is_a_form_error(logged_in, team):
    form = build_test_set_form(team, reference_labels=f"A, {'x' * 150}")
    response = logged_in.post(URL, form)

    assert response.status_code == 200
    assert response.context["form"].errors["reference_labels"] == [
        "Label 2 is 150 characters long; at most 100 are allowed."
    ]
    assert_nothing_stored()


def test_21_reference_files_get_a_message_not_a_bare_bad_request(logged_in, team):
    references = [text_file(f"ref.{i}.en", "one\ntwo\nthree\n") for i in range(21)]
    form = build_test_set_form(
        team,
        reference_files=references,
        document_ids_file=text_file("docs.txt", "d1\nd1\nd2\n"),
    )
    response = logged_in.post(URL, form)

    assert response.status_code == 200
    assert response.context["form"].errors["reference_files"] == [
        "21 reference files were sent; at most 20 are accepted in one test set."
    ]
    assert_nothing_stored()


def test_20_reference_files_with_source_and_document_ids_are_accepted(logged_in, team):
    references = [text_file(f"ref.{i}.en", "one\ntwo\nthree\n") for i in range(20)]
    form = build_test_set_form(
        team,
        reference_files=references,
        document_ids_file=text_file("docs.txt", "d1\nd1\nd2\n"),
    )
    assert logged_in.post(URL, form).status_code == 302
    assert ReferenceSet.objects.count() == 20


def test_the_limit_on_reference_files_follows_the_setting(logged_in, team, settings):
    settings.MTDASH_MAX_REFERENCES = 3
    references = [text_file(f"ref.{i}.en", "one\ntwo\nthree\n") for i in range(4)]
    response = logged_in.post(
        URL, build_test_set_form(team, reference_files=references)
    )
    assert response.context["form"].errors["reference_files"] == [
        "4 reference files were sent; at most 3 are accepted in one test set."
    ]


def test_django_accepts_many_more_files_per_request_than_a_test_set_may_have(
    settings,
):
    assert settings.DATA_UPLOAD_MAX_NUMBER_FILES >= 2 * settings.MTDASH_MAX_REFERENCES
    assert settings.DATA_UPLOAD_MAX_NUMBER_FILES >= 100


def test_more_files_than_django_reads_get_a_page_that_says_so(
    logged_in, team, settings
):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 5
    references = [text_file(f"ref.{i}.en", "one\ntwo\nthree\n") for i in range(6)]
    response = logged_in.post(
        URL, build_test_set_form(team, reference_files=references)
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "Bad request" in page and "too many files at once" in page
    assert_nothing_stored()


def reference_rows(count: int, first: int = 1) -> dict:
    """The form's reference rows (the page's script adds one per click)."""
    return {
        f"reference_file_{row}": text_file(f"ref.{row}.en", "one\ntwo\nthree\n")
        for row in range(first, first + count)
    }


def test_reference_rows_beyond_the_20th_are_refused_not_dropped(logged_in, team):
    form = build_test_set_form(team, reference_files=[], **reference_rows(22))
    response = logged_in.post(URL, form)

    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "22 reference files were sent (rows 21 to 22 are beyond the limit); "
        "at most 20 are accepted in one test set."
    ]
    assert "at most 20 are accepted" in response.content.decode()
    assert_nothing_stored()


def test_20_reference_rows_are_all_stored(logged_in, team):
    form = build_test_set_form(team, reference_files=[], **reference_rows(20))
    assert logged_in.post(URL, form).status_code == 302
    assert ReferenceSet.objects.count() == 20


def test_a_single_reference_row_numbered_beyond_the_limit_is_refused(logged_in, team):
    form = build_test_set_form(team, reference_files=[], **reference_rows(1, first=25))
    response = logged_in.post(URL, form)

    assert response.context["form"].non_field_errors() == [
        "1 reference file was sent (row 25 is beyond the limit); "
        "at most 20 are accepted in one test set."
    ]
    assert_nothing_stored()


def test_picker_files_and_rows_together_count_against_the_limit(logged_in, team):
    picker = [text_file(f"ref.{i}.en", "one\ntwo\nthree\n") for i in range(2)]
    form = build_test_set_form(team, reference_files=picker, **reference_rows(19))
    response = logged_in.post(URL, form)

    assert response.status_code == 200
    assert "21 references; at most 20 are accepted" in str(
        response.context["form"].non_field_errors()
    )
    assert_nothing_stored()
