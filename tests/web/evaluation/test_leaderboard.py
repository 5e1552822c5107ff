import re

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.figures import leaderboard_figure
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

OUTPUTS = {
    "good": ["the cat is on the mat", "it is raining", "hello everyone"],
    "fair": ["the cat on mat", "it raining", "hello every one"],
    "poor": ["cat", "rain", "greetings"],
}


@pytest.fixture
def scored(test_set, owner):
    for name, hypotheses in OUTPUTS.items():
        job = create_system_output(test_set, owner, name, hypotheses, queue=False)
        run_scoring_job(job.pk)
    create_system_output(test_set, owner, "pending", ["a", "b", "c"], queue=False)
    return test_set


def test_it_ranks_systems_by_bleu_with_unscored_ones_last(scored):
    leaderboard = build_leaderboard(scored)
    assert [row.system for row in leaderboard.rows] == [
        "good",
        "fair",
        "poor",
        "pending",
    ]
    assert [row.rank for row in leaderboard.rows] == [1, 2, 3, None]
    assert leaderboard.rows[-1].cells == (None,)
    assert leaderboard.rows[-1].job_status == "queued"
    assert [column.name for column in leaderboard.columns] == ["bleu"]


def test_the_chart_puts_the_best_system_on_top(scored):
    figure = leaderboard_figure(build_leaderboard(scored))
    (dots,) = figure["data"]  # not compared yet: one group, no error bars
    assert dots["type"] == "scatter" and dots["mode"] == "markers"
    # Plotly draws the first category at the bottom.
    assert dots["y"] == ["poor", "fair", "good"]
    assert dots["x"] == sorted(dots["x"])
    assert dots["error_x"]["array"] == [0.0, 0.0, 0.0]
    assert "higher is better" in figure["layout"]["xaxis"]["title"]["text"]
    # The axis fits the scores: never forced to start at zero.
    assert "rangemode" not in figure["layout"]["xaxis"]


def test_no_chart_without_scores(test_set):
    assert leaderboard_figure(build_leaderboard(test_set)) is None


def test_the_page_shows_the_table_signature_and_chart_data(client, owner, scored):
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(scored.get_absolute_url()).content.decode()
    assert 'id="leaderboard"' in page
    assert 'id="leaderboard-figure"' in page
    assert "bleu|" in page
    # The partial bundle, under collectstatic's hashed name.
    assert re.search(r"vendor/plotly-basic-3\.3\.0\.min\.[0-9a-f]{12}\.js", page)
    assert "vendor/plotly-3.3.0" not in page


def test_plotly_is_served_locally(client, owner, scored):
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(scored.get_absolute_url()).content.decode()
    (script,) = re.findall(r'<script src="([^"]*/plotly-basic[^"]*)"', page)
    response = client.get(script)
    assert response.status_code == 200


def test_the_job_page_shows_the_result_when_done(client, owner, test_set):
    job = create_system_output(test_set, owner, "sys1", OUTPUTS["good"], queue=False)
    run_scoring_job(job.pk)
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(job.get_absolute_url()).content.decode()
    assert 'id="job-scores"' in page
    status = client.get(reverse("job_status", args=[job.pk])).json()
    assert {
        name: status[name]
        for name in ("status", "progress", "error_message", "finished")
    } == {
        "status": "succeeded",
        "progress": 100,
        "error_message": "",
        "finished": True,
    }
