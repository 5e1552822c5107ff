"""The task path of the span-level meta-evaluation: the API's request queues
the job after its commit, a real Celery worker claims and runs it, and the
API then answers figures equal to ``evaluate_spans`` on the imported files."""

from __future__ import annotations

import os
import time

import pytest

from mtdash.judgments.models import ErrorSpanEvaluation
from scoring.spans import parse_mqm_tsv, parse_spans_jsonl
from scoring.stats import evaluate_spans
from tests.web.judgments.span_agreement_support import (
    JUDGE,
    JUDGE_LINES,
    annotate,
    assert_close,
)
from tests.web.judgments.span_world import jsonl, mqm_tsv

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_worker_computes_what_the_api_then_answers(
    api, test_set, owner, celery_worker_process
):
    annotate(test_set, owner)
    url = f"/api/v1/test-sets/{test_set.pk}/error-spans/agreement"
    query = {"bootstrap": 300, "seed": 11, "variant": "all", "average": "both"}
    first = api.get(url, query)
    assert first.status_code == 202, first.json()
    job_url = first.json()["url"]

    deadline = time.monotonic() + 120
    while True:
        response = api.get(url, query)
        if response.status_code != 202 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert response.status_code == 200, response.json()

    job = ErrorSpanEvaluation.objects.get()
    assert job.status == "succeeded" and job.attempts == 1
    assert not job.claimed_by.endswith(f":{os.getpid()}")  # the worker's
    detail = api.get(job_url).json()
    assert detail["status"] == "succeeded" and detail["progress"] == 100

    human = parse_mqm_tsv(mqm_tsv(), "mqm.tsv").annotations
    judge = parse_spans_jsonl(jsonl(JUDGE_LINES), "judge.jsonl").annotations
    expected = evaluate_spans(
        human,
        judge,
        variants=("em", "mp", "mpp", "w25"),
        averages=("micro", "macro"),
        n_samples=300,
        seed=11,
    ).to_dict()
    (found,) = [m for m in response.json()["metrics"] if m["metric"] == JUDGE]
    assert_close(found, expected)
