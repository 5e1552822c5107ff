"""``python -m scoring correlate`` with the permutation test of the WMT
protocol: the options, the JSON cells against :func:`run_protocol` and
:func:`pool_protocols` run on the same files and seed, the refusals, several
test sets, and the bootstrap table left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scoring.cli.main import main
from scoring.stats.judgments import read_judgments
from scoring.stats.meta_evaluation import correlation_table
from scoring.stats.report import correlation_report
from scoring.stats.scores_file import read_metric_scores
from scoring.stats.wmt_protocol import (
    ProtocolSettings,
    pool_protocols,
    run_protocol,
)
from scoring.stats.wmt_results import overall_cells
from tests.scoring.support.metric_permutation_reference import (
    MQM_SYSTEMS,
    corpus_scores,
    metric_matrix,
)
from tests.scoring.support.realdata import WMT21_DIR, require_full_data

SYSTEMS = [f"S{i}" for i in range(1, 9)]


def write_test_set(
    directory: Path,
    name: str,
    seed: int,
    n_segments: int = 10,
    criteria: tuple[str, ...] = ("adequacy", "fluency"),
) -> tuple[Path, Path]:
    """Eight systems of rising quality judged 1-5 by three judges; ``bleu``
    follows the quality, ``coarse`` too in steps of 5 (ties), ``noise`` not,
    ``ter`` is ``80 - bleu`` (lower is better)."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.0, 1.0, len(SYSTEMS))
    lines = ["segment,system,judge,criterion,value"]
    scores: dict[str, dict[str, object]] = {}
    for s, system in enumerate(SYSTEMS):
        segment_quality = quality[s] + 0.3 * rng.normal(size=n_segments)
        for segment in range(1, n_segments + 1):
            for judge, bias in (("j1", 0), ("j2", 1), ("j3", -1)):
                for criterion in criteria:
                    value = 2 + bias + 2 * segment_quality[segment - 1]
                    value = int(np.clip(np.round(value + rng.normal(0, 0.3)), 1, 5))
                    lines.append(f"{segment},{system},{judge},{criterion},{value}")
        bleu = 20 + 10 * segment_quality + rng.normal(0, 1, n_segments)
        noise = rng.normal(0, 5, n_segments)
        coarse = 5 * np.round(bleu / 5)
        scores[system] = {
            "bleu": {"score": float(bleu.mean()), "sentence_scores": bleu.tolist()},
            "coarse": {"score": float(coarse.mean()), "sentence_scores": coarse.tolist()},
            "noise": {"score": float(noise.mean()), "sentence_scores": noise.tolist()},
            "ter": {"score": float(80 - bleu.mean()),
                    "sentence_scores": (80 - bleu).tolist(), "higher_is_better": False},
        }  # fmt: skip
    scores_path = directory / f"{name}.json"
    scores_path.write_text(json.dumps(scores), encoding="utf-8")
    judgments_path = directory / f"{name}-judgments.csv"
    judgments_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return scores_path, judgments_path


@pytest.fixture
def newstest(tmp_path: Path) -> tuple[Path, Path]:
    return write_test_set(tmp_path, "newstest", seed=0)


@pytest.fixture
def tedtalks(tmp_path: Path) -> tuple[Path, Path]:
    return write_test_set(tmp_path, "tedtalks", seed=5, n_segments=12)


def pair(files: tuple[Path, Path]) -> list[str]:
    return ["--scores", str(files[0]), "--judgments", str(files[1])]


