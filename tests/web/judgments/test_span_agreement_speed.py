"""The span-level meta-evaluation at the size issue 22 names: 20 systems x
2,000 segments, two human raters and three metrics with spans (200,000
annotations, 360,000 spans), 1,000 bootstrap resamples. The job (reading
the rows and the statistics) must take at most 10 s, the metric-evaluation
page with the stored result at most 300 ms. Times are printed (run with
-s)."""

from __future__ import annotations

import statistics
import time

import pytest
from django.urls import reverse

from mtdash.common.bulk_insert import insert_rows
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.error_spans.agreement_jobs import (
    evaluate,
    request_span_evaluation,
)
from mtdash.judgments.error_spans.agreement_options import AgreementSettings
from mtdash.judgments.error_spans.agreement_section import span_section
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation, JudgmentImport

pytestmark = [pytest.mark.django_db, pytest.mark.wall_clock]

SYSTEMS, SEGMENTS = 20, 2000
RATERS = ("r1", "r2")
METRICS = ("xcomet-xl", "xcomet-xxl", "llm-judge")
WORDS = "system wrote this translation of sentence number here today".split()
HYPOTHESIS = " ".join(WORDS)  # 53 characters
# Character ranges of words 1, 3 and 5 ("wrote", "translation", "sentence").
SPANS = [(7, 12), (18, 29), (33, 41)]


def spans_of(kind_seed: int, system: int, segment: int) -> list[tuple[int, int, str]]:
    """0 to 3 spans per annotation (1.8 on average), shifted a little per
    annotator, so that the metrics overlap the raters partly."""
    k = (system * 7 + segment * 3 + kind_seed) % 5
    chosen = SPANS[: min(k, 3)]
    return [
        (start + (kind_seed % 3), end + (kind_seed % 2), "major" if k % 2 else "minor")
        for start, end in chosen
    ]


def store_spans(test_set, owner, outputs) -> int:
    """Annotations of every rater and metric on every segment, written as
    plain rows (tests/support/bulk_rows.py); returns the number of spans."""
    n_spans = 0
    sources = [("human", rater) for rater in RATERS]
    sources += [(metric, metric) for metric in METRICS]
    annotation_fields = ("output", "index", "annotator", "kind", "batch", "line")
    span_fields = ("annotation", "side", "start", "end", "severity", "category")
    for seed, (source, annotator) in enumerate(sources):
        kind = "human" if source == "human" else "metric"
        batch = JudgmentImport.objects.create(
            test_set=test_set,
            file_name=f"{annotator}.jsonl",
            layout="spans-jsonl",
            imported_by=owner,
            span_source=source,
        )
        batch.n_annotations = insert_rows(
            ErrorSpanAnnotation,
            annotation_fields,
            (
                (output.pk, index, annotator, kind, batch.pk, index + 1)
                for output in outputs
                for index in range(SEGMENTS)
            ),
        )
        system_of = {output.pk: system for system, output in enumerate(outputs)}
        annotations = ErrorSpanAnnotation.objects.filter(batch=batch).values_list(
            "pk", "output_id", "index"
        )
        batch.n_spans = insert_rows(
            ErrorSpan,
            span_fields,
            (
                (pk, "target", s, e, severity, "")
                for pk, output, index in annotations
                for s, e, severity in spans_of(seed, system_of[output], index)
            ),
        )
        batch.save()
        n_spans += batch.n_spans
    return n_spans


@pytest.fixture
def spans(team, owner):
    """The test set, its outputs and every annotation (set-up, not timed:
    a timed test's set-up runs beside other tests, its call alone);
    (test set, number of spans)."""
    sources = [f"source sentence {n}" for n in range(SEGMENTS)]
    test_set = create_test_set(
        team,
        owner,
        TestSetData("span speed", "en", "de", "news", "", sources, {"A": sources}),
    )
    outputs = [
        create_system_output(
            test_set, owner, f"sys-{k:02d}", [HYPOTHESIS] * SEGMENTS, queue=False
        ).output
        for k in range(SYSTEMS)
    ]
    return test_set, store_spans(test_set, owner, outputs)


def test_20_systems_by_2000_segments_within_10_seconds_and_the_page_300_ms(
    spans, owner, client
):
    test_set, n_spans = spans
    n_annotations = ErrorSpanAnnotation.objects.count()
    job, _ = request_span_evaluation(test_set, AgreementSettings(1000, 1), owner)

    started = time.perf_counter()
    fields = evaluate(job)
    seconds = time.perf_counter() - started
    job.status, job.progress = "succeeded", 100
    job.result, job.inputs = fields["result"], fields["inputs"]
    job.save()
    parts = fields["result"]["seconds"]
    print(
        f"\nspan agreement: {SYSTEMS} systems x {SEGMENTS} segments, "
        f"{n_annotations:,} annotations, {n_spans:,} spans, {len(METRICS)} metrics, "
        f"4 variants x 2 averagings, 1,000 resamples: {seconds:.2f} s "
        f"(reading {parts['read']:.2f} s, statistics {parts['statistics']:.2f} s)"
    )
    assert len(fields["result"]["metrics"]) == len(METRICS)
    assert seconds < 10

    client.force_login(owner)
    url = reverse("test_set_correlations", args=[test_set.pk])
    assert client.get(url).status_code == 200  # warm
    times = []
    for _ in range(7):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200
    page = response.content.decode()
    assert 'id="span-agreement-table"' in page
    median = statistics.median(times)
    # The section's own share: what it reads (the page adds its template).
    section_times = []
    for _ in range(7):
        started = time.perf_counter()
        section = span_section(test_set, "mpp", "micro")
        section_times.append(time.perf_counter() - started)
    assert section.table is not None and not section.stale
    print(
        f"metric-evaluation page with the error-span section: median "
        f"{median * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms; the "
        f"section's reading: median {statistics.median(section_times) * 1000:.1f} ms"
    )
    assert median < 0.3
