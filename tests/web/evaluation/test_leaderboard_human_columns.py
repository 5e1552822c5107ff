"""Human and external columns of the leaderboard, as the comparison job
stores them: WMT system-level raw means and per-judge z-scores, and the
external metric's intervals and clusters."""

from __future__ import annotations

import csv

import pytest

from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.models import MetricComparison
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.imports.judgments import import_judgments
from tests.conftest import PASSWORD

OPTIONS = ComparisonSettings(
    seed=7, n_samples=200, n_trials=200, confidence=0.95, alpha=0.05
)
JUDGMENTS = """segment,system,judge,criterion,value
1,sys-a,j1,adequacy,5
2,sys-a,j1,adequacy,4
3,sys-a,j1,adequacy,3
1,sys-b,j1,adequacy,1
2,sys-b,j1,adequacy,2
1,sys-b,j2,adequacy,3
"""
EXTERNAL = "system\tsegment\tscore\n" + "".join(
    f"{system}\t{segment}\t{value}\n"
    for system, values in (("sys-a", (0.9, 0.8, 0.7)), ("sys-b", (0.1, 0.2, 0.3)))
    for segment, value in enumerate(values, start=1)
)


@pytest.fixture
def judged(test_set, owner):
    for system, hypotheses in (
        ("sys-a", ["one", "two", "three"]),
        ("sys-b", ["one", "too", "tree"]),
    ):
        job = create_system_output(test_set, owner, system, hypotheses, queue=False)
        run_scoring_job(job.pk)
    import_judgments(test_set, owner, JUDGMENTS.encode(), "j.csv")
    import_external_scores(
        test_set, owner, "comet", "toy COMET", True, EXTERNAL.encode(), "c.tsv"
    )
    compare_test_set(test_set, options=OPTIONS, analyses=False)
    return test_set


def test_the_human_column_has_wmt_means_and_z_scores(judged):
    board = build_leaderboard(judged)
    (human,) = board.human_columns
    assert human.criterion == "adequacy"
    by_system = {row.system: human.values[row.output_id] for row in board.rows}
    # Raw: sys-a judged 5, 4, 3 -> 4; sys-b segment 1 = mean(1, 3) = 2, then 2 -> 2.
    assert by_system["sys-a"].mean == pytest.approx(4.0)
    assert by_system["sys-b"].mean == pytest.approx(2.0)
    assert by_system["sys-a"].judged_segments == 3
    assert by_system["sys-b"].judgments == 3
    # j1's values 5,4,3,1,2: mean 3, sd sqrt(2.5); j2 judged once: z = 0.
    sd = 2.5**0.5
    z_a = ((5 - 3) + (4 - 3) + (3 - 3)) / sd / 3
    z_b = (((1 - 3) / sd + 0.0) / 2 + (2 - 3) / sd) / 2
    assert by_system["sys-a"].z == pytest.approx(z_a)
    assert by_system["sys-b"].z == pytest.approx(z_b)
    assert by_system["sys-a"].low <= by_system["sys-a"].z <= by_system["sys-a"].high


def test_the_external_column_has_intervals_and_clusters(judged):
    comparison = MetricComparison.objects.get(
        test_set=judged, kind=MetricComparison.Kind.EXTERNAL
    )
    assert comparison.column == "comet"
    board = build_leaderboard(judged, rank_by="comet")
    assert board.columns[0].name == "comet"
    best, other = board.display_rows()
    assert best[0].system == "sys-a"
    cell = best[1][0]
    assert cell.value == pytest.approx(0.8)
    assert cell.significance.low <= 0.8 <= cell.significance.high
    assert cell.significance.first_rank == 1


def test_the_page_and_exports_show_the_human_column(client, owner, judged):
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(judged.get_absolute_url()).content.decode()
    assert "human · z" in page and ">adequacy<" in page
    csv_text = client.get(
        judged.get_absolute_url() + "leaderboard.csv"
    ).content.decode()
    header, *rows = csv.reader(csv_text.splitlines())
    for name in ("z", "low", "high", "cluster", "mean"):
        assert f"human adequacy {name}" in header
    board = build_leaderboard(judged)
    (human,) = board.human_columns
    for row, cells in zip(board.rows, rows):
        value = human.values[row.output_id]
        got = dict(zip(header, cells))
        assert float(got["human adequacy low"]) == pytest.approx(value.low, abs=1e-12)
        assert float(got["human adequacy high"]) == pytest.approx(value.high, abs=1e-12)
        assert int(got["human adequacy cluster"]) == value.cluster
    latex = client.get(judged.get_absolute_url() + "leaderboard.tex").content.decode()
    assert "adequacy (z)" in latex and "$^{1}$" in latex
    api = client.get(f"/api/v1/test-sets/{judged.pk}/leaderboard").json()
    systems = {s["system"]: s for s in api["systems"]}
    assert systems["sys-a"]["human"]["adequacy"]["mean"] == pytest.approx(4.0)