def run_json(argv: list[str], capsys) -> dict:
    assert main(["correlate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def protocol(files, criterion: str, name: str = "", raw: bool = False, **settings):
    """What the library gives for the same files and settings."""
    return run_protocol(
        read_metric_scores(files[0]),
        read_judgments(files[1]),
        criterion,
        ProtocolSettings(**settings, standardise=not raw),
        name=name or files[0].stem,
    )


# -- one test set ------------------------------------------------------------

# Command line -> the settings run_protocol must have been given.
CASES = [
    (["--method", "accuracy"], dict(tasks=("system:accuracy",), tie_calibration=False)),
    (["--method", "spa", "--permutations", "300"],
     dict(tasks=("system:spa",), n_permutations=300, tie_calibration=False)),
    (["--test", "permutation", "--seed", "7", "--alpha", "0.1"],
     dict(tasks=("system:pearson",), seed=7, alpha=0.1, tie_calibration=False)),
    (["--level", "sentence", "--test", "permutation"],
     dict(tasks=("segment:pearson",), pearson_group_by="none", tie_calibration=False)),
    (["--level", "sentence", "--test", "permutation", "--group-by", "item"],
     dict(tasks=("segment:pearson",), pearson_group_by="item", tie_calibration=False)),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "acc23",
      "--tie-calibration"],
     dict(tasks=("segment:acc_eq",), group_by="item", tie_calibration=True,
          kendall_variant="acc23")),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "acc23",
      "--tie-calibration", "--tie-sample-rate", "0.5", "--group-by", "none"],
     dict(tasks=("segment:acc_eq",), group_by="none", tie_calibration=True,
          tie_sample_rate=0.5, kendall_variant="acc23")),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "acc23",
      "--tie-calibration", "--tie-sample-rate", "0.5"],
     dict(tasks=("segment:acc_eq",), group_by="item", tie_calibration=True,
          tie_sample_rate=0.5, kendall_variant="acc23")),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "23",
      "--group-by", "system", "--human", "raw"],
     dict(tasks=("segment:kendall",), group_by="system", tie_calibration=False,
          kendall_variant="23")),
    (["--level", "sentence", "--method", "kendall", "--test", "permutation",
      "--permutations", "100"],
     dict(tasks=("segment:kendall",), group_by="none", tie_calibration=False,
          kendall_variant="b", n_permutations=100)),
    (["--level", "sentence", "--method", "kendall", "--test", "permutation",
      "--permutations", "100", "--group-by", "item"],
     dict(tasks=("segment:kendall",), group_by="item", tie_calibration=False,
          kendall_variant="b", n_permutations=100)),
]  # fmt: skip


@pytest.mark.parametrize(("options", "expected"), CASES)
def test_each_option_reaches_the_protocol_and_the_cells_are_its_cells(
    newstest, capsys, options, expected
) -> None:
    data = run_json([*pair(newstest), *options], capsys)
    raw = "raw" in options
    settings = ProtocolSettings(**expected, standardise=not raw)
    assert data["test"] == "permutation"
    assert data["task"] == settings.tasks[0]
    assert data["settings"] == settings.to_dict()
    assert data["overall"] is None
    (test_set,) = data["test_sets"]
    assert (test_set["name"], test_set["weight"]) == ("newstest", 1.0)
    assert [c["criterion"] for c in test_set["criteria"]] == ["adequacy", "fluency"]
    for column in test_set["criteria"]:
        result = protocol(newstest, column["criterion"], raw=raw, **expected)
        (task,) = result.tasks
        assert column["cells"] == task.cells()
        assert column["test"] == task.ranking.description
        assert column["notes"] == json.loads(json.dumps(dict(task.notes)))
        assert column["systems"] == SYSTEMS and column["negated"] == ["ter"]


def test_a_cell_has_the_metric_method_coefficient_epsilon_p_and_cluster(
    newstest, capsys
) -> None:
    argv = [*pair(newstest), "--level", "sentence", "--method", "kendall"]
    argv += ["--kendall-variant", "acc23", "--criterion", "adequacy"]
    calibrated = run_json([*argv, "--tie-calibration"], capsys)
    cells = calibrated["test_sets"][0]["criteria"][0]["cells"]
    assert set(cells[0]) == {
        "metric", "method", "coefficient", "tie_epsilon", "p_value", "cluster",
    }  # fmt: skip
    assert {cell["metric"] for cell in cells} == {"bleu", "coarse", "noise", "ter"}
    assert all(cell["method"] == "acc_eq" for cell in cells)
    # Best first: no p-value for the best, cluster 1 at the top.
    assert cells[0]["p_value"] is None and cells[0]["cluster"] == 1
    assert all(0.0 <= cell["p_value"] <= 1.0 for cell in cells[1:])
    assert [cell["cluster"] for cell in cells] == sorted(c["cluster"] for c in cells)
    assert cells[-1]["metric"] == "noise" and cells[-1]["cluster"] > 1
    assert all(cell["tie_epsilon"] is not None for cell in cells)
    epsilons = {cell["metric"]: cell["tie_epsilon"] for cell in cells}
    # The judges' 1-5 scores tie often: calling close BLEU scores ties pays.
    assert epsilons["bleu"] > 0 and epsilons["ter"] > 0
    # Without the flag, acc23 counts exact ties only: no epsilon.
    plain = run_json(argv, capsys)["test_sets"][0]["criteria"][0]
    assert all(cell["tie_epsilon"] is None for cell in plain["cells"])
    assert plain["notes"] == {"variant": "acc23", "tie_calibration": False}


