"""The Celery application shared by the web server (to enqueue) and workers.

Each worker process makes the compiled batch kernels ready as it starts
(:func:`warm_up_kernels`): compiled once into ``NUMBA_CACHE_DIR`` (set by
the settings, under ``MTDASH_DATA_DIR``), loaded from there afterwards, and
never inside an ORANGE chunk, whose recorded time would include it. The
warm-up runs on a thread of its own, so scoring jobs and n-best checks
(which need no kernel) start at once even while a first start compiles
(minutes on a cold cache); an ORANGE chunk waits for it first
(:func:`wait_for_kernels`).
"""

import logging
import os
import threading

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")

logger = logging.getLogger(__name__)

app = Celery("mtdash")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["mtdash.common"])  # the sweeper
# The check of uploaded n-best lists (its own module beside orange/tasks.py).
app.autodiscover_tasks(["mtdash.orange"], related_name="validation_tasks")


# The warm-up thread of this process, if it is a worker process.
_warm_up_thread: threading.Thread | None = None


@worker_process_init.connect
def warm_up_kernels(**kwargs) -> None:
    """Start compiling or loading every batch kernel in this worker process.

    ``worker_process_init`` runs in each pool process before it takes a task
    (and in the worker itself with ``--pool solo``).
    """
    global _warm_up_thread
    _warm_up_thread = threading.Thread(
        target=_warm_up, name="batch-kernel-warm-up", daemon=True
    )
    _warm_up_thread.start()


def _warm_up() -> None:
    from scoring import warm_up_batch_engine

    seconds, from_cache = warm_up_batch_engine()
    source = "loaded from the cache" if from_cache else "compiled"
    logger.info(
        "mtdash worker %s: batch kernels ready in %.2f s (%s; NUMBA_CACHE_DIR=%s)",
        os.getpid(),
        seconds,
        source,
        os.environ.get("NUMBA_CACHE_DIR", ""),
    )


def wait_for_kernels() -> None:
    """Return once this worker process's warm-up has finished (at once
    outside a worker, where there is none)."""
    if _warm_up_thread is not None:
        _warm_up_thread.join()
