"""A worker process loads English METEOR's resources (WordNet, the paraphrase
table and the kernels' index of it) once it is idle, so the first METEOR job
does not pay for them; never while a task runs, and not at all without a
table."""

import gzip
import threading
import time

import pytest

from mtdash.common import server_metrics, worker_resources
from scoring.batch import meteor_lexicon


@pytest.fixture
def table(tmp_path, settings):
    path = tmp_path / "paraphrase-tiny.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("0.5\nthe cat\nthe feline\n0.4\nsat\nwas sitting\n")
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = str(path)
    return path


def test_no_table_no_thread(settings):
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = ""
    assert worker_resources.preload_when_idle() is None


def test_the_load_waits_for_the_running_task_and_an_idle_moment(table, monkeypatch):
    loaded = threading.Event()
    monkeypatch.setattr(worker_resources, "IDLE_SECONDS", 0.3)
    monkeypatch.setattr(server_metrics, "preload_meteor", lambda: loaded.set() or 0.0)
    worker_resources._task_started()  # a task runs as the process starts
    try:
        thread = worker_resources.preload_when_idle()
        assert thread is not None
        time.sleep(1.0)
        assert not loaded.is_set()
    finally:
        worker_resources._task_ended()
    ended = time.monotonic()
    assert loaded.wait(timeout=10)
    assert time.monotonic() - ended >= 0.3
    thread.join(timeout=5)


def test_preload_builds_the_metric_and_the_kernels_index(table):
    seconds = server_metrics.preload_meteor()

    metric = server_metrics.server_metric("meteor")
    assert "para:paraphrase-tiny.gz" in metric.signature()
    assert seconds >= 0.0
    paraphrases = metric.config.paraphrase_table
    # The kernels' word ids of the table are built (a cached property), and
    # the lexicon of this very configuration is the one the jobs will use.
    assert "word_ids" in vars(paraphrases)
    assert paraphrases.word_ids["cat"] >= 0
    assert meteor_lexicon.lexicon_for(metric.config).config is metric.config
