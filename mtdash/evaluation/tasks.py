"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

from mtdash.common.task_options import job_task
from mtdash.evaluation.leaderboard.comparisons import run_comparison_job
from mtdash.evaluation.models import ComparisonJob, ReadabilityJob, ScoringJob
from mtdash.evaluation.readability.jobs import run_readability_job
from mtdash.evaluation.services.scoring_jobs import run_scoring_job


@job_task(ScoringJob.task_name)
def score_output(job_id: int) -> bool:
    """Compute every metric of scoring job ``job_id``; safe to run twice."""
    return run_scoring_job(job_id)


@job_task(ComparisonJob.task_name)
def compare_outputs(job_id: int) -> bool:
    """Intervals, paired tests and clusters of comparison job ``job_id``'s
    test set; safe to run twice."""
    return run_comparison_job(job_id)


@job_task(ReadabilityJob.task_name)
def measure_readability(job_id: int) -> bool:
    """Count the readability of readability job ``job_id``'s test set; safe
    to run twice."""
    return run_readability_job(job_id)
