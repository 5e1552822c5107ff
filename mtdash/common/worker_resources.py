"""English METEOR's resources loaded by each worker process once it is idle.

METEOR is one of English's default metrics, and its first use in a process
loads WordNet, the server's paraphrase table (5.3 million entries) and the
table's integer index for the compiled kernels: 20 s of CPU, a minute of
wall time on a loaded 2-core machine, which the first METEOR scoring job
(or comparison, or diagnostics) of every worker process paid. With a table
configured (``MTDASH_METEOR_PARAPHRASE_TABLE``), each worker process loads
them on a thread of its own as soon as it has run no task for
``IDLE_SECONDS`` (so a first start's kernel warm-up and the work already
queued go first); a job that needs them meanwhile waits for that load
rather than loading a second copy (:func:`mtdash.common.server_metrics.
server_metric` takes the same lock). Memory: about 1.6 GB per worker
process, which the first METEOR job took anyway.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from celery.signals import task_postrun, task_prerun, worker_process_init
from django.conf import settings

logger = logging.getLogger(__name__)

IDLE_SECONDS = 2.0
_running = 0  # tasks running in this process now
_last_task_end = 0.0
_state = threading.Lock()


@task_prerun.connect
def _task_started(**kwargs) -> None:
    global _running
    with _state:
        _running += 1


@task_postrun.connect
def _task_ended(**kwargs) -> None:
    global _running, _last_task_end
    with _state:
        _running = max(0, _running - 1)
        _last_task_end = time.monotonic()


def _idle_for() -> float:
    with _state:
        return 0.0 if _running else time.monotonic() - _last_task_end


@worker_process_init.connect
def preload_when_idle(**kwargs) -> threading.Thread | None:
    """Start the loading thread if a paraphrase table is configured."""
    table = settings.MTDASH_METEOR_PARAPHRASE_TABLE
    if not table or not Path(table).is_file():
        return None
    global _last_task_end
    _last_task_end = time.monotonic()
    thread = threading.Thread(target=_preload, name="meteor-preload", daemon=True)
    thread.start()
    return thread


def _preload() -> None:
    from mtdash.common.server_metrics import preload_meteor

    while _idle_for() < IDLE_SECONDS:
        time.sleep(0.5)
    try:
        seconds = preload_meteor()
    except Exception:  # noqa: BLE001 - a job loads them itself (and reports why)
        logger.warning("could not load METEOR's resources", exc_info=True)
        return
    logger.info("METEOR's resources ready in %.1f s", seconds)
