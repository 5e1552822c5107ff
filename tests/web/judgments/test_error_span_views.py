"""The error spans on the sentence page and in the two-system comparison:
one row per annotator, a metric's labelled, source-side spans and errors
without position, the category, severity and annotator filters (a GET form,
no inline script), and every text escaped."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.web.judgments.error_span_support import (  # noqa: F401  (fixtures)
    evil_fixture,
    spans_fixture,
)
from tests.web.judgments.span_view_support import (
    EVIL_TEXT,
    marks,
    output_of,
)
from tests.web.judgments.span_world import METRIC

pytestmark = pytest.mark.django_db


def sentence(client, test_set, system: str, number: int, **query) -> str:
    url = reverse("sentence_detail", args=[output_of(test_set, system).pk, number])
    response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def rows(page: str) -> list[str]:
    return [
        html.unescape(name)
        for name in re.findall(r'<strong class="annotator">(.*?)</strong>', page)
    ]


def test_the_sentence_page_shows_one_row_per_annotator_and_the_metric_last(
    client, member, spans
):
    client.force_login(member)
    page = sentence(client, spans, "beta", 1)

    assert rows(page) == ["e1", "e2", "r1", "r2", METRIC]
    assert page.count('<span class="kind-badge metric"') == 1
    assert page.count('<span class="kind-badge human">annotator</span>') == 4
    assert "MQM -6 · 2 spans" in html.unescape(page)  # r1: major 5 + minor 1
    assert "ESA 60 · 1 span" in html.unescape(page)
    found = marks(page)
    assert ("major", "major · Accuracy/Mistranslation", "sits") in found
    assert ("minor", "minor · Fluency/Grammar", "a") in found
    assert ("major", "major · no category · confidence 0.83", "sits") in found
    assert len(found) == 1 + 2 + 2 + 1 + 1  # e1, e2, r1, r2, the metric
    assert 'id="span-legend"' in page and "js/error_spans." in page


def test_an_annotator_who_found_no_error_has_a_row_without_marks(client, member, spans):
    client.force_login(member)
    page = sentence(client, spans, "alpha", 3)  # r1, r2: No-error; e1: 90
    assert rows(page) == ["e1", "r1", "r2"] and marks(page) == []
    assert "ESA 90 · 0 spans" in html.unescape(page)
    assert "MQM 0 · 0 spans" in html.unescape(page)


def test_a_sentence_nobody_annotated_has_no_span_section(client, member, evil):
    client.force_login(member)
    page = sentence(client, evil, "evil", 2)
    assert 'id="error-spans"' not in page and "js/error_spans." not in page


def test_source_side_spans_and_errors_without_position_are_shown(client, member, spans):
    client.force_login(member)
    gamma_1 = sentence(client, spans, "gamma", 1)
    assert ("minor", "minor · Accuracy/Omission", "chat") in marks(gamma_1)
    assert '<span class="side-label">source</span>' in gamma_1
    gamma_2 = html.unescape(sentence(client, spans, "gamma", 2))
    assert "no position" in gamma_2 and "major · Non-translation!" in gamma_2


def test_filters_keep_a_severity_a_category_group_and_an_annotator(
    client, member, spans
):
    client.force_login(member)
    minor = marks(sentence(client, spans, "beta", 1, severity="minor"))
    assert {severity for severity, _, _ in minor} == {"minor"}
    assert sorted(text for _, _, text in minor) == ["a", "a"]  # r1's and e2's

    accuracy = marks(sentence(client, spans, "beta", 1, category="Accuracy"))
    assert {title for _, title, _ in accuracy} == {"major · Accuracy/Mistranslation"}
    assert len(accuracy) == 3  # e1, r1, r2

    page = sentence(client, spans, "beta", 1, annotator="r1")
    assert rows(page) == ["r1"]
    assert len(marks(page)) == 2
    assert 'id="span-filters-clear"' in page
    assert '<option value="r1" selected>r1</option>' in page
    assert f'<option value="{METRIC}">{METRIC} (metric)</option>' in page


def test_the_filters_are_a_get_form_without_inline_script(client, member, spans):
    client.force_login(member)
    page = sentence(client, spans, "beta", 1)
    form = page[page.index('<form method="get" class="span-filters"') :]
    form = form[: form.index("</form>")]
    for name in ("category", "severity", "annotator"):
        assert f'name="{name}"' in form
    assert "<script>" not in page and " on" + "change=" not in page
    assert "Accuracy (any)" in page  # the group of Accuracy/…


def test_sentences_categories_and_names_are_escaped(client, member, evil):
    client.force_login(member)
    page = sentence(client, evil, "evil", 1)
    section = page[page.index('id="error-spans"') :]

    assert "<script>alert" not in section and "<img" not in section
    assert "<i>ann</i>" not in section
    assert "alert(&quot;h&quot;)&lt;/script&gt;" in section
    assert "&lt;b&gt;y&lt;/b&gt;" in section
    assert (
        '<mark class="error-span severity-major" tabindex="0" '
        'title="major · &lt;img src=x onerror=&quot;1&quot;&gt;" '
        'aria-label="“&lt;script&gt;”: major · &lt;img src=x onerror=&quot;1&quot;&gt;">'
        "&lt;script&gt;</mark>"
    ) in section
    assert 'title="minor · A&amp;B"' in section and ">&amp;</mark>" in section
    assert "&lt;i&gt;ann&lt;/i&gt;" in section
    # The text reads back whole once the marks are taken out.
    target = re.search(r'<span lang="en">(.*?)</span></p>', section).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", target)) == EVIL_TEXT


def test_the_compare_page_shows_both_outputs_spans_and_filters_them(
    client, member, spans
):
    a, b = output_of(spans, "beta"), output_of(spans, "gamma")
    for output in (a, b):
        run_scoring_job(ScoringJob.objects.get(output=output).pk)
    client.force_login(member)
    url = reverse("compare_outputs", args=[spans.pk])
    query = {"a": a.pk, "b": b.pk, "metric": "bleu", "order": "index"}
    page = client.get(url, query).content.decode()

    first = page[page.index('id="sentence-1"') : page.index('id="sentence-2"')]
    # beta's e1, e2, r1, r2, metric; gamma's r1, r2, metric
    assert first.count('<span class="tag tag-a">A</span> <strong') == 5
    assert first.count('<span class="tag tag-b">B</span> <strong') == 3
    assert ("critical", "critical · Accuracy/Mistranslation", "a dog") in marks(first)
    form = page[page.index('id="span-filters"') :]
    form = form[: form.index("</form>")]
    for name, value in query.items():
        assert f'<input type="hidden" name="{name}" value="{value}">' in form

    critical = client.get(url, {**query, "severity": "critical"}).content.decode()
    found = marks(critical)
    assert found and {severity for severity, _, _ in found} == {"critical"}
    assert 'id="span-filters-clear"' in critical


def test_the_compare_page_without_spans_has_no_span_filters(
    client, member, test_set, owner
):
    jobs = [
        create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
        for name in ("one", "two")
    ]
    for job in jobs:
        run_scoring_job(job.pk)
    client.force_login(member)
    url = reverse("compare_outputs", args=[test_set.pk])
    query = {"a": jobs[0].output.pk, "b": jobs[1].output.pk, "metric": "bleu"}
    page = client.get(url, query).content.decode()
    assert 'id="compare-sentences"' in page and 'id="span-filters"' not in page
