"""``python -m scoring`` run as a real subprocess from the project root."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scoring import __version__ as VERSION
from tests.scoring.support.realdata import PROJECT_ROOT

HYPOTHESES = ["The cat sat on the mat.", "A dog barked at the moon!", "Hello"]
REFERENCES_1 = ["The cat sat on a mat.", "The dog barked at the moon.", "Hello world"]
REFERENCES_2 = ["A cat was sitting on the mat.", "A dog was barking at the moon.", "Hi"]


def run_cli(*arguments: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m scoring`` with the project root as working directory."""
    return subprocess.run(
        [sys.executable, "-m", "scoring", *map(str, arguments)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    contents = {"hyp": HYPOTHESES, "ref1": REFERENCES_1, "ref2": REFERENCES_2}
    for name, lines in contents.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return paths


def test_json_output_is_keyed_by_the_metrics_as_given(sacrebleu, files) -> None:
    completed = run_cli(
        "score",
        "--metric",
        "bleu",
        "--metric",
        "bleu:n=2",
        "--refs",
        files["ref1"],
        files["ref2"],
        "--hyp",
        files["hyp"],
        "--json",
    )
    assert completed.returncode == 0, completed.stderr
    data = json.loads(completed.stdout)
    assert list(data) == ["bleu", "bleu:n=2"]
    assert set(data["bleu"]) == {"score", "signature"}
    assert data["bleu"]["signature"] == (
        f"bleu|nrefs:2|case:mixed|tok:13a|smooth:exp|n:4|version:{VERSION}"
    )
    assert data["bleu:n=2"]["signature"].endswith(f"|n:2|version:{VERSION}")
    references = [REFERENCES_1, REFERENCES_2]
    assert data["bleu"]["score"] == pytest.approx(
        sacrebleu.corpus_bleu(HYPOTHESES, references).score, abs=1e-4
    )
    bigram_bleu = sacrebleu.BLEU(max_ngram_order=2)
    assert data["bleu:n=2"]["score"] == pytest.approx(
        bigram_bleu.corpus_score(HYPOTHESES, references).score, abs=1e-4
    )


def test_sentence_scores_come_in_line_order_with_their_signature(
    sacrebleu, files
) -> None:
    completed = run_cli(
        "score",
        "--refs",
        files["ref1"],
        files["ref2"],
        "--hyp",
        files["hyp"],
        "--tokenize",
        "none",
        "--lowercase",
        "--sentence",
        "--json",
    )
    assert completed.returncode == 0, completed.stderr
    entry = json.loads(completed.stdout)["bleu"]
    assert "|case:lc|tok:none|" in entry["signature"]
    assert "|smooth:add-k[1]|" in entry["sentence_signature"]
    expected = [
        sacrebleu.sentence_bleu(
            hypothesis,
            [REFERENCES_1[i], REFERENCES_2[i]],
            smooth_method="add-k",
            smooth_value=1,
            tokenize="none",
            lowercase=True,
        ).score
        for i, hypothesis in enumerate(HYPOTHESES)
    ]
    assert np.allclose(entry["sentence_scores"], expected, rtol=0, atol=1e-4)


def test_human_output_prints_score_and_signature_per_metric(sacrebleu, files) -> None:
    completed = run_cli(
        "score", "--refs", files["ref1"], "--hyp", files["hyp"], "--sentence"
    )
    assert completed.returncode == 0, completed.stderr
    first_line = completed.stdout.splitlines()[0]
    name, score, signature = first_line.split()
    expected = sacrebleu.corpus_bleu(HYPOTHESES, [REFERENCES_1]).score  # 52.6074...
    assert name == "bleu" and score == f"{expected:.4f}"
    assert (
        signature == f"bleu|nrefs:1|case:mixed|tok:13a|smooth:exp|n:4|version:{VERSION}"
    )
    assert "line\tbleu" in completed.stdout
    assert completed.stdout.rstrip().splitlines()[-1].startswith("3\t")


def test_it_rejects_a_wrong_line_count_naming_the_file_and_line(files) -> None:
    files["ref2"].write_text("only one line\n", encoding="utf-8")
    completed = run_cli(
        "score", "--refs", files["ref1"], files["ref2"], "--hyp", files["hyp"]
    )
    assert completed.returncode == 2
    assert str(files["ref2"]) in completed.stderr
    assert "has 1 lines but" in completed.stderr and "line 2 of" in completed.stderr
    assert "Traceback" not in completed.stderr and completed.stdout == ""


def test_it_rejects_invalid_utf8_naming_the_file_and_line(files) -> None:
    files["hyp"].write_bytes(b"fine\nstill fine\nbad \xff byte\n")
    completed = run_cli("score", "--refs", files["ref1"], "--hyp", files["hyp"])
    assert completed.returncode == 2
    assert f"{files['hyp']}: line 3: invalid UTF-8" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_it_rejects_a_missing_file_and_an_unknown_metric_without_a_traceback(
    files, tmp_path
) -> None:
    missing = tmp_path / "nope.txt"
    completed = run_cli("score", "--refs", missing, "--hyp", files["hyp"])
    assert completed.returncode == 2 and str(missing) in completed.stderr
    completed = run_cli(
        "score", "--metric", "blue", "--refs", files["ref1"], "--hyp", files["hyp"]
    )
    assert completed.returncode == 2 and "valid metrics: bleu" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_list_metrics_names_each_metric_and_its_parameters() -> None:
    completed = run_cli("list-metrics")
    assert completed.returncode == 0
    assert completed.stdout.startswith("bleu: ")
    assert "  n=int" in completed.stdout
    assert (
        "tokenize=str [13a|none|intl|char|mteval13a|mteval13a-sgml|zh]"
        in completed.stdout
    )
    data = json.loads(run_cli("list-metrics", "--json").stdout)
    assert data[0]["name"] == "bleu"
