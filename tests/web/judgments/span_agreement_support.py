"""Support of the span-level meta-evaluation tests (no tests here): the
annotated test set of :mod:`span_world` with its MQM file as the human
spans and two metrics' spans (xcomet-xl's three lines and an LLM judge
marking every segment), evaluations queued and run in-process (the runner,
no Celery), and nested figures compared with a tolerance."""

from __future__ import annotations

import math

from mtdash.judgments.error_spans.agreement_jobs import (
    request_span_evaluation,
    run_span_evaluation,
)
from mtdash.judgments.error_spans.agreement_options import AgreementSettings
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import SpanImportOptions
from mtdash.judgments.models import ErrorSpanEvaluation
from tests.web.judgments.span_world import (
    METRIC,
    METRIC_LINES,
    annotated_outputs,
    jsonl,
    mqm_tsv,
    span,
)

JUDGE = "llm-judge"
# Offsets into span_world's OUTPUTS: a false positive (alpha 3), beta's two
# errors as r1 marked them, gamma's "a dog" and a part of "rain is".
JUDGE_LINES = [
    {"segment": 1, "system": "alpha", "metric": JUDGE, "spans": [span(18, 21, "minor")]},
    {"segment": 2, "system": "alpha", "metric": JUDGE, "spans": []},
    {"segment": 3, "system": "alpha", "metric": JUDGE, "spans": [span(6, 14, "minor")]},
    {"segment": 1, "system": "beta", "metric": JUDGE,
     "spans": [span(8, 12), span(16, 17, "minor")]},
    {"segment": 2, "system": "beta", "metric": JUDGE, "spans": []},
    {"segment": 3, "system": "beta", "metric": JUDGE, "spans": [span(6, 8, "minor")]},
    {"segment": 1, "system": "gamma", "metric": JUDGE, "spans": [span(0, 5)]},
    {"segment": 2, "system": "gamma", "metric": JUDGE, "spans": [span(0, 4)]},
    {"segment": 3, "system": "gamma", "metric": JUDGE, "spans": []},
]  # fmt: skip
# 200 resamples keep a run well under a second.
FAST = AgreementSettings(n_samples=200, seed=7)


def import_metric(test_set, owner, name: str, lines) -> None:
    import_error_spans(
        test_set,
        owner,
        jsonl(lines),
        f"{name}.jsonl",
        SpanImportOptions(source=name),
    )


def annotate(test_set, owner, metrics=True):
    """The outputs, the MQM file's human spans and (``metrics``) the spans
    of xcomet-xl and of the LLM judge."""
    annotated_outputs(test_set, owner)
    import_error_spans(test_set, owner, mqm_tsv(), "mqm.tsv")
    if metrics:
        import_metric(test_set, owner, METRIC, METRIC_LINES)
        import_metric(test_set, owner, JUDGE, JUDGE_LINES)
    return test_set


def queue(test_set, user=None, settings=FAST) -> tuple[ErrorSpanEvaluation, bool]:
    return request_span_evaluation(test_set, settings, user)


def run(job: ErrorSpanEvaluation) -> ErrorSpanEvaluation:
    run_span_evaluation(job.pk)
    job.refresh_from_db()
    return job


def computed(test_set, settings=FAST) -> ErrorSpanEvaluation:
    """A new evaluation of ``test_set``, run (it must succeed)."""
    job = run(queue(test_set, None, settings)[0])
    assert job.status == "succeeded", job.error_message
    return job


def assert_close(found, expected, path: str = "") -> None:
    """Equal structures, floats within 1e-12 (a stored figure is the
    library's, summed in another order at most)."""
    if isinstance(expected, float) and isinstance(found, (int, float)):
        assert math.isclose(found, expected, rel_tol=0, abs_tol=1e-12), path
    elif isinstance(expected, dict):
        assert isinstance(found, dict) and set(found) == set(expected), path
        for key in expected:
            assert_close(found[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, (list, tuple)):
        assert isinstance(found, (list, tuple)), path
        assert len(found) == len(expected), path
        for k, (a, b) in enumerate(zip(found, expected)):
            assert_close(a, b, f"{path}[{k}]")
    else:
        assert found == expected, f"{path}: {found!r} != {expected!r}"
