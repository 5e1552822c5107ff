"""How fast the error spans' pages read at WMT size: 2,000 segments of 20
words, 3 systems, each segment annotated by 10 annotators (60,000
annotations, 90,000 spans; built here through the import) and a metric's
spans. Issue 22 asks for a sentence page with 10 annotators' spans within
300 ms; the times are printed (run with -s)."""

from __future__ import annotations

import json
import statistics
import time

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from mtdash.evaluation.models import SystemOutput
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import SpanImportOptions
from mtdash.judgments.models import ErrorSpan

pytestmark = [pytest.mark.django_db, pytest.mark.wall_clock]

SEGMENTS, SYSTEMS, ANNOTATORS = 2000, 3, 10
TARGET_MS = 300.0
TIMED_REQUESTS = 15  # warm requests of each page the target applies to
PRINTED_REQUESTS = 5  # of each page whose times are only printed
CATEGORIES = ["Accuracy/Mistranslation", "Fluency/Grammar", "Style/Awkward"]
SEVERITIES = ["minor", "major", "critical"]


def hypothesis(system: int, segment: int) -> str:
    words = [f"w{system}{segment % 97}x{k}" for k in range(20)]
    return " ".join(words)


def annotation_lines() -> str:
    """Annotator k of segment s marks (k + s) % 3 spans of 5 characters:
    1.5 spans per annotation on average."""
    lines = []
    for system in range(SYSTEMS):
        for segment in range(1, SEGMENTS + 1):
            for k in range(ANNOTATORS):
                spans = [
                    {
                        "start": 10 * j,
                        "end": 10 * j + 5,
                        "severity": SEVERITIES[(k + j) % 3],
                        "category": CATEGORIES[(segment + j) % 3],
                    }  # fmt: skip
                    for j in range((k + segment) % 3 + (k % 2))
                ]
                lines.append(
                    {
                        "segment": segment,
                        "system": f"sys-{system}",
                        "annotator": f"a{k:02d}",
                        "score": 50 + k,
                        "spans": spans,
                    }  # fmt: skip
                )
    return "".join(json.dumps(line) + "\n" for line in lines)


def metric_lines() -> str:
    return "".join(
        json.dumps(
            {
                "segment": s,
                "system": f"sys-{n}",
                "metric": "xcomet-xl",
                "score": 0.5,
                "spans": [
                    {"start": 0, "end": 4, "severity": "major", "confidence": 0.9}
                ],
            }
        )
        + "\n"  # fmt: skip
        for n in range(SYSTEMS)
        for s in range(1, SEGMENTS + 1)
    )


def timed(client: Client, url: str, n: int) -> tuple[float, float, float]:
    """The first request (cold: words not counted yet), then the median and
    worst of ``n`` warm requests, in ms."""
    started = time.perf_counter()
    assert client.get(url).status_code == 200
    first = (time.perf_counter() - started) * 1000
    assert client.get(url).status_code == 200
    times = []
    for _ in range(n):
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    return first, statistics.median(times), max(times)


@pytest.fixture
def annotated(team, owner):
    """The test set with its outputs and both imports (set-up, not timed:
    a timed test's set-up runs beside other tests, its call alone)."""
    sources = [f"source sentence {n}" for n in range(1, SEGMENTS + 1)]
    test_set = create_test_set(
        team,
        owner,
        TestSetData("span speed", "de", "en", "news", "", sources, {"A": sources}),
    )
    for system in range(SYSTEMS):
        texts = [hypothesis(system, n) for n in range(1, SEGMENTS + 1)]
        create_system_output(test_set, owner, f"sys-{system}", texts, queue=False)
    import_error_spans(test_set, owner, annotation_lines().encode(), "esa.jsonl")
    options = SpanImportOptions(source="xcomet-xl")
    import_error_spans(test_set, owner, metric_lines().encode(), "x.jsonl", options)
    return test_set


def test_a_sentence_page_with_10_annotators_spans_within_300_ms(annotated, member):
    test_set = annotated
    n_spans = ErrorSpan.objects.count()
    output = SystemOutput.objects.get(test_set=test_set, system__name="sys-1")

    client = Client()
    client.force_login(member)
    sentence = reverse("sentence_detail", args=[output.pk, SEGMENTS // 2])
    page = client.get(sentence).content.decode()
    assert page.count('class="annotator"') == ANNOTATORS + 1

    cache.clear()
    # Name -> (URL, how many warm requests are timed): 15 of each page the
    # target applies to; the other pages' times are only printed, and 5 of
    # each (about 0.2 s a request) keep 5 s out of this call, which runs alone.
    pages = {
        "sentence page": (sentence, TIMED_REQUESTS),
        "sentence page, filtered": (
            sentence + "?severity=major&category=Fluency",
            TIMED_REQUESTS,
        ),
        "system breakdown": (
            reverse("error_spans_system", args=[output.pk]),
            PRINTED_REQUESTS,
        ),
        "overview": (
            reverse("error_spans_overview", args=[test_set.pk]),
            PRINTED_REQUESTS,
        ),
        "segments of a category": (
            reverse("error_spans_segments", args=[test_set.pk])
            + "?category=Fluency/Grammar&severity=critical",
            PRINTED_REQUESTS,
        ),
    }
    times = {name: timed(client, url, n) for name, (url, n) in pages.items()}
    print(f"\n{n_spans:,} spans; first request, then median / worst of n warm:")
    for name, (first, median, worst) in times.items():
        n = pages[name][1]
        print(f"  {name:24s} {first:7.1f} ms {median:7.1f} ms {worst:7.1f} ms, n={n}")
    assert times["sentence page"][2] <= TARGET_MS
    assert times["sentence page, filtered"][2] <= TARGET_MS


def test_spans_are_indexed_for_the_segments_of_a_category():
    """The segments of a category read spans by category (or its prefix)
    and severity: without this index PostgreSQL read every span of the
    test set (287 ms at the size above; 180 ms with it)."""
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(
            cursor, ErrorSpan._meta.db_table
        )
        found = [
            name
            for name, c in constraints.items()
            if c["index"] and c["columns"] == ["category", "severity"]
        ]
        assert found == ["errorspan_category_severity"]
        if connection.vendor == "postgresql":
            # A LIKE prefix uses a btree under any collation only so.
            cursor.execute(
                "SELECT indexdef FROM pg_indexes WHERE indexname = %s", found
            )
            assert cursor.fetchone()[0].count("varchar_pattern_ops") == 2
