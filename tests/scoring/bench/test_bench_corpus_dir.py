"""``python -m scoring.bench --corpus DIR``: the suites on a corpus given as
files (``nbest.txt``, ``ref1.txt`` ... ``refK.txt``, as
``make_bench_corpus.py`` writes them), engine and command line."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout

import pytest

from scoring.bench.__main__ import main
from scoring.bench.corpus_files import corpus_files, run_suite_on_files
from scoring.bench.moses_files import write_moses_files
from scoring.bench.suites import run_suite, suite_corpus
from scoring.errors import InputFileError


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory):
    """Three sentences of the synthetic suite1024 corpus in the files'
    layout (ref10.txt sorts after ref2.txt by number, not by name)."""
    directory = tmp_path_factory.mktemp("corpus")
    corpus = suite_corpus("suite1024", 3)
    files = write_moses_files(corpus, directory)
    files.nbest.rename(directory / "nbest.txt")
    for k, path in enumerate(files.references):
        path.rename(directory / f"ref{[1, 2, 10, 11][k]}.txt")
    return directory, corpus


def test_the_engine_on_the_files_ranks_as_on_the_generated_corpus(corpus_dir):
    directory, corpus = corpus_dir
    files = corpus_files(directory)
    assert [path.name for path in files.references] == [
        "ref1.txt", "ref2.txt", "ref10.txt", "ref11.txt",
    ]  # fmt: skip
    on_files = run_suite_on_files("suite16384", files, workers=1, n_bootstrap=20)
    generated = run_suite("suite16384", workers=1, n_bootstrap=20, corpus=corpus)
    assert on_files.shape.n_sentences == 3
    assert on_files.shape.n_candidates == 1024
    for name, result in generated.results.items():
        assert on_files.results[name].orange == pytest.approx(result.orange, abs=1e-12)
        assert on_files.results[name].ci_low == pytest.approx(result.ci_low, abs=1e-12)


def test_the_benchmark_prints_engine_and_command_line_figures(corpus_dir):
    directory, _ = corpus_dir
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(
            ["--only", "suite16384", "--corpus", str(directory), "--bootstrap", "20"]
        )
    assert status == 0
    text = out.getvalue()
    assert "suite16384: 3 sentences x 1024-best x 4 references, 6 metrics" in text
    assert re.search(r"ORANGE of all metrics: wall [\d.]+ s, CPU [\d.]+ s", text)
    for mode in ("table", "--json"):
        assert re.search(
            rf"command line end to end \({re.escape(mode)}\): wall [\d.]+ s, "
            r"peak memory [\d,]+ MiB; .*; CPU [\d.]+ s; load average before",
            text,
        )


def test_a_directory_without_references_is_refused(tmp_path):
    (tmp_path / "nbest.txt").write_text("0 ||| a ||| f ||| 1\n")
    (tmp_path / "ref1.txt").write_text("a\n")
    with pytest.raises(InputFileError, match="at least two reference files"):
        corpus_files(tmp_path)
    (tmp_path / "nbest.txt").unlink()
    with pytest.raises(InputFileError, match="no n-best list"):
        corpus_files(tmp_path)
    with pytest.raises(InputFileError, match="no such corpus directory"):
        corpus_files(tmp_path / "missing")