def test_the_permutation_pearson_is_the_bootstrap_tables_coefficient(
    newstest, capsys
) -> None:
    for level in ("system", "sentence"):
        argv = [*pair(newstest), "--level", level, "--criterion", "fluency"]
        bootstrap = run_json(argv, capsys)["criteria"][0]["cells"]
        permutation = run_json([*argv, "--test", "permutation"], capsys)
        cells = permutation["test_sets"][0]["criteria"][0]["cells"]
        by_metric = {cell["metric"]: cell["coefficient"] for cell in cells}
        for cell in bootstrap:
            assert by_metric[cell["metric"]] == pytest.approx(
                cell["coefficient"], abs=1e-12
            )


def test_the_text_prints_a_table_per_criterion(newstest, capsys) -> None:
    argv = ["correlate", *pair(newstest), "--level", "sentence", "--method"]
    argv += ["kendall", "--kendall-variant", "acc23", "--tie-calibration"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert text.startswith(
        "acc_eq (acc23, Deutsch et al. 2023), sentence level, human scores: "
        "per-judge z-scores\n"
        "grouping: by item (the systems' translations of one segment)\n"
        "tie calibration: exact search over every threshold\n"
        'p vs best: one-sided permutation test (PERM-BOTH) of "the best metric is '
        'better", 1000 draws from seed 1 (one stream per test set)\n'
    )
    assert "newstest, adequacy: 8 systems\n" in text
    assert "newstest, fluency: 8 systems\n" in text
    assert "negated (lower is better): ter\n" in text
    assert text.count("metric  acc_eq  epsilon  p vs best  cluster\n") == 2
    cells = (
        protocol(
            newstest, "adequacy", tasks=("segment:acc_eq",), kendall_variant="acc23"
        )
        .tasks[0]
        .cells()
    )
    best = cells[0]
    row = f"{best['metric']:<6}  {best['coefficient']:.4f}"
    assert row in text and "overall" not in text
    assert main([*argv[:-1], "--criterion", "adequacy"]) == 0  # not calibrated
    text = capsys.readouterr().out
    assert "tie calibration: off (every tie threshold 0; WMT calibrates)" in text
    assert "metric  acc_eq  p vs best  cluster\n" in text


def test_spa_says_how_many_segments_it_used(newstest, capsys) -> None:
    assert main(["correlate", *pair(newstest), "--method", "spa"]) == 0
    text = capsys.readouterr().out
    assert "segments: 10; segments used: 10; segments missing human score: 0" in text
    assert "metric     spa  p vs best  cluster\n" in text


def test_the_name_seeds_the_draws_and_names_the_test_set(newstest, capsys) -> None:
    argv = [*pair(newstest), "--method", "accuracy", "--criterion", "adequacy"]
    data = run_json([*argv, "--name", "en-de"], capsys)
    (test_set,) = data["test_sets"]
    assert test_set["name"] == "en-de"
    expected = protocol(newstest, "adequacy", name="en-de",
                        tasks=("system:accuracy",), tie_calibration=False)  # fmt: skip
    assert test_set["criteria"][0]["cells"] == expected.tasks[0].cells()
    # A task draws the same alone as among all of WMT's (what the web runs).
    every_task = run_protocol(
        read_metric_scores(newstest[0]),
        read_judgments(newstest[1]),
        "adequacy",
        ProtocolSettings(),
        name="en-de",
    )
    assert test_set["criteria"][0]["cells"] == (
        every_task.task("system:accuracy").cells()
    )


# -- several test sets -------------------------------------------------------


def test_two_test_sets_give_their_cells_and_an_overall_block(
    newstest, tedtalks, capsys
) -> None:
    argv = [*pair(newstest), *pair(tedtalks), "--weight", "3", "--weight", "1"]
    data = run_json([*argv, "--test", "permutation", "--seed", "4"], capsys)
    settings = dict(tasks=("system:pearson",), seed=4, tie_calibration=False)
    names = [test_set["name"] for test_set in data["test_sets"]]
    assert names == ["newstest", "tedtalks"]
    assert [test_set["weight"] for test_set in data["test_sets"]] == [3.0, 1.0]
    assert [block["criterion"] for block in data["overall"]] == ["adequacy", "fluency"]
    for block in data["overall"]:
        criterion = block["criterion"]
        alone = [protocol(f, criterion, **settings) for f in (newstest, tedtalks)]
        for test_set, result in zip(data["test_sets"], alone):
            column = next(
                c for c in test_set["criteria"] if c["criterion"] == criterion
            )
            # A test set reads the same alone or pooled (its name seeds it).
            assert column["cells"] == result.tasks[0].cells()
        pooled = pool_protocols(alone, [3.0, 1.0])
        assert block["cells"] == overall_cells(pooled)
        assert block["weights"] == {"newstest": 0.75, "tedtalks": 0.25}
        assert block["test"] == pooled.ranking.description
        # The overall coefficient: the weighted mean of r rescaled to [0, 1].
        for cell in block["cells"]:
            r = [
                next(c["coefficient"] for c in result.tasks[0].cells()
                     if c["metric"] == cell["metric"])
                for result in alone
            ]  # fmt: skip
            mean = 0.75 * (r[0] + 1) / 2 + 0.25 * (r[1] + 1) / 2
            assert cell["coefficient"] == pytest.approx(mean, abs=1e-12)
            assert cell["method"] == "overall"


def test_accuracy_is_pooled_as_it_is_and_equal_weights_by_default(
    newstest, tedtalks, capsys
) -> None:
    argv = [*pair(newstest), *pair(tedtalks), "--method", "accuracy"]
    data = run_json([*argv, "--criterion", "adequacy"], capsys)
    (block,) = data["overall"]
    accuracy = [
        {c["metric"]: c["coefficient"] for c in t["criteria"][0]["cells"]}
        for t in data["test_sets"]
    ]
    for cell in block["cells"]:
        mean = (accuracy[0][cell["metric"]] + accuracy[1][cell["metric"]]) / 2
        assert cell["coefficient"] == pytest.approx(mean, abs=1e-12)
    assert main(["correlate", *argv, "--criterion", "adequacy"]) == 0
    text = capsys.readouterr().out
    assert (
        "overall, adequacy: weighted mean of the statistics rescaled to [0, 1] "
        "(weights newstest 0.5, tedtalks 0.5)\n"
        "metric  overall  p vs best  cluster\n"
    ) in text


def test_only_criteria_judged_in_every_test_set_are_pooled(
    newstest, tmp_path, capsys
) -> None:
    adequacy_only = write_test_set(tmp_path, "wikipedia", 2, criteria=("adequacy",))
    data = run_json([*pair(newstest), *pair(adequacy_only), "--method", "spa"], capsys)
    assert [len(t["criteria"]) for t in data["test_sets"]] == [2, 1]
    assert [block["criterion"] for block in data["overall"]] == ["adequacy"]


# -- refusals ----------------------------------------------------------------

REFUSALS = [
    (["--method", "accuracy", "--test", "bootstrap"],
     "accuracy is ranked by a permutation test: use --test permutation"),
    (["--method", "spa", "--test", "williams"],
     "spa is ranked by a permutation test: use --test permutation"),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "acc23",
      "--test", "bootstrap"],
     "acc23 is ranked by a permutation test: use --test permutation"),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "23",
      "--test", "williams"],
     "kendall tau-23 is ranked by a permutation test: use --test permutation"),
    (["--level", "sentence", "--method", "accuracy"],
     "accuracy compares systems: use --level system"),
    (["--method", "kendall", "--kendall-variant", "acc23"],
     "acc23 is a sentence-level statistic: use --level sentence"),
    (["--test", "permutation", "--method", "spearman"],
     "spearman is not implemented in the permutation test: use --test bootstrap"),
    (["--level", "sentence", "--test", "permutation", "--method", "kendall",
      "--kendall-variant", "c"],
     "kendall tau-c cannot be ranked by the permutation test (its denominator "
     "counts distinct scores, which swapping pairs between metrics does not "
     "define): use --test bootstrap or --kendall-variant b"),
    (["--test", "permutation", "--method", "kendall"],
     "the permutation test ranks kendall at sentence level: use --level sentence, "
     "or --test bootstrap"),
    (["--permutations", "50"], "--permutations applies to --test permutation"),
    (["--level", "sentence", "--group-by", "item"],
     "--group-by applies to --test permutation"),
    (["--weight", "2"], "--weight applies to --test permutation"),
    (["--method", "accuracy", "--bootstrap", "50"],
     "--bootstrap applies to the bootstrap test"),
    (["--method", "accuracy", "--resample", "points"],
     "--resample applies to the bootstrap test"),
    (["--method", "accuracy", "--group-by", "item"],
     "--group-by applies at sentence level"),
    (["--method", "accuracy", "--tie-calibration"],
     "--tie-calibration applies to kendall 23 and acc23 (tau-b, Pearson and the "
     "system-level statistics have no tie threshold)"),
    (["--level", "sentence", "--method", "kendall", "--kendall-variant", "23",
      "--tie-sample-rate", "0.5"],
     "--tie-sample-rate samples the tie calibration: add --tie-calibration"),
    (["--method", "accuracy", "--name", "a", "--name", "b"],
     "give one --name per --scores/--judgments pair (1 pair, 2 --name)"),
    (["--method", "accuracy", "--criterion", "usability"],
     "no judgments of criterion 'usability'; criteria: adequacy, fluency"),
]  # fmt: skip


