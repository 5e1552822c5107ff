"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

from celery import shared_task

from mtdash.evaluation.services.scoring_jobs import TRANSIENT_ERRORS, run_scoring_job


@shared_task(
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=5,
)
def score_output(job_id: int) -> bool:
    """Compute every metric of scoring job ``job_id``; safe to run twice."""
    return run_scoring_job(job_id)
