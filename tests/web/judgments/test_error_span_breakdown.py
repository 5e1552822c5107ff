"""Errors per system from the stored spans: category × severity counts
(equal to counts taken here from the stored spans), errors per 100 words
(by hand from the small annotated world), one document's, a metric's, the
overview's table and chart, the segments with a category, the links to the
pages, and team scoping."""

from __future__ import annotations

import html
import json
import re
from collections import Counter

import pytest
from django.urls import reverse

from mtdash.evaluation.models import Segment
from mtdash.judgments.error_spans.breakdown import NO_CATEGORY
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.models import ErrorSpan
from scoring import get_tokenizer
from tests.web.judgments.error_span_support import (  # noqa: F401  (fixtures)
    evil_fixture,
    spans_fixture,
)
from tests.web.judgments.span_view_support import output_of
from tests.web.judgments.span_world import METRIC, OUTPUTS, jsonl, span

pytestmark = pytest.mark.django_db


def get(client, name: str, pk: int, **query):
    response = client.get(reverse(name, args=[pk]), query)
    assert response.status_code == 200
    return response


def stored_counts(output, kind="human", annotator=None) -> Counter:
    found = ErrorSpan.objects.filter(annotation__output=output, annotation__kind=kind)
    if annotator:
        found = found.filter(annotation__annotator=annotator)
    return Counter(
        (category or NO_CATEGORY, severity)
        for category, severity in found.values_list("category", "severity")
    )