@pytest.mark.parametrize(("options", "message"), REFUSALS)
def test_a_combination_without_meaning_is_refused_in_one_line(
    newstest, capsys, options, message
) -> None:
    assert main(["correlate", *pair(newstest), *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and captured.err.endswith(message + "\n")
    assert captured.err.count("\n") == 1


def test_several_pairs_need_the_permutation_test_and_matching_files(
    newstest, tedtalks, capsys
) -> None:
    both = [*pair(newstest), *pair(tedtalks)]
    assert main(["correlate", *both]) == 2
    assert capsys.readouterr().err == (
        "error: several --scores/--judgments pairs are pooled by the permutation "
        "test: use --test permutation\n"
    )
    assert main(["correlate", *both[:-2], "--method", "accuracy"]) == 2
    assert capsys.readouterr().err == (
        "error: give one --judgments per --scores (2 --scores, 1 --judgments)\n"
    )
    weights = ["--method", "accuracy", "--weight", "1"]
    assert main(["correlate", *both, *weights]) == 2
    assert "give one --weight per --scores/--judgments pair (2 pairs, 1 --weight)" in (
        capsys.readouterr().err
    )
    same_stem = ["--scores", str(newstest[0]), "--judgments", str(tedtalks[1])]
    assert main(["correlate", *pair(newstest), *same_stem, "--method", "spa"]) == 2
    assert capsys.readouterr().err == (
        "error: test set names must be distinct (they seed the draws), got "
        "newstest, newstest: give one --name per pair\n"
    )


@pytest.mark.parametrize(
    "options",
    [
        ["--tie-sample-rate", "0"],
        ["--tie-sample-rate", "1.5"],
        ["--weight", "0"],
        ["--weight", "nan"],
        ["--permutations", "0"],
        ["--group-by", "document"],
        ["--kendall-variant", "a"],
        ["--method", "rho"],
        ["--test", "t-test"],
    ],
)
def test_a_bad_value_is_refused_by_the_parser(newstest, options) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["correlate", *pair(newstest), *options])
    assert caught.value.code == 2


# -- the bootstrap table, as before ------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--level", "sentence", "--method", "kendall", "--bootstrap", "200"],
        ["--level", "sentence", "--method", "kendall", "--kendall-variant", "c"],
        ["--test", "williams", "--human", "raw", "--seed", "3"],
        ["--method", "spearman", "--level", "sentence", "--resample", "points",
         "--confidence", "0.9", "--criterion", "fluency"],
    ],
)  # fmt: skip
def test_one_pair_with_the_bootstrap_prints_the_table_as_before(
    newstest, capsys, options
) -> None:
    """The output is the bootstrap table's, byte for byte, as it was printed
    before the permutation test came."""

    def value(flag: str, default: str) -> str:
        return options[options.index(flag) + 1] if flag in options else default

    table = correlation_table(
        read_metric_scores(newstest[0]),
        read_judgments(newstest[1]),
        level=value("--level", "system"),
        method=value("--method", "pearson"),
        criteria=[value("--criterion", "")] if "--criterion" in options else None,
        standardise=value("--human", "z") == "z",
        n_samples=int(value("--bootstrap", "1000")),
        seed=int(value("--seed", "1")),
        confidence=float(value("--confidence", "0.95")),
        test=value("--test", "bootstrap"),
        variant=value("--kendall-variant", "b"),
        resample=value("--resample", "segments"),
    )
    assert main(["correlate", *pair(newstest), *options]) == 0
    assert capsys.readouterr().out == correlation_report(table)
    assert main(["correlate", *pair(newstest), *options, "--json"]) == 0
    expected = json.dumps(table.to_dict(), ensure_ascii=False, indent=2) + "\n"
    assert capsys.readouterr().out == expected


