"""The leaderboard's charts: a dot plot with the stored intervals as error
bars, coloured by cluster; ranks across metrics; BLEU's n-gram precisions."""

from __future__ import annotations

import pytest

from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.leaderboard.figures import (
    leaderboard_figure,
    precision_figure,
    rank_figure,
)
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

OUTPUTS = {
    "good": ["the cat is on the mat", "it is raining", "hello everyone"],
    "fair": ["the cat on mat", "it raining", "hello every one"],
    "poor": ["a dog", "sun", "bye"],
}
OPTIONS = ComparisonSettings(
    seed=3, n_samples=300, n_trials=300, confidence=0.95, alpha=0.05
)


@pytest.fixture
def compared(test_set, owner):
    for name, hypotheses in OUTPUTS.items():
        job = create_system_output(
            test_set, owner, name, hypotheses, metrics=["bleu", "ter"], queue=False
        )
        run_scoring_job(job.pk)
    compare_test_set(test_set, options=OPTIONS, analyses=False)
    return test_set


def test_the_dot_plot_draws_each_interval_as_error_bars(compared):
    board = build_leaderboard(compared)
    figure = leaderboard_figure(board)
    points = {}
    for trace in figure["data"]:
        assert trace["name"].startswith("cluster ")
        for system, x, up, down in zip(
            trace["y"], trace["x"], trace["error_x"]["array"],
            trace["error_x"]["arrayminus"],
        ):  # fmt: skip
            points[system] = (x - down, x, x + up)
    for row in board.rows:
        significance = row.significance["bleu"]
        low, score, high = points[row.system]
        assert score == pytest.approx(row.scores["bleu"])
        assert low == pytest.approx(significance.low)
        assert high == pytest.approx(significance.high)


def test_the_rank_chart_has_a_line_per_system_through_every_metric(compared):
    figure = rank_figure(build_leaderboard(compared))
    assert {trace["name"] for trace in figure["data"]} == set(OUTPUTS)
    for trace in figure["data"]:
        assert trace["x"] == ["bleu", "ter"]
    good = next(t for t in figure["data"] if t["name"] == "good")
    assert good["y"] == [1, 1]  # best BLEU and lowest TER
    assert figure["layout"]["yaxis"]["autorange"] == "reversed"  # rank 1 on top


def test_the_precision_chart_shows_p1_to_p4_and_the_brevity_penalty(
    client, owner, compared
):
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(compared.get_absolute_url()).content.decode()
    assert 'id="precision-figure"' in page
    details = [
        (score.output.system.name, score.details)
        for score in compared.outputs.get(system__name="good").corpus_scores.filter(
            metric="bleu"
        )
    ]
    (trace,) = precision_figure(details)["data"]
    assert trace["x"] == [1, 2, 3, 4]
    assert trace["y"] == pytest.approx(details[0][1]["precisions"])
    assert "BP 1.000" in trace["name"]
