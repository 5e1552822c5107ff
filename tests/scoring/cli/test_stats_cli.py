"""``correlate`` and ``compare`` on the command line.

Until :mod:`scoring.cli.main` wires them in, each test builds a fresh parser with
``add_correlate_parser`` / ``add_compare_parser``, as ``scoring.cli.main`` will.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from scoring.cli.stats import add_compare_parser, add_correlate_parser
from tests.scoring.support.realdata import WMT21_DIR, segment_count
from tests.scoring.support.stats_data import require


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring")
    commands = parser.add_subparsers(dest="command", required=True)
    add_correlate_parser(commands)
    add_compare_parser(commands)
    arguments = parser.parse_args(argv)
    return arguments.handler(arguments)


# -- correlate -------------------------------------------------------------

SYSTEMS = [f"S{i}" for i in range(1, 9)]


@pytest.fixture
def evaluation(tmp_path: Path) -> tuple[Path, Path]:
    """Eight systems, two criteria, three judges, ten segments."""
    rng = np.random.default_rng(0)
    quality = np.linspace(0.0, 1.0, 8)
    lines = ["segment,system,judge,criterion,value"]
    scores: dict[str, dict[str, object]] = {}
    for s, system in enumerate(SYSTEMS):
        segment_quality = quality[s] + 0.3 * rng.normal(size=10)
        for segment in range(1, 11):
            for judge in ("j1", "j2", "j3"):
                bias = {"j1": 0, "j2": 1, "j3": -1}[judge]
                for criterion in ("adequacy", "fluency"):
                    value = (
                        3 + bias + 2 * segment_quality[segment - 1] + rng.normal(0, 0.3)
                    )
                    lines.append(f"{segment},{system},{judge},{criterion},{value:.3f}")
        bleu = 20 + 10 * segment_quality + rng.normal(0, 1, 10)
        noise = rng.normal(0, 5, 10)
        scores[system] = {
            "bleu": {"score": float(bleu.mean()), "sentence_scores": bleu.tolist()},
            "noise": {"score": float(noise.mean()), "sentence_scores": noise.tolist()},
            "ter": {"score": float(80 - bleu.mean()),
                    "sentence_scores": (80 - bleu).tolist(), "higher_is_better": False},
        }  # fmt: skip
    judgments = tmp_path / "J.csv"
    judgments.write_text("\n".join(lines) + "\n", encoding="utf-8")
    scores_path = tmp_path / "SCORES.json"
    scores_path.write_text(json.dumps(scores), encoding="utf-8")
    return scores_path, judgments


def test_correlate_prints_an_orange_table_1(evaluation, capsys) -> None:
    scores, judgments = evaluation
    status = run(["correlate", "--scores", str(scores), "--judgments", str(judgments)])
    out = capsys.readouterr().out
    assert status == 0
    assert "pearson correlation, system level, human scores: per-judge z-scores" in out
    assert (
        "intervals: two-sided 95% percentile bootstrap interval, 1000 resamples of "
        "systems, seed 1" in out
    )
    assert (
        "test against the best: paired bootstrap of the difference of correlations "
        "(two-sided, alpha 0.05)" in out
    )
    assert "adequacy (n=8)" in out and "fluency (n=8)" in out
    assert "negated (lower is better): ter" in out
    rows = {
        line.split()[0]: line
        for line in out.splitlines()
        if line[:5] in ("bleu ", "noise", "ter  ")
    }
    # bleu and -ter rank the systems alike: tied, both best.
    assert "*" in rows["bleu"] and "*" in rows["ter"]
    assert "*" not in rows["noise"]


def test_correlate_prints_json_at_sentence_level(evaluation, capsys) -> None:
    scores, judgments = evaluation
    status = run([
        "correlate", "--scores", str(scores), "--judgments", str(judgments),
        "--level", "sentence", "--method", "kendall", "--bootstrap", "200",
        "--seed", "3", "--criterion", "fluency", "--json",
    ])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert (data["level"], data["method"], data["kendall_variant"]) == (
        "sentence",
        "kendall",
        "b",
    )
    assert (data["n_samples"], data["seed"]) == (200, 3)
    (fluency,) = data["criteria"]
    assert fluency["criterion"] == "fluency" and fluency["n_points"] == 80
    cells = {cell["metric"]: cell for cell in fluency["cells"]}
    # -TER is BLEU shifted: the same ranks, so the same tau: both best.
    assert cells["bleu"]["coefficient"] == pytest.approx(
        cells["ter"]["coefficient"], rel=1e-12
    )
    assert cells["bleu"]["best"] and cells["ter"]["best"]
    assert fluency["best_metrics"] == ["bleu", "ter"]
    assert data["resampling_unit"] == "segment"
    assert fluency["n_units"] == 10
    assert not cells["noise"]["equivalent"]


def test_correlate_with_williams_and_raw_scores(evaluation, capsys) -> None:
    scores, judgments = evaluation
    status = run([
        "correlate", "--scores", str(scores), "--judgments", str(judgments),
        "--test", "williams", "--human", "raw", "--bootstrap", "50", "--json",
    ])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["test"] == "williams" and data["human"] == "raw"
    assert data["equivalence_test"]["sides"] == "one-sided"
    assert (
        data["equivalence_test"]["name"] == "Williams' test for dependent correlations"
    )


def test_correlate_reports_bad_input_with_file_and_line(
    evaluation, tmp_path, capsys
) -> None:
    scores, _ = evaluation
    bad = tmp_path / "bad.csv"
    bad.write_text("segment,system,value\n1,S1,3\n2,S1,three\n", encoding="utf-8")
    assert run(["correlate", "--scores", str(scores), "--judgments", str(bad)]) == 2
    assert (
        capsys.readouterr().err
        == f"error: {bad}: line 3: value 'three' is not a number\n"
    )
    missing = tmp_path / "missing.json"
    assert run(["correlate", "--scores", str(missing), "--judgments", str(bad)]) == 2
    assert "cannot read file" in capsys.readouterr().err


def test_correlate_names_unknown_criteria(evaluation, capsys) -> None:
    scores, judgments = evaluation
    argv = ["correlate", "--scores", str(scores), "--judgments", str(judgments)]
    assert run([*argv, "--criterion", "usability"]) == 2
    assert "criteria: adequacy, fluency" in capsys.readouterr().err


def test_correlate_reads_other_column_names(tmp_path, capsys) -> None:
    judgments = tmp_path / "J.tsv"
    rows = ["sid\tsys\tz"] + [f"1\tS{i}\t{i * 0.1:.1f}" for i in range(1, 5)]
    judgments.write_text("\n".join(rows) + "\n", encoding="utf-8")
    scores = tmp_path / "SCORES.json"
    scores.write_text(
        json.dumps({f"S{i}": {"m": i * i} for i in range(1, 5)}), encoding="utf-8"
    )
    status = run([
        "correlate", "--scores", str(scores), "--judgments", str(judgments),
        "--columns", "segment=sid,system=sys,value=z", "--method", "spearman", "--json",
    ])  # fmt: skip
    cell = json.loads(capsys.readouterr().out)["criteria"][0]["cells"][0]
    assert (
        status == 0
        and cell["coefficient"] == pytest.approx(1.0, rel=1e-12)
        and cell["best"]
    )


@pytest.mark.parametrize(
    "extra",
    [
        ["--bootstrap", "0"],
        ["--level", "corpus"],
        ["--alpha", "1.5"],
        ["--columns", "segment"],
    ],
)
def test_correlate_refuses_bad_options(evaluation, extra, capsys) -> None:
    scores, judgments = evaluation
    with pytest.raises(SystemExit) as caught:
        run(
            [
                "correlate",
                "--scores",
                str(scores),
                "--judgments",
                str(judgments),
                *extra,
            ]
        )
    assert caught.value.code == 2


# -- compare ---------------------------------------------------------------

WORDS = "the cat sat on a mat while dogs ran in the park near big old trees".split()


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    """A reference and three systems of 40 lines: good, worse, much worse."""
    rng = np.random.default_rng(1)
    reference, systems = [], {"good": [], "worse": [], "poor": []}
    for _ in range(40):
        sentence = list(rng.choice(WORDS, size=int(rng.integers(6, 12))))
        reference.append(" ".join(sentence))
        for name, keep in (("good", 0.9), ("worse", 0.7), ("poor", 0.3)):
            words = [
                w if rng.random() < keep else str(rng.choice(WORDS)) for w in sentence
            ]
            systems[name].append(" ".join(words))
    paths = {"ref": tmp_path / "ref.txt"}
    paths["ref"].write_text("\n".join(reference) + "\n", encoding="utf-8")
    for name, lines in systems.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def test_compare_prints_scores_intervals_p_values_and_clusters(corpus, capsys) -> None:
    argv = ["compare", "--refs", str(corpus["ref"])]
    for name in ("good", "worse", "poor"):
        argv += ["--hyp", str(corpus[name])]
    status = run([*argv, "--ar-trials", "1000", "--blocks", "20"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("bleu|nrefs:1|case:mixed|tok:13a|smooth:exp|n:4|version:")
    assert (
        "40 segments; 1000 bootstrap resamples, 1000 randomisation trials, seed 12345"
        in out
    )
    assert "paired bootstrap p" in out and "approximate randomisation p" in out
    assert "clusters (paired bootstrap, alpha 0.05, Holm): {good}" in out
    assert "20 blocks, paired t against the system to the left:" in out


def test_compare_names_its_tests_sides_and_correction(corpus, capsys) -> None:
    argv = ["compare", "--refs", str(corpus["ref"])]
    for name in ("good", "worse", "poor"):
        argv += ["--hyp", str(corpus[name])]
    assert run([*argv, "--ar-trials", "200", "--bootstrap", "200"]) == 0
    out = capsys.readouterr().out
    assert "95% intervals: two-sided percentile bootstrap" in out
    assert "p-values: two-sided; clusters use p adjusted by Holm over all pairs" in out
    assert "bootstrap p, Holm" in out and "randomisation p, Holm" in out
    status = run([*argv, "--ar-trials", "0", "--correction", "bonferroni", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert (data["correction"], data["sided"]) == ("bonferroni", "two-sided")
    raw = data["bootstrap_p"]["good"]["poor"]
    # Bonferroni over the 3 pairs, by hand.
    assert data["bootstrap_p_adjusted"]["good"]["poor"] == pytest.approx(
        min(1.0, 3 * raw), abs=1e-12
    )
    assert run([*argv, "--correction", "none", "--ar-trials", "0"]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out
    assert "clusters use uncorrected p (no correction" in out
    assert "bootstrap p, " not in out


def test_compare_warns_when_too_few_draws_can_separate_no_pair(corpus, capsys) -> None:
    argv = ["compare", "--refs", str(corpus["ref"])]
    for name in ("good", "worse", "poor"):
        argv += ["--hyp", str(corpus[name])]
    # Holm over 3 pairs: the smallest p-value is 3 / (10 + 1) = 0.2727.
    assert run([*argv, "--bootstrap", "10", "--ar-trials", "2000"]) == 0
    out = capsys.readouterr().out
    assert (
        "warning: paired bootstrap cannot separate any pair: with 10 draws its "
        "smallest p-value after Holm is 0.2727 >= alpha"
    ) in out
    assert "approximate randomisation cannot" not in out
    assert "clusters (paired bootstrap, alpha 0.05, Holm): {good, worse, poor}" in out


def test_compare_prints_json_with_names_and_a_metric_spec(corpus, capsys) -> None:
    status = run([
        "compare", "--refs", str(corpus["ref"]), "--hyp", str(corpus["good"]),
        "--hyp", str(corpus["poor"]), "--name", "A", "--name", "B",
        "--metric", "bleu:n=2", "--lowercase", "--bootstrap", "300", "--ar-trials", "0",
        "--seed", "9", "--json",
    ])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert list(data["systems"]) == ["A", "B"]
    assert "n:2" in data["signature"] and "case:lc" in data["signature"]
    assert (data["n_samples"], data["n_trials"], data["seed"]) == (300, 0, 9)
    assert data["ar_p"] is None and data["bootstrap_p"]["A"]["B"] < 0.05
    assert data["bootstrap_clusters"] == [["A"], ["B"]]
    a = data["systems"]["A"]
    assert a["low"] <= a["score"] <= a["high"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "at least two --hyp files"),
        (["--hyp", "SHORT"], "has 5 lines but"),
        (
            ["--hyp", "GOOD", "--metric", "nosuchmetric"],
            "unknown metric 'nosuchmetric'",
        ),
        (["--hyp", "GOOD", "--name", "only-one"], "one --name per --hyp"),
        (["--hyp", "GOOD", "--blocks", "50"], "cannot cut 40 segments into 50 blocks"),
    ],
)
def test_compare_reports_bad_input(corpus, tmp_path, extra, message, capsys) -> None:
    short = tmp_path / "short.txt"
    short.write_text("a\nb\nc\nd\ne\n", encoding="utf-8")
    extra = [
        {"SHORT": str(short), "GOOD": str(corpus["good"])}.get(e, e) for e in extra
    ]
    argv = [
        "compare",
        "--refs",
        str(corpus["ref"]),
        "--hyp",
        str(corpus["worse"]),
        *extra,
    ]
    assert run([*argv, "--ar-trials", "10", "--bootstrap", "10"]) == 2
    assert message in capsys.readouterr().err


def test_compare_on_wmt21_zh_en_outputs_with_empty_lines(capsys) -> None:
    require(WMT21_DIR / "zh-en")
    directory = WMT21_DIR / "zh-en"
    status = run([
        "compare", "--refs", str(directory / "ref.A.en"),
        "--hyp", str(directory / "sys" / "ZengHuiMT.en"),
        "--hyp", str(directory / "sys" / "Online-W.en"),
        "--bootstrap", "200", "--ar-trials", "500", "--json",
    ])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["n_segments"] == segment_count("wmt21/zh-en", full=1948)
    assert set(data["systems"]) == {"ZengHuiMT", "Online-W"}


def test_scores_json_is_what_score_json_sentence_prints_per_system(
    corpus, tmp_path, capsys
) -> None:
    from scoring.cli.main import main as scoring_main

    combined = {}
    for name in ("good", "worse", "poor"):
        argv = ["score", "--json", "--sentence", "--metric", "bleu"]
        assert (
            scoring_main(
                [*argv, "--refs", str(corpus["ref"]), "--hyp", str(corpus[name])]
            )
            == 0
        )
        combined[name] = json.loads(capsys.readouterr().out)
    scores = tmp_path / "SCORES.json"
    scores.write_text(json.dumps(combined), encoding="utf-8")
    judgments = tmp_path / "J.csv"
    rows = ["segment,system,value"]
    for name, quality in (("good", 5), ("worse", 3), ("poor", 1)):
        rows += [f"{line},{name},{quality + line % 2}" for line in range(1, 41)]
    judgments.write_text("\n".join(rows) + "\n", encoding="utf-8")
    argv = ["correlate", "--scores", str(scores), "--judgments", str(judgments)]
    assert run([*argv, "--level", "sentence", "--human", "raw", "--json"]) == 0
    column = json.loads(capsys.readouterr().out)["criteria"][0]
    assert column["n_points"] == 120 and column["cells"][0]["coefficient"] > 0.5
