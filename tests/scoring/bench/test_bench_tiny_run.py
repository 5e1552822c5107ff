"""``python -m scoring.bench`` in miniature: every part runs and prints its
figures; the suites are the paper's; peak memory is measured."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout

import numpy as np
import pytest

from scoring.bench.__main__ import main
from scoring.bench.memory import PeakMemory
from scoring.bench.suites import PAPER_34, TABLE_7


def test_the_suites_are_the_papers():
    assert len(PAPER_34) == 34
    assert list(PAPER_34)[:3] == ["BLEUS1", "BLEUS2", "BLEUS3"]
    assert (
        PAPER_34["ROUGE-W-1.1"] == "rouge-w:w=1.1"
        and PAPER_34["ROUGE-S*"] == "rouge-s:d=*"
    )
    assert list(TABLE_7) == [
        "BLEUS4",
        "PER",
        "WER",
        "ROUGE-L",
        "ROUGE-W-1.2",
        "ROUGE-S4",
    ]


def test_peak_memory_sees_a_large_allocation():
    with PeakMemory() as before:
        pass
    with PeakMemory() as peak:
        block = np.ones(40 * 2**20 // 8)  # 40 MiB, touched
        del block
    assert peak.mib >= before.mib + 30


def test_a_tiny_run_prints_throughput_and_both_suites():
    pytest.importorskip("sacrebleu", reason="sacreBLEU (benchmark/test-only) missing")
    pytest.importorskip(
        "rouge_score", reason="rouge-score (benchmark/test-only) missing"
    )
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            main(
                [
                    "--sentences",
                    "2",
                    "--sample",
                    "60",
                    "--bootstrap",
                    "20",
                    "--workers",
                    "2",
                ]
            )
            == 0
        )
    text = out.getvalue()
    assert re.search(r"kernels: first call [\d.]+ s", text)
    rows = {
        line.split()[0]: line
        for line in text.splitlines()
        if line.startswith(("bleus:n=4 ", "rouge-l "))
    }
    assert set(rows) == {"bleus:n=4", "rouge-l"}
    assert (
        "sacreBLEU sentence_bleu" in rows["bleus:n=4"]
        and "rouge-score rougeL" in rows["rouge-l"]
    )
    assert "suite1024: 2 sentences x 1024-best x 4 references, 34 metrics" in text
    assert "suite16384: 2 sentences x 16384-best x 4 references, 6 metrics" in text
    assert "ROUGE-S*" in text and "ROUGE-W-1.2" in text
    assert len(re.findall(r"ORANGE of all metrics: wall [\d.]+ s", text)) == 2
    assert len(re.findall(r"peak memory [\d,]+ MiB \(", text)) == 2


@pytest.fixture(scope="module")
def suite1024_alone() -> str:
    """What ``--only suite1024`` prints: one run read by the two tests below
    (each ran it on its own before; the run starts the command line twice)."""
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--only", "suite1024", "--sentences", "2", "--bootstrap", "10"])
    return out.getvalue()


def test_parts_can_be_run_alone(suite1024_alone):
    assert "suite1024" in suite1024_alone and "throughput" not in suite1024_alone
    assert "suite16384" not in suite1024_alone


def test_the_suites_run_the_command_line_end_to_end_on_files(suite1024_alone):
    text = suite1024_alone
    table, as_json = (
        re.search(rf"command line end to end \({what}\): wall [\d.]+ s, peak memory "
                  r"[\d,]+ MiB; n-best file [\d,]+ MB", text)
        for what in ("table", "--json")
    )  # fmt: skip
    assert table and as_json
    assert re.search(r"\(engine alone: [\d.]+ s", text)


def test_no_command_line_skips_it():
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--only", "suite1024", "--sentences", "1", "--bootstrap", "5",
              "--no-command-line"])  # fmt: skip
    assert "command line end to end" not in out.getvalue()


def test_the_metrics_part_times_each_metric_and_names_its_path():
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--only", "metrics", "--sentences", "3", "--metric-sentences", "1"])
    text = out.getvalue()
    assert "throughput" not in text and "suite1024" not in text
    rows = {line.split()[0]: line for line in text.splitlines()[-9:]}
    assert set(rows) == {
        "chrf", "chrf++", "gtm:e=1", "gtm:e=2", "gtm:e=3", "ter", "meteor", "wnm",
        "red",
    }  # fmt: skip
    for row in rows.values():
        assert "batch engine" in row or "pair by pair" in row or "failed:" in row, row
        if "failed:" not in row:
            assert "1 sentences" in row and "(extrap.)" in row
