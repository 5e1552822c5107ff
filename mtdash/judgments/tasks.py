"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

from mtdash.common.task_options import job_task
from mtdash.judgments.error_spans.agreement_jobs import run_span_evaluation
from mtdash.judgments.meta_evaluation.jobs import run_meta_evaluation as run
from mtdash.judgments.models import ErrorSpanEvaluation, MetaEvaluation


@job_task(MetaEvaluation.task_name)
def run_meta_evaluation(job_id: int) -> bool:
    """The WMT meta-evaluation of meta-evaluation ``job_id``; safe to run
    twice."""
    return run(job_id)


@job_task(ErrorSpanEvaluation.task_name)
def run_error_span_evaluation(job_id: int) -> bool:
    """The span-level meta-evaluation of error-span evaluation ``job_id``;
    safe to run twice."""
    return run_span_evaluation(job_id)
