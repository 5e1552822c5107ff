"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

from celery import shared_task

from mtdash.orange.services.orange_jobs import TRANSIENT_ERRORS, run_orange_chunk


@shared_task(
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=5,
)
def rank_orange_chunk(chunk_id: int) -> bool:
    """Rank one chunk of an ORANGE job; the last chunk done merges the job.

    Safe to run twice: a chunk is claimed with a conditional update, and its
    partial result is replaced, never added to.
    """
    return run_orange_chunk(chunk_id)
