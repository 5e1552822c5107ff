"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

from mtdash.common.task_options import job_task
from mtdash.judgments.meta_evaluation.jobs import run_meta_evaluation as run
from mtdash.judgments.models import MetaEvaluation


@job_task(MetaEvaluation.task_name)
def run_meta_evaluation(job_id: int) -> bool:
    """The WMT meta-evaluation of meta-evaluation ``job_id``; safe to run
    twice."""
    return run(job_id)
