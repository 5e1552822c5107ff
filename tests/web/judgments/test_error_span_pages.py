"""The error spans' import page: signed-in team members only, CSRF, the
size limit, the result's counts, every problem shown with its file and line
(nothing stored), the list of imports, and the links to the page."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from mtdash.judgments.models import ErrorSpanAnnotation, JudgmentImport
from tests.web.helpers import text_file
from tests.web.judgments.error_span_support import annotated_fixture  # noqa: F401
from tests.web.judgments.span_world import (
    METRIC,
    METRIC_LINES,
    MQM_ROWS,
    jsonl,
    mqm_tsv,
)

pytestmark = pytest.mark.django_db


def page(test_set) -> str:
    return reverse("error_spans_import", args=[test_set.pk])


def send(client, test_set, name: str, data: bytes, **fields):
    form = {"format": "auto", "source": "human", "weights": "", **fields}
    return client.post(page(test_set), {**form, "file": text_file(name, data)})


def test_a_member_imports_a_file_and_sees_its_counts(client, member, annotated):
    client.force_login(member)
    response = send(client, annotated, "mqm.tsv", mqm_tsv())

    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "18 annotations with 10 error spans imported</strong> from mqm.tsv" in text
    assert "18 judgments of mqm" in text
    assert '<td>gamma</td><td class="num">6</td><td class="num">5</td>' in text
    assert "-7.6667" in text
    assert 'id="span-imports-table"' in text and ">human<" in text
    assert ErrorSpanAnnotation.objects.count() == 18
    assert JudgmentImport.objects.get().imported_by == member


def test_a_metrics_spans_through_the_form(client, member, annotated):
    client.force_login(member)
    response = send(client, annotated, "x.jsonl", jsonl(METRIC_LINES), source=METRIC)
    text = html.unescape(response.content.decode())
    assert f"(spans-jsonl, metric {METRIC})" in text and "judgments of" not in text
    assert ErrorSpanAnnotation.objects.filter(kind="metric").count() == 3


def test_a_problem_is_shown_with_its_file_and_line_and_nothing_stored(
    client, member, annotated
):
    client.force_login(member)
    rows = [*MQM_ROWS, ("delta", 1, "r1", "No-error", "No-error", "x", "y")]
    response = send(client, annotated, "mqm.tsv", mqm_tsv(rows))

    text = html.unescape(response.content.decode())
    assert 'id="upload-errors"' in text and "Nothing was stored." in text
    assert "mqm.tsv, line 22: unknown system 'delta'" in text
    assert not JudgmentImport.objects.exists()


def test_a_refused_field_is_shown_beside_it(client, member, annotated):
    client.force_login(member)
    response = send(client, annotated, "mqm.tsv", mqm_tsv(), weights="huge=1")
    text = html.unescape(response.content.decode())
    assert "MQM weight 'huge': a rule starts with a severity" in text
    assert not JudgmentImport.objects.exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    client, member, annotated, settings
):
    settings.MTDASH_MAX_UPLOAD_BYTES = 100
    client.force_login(member)
    response = send(client, annotated, "mqm.tsv", mqm_tsv())
    text = html.unescape(response.content.decode())
    assert f"mqm.tsv: the file is {len(mqm_tsv()):,} bytes; the limit is 100" in text
    assert not JudgmentImport.objects.exists()


def test_it_needs_a_signed_in_member_and_the_csrf_token(
    client, member, outsider, annotated
):
    response = client.get(page(annotated))
    assert response.status_code == 302 and "login" in response.url
    client.force_login(outsider)
    assert client.get(page(annotated)).status_code == 404
    assert send(client, annotated, "mqm.tsv", mqm_tsv()).status_code == 404
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(member)
    assert send(strict, annotated, "mqm.tsv", mqm_tsv()).status_code == 403
    assert not JudgmentImport.objects.exists()


def test_the_test_set_and_judgments_pages_link_to_it(client, member, annotated):
    client.force_login(member)
    link = f'href="{page(annotated)}"'
    test_set_page = client.get(annotated.get_absolute_url()).content.decode()
    assert 'id="error-spans-link"' in test_set_page and link in test_set_page
    overview = reverse("judgments_overview", args=[annotated.pk])
    judgments_page = client.get(overview).content.decode()
    assert 'id="error-spans-link"' in judgments_page and link in judgments_page
