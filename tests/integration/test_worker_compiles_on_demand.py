"""A worker on an empty Numba cache compiles no kernel as it starts, and an
ORANGE chunk compiles just the kernels its metrics call, itself.

Nothing waits for a warm-up any more (a chunk used to wait, holding its
worker slot, until the worker had compiled every kernel: minutes on a cold
cache). The worker here has a cache directory of its own, empty at start:
the index files Numba leaves there (``<module>.<kernel>-<line>.py311.nbi``)
say which kernels that worker compiled.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import OrangeJob
from scoring.orange import OrangeOptions
from tests.support import services
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    create_demo_test_set,
    demo_nbest_text,
    make_nbest,
    remove_artifacts_afterwards_fixture,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

COMPILING_LINE = re.compile(r"ORANGE chunk \d+: ([0-9.]+) s of it compiling (\d+)")
# Kernel modules a BLEU and ROUGE-L job never calls.
UNUSED = (
    "kernels_meteor", "kernels_ter", "kernels_red", "kernels_wnm",
    "kernels_gtm", "kernels_chrf", "kernels_edit", "kernels_skip",
    "kernels_wlcs", "kernels_nist", "kernels_word_distance",
)  # fmt: skip


@pytest.fixture(scope="module")
def broker(django_db_setup, django_db_blocker, tmp_path_factory):
    with services.module_broker(
        "on-demand-redis", django_db_blocker, tmp_path_factory
    ) as own:
        yield own


def compiled_kernels(cache) -> set[str]:
    """``module.kernel`` of every index file in a Numba cache directory."""
    return {path.name.split("-")[0] for path in cache.rglob("*.nbi")}


def test_a_cold_worker_compiles_only_the_kernels_of_its_jobs_metrics(
    broker, team, owner, tmp_path, remove_artifacts_afterwards
):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    started = time.monotonic()
    worker = broker.worker(tmp_path, "worker", {"NUMBA_CACHE_DIR": str(cache)})
    try:
        ready = time.monotonic() - started
        assert compiled_kernels(cache) == set()  # nothing compiled at start
        test_set = create_demo_test_set(team, owner)
        nbest = make_nbest(test_set, demo_nbest_text(), name="demo", user=owner)
        queued = time.monotonic()
        job = create_orange_job(
            nbest,
            owner,
            ["bleu", "rouge-l"],
            OrangeOptions(n_bootstrap=100),
            max_sentences=8,
        )
        job = services.wait_until(
            lambda: (row := OrangeJob.objects.get(pk=job.pk)).is_finished and row,
            300,
            what="the ORANGE job",
        )
        done = time.monotonic() - queued
    finally:
        services.stop(worker)

    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    compiled = compiled_kernels(cache)
    assert {"kernels_lcs.lcs_grid", "kernels_ngram.clipped_subset_matches"} <= compiled
    assert not [name for name in compiled if name.startswith(UNUSED)]
    # The chunk that compiled says so; its recorded time includes it.
    log = (tmp_path / "worker.log").read_text()
    match = COMPILING_LINE.search(log)
    assert match, log[-3000:]
    first = min(job.chunks.all(), key=lambda chunk: chunk.started_at)
    assert first.elapsed.total_seconds() >= float(match[1]) - 0.05
    print(
        f"\ncold worker: ready in {ready:.1f} s, job done {done:.1f} s after "
        f"queueing; {match[0]}"
    )


def python_output(code: str) -> str:
    """What a new Python process running ``code`` prints (it must succeed)."""
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout


def test_a_starting_worker_process_starts_no_warm_up_thread():
    """``worker_process_init`` (each pool process, as it starts) has no
    warm-up to run: it starts no thread (it used to start the thread that
    compiled every kernel, which ORANGE chunks then waited for)."""
    code = (
        "import django, threading; django.setup()\n"
        "import mtdash.orange.tasks\n"
        "from celery.signals import worker_process_init\n"
        "from mtdash.celery import app\n"
        "before = threading.active_count()\n"
        "worker_process_init.send(sender=None)\n"
        "print(before, threading.active_count())\n"
    )
    before, after = python_output(code).split()
    assert after == before


def test_a_starting_worker_imports_neither_scipy_nor_the_api_schema():
    """A worker imports the app and every task module as it starts (44 starts
    in a test run, more with a supervisor's restarts): SciPy (through the
    statistics) and drf-spectacular (through the API's schema) made up about
    a third of that and are imported when a task or a request needs them."""
    code = (
        "import sys, django; django.setup()\n"
        "from mtdash.celery import app\n"
        "app.loader.import_default_modules()\n"
        "assert 'mtdash.orange.tasks' in sys.modules\n"
        "print(' '.join(m for m in ('scipy', 'drf_spectacular.extensions')"
        " if m in sys.modules))\n"
    )
    assert python_output(code).split() == []