# -- real data ---------------------------------------------------------------


def test_wmt21_en_de_mqm_acc23_and_accuracy_equal_the_protocol(
    tmp_path, capsys
) -> None:
    """WMT21 en-de expert MQM against our sentence chrF, BLEU and -WER."""
    require_full_data("WMT21 en-de MQM scores of every rated system")
    pair_name = "en-de"
    systems = MQM_SYSTEMS[pair_name]
    metrics = {"chrf": "chrf", "bleu": "bleu", "minus_wer": "wer"}
    scores = {
        system: {
            name: {
                "score": float(corpus_scores(pair_name, metric)[s]),
                "sentence_scores": metric_matrix(pair_name, metric)[s].tolist(),
            }
            for name, metric in metrics.items()
        }
        for s, system in enumerate(systems)
    }
    scores_path = tmp_path / "en-de.json"
    scores_path.write_text(json.dumps(scores), encoding="utf-8")
    judgments_path = WMT21_DIR / pair_name / "human" / "mqm_seg.tsv"
    argv = ["--scores", str(scores_path), "--judgments", str(judgments_path)]
    argv += ["--columns", "segment=seg_id,value=mqm_avg_score", "--human", "raw"]
    judgments = read_judgments(
        judgments_path, columns={"segment": "seg_id", "value": "mqm_avg_score"}
    )
    acc23 = ["--level", "sentence", "--method", "kendall", "--kendall-variant"]
    acc23 += ["acc23", "--permutations", "200"]
    statistics = {}
    for options, settings in (
        ([*acc23, "--tie-calibration"],
         dict(tasks=("segment:acc_eq",), kendall_variant="acc23", n_permutations=200)),
        (acc23, dict(tasks=("segment:acc_eq",), kendall_variant="acc23",
                     n_permutations=200, tie_calibration=False)),
        (["--method", "accuracy"],
         dict(tasks=("system:accuracy",), tie_calibration=False)),
    ):  # fmt: skip
        data = run_json([*argv, *options], capsys)
        (column,) = data["test_sets"][0]["criteria"]
        expected = run_protocol(
            read_metric_scores(scores_path),
            judgments,
            judgments.criteria[0],
            ProtocolSettings(**settings, standardise=False),
            name="en-de",
        )
        assert column["cells"] == expected.tasks[0].cells()
        assert column["systems"] == list(systems)
        cells = column["cells"]
        assert {cell["metric"] for cell in cells} == set(metrics)
        statistics[tuple(options)] = {c["metric"]: c["coefficient"] for c in cells}
        if "--tie-calibration" in options:
            # MQM ties often (every translation without errors scores 0): each
            # metric's best threshold is positive.
            assert all(cell["tie_epsilon"] > 0 for cell in cells)
    # The calibrated threshold maximises acc_eq: never below epsilon = 0.
    calibrated = statistics[(*acc23, "--tie-calibration")]
    for metric, plain in statistics[tuple(acc23)].items():
        assert calibrated[metric] >= plain - 1e-12
