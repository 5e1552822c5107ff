"""The benchmark's ``meta`` part in miniature: the synthetic judged test set
has the shape it promises, and a tiny run prints every task's time, the
command line's end-to-end lines and the target's verdict."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout

import numpy as np

from scoring.bench.__main__ import main
from scoring.bench.judged_test_set import (
    CRITERION,
    JudgedTestSetSpec,
    make_judged_test_set,
    write_test_set,
)
from scoring.stats.judgments import read_judgments
from scoring.stats.scores_file import read_metric_scores
from scoring.stats.wmt_protocol import TASKS

TINY = JudgedTestSetSpec(n_systems=5, n_segments=60, n_metrics=4, name="tiny")


def test_the_test_set_has_ties_an_error_rate_and_every_judgment(tmp_path):
    spec = JudgedTestSetSpec(n_systems=4, n_segments=30, n_metrics=10, name="t")
    files = write_test_set(make_judged_test_set(spec), tmp_path)
    assert files.scores.name == "t.json" and files.judgments.name == "t-judgments.csv"
    judgments = read_judgments(files.judgments)
    scores = read_metric_scores(files.scores)
    assert len(judgments) == 4 * 30 and judgments.criteria == (CRITERION,)
    assert len(judgments.judges) == 6
    values = judgments.values
    assert values.max() == 0 and len(np.unique(values)) < len(values) / 3  # MQM ties
    assert scores.systems == ("sys00", "sys01", "sys02", "sys03")
    assert [m for m, up in scores.higher_is_better.items() if not up] == ["metric09"]
    rounded = scores.sentence["metric00"]["sys00"]  # whole numbers: ties
    assert np.array_equal(rounded, np.round(rounded))
    assert len(np.unique(rounded)) < rounded.size
    entry = json.loads(files.scores.read_text())["sys00"]["metric00"]
    assert set(entry) == {"score", "sentence_scores"}  # SCORES.json, as correlate reads


def test_the_test_set_comes_from_its_seed():
    first, again = make_judged_test_set(TINY), make_judged_test_set(TINY)
    other = make_judged_test_set(TINY.another("tiny-2"))
    assert first.judgments_csv == again.judgments_csv and first.scores == again.scores
    assert other.spec.name == "tiny-2" and other.scores != first.scores


def test_a_tiny_meta_run_prints_each_task_the_command_lines_and_the_target():
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            main(
                [
                    "--only",
                    "meta",
                    "--sentences",
                    "60",
                    "--meta-systems",
                    "5",
                    "--meta-metrics",
                    "4",
                    "--permutations",
                    "50",
                ]
            )  # fmt: skip
            == 0
        )
    text = out.getvalue()
    assert "kernels:" not in text  # the meta part alone compiles nothing
    assert "5 systems x 60 segments x 4 metrics, 50 permutations" in text
    for task in TASKS:
        assert re.search(rf"^{task} +[\d.]+$", text, re.MULTILINE), task
    assert re.search(r"^whole protocol +[\d.]+$", text, re.MULTILINE)
    assert re.search(
        r"library from files to JSON: reading [\d.]+ s, protocol [\d.]+ s, writing "
        r"[\d.]+ s, total [\d.]+ s; peak memory [\d,]+ MiB",
        text,
    )
    assert re.search(r"pool_protocols of both \(12 rankings\): [\d.]+ s", text)
    for task in ("segment:acc_eq", "system:spa"):
        assert re.search(
            rf"correlate end to end \({task}: --level .*\): wall [\d.]+ s, peak "
            r"memory [\d,]+ MiB, JSON [\d,]+ KiB; cells equal the library's",
            text,
        ), task
    assert re.search(
        r"target: .* <= 60 s .*: library [\d.]+ s (PASS|MISS); from files to JSON "
        r"[\d.]+ s (PASS|MISS) \(at a smaller size than the target's\)",
        text,
    )
