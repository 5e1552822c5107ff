"""``python -m scoring complexity``: output, JSON and bad input.

The command lives in :mod:`scoring.cli.complexity`; these tests build their
own parser with :func:`add_complexity_parser`, so they run whether or not
:mod:`scoring.cli.main` has been wired to it yet. The last test runs the real
``python -m scoring complexity`` and is skipped until it is wired.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli.complexity import add_complexity_parser, run_complexity
from tests.scoring.support.realdata import PROJECT_ROOT

ENGLISH = "The cat sat on the table.\nIt was happy.\n"
FRENCH = "Les enfants parlent de la table.\n"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="python -m scoring")
    add_complexity_parser(parser.add_subparsers(dest="command", required=True))
    status = run_complexity(parser.parse_args(["complexity", *argv]))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def english(tmp_path: Path) -> Path:
    path = tmp_path / "text.en"
    path.write_text(ENGLISH, encoding="utf-8")
    return path


def test_it_prints_the_readability_figures_of_a_file(english: Path, capsys) -> None:
    status, out, err = _run(["--text", str(english), "--lang", "en"], capsys)
    assert (status, err) == (0, "")
    assert "(2 sentences, 9 words, 11 syllables)" in out
    assert "ASL   4.50" in out and "ASW   1.2222" in out
    assert "FR    98.87" in out and "FKGL  0.59" in out
    assert "complexity|lang:en|syl:en-spoken+cmudict" in out


def test_it_counts_sentences_within_lines_unless_asked_per_line(
    tmp_path: Path, capsys
) -> None:
    path = tmp_path / "one-line.en"
    path.write_text("The cat sat on the table. It was happy.\n", encoding="utf-8")
    _, out, _ = _run(["--text", str(path), "--lang", "en"], capsys)
    assert "(2 sentences, 9 words, 11 syllables)" in out and "ASL   4.50" in out
    _, out, _ = _run(
        ["--text", str(path), "--lang", "en", "--sentences", "line"], capsys
    )
    assert "(1 sentences, 9 words, 11 syllables)" in out and "ASL   9.00" in out
    assert "|sent:line|" in out


def test_it_measures_a_german_text(tmp_path: Path, capsys) -> None:
    path = tmp_path / "text.de"
    path.write_text("Die Katze sitzt auf der Matte. Es regnet.\n", encoding="utf-8")
    status, out, err = _run(["--text", str(path), "--lang", "de", "--json"], capsys)
    data = json.loads(out)["text"]
    # Die Kat-ze sitzt auf der Mat-te. Es reg-net.
    assert (status, err) == (0, "")
    assert (data["n_sentences"], data["n_words"], data["n_syllables"]) == (2, 8, 11)
    assert "syl:de-spoken" in data["signature"]


def test_it_prints_json_with_the_counts_and_the_signature(
    english: Path, capsys
) -> None:
    status, out, _ = _run(["--text", str(english), "--lang", "en", "--json"], capsys)
    data = json.loads(out)
    assert status == 0
    assert data["text"]["file"] == str(english)
    assert (data["text"]["n_words"], data["text"]["n_syllables"]) == (9, 11)
    assert data["text"]["asw"] == pytest.approx(11 / 9, rel=1e-12)
    assert "reference" not in data


def test_it_prints_the_normalisation_coefficient_against_a_reference_text(
    english: Path, tmp_path: Path, capsys
) -> None:
    reference = tmp_path / "reference.en"
    reference.write_text(
        "Readability formulas estimate difficulty.\n", encoding="utf-8"
    )
    argv = ["--text", str(english), "--lang", "en", "--reference-text", str(reference)]
    status, out, _ = _run([*argv, "--json"], capsys)
    data = json.loads(out)
    # ASW(text) = 11/9; ASW(reference) = (5 + 3 + 3 + 4) / 4 = 3.75.
    c = (11 / 9) / 3.75
    assert status == 0
    assert data["coefficient"] == pytest.approx(c, rel=1e-12)
    assert data["factors"] == pytest.approx({"bleu": c**2, "wnm": c}, rel=1e-12)
    status, out, _ = _run(argv, capsys)
    assert f"C = ASW(text) / ASW(reference) = {c:.4f}" in out
    assert f"normalised BLEU = BLEU x {c * c:.4f}  (C²)" in out


def test_it_counts_french_written_syllables_on_request(tmp_path: Path, capsys) -> None:
    path = tmp_path / "text.fr"
    path.write_text(FRENCH, encoding="utf-8")
    _, out, _ = _run(["--text", str(path), "--lang", "fr", "--json"], capsys)
    assert json.loads(out)["text"]["n_syllables"] == 7
    argv = ["--text", str(path), "--lang", "fr", "--syllables", "written", "--json"]
    _, out, _ = _run(argv, capsys)
    assert json.loads(out)["text"]["n_syllables"] == 9


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (b"12 345\n", [], "no words to measure"),
        (b"caf\xe9\n", [], "line 1: invalid UTF-8"),
        (b"Hello.\n", ["--syllables", "written"], "not available for 'en'"),
    ],
)
def test_it_fails_with_status_2_and_one_line_on_bad_input(
    tmp_path: Path, capsys, content: bytes, extra: list[str], message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    status, out, err = _run(["--text", str(path), "--lang", "en", *extra], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_it_names_a_missing_file(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "missing.txt"
    status, _, err = _run(["--text", str(missing), "--lang", "fr"], capsys)
    assert status == 2 and str(missing) in err


def test_it_refuses_a_language_without_a_counter(english: Path) -> None:
    parser = argparse.ArgumentParser()
    add_complexity_parser(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args(["complexity", "--text", str(english), "--lang", "it"])
    assert exit_info.value.code == 2


def test_python_m_scoring_complexity_runs_once_wired(english: Path) -> None:
    from scoring.cli.main import build_parser

    subcommands = next(
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    if "complexity" not in subcommands.choices:
        pytest.skip("scoring.cli.main does not register the complexity command yet")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "complexity",
            "--text",
            str(english),
            "--lang",
            "en",
            "--json",
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["text"]["n_syllables"] == 11
