"""The best metric per criterion and the metrics equivalent to it."""

from __future__ import annotations

import doctest
import json

import numpy as np
import pytest
from scipy import stats

import scoring.stats.best_metric as best_metric_module
from scoring.errors import InputFileError, ScoringError
from scoring.stats.best_metric import mark_best, williams_p_value
from scoring.stats.correlation import (
    correlate,
    estimate_from_samples,
    weighted_correlations,
)
from scoring.stats.judgments import parse_judgments
from scoring.stats.meta_evaluation import correlation_table
from scoring.stats.report import correlation_report
from scoring.stats.resampling import bootstrap_counts
from scoring.stats.scores_file import (
    metric_scores_from_json,
    read_metric_scores,
    registered_direction,
)


def test_the_docstring_examples_hold() -> None:
    outcome = doctest.testmod(best_metric_module)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_williams_test_agrees_with_mt_metrics_evals_formula_on_scipys_t() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        r12, r13 = rng.uniform(0.3, 0.99, 2)
        r23 = rng.uniform(0.5, 0.99)
        n = int(rng.integers(5, 5000))
        k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
        if k <= 0:
            continue
        t = (
            (r12 - r13)
            * np.sqrt((n - 1) * (1 + r23))
            / np.sqrt(
                2 * (n - 1) / (n - 3) * k + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
            )
        )
        assert williams_p_value(r12, r13, r23, n) == pytest.approx(
            stats.t.sf(t, n - 3), abs=1e-10
        )
    assert np.isnan(williams_p_value(0.9, 0.8, 0.7, 3))


def _estimates(matrix: np.ndarray, human: np.ndarray, n_samples: int, seed: int):
    counts = bootstrap_counts(human.size, n_samples, seed)
    return [
        estimate_from_samples(
            correlate(row, human),
            weighted_correlations(row, human, counts),
            "pearson",
            human.size,
            seed,
            0.95,
        )
        for row in matrix
    ]


def _three_metrics(n: int = 200) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    human = rng.normal(size=n)
    good = human + 0.5 * rng.normal(size=n)
    as_good = good + 0.05 * rng.normal(size=n)  # nearly the same metric
    poor = human + 3.0 * rng.normal(size=n)
    return np.stack([as_good, good, poor]), human


def test_a_near_copy_of_the_best_is_equivalent_and_a_poor_metric_is_not() -> None:
    matrix, human = _three_metrics()
    cells = mark_best(["a", "b", "c"], _estimates(matrix, human, 1000, 1))
    best = [cell.metric for cell in cells if cell.best]
    assert len(best) == 1 and best[0] in "ab"
    other = cells[1] if best == ["a"] else cells[0]
    assert other.equivalent and other.difference_low <= 0 <= other.difference_high
    assert not cells[2].equivalent and cells[2].difference_low > 0
    assert cells[2].p_value < 0.025 < other.p_value


def test_the_bootstrap_difference_interval_is_over_the_same_resamples() -> None:
    matrix, human = _three_metrics()
    estimates = _estimates(matrix, human, 500, 2)
    cells = mark_best(["a", "b", "c"], estimates)
    best = next(i for i, cell in enumerate(cells) if cell.best)
    difference = np.sort(estimates[best].samples - estimates[2].samples)
    assert (cells[2].difference_low, cells[2].difference_high) == (
        difference[12],
        difference[487],
    )


def test_williams_marks_equivalence_with_its_own_p_value() -> None:
    matrix, human = _three_metrics()
    estimates = _estimates(matrix, human, 50, 1)
    between = np.corrcoef(matrix)
    cells = mark_best(
        ["a", "b", "c"], estimates, test="williams", pearson_between_metrics=between
    )
    best = next(i for i, cell in enumerate(cells) if cell.best)
    assert cells[2].p_value == pytest.approx(
        williams_p_value(
            estimates[best].coefficient, estimates[2].coefficient, between[best, 2], 200
        ),
        rel=1e-12,
    )
    assert not cells[2].equivalent and np.isnan(cells[best].p_value)


def test_undefined_coefficients_are_never_best_nor_equivalent() -> None:
    human = np.arange(10.0)
    matrix = np.stack([np.ones(10), human + np.sin(human)])
    cells = mark_best(["flat", "ok"], _estimates(matrix, human, 100, 1))
    assert [c.best for c in cells] == [False, True]
    assert not cells[0].equivalent
    assert not any(
        c.best for c in mark_best(["flat"], _estimates(matrix[:1], human, 10, 1))
    )


# -- the ORANGE Table 1 pipeline on a small hand-made evaluation ------------

JUDGMENTS = """segment,system,judge,criterion,value
1,S1,j1,adequacy,2
1,S2,j1,adequacy,3
1,S3,j1,adequacy,4
1,S4,j1,adequacy,5
1,S5,j1,adequacy,4
1,S1,j1,fluency,1
1,S2,j1,fluency,3
1,S3,j1,fluency,2
1,S4,j1,fluency,5
1,S5,j1,fluency,3
1,HUMAN,j1,fluency,5
"""
SCORES = {
    "S1": {"bleu": 10.0, "len": 5.0, "ter": {"score": 80.0}},
    "S2": {"bleu": 20.0, "len": 9.0, "ter": {"score": 60.0}},
    "S3": {"bleu": 30.0, "len": 6.0, "ter": {"score": 50.0}},
    "S4": {"bleu": 40.0, "len": 8.0, "ter": {"score": 30.0}},
    "S5": {"bleu": 32.0, "len": 7.0, "ter": {"score": 45.0, "higher_is_better": False}},
}