def table_cells(page: str, table_id: str) -> dict[str, list[str]]:
    """Row header -> the row's cell texts, of the table's body."""
    table = page[page.index(f'id="{table_id}"') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        header = re.search(r"<th[^>]*>(.*?)</th>", row, re.S).group(1)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        strip = lambda text: html.unescape(re.sub(r"<[^>]+>", "", text)).strip()  # noqa: E731
        rows[strip(header)] = [strip(cell) for cell in cells]
    return rows


def test_a_systems_counts_per_category_and_severity_are_its_stored_spans(
    client, member, spans
):
    client.force_login(member)
    for system in OUTPUTS:
        output = output_of(spans, system)
        response = get(client, "error_spans_system", output.pk)
        breakdown = response.context["breakdown"]
        expected = stored_counts(output)
        assert breakdown.counts == dict(expected)

        cells = table_cells(response.content.decode(), "category-severity-table")
        severities = breakdown.severities
        assert set(cells) == {category for category, _ in expected}
        for category, texts in cells.items():
            counts = [expected[(category, s)] for s in severities]
            assert texts == [str(n) for n in counts] + [str(sum(counts))]


def test_errors_per_100_words_by_hand(client, member, spans):
    """beta: MQM r1 and r2 and ESA e1 on segments 1-3, e2 on 1 and 3 (11
    annotations); 13a words 6, 2 and 3: 11 + 11 + 11 + 9 = 42 words; errors
    r1 3, r2 1, e1 4 (one on the source), e2 3: 11."""
    tokenize = get_tokenizer("13a")
    assert [len(tokenize(t)) for t in OUTPUTS["beta"]] == [6, 2, 3]
    client.force_login(member)
    response = get(client, "error_spans_system", output_of(spans, "beta").pk)
    breakdown = response.context["breakdown"]
    assert (breakdown.annotations, breakdown.segments) == (11, 3)
    assert (breakdown.words, breakdown.errors) == (42, 11)
    assert breakdown.rate == pytest.approx(100 * 11 / 42, abs=1e-12)
    assert '<dd id="rate">26.19</dd>' in response.content.decode()


def test_neutral_marks_are_shown_but_are_not_errors(client, member, owner, spans):
    """alpha (13a words 6, 3, 2): MQM r1 and r2 (one minor) and ESA e1 on
    segments 1-3 (11 words each), e2 on 1 (6); then e3 on segment 2 (3): a
    neutral and a minor. 42 words, 2 errors."""
    line = {"segment": 2, "system": "alpha", "annotator": "e3",
            "spans": [span(0, 2, "neutral"), span(3, 5, "minor")]}  # fmt: skip
    import_error_spans(spans, owner, jsonl([line]), "e3.jsonl")
    client.force_login(member)
    response = get(client, "error_spans_system", output_of(spans, "alpha").pk)
    breakdown = response.context["breakdown"]
    assert breakdown.severities == ("minor", "neutral")
    assert breakdown.count(severity="neutral") == 1
    assert (breakdown.words, breakdown.errors) == (11 + 11 + 11 + 6 + 3, 2)
    assert breakdown.rate == pytest.approx(100 * 2 / 42, abs=1e-12)


def test_one_document_and_one_annotator(client, member, spans):
    Segment.objects.filter(test_set=spans, index__in=[0, 1]).update(document_id="d1")
    Segment.objects.filter(test_set=spans, index=2).update(document_id="d2")
    client.force_login(member)
    beta = output_of(spans, "beta")

    response = get(client, "error_spans_system", beta.pk, document="d2")
    breakdown = response.context["breakdown"]
    # segment 3: r1, r2, e1, e2 over "hello to everybody" (3 words)
    assert (breakdown.annotations, breakdown.words, breakdown.errors) == (4, 12, 4)
    page = response.content.decode()
    assert '<option value="d2" selected>d2</option>' in page
    assert "document d2" in page

    response = get(client, "error_spans_system", beta.pk, annotator="r1")
    assert response.context["breakdown"].counts == dict(
        stored_counts(beta, annotator="r1")
    )


def test_a_metrics_spans_are_counted_apart(client, member, spans):
    client.force_login(member)
    gamma = output_of(spans, "gamma")
    response = get(client, "error_spans_system", gamma.pk, source=METRIC)
    breakdown = response.context["breakdown"]
    assert breakdown.counts == dict(stored_counts(gamma, kind="metric"))
    assert (breakdown.words, breakdown.errors) == (6, 2)  # "a dog is on the mat"
    page = response.content.decode()
    assert f'<option value="{METRIC}" selected>{METRIC} (metric)</option>' in page
    assert f"spans of the metric {METRIC}" in page


def test_the_overview_has_every_systems_errors_and_the_chart(client, member, spans):
    client.force_login(member)
    response = get(client, "error_spans_overview", spans.pk)
    page = response.content.decode()
    found = {b.system: b for b in response.context["breakdowns"]}
    assert list(found) == ["alpha", "beta", "gamma"]
    severities = response.context["severities"]
    assert severities == ("minor", "major", "critical")

    rows = table_cells(page, "system-errors-table")
    for system, breakdown in found.items():
        expected = stored_counts(output_of(spans, system))
        per_severity = [sum(n for (_, s), n in expected.items() if s == severity)
                        for severity in severities]  # fmt: skip
        assert rows[system][3:-2] == [str(n) for n in per_severity]
        assert rows[system][-1] == f"{breakdown.rate:.2f}"
    assert rows["beta"][:3] == ["11", "3", "42"]

    figure = json.loads(
        re.search(
            r'<script id="figure-systems" type="application/json">(.*?)</script>',
            page,
            re.S,
        ).group(1)
    )
    assert [trace["name"] for trace in figure["data"]] == list(severities)
    major = figure["data"][1]["y"]
    assert major == pytest.approx(
        [found[s].per_100_words("major") for s in ("alpha", "beta", "gamma")],
        abs=1e-4,
    )

    categories = table_cells(page, "category-errors-table")
    # beta: r1, r2 and e1; gamma: r1 (major) and r2 (critical)
    assert categories["Accuracy/Mistranslation"] == ["0", "3", "2", "5"]


def segments(client, test_set, **query) -> tuple[list[str], str]:
    page = get(client, "error_spans_segments", test_set.pk, **query)
    text = page.content.decode()
    found = re.findall(r"<strong>(.*?)</strong> · segment (\d+)</a>", text)
    return [f"{html.unescape(s)}#{n}" for s, n in found], text


def test_the_segments_with_a_category_link_to_their_sentence_pages(
    client, member, spans
):
    client.force_login(member)
    found, page = segments(client, spans, category="Accuracy/Mistranslation")
    assert found == ["beta#1", "gamma#1"]
    beta = output_of(spans, "beta")
    link = reverse("sentence_detail", args=[beta.pk, 1])
    assert f'href="{link}?category=Accuracy%2FMistranslation#error-spans"' in page
    assert "2 segments" in page

    assert segments(client, spans, category="Accuracy")[0] == ["beta#1", "gamma#1"]
    fluency = ["beta#1", "beta#3", "gamma#2"]
    assert segments(client, spans, category="Fluency")[0] == fluency
    assert segments(client, spans, severity="critical")[0] == ["gamma#1"]
    assert segments(client, spans, category=NO_CATEGORY)[0] == [
        "beta#1", "beta#2", "beta#3"
    ]  # fmt: skip
    assert segments(client, spans, source=METRIC)[0] == ["beta#1", "gamma#1"]
    only_beta = segments(client, spans, category="Fluency", output=beta.pk)[0]
    assert only_beta == ["beta#1", "beta#3"]
    none, page = segments(client, spans, category="Fluency", annotator="nobody")
    assert none == [] and 'id="no-segments"' in page


def test_the_segments_page_escapes_texts_and_categories(client, member, evil):
    client.force_login(member)
    found, page = segments(client, evil, category="A&B")
    assert found == ["evil#1"]
    listed = page[page.index('id="segment-hits"') :]
    assert "<script>alert" not in listed and "<img" not in listed
    assert 'title="minor · A&amp;B"' in listed


def test_the_pages_are_linked(client, member, spans):
    client.force_login(member)
    beta = output_of(spans, "beta")
    test_set_page = get(client, "test_set_detail", spans.pk).content.decode()
    overview = reverse("error_spans_overview", args=[spans.pk])
    assert f'id="error-spans-overview-link" href="{overview}"' in test_set_page
    system_page = get(client, "output_detail", beta.pk).content.decode()
    system = reverse("error_spans_system", args=[beta.pk])
    assert f'id="system-error-spans-link" href="{system}"' in system_page
    overview_page = get(client, "error_spans_overview", spans.pk).content.decode()
    assert f'href="{system}"' in overview_page
    sentence = reverse("sentence_detail", args=[beta.pk, 1])
    sentence_page = client.get(sentence, {"category": "Fluency"}).content.decode()
    assert f'href="{system}"' in sentence_page
    listing = reverse("error_spans_segments", args=[spans.pk])
    assert f'href="{listing}?category=Fluency&amp;output={beta.pk}"' in sentence_page


def test_a_test_set_without_spans_says_so(client, member, test_set):
    client.force_login(member)
    page = get(client, "error_spans_overview", test_set.pk).content.decode()
    assert 'id="no-spans"' in page


def test_another_teams_pages_are_not_found(client, outsider, spans):
    beta = output_of(spans, "beta")
    pages = [
        reverse("error_spans_overview", args=[spans.pk]),
        reverse("error_spans_system", args=[beta.pk]),
        reverse("error_spans_segments", args=[spans.pk]) + "?category=Fluency",
        reverse("sentence_detail", args=[beta.pk, 1]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 302 and "login" in response.url
    client.force_login(outsider)
    for url in pages:
        assert client.get(url).status_code == 404
