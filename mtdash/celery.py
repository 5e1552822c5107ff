"""The Celery application shared by the web server (to enqueue) and workers.

A worker compiles nothing up front: a task that ranks with the batch engine
(an ORANGE chunk) compiles, or loads from Numba's on-disk cache in
``NUMBA_CACHE_DIR`` (set by the settings, under ``MTDASH_DATA_DIR``), just
the kernels its metrics call, the first time this worker process calls them:
milliseconds each from the cache, seconds each to compile. No task waits for
another's preparation, so a worker slot is never held by a task that is only
waiting; the chunk's recorded time includes its own compiling, and the
worker's log says how much of it that was (``mtdash.orange.tasks``).
``bin/run`` compiles the demo's kernels into the cache while it sets up.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")
# Celery runs Django's system checks as a worker starts, which imports every
# URL pattern and view (the API schema, the exports, the statistics behind
# the pages) that a worker never serves. The web process checks the same
# settings as it starts, and `manage.py migrate` checks before any worker
# runs; skipping them here makes every worker start, and every restart of
# one the supervisor does, cheaper.
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")

app = Celery("mtdash")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["mtdash.common"])  # the sweeper
# The check of uploaded n-best lists (its own module beside orange/tasks.py).
app.autodiscover_tasks(["mtdash.orange"], related_name="validation_tasks")
