"""Celery tasks: thin wrappers that take ids and call service functions."""

from __future__ import annotations

import logging

from mtdash.common.task_options import job_task
from mtdash.orange.jobs.lifecycle import run_orange_chunk
from mtdash.orange.models import OrangeChunk
from scoring import recording_kernel_compiles

logger = logging.getLogger(__name__)


@job_task(OrangeChunk.task_name)
def rank_orange_chunk(chunk_id: int) -> bool:
    """Rank one chunk of an ORANGE job; the last chunk done merges the job.

    Safe to run twice: a chunk is claimed with a conditional update, and its
    partial result is replaced, never added to. Waits for nothing: the
    kernels its metrics call are compiled (or loaded from Numba's cache) by
    the chunk itself, the first time this worker process calls them; the
    chunk's recorded time includes that, and the log says how long it was.
    """
    with recording_kernel_compiles() as compiles:
        ranked = run_orange_chunk(chunk_id)
    if compiles.kernels:
        logger.info(
            "ORANGE chunk %s: %.1f s of it compiling %d kernels (%s)",
            chunk_id,
            compiles.seconds,
            len(compiles.kernels),
            ", ".join(kernel.name for kernel in compiles.kernels[:8]),
        )
    return ranked
