"""``python -m scoring spans`` in a subprocess: the table, the JSON figures
against the library on the same files and seed, format detection, and
refusals with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.spans import load_span_file
from scoring.stats.span_agreement import evaluate_spans
from tests.scoring.support.realdata import PROJECT_ROOT

HUMAN_TSV = (
    "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    "A\td\t1\t1\tr1\tHello world.\tHallo <v>Welt</v>.\tAccuracy/Mistranslation\tMajor\n"
    "A\td\t2\t2\tr1\tGood day.\tGuten Tag.\tNo-error\tNo-error\n"
    "B\td\t1\t1\tr1\tHello world.\t<v>Hallo</v> Erde.\tStyle/Awkward\tMinor\n"
    "B\td\t2\t2\tr2\tGood day.\tGuter <v>Tag</v>.\tFluency/Grammar\tMinor\n"
    "B\td\t2\t2\tr1\tGood day.\tGuter Tag<v>.</v>\tFluency/Punctuation\tMinor\n"
)
METRIC_LINES = [
    {
        "segment": 1,
        "system": "A",
        "metric": "xc",
        "spans": [{"start": 6, "end": 10, "severity": "major"}],
    },
    {"segment": 2, "system": "A", "metric": "xc", "spans": []},
    {
        "segment": 1,
        "system": "B",
        "metric": "xc",
        "spans": [{"start": 0, "end": 11, "severity": "minor"}],
    },
    {
        "segment": 2,
        "system": "B",
        "metric": "xc",
        "spans": [{"start": 6, "end": 9, "severity": "major"}],
    },
    {
        "segment": 1,
        "system": "A",
        "metric": "llm",
        "spans": [{"start": 0, "end": 5, "severity": "minor"}],
    },
]


def run_cli(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "spans", *map(str, arguments)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    human = tmp_path / "human.tsv"
    human.write_text(HUMAN_TSV, encoding="utf-8")
    metric = tmp_path / "metric.jsonl"
    metric.write_text("".join(json.dumps(line) + "\n" for line in METRIC_LINES))
    return human, metric


def test_it_prints_a_table_per_system_and_overall(files) -> None:
    human, metric = files
    completed = run_cli("--human", human, "--metric", metric, "--bootstrap", "0")
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    assert "gold: first annotator by name; no bootstrap" in out
    assert "xc, mpp, micro" in out and "llm, mpp, micro" in out
    table = out.split("xc, mpp, micro\n")[1].split("\n\n")[0].splitlines()
    assert table[0].split() == ["system", "precision", "recall", "F1", "segments"]
    # A: exact hit; B: seg 1 shares 5 of 11 predicted characters and all 5
    # human ones; seg 2's gold is r1 (first by name): "." [9, 10), which the
    # metric's [6, 9) misses.
    assert table[1].split() == ["A", "1.0000", "1.0000", "1.0000", "2"]
    assert table[2].split()[:3] == ["B", f"{5 / 11 / 2:.4f}", f"{1 / 2:.4f}"]
    assert table[3].split()[0] == "overall"


def test_json_figures_equal_the_library_with_the_same_seed(files) -> None:
    human, metric = files
    completed = run_cli(
        "--human",
        human,
        "--metric",
        metric,
        "--variant",
        "mpp",
        "--variant",
        "w25",
        "--average",
        "both",
        "--bootstrap",
        "300",
        "--seed",
        "4",
        "--json",
    )
    assert completed.returncode == 0, completed.stderr
    data = json.loads(completed.stdout)
    assert data["variants"] == ["mpp", "w25"] and data["averages"] == ["micro", "macro"]
    assert [m["metric"] for m in data["metrics"]] == ["xc", "llm"]
    human_spans = load_span_file(human).annotations
    metric_spans = load_span_file(metric, kind="metric")
    expected = evaluate_spans(
        human_spans,
        metric_spans.of_annotator("xc"),
        variants=("mpp", "w25"),
        averages=("micro", "macro"),
        n_samples=300,
        seed=4,
    )
    assert data["metrics"][0] == json.loads(json.dumps(expected.to_dict()))
    overall = data["metrics"][0]["results"][0]["overall"]
    assert set(overall) == {"precision", "recall", "f1", "segments", "intervals"}
    low, high = overall["intervals"]["f1"]
    assert low <= overall["f1"] <= high


def test_the_human_format_can_be_named(files, tmp_path: Path) -> None:
    human, metric = files
    renamed = tmp_path / "ratings.txt"
    renamed.write_text(human.read_text(encoding="utf-8"), encoding="utf-8")
    completed = run_cli(
        "--human",
        renamed,
        "--human-format",
        "mqm-tsv",
        "--metric",
        metric,
        "--bootstrap",
        "0",
        "--json",
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["human"]["format"] == "mqm-tsv"


def test_a_metric_span_past_its_text_is_refused(files, tmp_path: Path) -> None:
    human, _ = files
    metric = tmp_path / "long.jsonl"
    metric.write_text(
        json.dumps(
            {
                "segment": 2,
                "system": "A",
                "metric": "m",
                "spans": [{"start": 3, "end": 99, "severity": "minor"}],
            }
        )
        + "\n"
    )
    completed = run_cli("--human", human, "--metric", metric)
    assert completed.returncode == 2
    assert completed.stderr == (
        f"error: {metric}: line 1: span 1 of system 'A', segment 2: end 99 is past "
        "the end of the target text (10 characters)\n"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--metric", "{human}"], "holds human ratings, not a metric's spans"),
        (["--metric", "{missing}"], "cannot read file"),
        (
            ["--metric", "{metric}", "--annotator", "nobody"],
            "no human annotations by 'nobody'",
        ),
    ],
)
def test_bad_input_exits_with_status_2(files, tmp_path, arguments, message) -> None:
    human, metric = files
    names = {"human": human, "metric": metric, "missing": tmp_path / "none.jsonl"}
    completed = run_cli("--human", human, *[a.format(**names) for a in arguments])
    assert completed.returncode == 2
    assert message in completed.stderr and "Traceback" not in completed.stderr
