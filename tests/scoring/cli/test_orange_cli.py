"""python -m scoring orange, end to end."""

import json
import subprocess
import sys

import pytest

from tests.scoring.support.realdata import DATA_DIR, PROJECT_ROOT, measured

RUN = DATA_DIR / "moses-nbest" / "regression-mert-moses-new"
# Candidates per sentence (the fixtures keep the first 64 of each list).
CANDIDATES = measured(full=200, fixtures=64)


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "scoring", "orange", *map(str, args)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def moses_args():
    if not RUN.exists():
        pytest.skip(f"real Moses n-best data not found at {RUN}")
    refs = [RUN / f"reference.{k}" for k in range(3)]
    return ["--nbest", RUN / "run1.NBEST.out", "--refs", *refs]


def test_it_prints_a_table_like_the_paper(moses_args):
    completed = run(
        *moses_args, "--metric", "bleu", "--metric", "bleu:n=1", "--bootstrap", "50"
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0].split() == [
        "Method",
        "ORANGE",
        "Avg",
        "Rank",
        "95%-CI-L",
        "95%-CI-U",
    ]
    assert lines[1].startswith("bleu ") and lines[2].startswith("bleu:n=1 ")
    assert f"5 sentences, up to {CANDIDATES} candidates" in completed.stdout


def test_its_json_is_keyed_by_the_metric_names_as_given(moses_args):
    completed = run(
        *moses_args,
        "--metric",
        "bleu:n=2",
        "--json",
        "--curve-step",
        "64",
        "--bootstrap",
        "20",
    )
    data = json.loads(completed.stdout)
    assert list(data) == ["bleu:n=2"]
    entry = data["bleu:n=2"]
    for key in (
        "orange",
        "avg_rank",
        "ci_low",
        "ci_high",
        "n_sentences",
        "curve",
        "above_reference",
    ):
        assert key in entry
    curve = measured(full=[1, 64, 128, 192, 200], fixtures=[1, 64])
    assert [point[0] for point in entry["curve"]] == curve
    assert len(entry["above_reference"]) == 5
    assert entry["n_sentences"] == 5


def test_it_refuses_a_single_reference(moses_args, tmp_path):
    completed = run("--nbest", moses_args[1], "--refs", RUN / "reference.0")
    assert completed.returncode == 2
    assert "at least two reference files" in completed.stderr


def test_it_names_the_line_of_a_broken_nbest_file(tmp_path):
    nbest = tmp_path / "bad.nbest"
    nbest.write_text("0 ||| a b ||| f ||| 1\nzero ||| c ||| f ||| 2\n")
    ref = tmp_path / "ref"
    ref.write_text("a b\n")
    completed = run("--nbest", nbest, "--refs", ref, ref)
    assert completed.returncode == 2
    assert (
        "bad.nbest: line 2: sentence id 'zero' is not a whole number"
        in completed.stderr
    )