def _table(**options: object):
    judgments = parse_judgments(JUDGMENTS.encode(), "J.csv")
    return correlation_table(metric_scores_from_json(SCORES), judgments, **options)


def test_the_table_has_one_column_per_criterion_and_one_cell_per_metric() -> None:
    table = _table(standardise=False, n_samples=200)
    assert [c.criterion for c in table.columns] == ["adequacy", "fluency"]
    assert table.metrics == ("bleu", "len", "ter")
    assert table.negated == ("ter",)
    fluency = table.columns[1]
    assert fluency.excluded_systems == ("HUMAN",) and fluency.n_points == 5
    bleu = [10.0, 20.0, 30.0, 40.0, 32.0]
    expected = stats.pearsonr(bleu, [1, 3, 2, 5, 3]).statistic
    assert fluency.cells[0].estimate.coefficient == pytest.approx(expected, abs=1e-12)
    # TER is negated: its coefficient is that of -TER.
    ter = [-80.0, -60.0, -50.0, -30.0, -45.0]
    expected = stats.pearsonr(ter, [2, 3, 4, 5, 4]).statistic
    assert table.columns[0].cells[2].estimate.coefficient == pytest.approx(
        expected, abs=1e-12
    )
    assert sum(cell.best for cell in fluency.cells) == 1


def test_the_table_is_reproducible_and_json_safe() -> None:
    first = json.dumps(_table(seed=5, n_samples=100).to_dict(), sort_keys=True)
    assert first == json.dumps(_table(seed=5, n_samples=100).to_dict(), sort_keys=True)
    data = json.loads(first)
    # Adequacy: Pearson 0.997 for BLEU, 0.992 for -TER, 0.416 for length.
    assert data["criteria"][0]["best_metric"] == "bleu"
    assert data["criteria"][0]["cells"][0]["metric"] == "bleu"


def test_the_text_report_marks_the_best_and_the_equivalent_cells() -> None:
    table = _table(method="kendall", n_samples=200)
    text = correlation_report(table)
    assert "kendall tau-b correlation, system level" in text
    assert "negated (lower is better): ter" in text
    assert (
        "adequacy (n=5)" in text
        and "fluency: left out (no metric scores): HUMAN" in text
    )
    best_cells = [line for line in text.splitlines() if "*" in line.split("  ", 1)[-1]]
    assert best_cells


def test_williams_needs_pearson() -> None:
    with pytest.raises(ScoringError, match="Williams"):
        _table(method="spearman", test="williams")
    assert _table(test="williams", n_samples=10).test == "williams"


def test_a_criterion_with_one_point_is_too_few_points_not_an_error() -> None:
    judgments = parse_judgments(b"segment,system,value\n1,S1,3\n1,X,4\n", "J.csv")
    column = correlation_table(metric_scores_from_json(SCORES), judgments).columns[0]
    assert column.status == "too few points" and column.n_points == 1
    assert "only" not in column.note and "at least 3" in column.note
    assert column.best_metrics == () and column.best_metric is None
    assert all(np.isnan(cell.estimate.coefficient) for cell in column.cells)


def test_directions_come_from_the_entry_then_the_registry() -> None:
    assert registered_direction("bleu:n=2") is True
    assert registered_direction("comet") is None
    scores = metric_scores_from_json(
        {
            "A": {
                "bleu": 1.0,
                "comet": 0.5,
                "wer": {"score": 3.0, "higher_is_better": False},
            }
        }
    )
    assert dict(scores.higher_is_better) == {"bleu": True, "comet": True, "wer": False}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected an object"),
        ({"A": 3}, "system 'A': expected an object"),
        ({"A": {"bleu": "high"}}, "metric 'bleu': expected a number or an object"),
        ({"A": {"bleu": {"score": True}}}, "not a finite number"),
        ({"A": {"bleu": {"sentence_scores": [1, "x"]}}}, "sentence score 2"),
        ({"A": {"bleu": {"sentence_scores": 3}}}, "must be a list"),
        (
            {"A": {"t": {"score": 1, "higher_is_better": False}},
             "B": {"t": {"score": 1, "higher_is_better": True}}},
            "contradicts",
        ),
    ],
)  # fmt: skip
def test_bad_scores_files_are_refused_with_where(data: object, message: str) -> None:
    with pytest.raises(InputFileError, match=message):
        metric_scores_from_json(data)


def test_invalid_json_is_reported_with_its_line(tmp_path) -> None:
    path = tmp_path / "SCORES.json"
    path.write_text('{\n  "A": {"bleu": 1.0,}\n}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match="line 2, column .*invalid JSON") as caught:
        read_metric_scores(path)
    assert caught.value.line == 2
