"""The leaderboard's intervals, p-values and clusters are those of
``python -m scoring compare`` with the same seed, on real WMT21 ru-en outputs.

The CLI runs as a real subprocess on the same files the test set was built
from; the web side scores them with a scoring job and compares them with the
comparison job's service, exactly as a worker does. On the committed
fixtures the test set holds their first segments and two systems; with the
full data (../shared/data or MTDASH_TEST_DATA), the first ``SEGMENTS``
segments and four systems (the whole test set takes minutes to score three
times over and proves nothing more).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.models import ComparisonJob, MetricComparison
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.conftest import PASSWORD
from tests.scoring.support.realdata import DATA_DIR, PROJECT_ROOT

PAIR = DATA_DIR / "wmt21" / "ru-en"
METRICS = ("bleu", "chrf", "ter")
OPTIONS = ComparisonSettings(
    seed=12345, n_samples=1000, n_trials=2000, confidence=0.95, alpha=0.05
)


SEGMENTS = 300


def lines(path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:SEGMENTS]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    """The files both sides read: the first SEGMENTS lines of each."""
    folder = tmp_path_factory.mktemp("wmt21-ru-en")
    paths = {}
    for path in [PAIR / "ref.A.en", PAIR / "ref.B.en", *system_files()]:
        target = folder / path.name
        target.write_text("\n".join(lines(path)) + "\n", encoding="utf-8")
        paths[path.name] = target
    return paths


@pytest.fixture(scope="module")
def cli_results(files) -> dict:
    return {metric: cli_compare(files, metric) for metric in METRICS}


def system_files() -> list:
    return sorted((PAIR / "sys").glob("*.en"))[:4]


@pytest.fixture
def wmt_test_set(team, owner):
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="wmt21 ru-en",
            source_language="ru",
            target_language="en",
            text_type="news",
            description="",
            sources=lines(PAIR / "src.ru"),
            references={
                "A": lines(PAIR / "ref.A.en"),
                "B": lines(PAIR / "ref.B.en"),
            },
        ),
    )
    for path in system_files():
        job = create_system_output(
            test_set, owner, path.stem, lines(path), metrics=METRICS, queue=False
        )
        assert run_scoring_job(job.pk)
    compare_test_set(test_set, options=OPTIONS, analyses=False)
    return test_set


def cli_compare(files: dict, metric: str) -> dict:
    command = [sys.executable, "-m", "scoring", "compare", "--metric", metric]
    command += ["--refs", str(files["ref.A.en"]), str(files["ref.B.en"])]
    for path in system_files():
        command += ["--hyp", str(files[path.name]), "--name", path.stem]
    command += ["--seed", str(OPTIONS.seed), "--bootstrap", str(OPTIONS.n_samples)]
    command += ["--ar-trials", str(OPTIONS.n_trials), "--json"]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


@pytest.mark.parametrize("metric", METRICS)
def test_intervals_p_values_and_clusters_equal_scoring_compare(
    wmt_test_set, cli_results, metric
):
    expected = cli_results[metric]
    stored = MetricComparison.objects.get(test_set=wmt_test_set, column=metric)
    name_of = {
        output.pk: output.system.name
        for output in wmt_test_set.outputs.select_related("system")
    }
    order = [name_of[output_id] for output_id in stored.output_ids]
    assert sorted(order) == sorted(expected["systems"])
    assert stored.seed == OPTIONS.seed and stored.n_samples == OPTIONS.n_samples
    for output_id, name in zip(stored.output_ids, order):
        ours, theirs = stored.summary[str(output_id)], expected["systems"][name]
        for field in ("score", "low", "high", "bootstrap_mean"):
            assert close(ours[field], theirs[field]), (metric, name, field)
    for key in ("bootstrap_p", "ar_p", "bootstrap_wins"):
        for i, a in enumerate(order):
            for j, b in enumerate(order):
                if i != j:
                    assert close(stored.matrices[key][i][j], expected[key][a][b])
    for key in ("bootstrap", "ar"):
        clusters = [[] for _ in expected[f"{key}_clusters"]]
        for output_id, name in zip(stored.output_ids, order):
            clusters[stored.summary[str(output_id)][f"{key}_cluster"] - 1].append(name)
        assert [sorted(c) for c in clusters] == [
            sorted(c) for c in expected[f"{key}_clusters"]
        ]


def test_the_api_serves_the_same_intervals(client, owner, wmt_test_set, cli_results):
    client.login(username=owner.username, password=PASSWORD)
    url = f"/api/v1/test-sets/{wmt_test_set.pk}/leaderboard?p_values=1&test=bootstrap"
    board = client.get(url).json()
    expected = cli_results["bleu"]
    for system in board["systems"]:
        bleu = system["scores"]["bleu"]
        theirs = expected["systems"][system["system"]]
        assert close(bleu["ci_low"], theirs["low"])
        assert close(bleu["ci_high"], theirs["high"])
    bleu = board["significance"]["bleu"]
    assert bleu["seed"] == OPTIONS.seed and bleu["test"] == "bootstrap"
    for a, row in bleu["bootstrap_p"].items():
        for b, p in row.items():
            assert close(p, expected["bootstrap_p"][a][b])


def test_the_page_shows_intervals_and_rank_ranges(client, owner, wmt_test_set):
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(
        wmt_test_set.get_absolute_url(), {"test": "bootstrap"}
    ).content.decode()
    board = build_leaderboard(wmt_test_set, test="bootstrap")
    for _row, cells in board.display_rows():
        significance = cells[0].significance
        low = f"{significance.low:.2f}"
        assert f"{low}–{significance.high:.2f}</small>" in page
    assert "paired bootstrap resampling" in page
    assert reverse("test_set_pvalues", args=[wmt_test_set.pk]) in page
    matrix = client.get(
        reverse("test_set_pvalues", args=[wmt_test_set.pk]), {"metric": "chrf"}
    ).content.decode()
    assert 'id="pvalue-matrix"' in matrix
    for name in (path.stem for path in system_files()):
        assert name in matrix


def test_running_the_comparison_again_recomputes_nothing(wmt_test_set):
    before = dict(MetricComparison.objects.values_list("column", "computed_at"))
    assert compare_test_set(wmt_test_set, options=OPTIONS, analyses=False) == []
    assert dict(MetricComparison.objects.values_list("column", "computed_at")) == before


def test_hiding_an_output_recomputes_without_it(wmt_test_set):
    hidden = wmt_test_set.outputs.first()
    hidden.hidden = True
    hidden.save()
    assert set(compare_test_set(wmt_test_set, options=OPTIONS, analyses=False)) == set(
        METRICS
    )
    for comparison in MetricComparison.objects.filter(test_set=wmt_test_set):
        assert hidden.pk not in comparison.output_ids
    board = build_leaderboard(wmt_test_set)
    assert hidden.pk not in [row.output_id for row in board.rows]


def test_a_scoring_job_asks_for_a_comparison(test_set, owner):
    job = create_system_output(test_set, owner, "sys", ["a", "b", "c"], queue=False)
    run_scoring_job(job.pk)
    assert (
        ComparisonJob.objects.filter(
            test_set=test_set, status=ComparisonJob.Status.QUEUED
        ).count()
        == 1
    )
    # A second change before the worker starts needs no second job.
    job = create_system_output(test_set, owner, "sys2", ["a", "b", "c"], queue=False)
    run_scoring_job(job.pk)
    assert ComparisonJob.objects.filter(test_set=test_set).count() == 1


def test_a_rescored_output_shows_interval_pending_until_compared(
    client, owner, wmt_test_set
):
    output = wmt_test_set.outputs.first()
    score = output.corpus_scores.get(metric="bleu")
    score.score += 1.0
    score.save()
    board = build_leaderboard(wmt_test_set)
    row = next(row for row in board.rows if row.output_id == output.pk)
    cell = board.cell(row, board.columns[0])
    assert cell.significance is None and cell.pending
