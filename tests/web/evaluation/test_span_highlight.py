"""A sentence's error spans as HTML (span_view.highlight) and the filters'
options: pieces cut at every boundary and escaped one by one, overlaps
taking the worst severity, spans past the text cut at its end; categories
grouped (``Accuracy`` for ``Accuracy/…``). No database."""

from __future__ import annotations

import html
import re

from mtdash.evaluation.span_view.annotations import SentenceAnnotation, ShownSpan
from mtdash.evaluation.span_view.filters import (
    SpanFilters,
    category_options,
    filter_options,
)
from mtdash.evaluation.span_view.highlight import highlight


def marked(markup: str) -> list[tuple[str, str, str]]:
    return [
        (klass, html.unescape(title), html.unescape(text))
        for klass, title, text in re.findall(
            r'<mark class="error-span ([^"]*)" tabindex="0" title="([^"]*)"'
            r' aria-label="[^"]*">(.*?)</mark>',
            markup,
        )
    ]


def test_overlapping_spans_are_cut_into_pieces_of_the_worst_severity():
    text = "abcdefghij"
    spans = [
        ShownSpan("target", 0, 6, "minor", "Fluency"),
        ShownSpan("target", 4, 8, "major", "Accuracy"),
    ]
    markup = str(highlight(text, spans))
    assert marked(markup) == [
        ("severity-minor", "minor · Fluency", "abcd"),
        ("severity-major overlap", "minor · Fluency; major · Accuracy", "ef"),
        ("severity-major", "major · Accuracy", "gh"),
    ]
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == text


def test_text_and_labels_are_escaped_and_nothing_else_is_markup():
    text = "<script>x</script> & 'q'"
    spans = [ShownSpan("target", 0, 8, "critical", '"><b>')]
    markup = str(highlight(text, spans))
    assert "<script>" not in markup and "<b>" not in markup
    assert markup.count("<mark") == 1 and markup.count("<") == 2
    assert 'title="critical · &quot;&gt;&lt;b&gt;"' in markup
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == text


def test_spans_past_the_text_are_cut_and_unplaced_or_unknown_ones_handled():
    spans = [
        ShownSpan("target", 2, 40, "weird"),
        ShownSpan("target", None, None, "major"),
        ShownSpan("target", 9, 12, "minor"),  # starts after the end
    ]
    markup = str(highlight("abcd", spans))
    assert marked(markup) == [("severity-other", "weird · no category", "cd")]
    assert str(highlight("a&b", [])) == "a&amp;b"


def test_categories_are_offered_with_their_groups():
    assert category_options(
        ["Accuracy/Omission", "Accuracy/Mistranslation", "Style"]
    ) == (
        ("Accuracy", "Accuracy (any)"),
        ("Accuracy/Mistranslation", "Accuracy/Mistranslation"),
        ("Accuracy/Omission", "Accuracy/Omission"),
        ("Style", "Style"),
    )
    # A category that is also a group is offered once, as itself.
    assert category_options(["Other", "Other/x"])[0] == ("Other", "Other")


def test_filters_keep_a_group_a_severity_and_an_annotator():
    chosen = SpanFilters.from_query({"category": " Accuracy ", "severity": "major"})
    assert chosen.keeps_span(ShownSpan("target", 0, 1, "major", "Accuracy/Omission"))
    assert not chosen.keeps_span(ShownSpan("target", 0, 1, "major", "AccuracyX"))
    assert not chosen.keeps_span(ShownSpan("target", 0, 1, "minor", "Accuracy"))
    assert chosen.query_items() == {"category": "Accuracy", "severity": "major"}
    annotation = SentenceAnnotation(1, 0, "xcomet", "metric", 0.5, "score", ())
    options = filter_options([annotation], SpanFilters(annotator="gone"))
    assert options.annotators == (("gone", "gone"), ("xcomet", "xcomet (metric)"))
