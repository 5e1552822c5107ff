"""The benchmark's Moses files read back as the corpus they were written
from, and the command line ranks them as the engine ranks the token ids."""

from __future__ import annotations

import dataclasses
import json
import subprocess

import numpy as np

from scoring.bench.end_to_end import command
from scoring.bench.metric_times import time_metric
from scoring.bench.moses_files import write_moses_files
from scoring.bench.suites import TABLE_7, run_suite, suite_corpus
from scoring.bench.synthetic import PAPER_1024_BEST, make_corpus
from scoring.orange.nbest_stream import read_nbest_words
from scoring.textfiles import read_segments


def test_written_files_read_back_as_the_corpus(tmp_path):
    corpus = make_corpus(dataclasses.replace(PAPER_1024_BEST, n_sentences=3))
    for compress in (False, True):
        files = write_moses_files(corpus, tmp_path / str(compress), compress=compress)
        words = read_nbest_words(files.nbest)
        assert words.sentence_ids.tolist() == [0, 1, 2]
        vocabulary = np.array([int(w[1:]) for w in words.vocabulary])
        assert np.array_equal(vocabulary[words.words], corpus.nbest.tokens)
        assert np.array_equal(words.word_offsets, corpus.nbest.candidate_offsets)
        reference = read_segments(files.references[2])[1]
        assert reference == corpus.text(corpus.references[1][2])


def test_the_command_line_on_the_files_equals_the_engine_on_the_ids(tmp_path):
    corpus = suite_corpus("suite16384", 2)
    corpus = dataclasses.replace(
        corpus, shape=dataclasses.replace(corpus.shape, n_candidates=16384)
    )
    engine = run_suite("suite16384", corpus=corpus, n_bootstrap=20)
    files = write_moses_files(corpus, tmp_path)
    arguments = command(
        str(files.nbest),
        [str(p) for p in files.references],
        list(TABLE_7.values()),
        as_json=True,
        n_bootstrap=20,
    )
    completed = subprocess.run(arguments, capture_output=True, text=True, check=True)
    data = json.loads(completed.stdout)["metrics"]
    for name, spec in TABLE_7.items():
        assert data[spec]["orange"] == engine.results[name].orange
        assert data[spec]["ci_low"] == engine.results[name].ci_low


def test_a_metric_that_cannot_run_is_reported_not_raised():
    texts = [["a b c", "a b"]] * 2
    references = [["a b c", "a c"]] * 2
    # ORANGE needs two references per sentence: this one cannot run.
    timed = time_metric("chrf", texts, [refs[:1] for refs in references])
    assert timed.error and timed.orange is None
    assert not time_metric("wnm", texts, references).error  # documents given
    ok = time_metric("chrf", texts, references)
    assert (
        ok.sentences == 2
        and not ok.extrapolated
        and ok.path
        in (
            "batch engine",
            "pair by pair",
        )
    )


def test_each_metric_time_comes_with_its_cpu_time_and_load():
    from scoring.bench.metric_times import format_metric_times

    texts = [["a b c d e f g h", "a b"] * 50] * 2
    references = [["a b c", "a c"]] * 2
    timed = time_metric("ter", texts, references)
    assert timed.cpu_seconds > 0 and timed.load is not None and timed.load >= 0
    header, line = format_metric_times([timed]).splitlines()
    assert "CPU" in header and "load" in header
    assert f"{timed.cpu_seconds:.1f}s" in line and f"{timed.load:.1f}" in line
