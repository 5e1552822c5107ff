"""Ties for the best metric, too few points, and the tests named with their
sidedness."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest
from scipy import stats

from scoring.cli.stats import add_correlate_parser
from scoring.stats.best_metric import describe_test, mark_best
from scoring.stats.correlation import (
    correlate,
    estimate_from_samples,
    weighted_correlations,
)
from scoring.stats.judgments import parse_judgments
from scoring.stats.meta_evaluation import correlation_table
from scoring.stats.report import correlation_report
from scoring.stats.resampling import bootstrap_counts
from scoring.stats.scores_file import metric_scores_from_json
from tests.scoring.support.realdata import WMT21_DIR
from tests.scoring.support.stats_data import official_scores, read_tsv, require

# WMT21's official BLEU and chrF against reference A and against both.
OFFICIAL = ("bleu-A", "bleu-all", "chrf-A", "chrf-all")


def _ru_en_system_level() -> tuple[dict, bytes]:
    """SCORES.json contents (WMT21's official BLEU and chrF per reference)
    and a judgments file of the system-level DA z-scores of ru-en."""
    path = WMT21_DIR / "ru-en" / "human" / "da_sys.tsv"
    require(path)
    scores: dict[str, dict[str, float]] = {}
    for metric in OFFICIAL:
        for system, value in official_scores("ru-en", metric).items():
            scores.setdefault(system, {})[metric] = value
    # Systems with every official score (the table would leave others out).
    scores = {s: v for s, v in scores.items() if len(v) == len(OFFICIAL)}
    lines = ["segment,system,judge,criterion,value"]
    for row in read_tsv(path):
        lines.append(f"1,{row['system']},wmt,da,{row['z']}")
    return scores, ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("method", ["kendall", "spearman"])
def test_metrics_tied_on_real_data_are_all_best(method) -> None:
    scores, judgments = _ru_en_system_level()
    table = correlation_table(
        metric_scores_from_json(scores),
        parse_judgments(judgments, "da.csv"),
        method=method,
        n_samples=200,
    )
    (column,) = table.columns
    human = {row["system"]: float(row["z"]) for row in read_tsv(
        WMT21_DIR / "ru-en" / "human" / "da_sys.tsv"
    )}  # fmt: skip
    systems = [s for s in human if s in scores]
    scipy = stats.kendalltau if method == "kendall" else stats.spearmanr
    expected = {
        metric: scipy(
            [scores[s][metric] for s in systems], [human[s] for s in systems]
        ).statistic
        for metric in OFFICIAL
    }
    top = max(expected.values())
    tied = sorted(m for m, tau in expected.items() if abs(tau - top) < 1e-9)
    # WMT21 ru-en, 10 systems: chrF against reference A and against both
    # references rank the systems alike (tau 13/45 = 0.2889, rho 0.3697).
    assert tied == ["chrf-A", "chrf-all"]
    assert len(systems) == 10 and scores["AFRL"]["chrf-A"] != scores["AFRL"]["chrf-all"]
    assert sorted(column.best_metrics) == tied
    assert column.to_dict()["best_metrics"] == list(column.best_metrics)
    for cell in column.cells:
        assert cell.best == (cell.metric in tied)
        if not cell.best:
            assert cell.compared_with in tied
    text = correlation_report(table)
    starred = [line.split()[0] for line in text.splitlines() if "*" in line[9:]]
    assert sorted(starred) == tied


def test_ties_within_a_relative_tolerance_only() -> None:
    rng = np.random.default_rng(4)
    samples = rng.uniform(0.6, 0.9, size=100)

    def estimate(coefficient: float):
        return estimate_from_samples(coefficient, samples, "kendall", 20, 1, 0.95)

    # The same tau reached along different rounding paths (5e-13 relative
    # apart) ties; a tau lower by 1e-9 relative does not.
    top = 0.7818
    coefficients = [top * (1 - 5e-13), top, top * (1 - 1e-9), np.nan, 0.5]
    cells = mark_best(list("abcde"), [estimate(c) for c in coefficients])
    assert [cell.best for cell in cells] == [True, True, False, False, False]
    assert cells[2].compared_with in ("a", "b") and cells[2].equivalent


def test_a_criterion_judged_for_two_systems_is_too_few_points() -> None:
    scores, _ = _ru_en_system_level()
    two = sorted(scores)[:2]
    judgments = parse_judgments(
        (
            "segment,system,judge,criterion,value\n"
            f"1,{two[0]},j,fluency,2\n1,{two[1]},j,fluency,4\n"
            + "".join(f"1,{s},j,adequacy,{i}\n" for i, s in enumerate(sorted(scores)))
        ).encode(),
        "J.csv",
    )
    table = correlation_table(metric_scores_from_json(scores), judgments, n_samples=100)
    columns = {column.criterion: column for column in table.columns}
    fluency, adequacy = columns["fluency"], columns["adequacy"]
    assert (fluency.status, fluency.n_points) == ("too few points", 2)
    assert fluency.best_metric is None and fluency.best_metrics == ()
    for cell in fluency.cells:
        assert np.isnan(cell.estimate.coefficient)
        assert np.isnan(cell.estimate.low) and np.isnan(cell.estimate.high)
        assert not cell.best and not cell.equivalent
    data = table.to_dict()["criteria"]
    assert data[list(columns).index("fluency")]["cells"][0]["coefficient"] is None
    assert adequacy.status == "ok" and adequacy.best_metrics
    text = correlation_report(table)
    assert "fluency: too few points: 2 system-level point(s)" in text
    assert "at least 3" in text
    assert "1.0000" not in text


def test_two_segments_give_a_coefficient_but_no_interval() -> None:
    lines = ["segment,system,value"]
    scores: dict = {}
    rng = np.random.default_rng(2)
    for s in range(5):
        for segment in (1, 2):
            lines.append(f"{segment},S{s},{rng.normal():.4f}")
        scores[f"S{s}"] = {
            "m": {"score": 0.0, "sentence_scores": rng.normal(size=2).tolist()}
        }
    table = correlation_table(
        metric_scores_from_json(scores),
        parse_judgments(("\n".join(lines) + "\n").encode(), "J.csv"),
        level="sentence",
        n_samples=50,
    )
    (column,) = table.columns
    assert (column.n_points, column.n_units, column.status) == (10, 2, "ok")
    (cell,) = column.cells
    assert np.isfinite(cell.estimate.coefficient)
    assert np.isnan(cell.estimate.low) and np.isnan(cell.estimate.high)
    assert "no interval: 2 segment(s) to resample" in column.note


@pytest.mark.parametrize("seed", range(8))
def test_the_bootstrap_p_value_is_two_sided_and_agrees_with_the_marks(seed) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(12, 60))
    human = rng.normal(size=n)
    rows = [human + rng.uniform(0.5, 2.0) * rng.normal(size=n) for _ in range(5)]
    counts = bootstrap_counts(n, 400, seed)
    estimates = [
        estimate_from_samples(
            correlate(row, human),
            weighted_correlations(row, human, counts),
            "pearson",
            n,
            seed,
            0.95,
        )
        for row in rows
    ]
    for cell in mark_best(list("abcde"), estimates, alpha=0.05):
        if cell.best:
            continue
        difference = (
            next(
                e.samples for e, c in zip(estimates, "abcde") if c == cell.compared_with
            )
            - cell.estimate.samples
        )
        share = np.mean(difference[np.isfinite(difference)] <= 0)
        assert cell.p_value == pytest.approx(min(1.0, 2 * share), abs=1e-12)
        # Significantly worse exactly when p <= alpha (the interval above 0).
        assert cell.equivalent == (cell.p_value > 0.05)
        assert cell.equivalent == (cell.difference_low <= 0)


def test_each_test_is_named_with_its_sidedness() -> None:
    bootstrap, williams = (
        describe_test("bootstrap", 0.05),
        describe_test("williams", 0.05),
    )
    assert bootstrap["sides"] == "two-sided" and williams["sides"] == "one-sided"
    assert "95% percentile interval" in bootstrap["rule"]
    assert "p < 0.05" in williams["rule"]
    assert bootstrap["label"] == "paired bootstrap, two-sided, alpha 0.05"
    assert williams["label"] == "Williams' test, one-sided, alpha 0.05"
    with pytest.raises(ValueError, match="unknown test"):
        describe_test("t-test", 0.05)


@pytest.mark.parametrize(
    ("test", "sides"), [("bootstrap", "two-sided"), ("williams", "one-sided")]
)
def test_the_cli_names_the_test_its_sidedness_and_the_interval(
    tmp_path, capsys, test, sides
) -> None:
    scores, judgments = _ru_en_system_level()
    scores_path, judgments_path = tmp_path / "S.json", tmp_path / "J.csv"
    scores_path.write_text(json.dumps(scores), encoding="utf-8")
    judgments_path.write_bytes(judgments)
    parser = argparse.ArgumentParser()
    add_correlate_parser(parser.add_subparsers(dest="command"))
    common = ["correlate", "--scores", str(scores_path), "--judgments"]
    common += [str(judgments_path), "--test", test, "--bootstrap", "100"]
    arguments = parser.parse_args([*common, "--json"])
    assert arguments.handler(arguments) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["equivalence_test"]["sides"] == sides
    assert data["equivalence_test"]["test"] == test
    assert data["interval"]["sides"] == "two-sided"
    assert data["interval"]["unit"] == data["resampling_unit"] == "system"
    arguments = parser.parse_args(common)
    assert arguments.handler(arguments) == 0
    text = capsys.readouterr().out
    assert f"({sides}, alpha 0.05)" in text
    assert "intervals: two-sided 95% percentile bootstrap interval" in text


def _estimate(coefficient: float, samples: list[float]):
    return estimate_from_samples(
        coefficient, np.array(samples), "pearson", 3, 1, 0.95, unit="system"
    )


@pytest.mark.parametrize("noise", [-4e-16, 4e-16])
def test_resampled_differences_of_rounding_size_are_ties(noise):
    # Three systems: most resamples repeat a system and give both metrics
    # r = 1 (or -1), equal up to the last bits, which may fall either way.
    best = _estimate(0.95, [1.0, 1.0, -1.0, 0.9, 1.0, 1.0])
    other = _estimate(
        0.90, [1.0 - noise, 1.0 + noise, -1.0 - noise, 0.8, 1.0 - noise, 1.0]
    )
    cells = mark_best(["a", "b"], [best, other])
    # Differences: five ties and one 0.1, so 5/6 of them are <= 0.
    assert cells[1].equivalent
    assert cells[1].p_value == pytest.approx(1.0)
    assert cells[1].difference_low == 0.0
