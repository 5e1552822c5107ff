"""100,000 MQM rows through the error-span import: every row read, matched,
its texts and offsets checked, and stored with its judgments. The time is
printed (run with -s); issue 22 asks for 30 s at most."""

from __future__ import annotations

import time

import pytest

from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.models import ErrorSpan, ErrorSpanAnnotation, Judgment

SEGMENTS, SYSTEMS, RATERS = 2000, 10, 3
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
ERRORS = [  # (category, severity, first and last word marked)
    ("Accuracy/Mistranslation", "Major", 1, 2),
    ("Fluency/Grammar", "Minor", 4, 4),
    ("Fluency/Punctuation", "Minor", 6, 7),
]


def words(system: int, segment: int) -> list[str]:
    return f"system {system} wrote this translation of sentence {segment} here".split()


def mqm_rows() -> list[str]:
    """Annotation k of the campaign has k % 4 errors (a No-error row for 0):
    1.75 rows per annotation, 105,000 rows."""
    rows = []
    k = 0
    for system in range(SYSTEMS):
        for segment in range(1, SEGMENTS + 1):
            source = f"source sentence {segment}"
            plain = words(system, segment)
            for rater in range(RATERS):
                fields = [
                    f"sys-{system}",
                    "doc",
                    "1",
                    str(segment),
                    f"r{rater}",
                    source,
                ]
                if k % 4 == 0:
                    rows.append(
                        "\t".join([*fields, " ".join(plain), "No-error", "No-error"])
                    )
                for category, severity, first, last in ERRORS[: k % 4]:
                    marked = list(plain)
                    marked[first] = "<v>" + marked[first]
                    marked[last] = marked[last] + "</v>"
                    rows.append(
                        "\t".join([*fields, " ".join(marked), category, severity])
                    )
                k += 1
    return rows


@pytest.fixture
def campaign(team, owner):
    """The test set, its outputs and the file's bytes (set-up, not timed: a
    timed test's set-up runs beside other tests, its call alone)."""
    sources = [f"source sentence {n}" for n in range(1, SEGMENTS + 1)]
    test_set = create_test_set(
        team,
        owner,
        TestSetData("speed", "en", "de", "news", "", sources, {"A": sources}),
    )
    for system in range(SYSTEMS):
        hypotheses = [" ".join(words(system, n)) for n in range(1, SEGMENTS + 1)]
        create_system_output(test_set, owner, f"sys-{system}", hypotheses, queue=False)
    rows = mqm_rows()
    assert len(rows) >= 100_000
    data = ("\n".join([HEADER, *rows]) + "\n").encode()
    return test_set, rows, data


def test_100000_mqm_rows_import_within_30_seconds(campaign, owner):
    test_set, rows, data = campaign
    started = time.perf_counter()
    result = import_error_spans(test_set, owner, data, "mqm.tsv")
    seconds = time.perf_counter() - started

    annotations = SEGMENTS * SYSTEMS * RATERS
    assert result.n_annotations == annotations == ErrorSpanAnnotation.objects.count()
    assert result.n_judgments == annotations == Judgment.objects.count()
    n_spans = sum(k % 4 for k in range(annotations))
    assert result.n_spans == n_spans == ErrorSpan.objects.count()
    print(
        f"\nerror spans: {len(rows):,} MQM rows ({annotations:,} annotations, "
        f"{n_spans:,} spans, {len(data) / 1e6:.1f} MB) imported in {seconds:.2f} s"
    )
    assert seconds < 30


pytestmark = [pytest.mark.django_db, pytest.mark.wall_clock]
