"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

from mtdash.celery import wait_for_kernels
from mtdash.common.task_options import job_task
from mtdash.orange.jobs.lifecycle import run_orange_chunk
from mtdash.orange.models import OrangeChunk


@job_task(OrangeChunk.task_name)
def rank_orange_chunk(chunk_id: int) -> bool:
    """Rank one chunk of an ORANGE job; the last chunk done merges the job.

    Safe to run twice: a chunk is claimed with a conditional update, and its
    partial result is replaced, never added to. Waits for the worker's
    kernel warm-up first (before claiming, so the chunk's lease and time
    never include it).
    """
    wait_for_kernels()
    return run_orange_chunk(chunk_id)
