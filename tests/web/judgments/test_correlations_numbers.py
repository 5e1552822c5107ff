"""The stored correlation tables equal ``python -m scoring correlate`` (run
as a subprocess on files written from the same database rows, same seed and
resamples) and SciPy's coefficients, on real WMT21 data: en-de expert MQM
and ru-en crowd DA per segment, scored with BLEU, chrF and TER (an error
rate: negated). On the full data (``../shared/data`` or
``MTDASH_TEST_DATA``) every system with an output and human scores on every
segment; on the committed fixtures their first 150 segments and the systems
kept there."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as scipy_stats

from mtdash.evaluation.models import CorpusScore, SegmentScore, TestSetAnalysis
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.correlations import tables as correlations
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Judgment
from scoring.cli.main import main as cli_main
from scoring.stats import human_scores, parse_judgments
from scoring.stats.meta_evaluation import MIN_POINTS
from tests.scoring.support.realdata import (
    FULL_DATA,
    WMT21_DIR,
    read_lines,
    segment_count,
)

PROJECT_ROOT = Path(__file__).resolve().parents[3]
SEED = 4321
SAMPLES = 200
METRICS = ["bleu", "chrf", "ter"]
RELATIVE = 1e-9
# Systems with an output file and human scores; ref-A (the reference itself,
# BLEU 100) is left out as an outlier nobody would correlate with.
CASES = {
    "en-de": (
        "mqm_seg.tsv",
        (
            "Facebook-AI",
            "HuaweiTSC",
            "NVIDIA-NeMo",
            "Online-W",
            "UEdin",
            "VolcTrans-AT",
            "VolcTrans-GLAT",
            "eTranslation",
        )
        if FULL_DATA
        else ("Facebook-AI", "Online-W", "UEdin"),
    ),
    "ru-en": (
        "da_seg.tsv",
        (
            "AFRL",
            "Facebook-AI",
            "Manifold",
            "NVIDIA-NeMo",
            "NiuTrans",
            "Online-A",
            "Online-B",
            "Online-G",
            "Online-W",
            "Online-Y",
        )
        if FULL_DATA
        else ("Facebook-AI", "Online-Y"),
    ),
}


def build(team, owner, pair: str):
    human_name, systems = CASES[pair]
    source_language, target_language = pair.split("-")
    directory = WMT21_DIR / pair
    n = segment_count(f"wmt21/{pair}", full=10**6)
    first = lambda name: read_lines(directory / name)[:n]  # noqa: E731
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name=f"newstest2021 {pair}",
            source_language=source_language,
            target_language=target_language,
            text_type="news",
            description="",
            sources=first(f"src.{source_language}"),
            references={"A": first(f"ref.A.{target_language}")},
        ),
    )
    n = test_set.segments.count()
    for system in systems:
        job = create_system_output(
            test_set,
            owner,
            system,
            first(f"sys/{system}.{target_language}"),
            metrics=METRICS,
            queue=False,
        )
        run_scoring_job(job.pk)
    header, *lines = (directory / "human" / human_name).read_text().splitlines()
    seg = next(
        i for i, cell in enumerate(header.split("\t")) if cell.startswith("seg_id")
    )
    kept = [
        line
        for line in lines
        if line.split("\t")[0] in systems and int(line.split("\t")[seg]) <= n
    ]
    text = "\n".join([header, *kept]) + "\n"
    import_judgments(test_set, owner, text.encode(), human_name)
    return test_set


def write_cli_files(test_set, directory: Path) -> tuple[Path, Path]:
    """SCORES.json and J.csv straight from the stored rows."""
    scores: dict[str, dict] = {}
    for corpus in CorpusScore.objects.filter(output__test_set=test_set).select_related(
        "output__system"
    ):
        sentence = list(
            SegmentScore.objects.filter(corpus_score=corpus)
            .order_by("index")
            .values_list("score", flat=True)
        )
        scores.setdefault(corpus.output.system.name, {})[corpus.metric] = {
            "score": corpus.score,
            "sentence_scores": sentence,
        }
    scores_path = directory / "scores.json"
    scores_path.write_text(json.dumps(scores))
    judgments_path = directory / "judgments.csv"
    with judgments_path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["segment", "system", "judge", "criterion", "value"])
        rows = Judgment.objects.filter(output__test_set=test_set).order_by("pk")
        for index, system, judge, criterion, value in rows.values_list(
            "index", "output__system__name", "judge", "criterion__name", "value"
        ):
            writer.writerow([index + 1, system, judge, criterion, repr(value)])
    return scores_path, judgments_path


def run_cli(scores: Path, judgments: Path, level, method, n_samples, capsys) -> dict:
    """``python -m scoring correlate``: for the first table in a process of
    its own, then through its ``main`` in this process (the same code; each
    launch imported NumPy, SciPy and Numba again and checked nothing new)."""
    arguments = [
        "correlate",
        "--scores",
        str(scores),
        "--judgments",
        str(judgments),
        "--level",
        level,
        "--method",
        method,
        "--bootstrap",
        str(n_samples),
        "--seed",
        str(SEED),
        "--test",
        "bootstrap",
        "--json",
    ]
    if (level, method) == ("system", "pearson"):
        completed = subprocess.run(
            [sys.executable, "-m", "scoring", *arguments],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(completed.stdout)
    capsys.readouterr()
    assert cli_main(arguments) == 0
    return json.loads(capsys.readouterr().out)


def close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=RELATIVE, abs_tol=1e-12)


def scipy_coefficient(method: str, x, y) -> float:
    if method == "pearson":
        return scipy_stats.pearsonr(x, y).statistic
    if method == "spearman":
        return scipy_stats.spearmanr(x, y).statistic
    return scipy_stats.kendalltau(x, y, variant="b").statistic


def scipy_points(judgments_path: Path, scores_path: Path, criterion, metric, level):
    """(metric scores, human z scores) of one cell, assembled here."""
    parsed = parse_judgments(judgments_path.read_bytes(), "judgments.csv")
    human = human_scores(parsed, criterion, standardise=True)
    scores = json.loads(scores_path.read_text())
    sign = -1.0 if metric == "ter" else 1.0
    x, y = [], []
    for row, system in enumerate(human.systems):
        if level == "system":
            x.append(sign * scores[system][metric]["score"])
            y.append(human.system_scores[row])
            continue
        for number, value in zip(human.segments, human.segment_scores[row]):
            if np.isfinite(value):
                x.append(sign * scores[system][metric]["sentence_scores"][number - 1])
                y.append(value)
    return np.array(x), np.array(y)


@pytest.mark.django_db
@pytest.mark.parametrize("pair", sorted(CASES))
def test_stored_tables_equal_the_cli_and_scipy(
    team, owner, settings, tmp_path, pair, capsys
):
    settings.MTDASH_COMPARISON_SEED = SEED
    settings.MTDASH_COMPARISON_SAMPLES = SAMPLES
    test_set = build(team, owner, pair)
    visible = list(test_set.outputs.values_list("pk", flat=True))
    assert correlations.refresh(test_set, visible)
    assert not correlations.refresh(test_set, visible)  # unchanged: skipped
    stored = TestSetAnalysis.objects.get(test_set=test_set, kind="correlations").data
    assert stored["complete"]
    scores_path, judgments_path = write_cli_files(test_set, tmp_path)

    for level in ("system", "sentence"):
        for method in ("pearson", "spearman", "kendall"):
            table = stored["tables"][f"{level}:{method}"]
            rank_at_sentence = level == "sentence" and method != "pearson"
            expected_samples = (
                min(SAMPLES, correlations.SENTENCE_RANK_SAMPLES)
                if rank_at_sentence
                else SAMPLES
            )
            assert (table["n_samples"], table["seed"]) == (expected_samples, SEED)
            cli = run_cli(
                scores_path, judgments_path, level, method, expected_samples, capsys
            )
            assert table["negated"] == cli["negated"] == ["ter"]
            assert [c["criterion"] for c in table["criteria"]] == [
                c["criterion"] for c in cli["criteria"]
            ]
            for ours, theirs in zip(table["criteria"], cli["criteria"]):
                assert ours["n_points"] == theirs["n_points"]
                assert ours["best_metric"] == theirs["best_metric"]
                by_metric = {cell["metric"]: cell for cell in theirs["cells"]}
                assert sorted(by_metric) == sorted(METRICS)
                for cell in ours["cells"]:
                    other = by_metric[cell["metric"]]
                    for key in ("coefficient", "low", "high", "p_value"):
                        assert close(cell[key], other[key]), (level, method, key)
                    assert (cell["best"], cell["equivalent"]) == (
                        other["best"],
                        other["equivalent"],
                    )
                    x, y = scipy_points(
                        judgments_path,
                        scores_path,
                        ours["criterion"],
                        cell["metric"],
                        level,
                    )
                    assert x.size == ours["n_points"]
                    if x.size < MIN_POINTS:
                        # The fixtures' ru-en judges two systems: two points
                        # always correlate perfectly, so no coefficient.
                        assert cell["coefficient"] is None
                        continue
                    expected = scipy_coefficient(method, x, y)
                    assert cell["coefficient"] == pytest.approx(
                        expected, rel=RELATIVE, abs=1e-12
                    ), (level, method, cell["metric"])
