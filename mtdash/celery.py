"""The Celery application shared by the web server (to enqueue) and workers.

Each worker process makes the compiled batch kernels ready as it starts
(:func:`warm_up_kernels`): compiled once into ``NUMBA_CACHE_DIR`` (set by
the settings, under ``MTDASH_DATA_DIR``), loaded from there afterwards, and
never inside the first ORANGE chunk, whose recorded time would include it.
"""

import logging
import os

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


@worker_process_init.connect
def warm_up_kernels(**kwargs) -> None:
    """Compile or load every batch kernel in this worker process, once.

    ``worker_process_init`` runs in each pool process before it takes a task
    (and in the worker itself with ``--pool solo``), before the worker
    says it is ready.
    """
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
