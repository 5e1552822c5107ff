"""What the error spans' view tests share (no tests here): the small
annotated world imported (span_world's MQM, ESA and metric files), an
output whose sentence holds markup with spans over it, and readers of the
marks a page shows."""

from __future__ import annotations

import html
import re

from mtdash.evaluation.models import SystemOutput
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import SpanImportOptions
from tests.web.judgments.span_world import (
    ESA_LINES,
    METRIC,
    METRIC_LINES,
    annotated_outputs,
    jsonl,
    mqm_tsv,
    span,
)

EVIL_TEXT = 'x <script>alert("h")</script> & <b>y</b>'


def import_world(test_set, owner):
    """MQM by r1 and r2, ESA by e1 and e2, and the metric's spans."""
    annotated_outputs(test_set, owner)
    import_error_spans(test_set, owner, mqm_tsv(), "mqm.tsv")
    import_error_spans(test_set, owner, jsonl(ESA_LINES), "esa.jsonl")
    options = SpanImportOptions(source=METRIC)
    import_error_spans(test_set, owner, jsonl(METRIC_LINES), "x.jsonl", options)
    return test_set


def import_evil(test_set, owner):
    """An output "evil" whose first hypothesis holds markup, with a span
    over the ``<script>`` tag and one over the ``&``, a category and an
    annotator name that look like markup."""
    create_system_output(test_set, owner, "evil", [EVIL_TEXT, "ok", "ok"], queue=False)
    start = EVIL_TEXT.index("<script>")
    amp = EVIL_TEXT.index("&")
    line = {
        "segment": 1,
        "system": "evil",
        "annotator": "<i>ann</i>",
        "score": 10,
        "spans": [
            span(start, start + len("<script>"), category='<img src=x onerror="1">'),
            span(amp, amp + 1, "minor", category="A&B"),
        ],
    }
    import_error_spans(test_set, owner, jsonl([line]), "evil.jsonl")
    return test_set


def output_of(test_set, system: str) -> SystemOutput:
    return SystemOutput.objects.get(test_set=test_set, system__name=system)


def marks(page: str) -> list[tuple[str, str, str]]:
    """(severity, title, marked text) of every focusable mark."""
    found = re.findall(
        r'<mark class="error-span severity-(\w+)[^"]*" tabindex="0" '
        r'title="([^"]*)" aria-label="[^"]*">(.*?)</mark>',
        page,
    )
    return [(s, html.unescape(t), html.unescape(x)) for s, t, x in found]
