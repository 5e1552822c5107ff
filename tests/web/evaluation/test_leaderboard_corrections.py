"""Corrections for multiple comparisons on the leaderboard, the p-value page,
the compare page and the API; human clusters and intervals; every figure
named by its test and its sides.

Expected adjusted p-values come from statsmodels' ``multipletests`` applied
to the stored raw p-values; the cluster guarantee is checked on what the
statistics job stored, for every test and correction.
"""

from __future__ import annotations

import io
from importlib import import_module
from itertools import combinations
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from django.apps import apps
from django.urls import reverse

from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.leaderboard.figures import leaderboard_figure
from mtdash.evaluation.models import ComparisonJob, MetricComparison
from mtdash.evaluation.services import scoring_jobs
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.imports import judgments as judgment_imports
from mtdash.judgments.imports.judgments import import_judgments
from tests.conftest import PASSWORD
from tests.support import statsmodels_oracle

OPTIONS = ComparisonSettings(
    seed=3, n_samples=300, n_trials=500, confidence=0.95, alpha=0.05
)
WORDS = "the a cat dog sat ran on under mat house red blue big small old".split()
N_SEGMENTS = 40
# Keep rates: two close pairs far apart from each other.
SYSTEMS = {"alpha": 0.95, "beta": 0.93, "gamma": 0.55, "delta": 0.5}
CORRECTIONS = ("holm", "bonferroni", "none")


def corpus() -> tuple[list[str], dict[str, list[str]]]:
    rng = np.random.default_rng(11)
    references, outputs = [], {name: [] for name in SYSTEMS}
    for _ in range(N_SEGMENTS):
        sentence = [str(w) for w in rng.choice(WORDS, size=int(rng.integers(6, 12)))]
        references.append(" ".join(sentence))
        for name, keep in SYSTEMS.items():
            words = [
                w if rng.random() < keep else str(rng.choice(WORDS)) for w in sentence
            ]
            outputs[name].append(" ".join(words))
    return references, outputs


def judgments_csv() -> bytes:
    """Adequacy 1-5 by two judges; gamma is not judged on the first ten
    segments, so its pairs are tested over the segments judged for both."""
    rng = np.random.default_rng(5)
    quality = {"alpha": 4.4, "beta": 4.3, "gamma": 2.4, "delta": 2.2}
    lines = ["segment,system,judge,criterion,value"]
    for segment in range(1, N_SEGMENTS + 1):
        for system, mean in quality.items():
            if system == "gamma" and segment <= 10:
                continue
            judge = "j1" if segment % 2 else "j2"
            value = int(np.clip(np.rint(rng.normal(mean, 0.7)), 1, 5))
            lines.append(f"{segment},{system},{judge},adequacy,{value}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def compared(team, owner):
    references, outputs = corpus()
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="toy four systems",
            source_language="fr",
            target_language="en",
            text_type="news",
            description="",
            sources=[f"source {i}" for i in range(N_SEGMENTS)],
            references={"A": references},
        ),
    )
    # The comparison is computed here with OPTIONS, never by a queued job: in
    # a transactional test a real worker of this session would otherwise run
    # one that read the outputs while they were still being added and wrote
    # a human column of two systems after this one (seen in CI).
    with (
        mock.patch.object(scoring_jobs, "request_comparison"),
        mock.patch.object(judgment_imports, "request_comparison"),
    ):
        for name, lines in outputs.items():
            job = create_system_output(
                test_set, owner, name, lines, metrics=("chrf",), queue=False
            )
            assert run_scoring_job(job.pk)
        import_judgments(test_set, owner, judgments_csv(), "adequacy.csv")
    compare_test_set(test_set, options=OPTIONS, analyses=False)
    return test_set


def upper_pairs(n: int) -> list[tuple[int, int]]:
    return list(combinations(range(n), 2))


@pytest.mark.parametrize("kind", ["metric", "human"])
def test_stored_adjusted_p_values_agree_with_statsmodels(compared, kind) -> None:
    stored = MetricComparison.objects.get(test_set=compared, kind=kind)
    tests = ["bootstrap_p", "ar_p"] if kind == "metric" else ["ar_p"]
    for key in tests:
        raw = stored.matrices[key]
        pairs = upper_pairs(len(raw))
        flat = np.array([raw[i][j] for i, j in pairs])
        for method in ("holm", "bonferroni"):
            expected = statsmodels_oracle.multipletests(flat, method)
            adjusted = stored.matrices["adjusted"][method][key]
            for (i, j), value in zip(pairs, expected, strict=True):
                assert adjusted[i][j] == pytest.approx(value, abs=1e-12)
                assert adjusted[j][i] == adjusted[i][j]


@pytest.mark.parametrize("kind", ["metric", "human"])
def test_no_stored_cluster_holds_two_significantly_different_systems(
    compared, kind
) -> None:
    stored = MetricComparison.objects.get(test_set=compared, kind=kind)
    ids = [str(output_id) for output_id in stored.output_ids]
    tests = ["bootstrap", "ar"] if kind == "metric" else ["ar"]
    separated_somewhere = False
    for test in tests:
        for correction in CORRECTIONS:
            p = (
                stored.matrices[f"{test}_p"]
                if correction == "none"
                else stored.matrices["adjusted"][correction][f"{test}_p"]
            )
            cluster = [stored.summary[i]["clusters"][test][correction][0] for i in ids]
            for i, j in upper_pairs(len(ids)):
                if cluster[i] == cluster[j]:
                    assert not p[i][j] < stored.alpha, (test, correction, i, j)
            # Nor is a cluster cut without cause under this correction: the
            # best system of each cluster differs significantly from a member
            # of the cluster above (clusters of uncorrected p stored for Holm
            # would pass the check above, not this one: bootstrap, gamma and
            # delta, raw p 0.037, Holm 0.073).
            value = "z" if kind == "human" else "score"
            members: dict[int, list[int]] = {}
            for index, number in enumerate(cluster):
                members.setdefault(number, []).append(index)
            numbers = sorted(members)
            for above, below in zip(numbers, numbers[1:]):
                top = max(members[below], key=lambda i: stored.summary[ids[i]][value])
                assert any(p[top][i] < stored.alpha for i in members[above]), (
                    test,
                    correction,
                    below,
                )
            separated_somewhere |= len(set(cluster)) > 1
    # The data separate the good systems from the poor ones.
    assert separated_somewhere


def test_the_human_column_has_clusters_and_intervals(compared) -> None:
    board = build_leaderboard(compared)
    (human,) = board.human_columns
    assert human.n_trials == OPTIONS.n_trials and human.correction == "holm"
    by_system = {row.system: human.values[row.output_id] for row in board.rows}
    for value in by_system.values():
        assert value.low <= value.z <= value.high
        assert value.cluster is not None
    # alpha and beta (4.4 vs 4.3) share the best cluster; delta (2.2) does not.
    assert by_system["alpha"].cluster == by_system["beta"].cluster == 1
    assert by_system["delta"].cluster > 1
    assert by_system["gamma"].judged_segments == N_SEGMENTS - 10


def test_the_page_names_tests_sides_and_correction(client, owner, compared) -> None:
    client.login(username=owner.username, password=PASSWORD)
    url = compared.get_absolute_url()
    page = client.get(url, {"metric": "chrf"}).content.decode()
    assert "two-sided 95% percentile bootstrap interval" in page
    assert "Holm-adjusted p &lt; 0.05 over all 6 pairs" in page
    assert 'id="correction-switch"' in page
    assert "correction=bonferroni" in page
    # The human columns: interval, rank and the test behind their clusters.
    assert 'class="interval human-interval"' in page
    assert "paired approximate randomisation over the segments judged for both" in (
        page
    )
    page = client.get(url, {"metric": "chrf", "correction": "bonferroni"})
    assert "Bonferroni-adjusted p &lt; 0.05 over all 6 pairs" in page.content.decode()
    page = client.get(url, {"metric": "chrf", "correction": "none"}).content.decode()
    assert "uncorrected p &lt; 0.05" in page
    assert "no correction for multiple comparisons" in page


def test_the_api_names_the_correction_and_serves_adjusted_matrices(
    client, owner, compared
) -> None:
    client.login(username=owner.username, password=PASSWORD)
    url = f"/api/v1/test-sets/{compared.pk}/leaderboard"
    board = client.get(url, {"p_values": "1", "correction": "bonferroni"}).json()
    assert board["correction"] == "bonferroni"
    chrf = board["significance"]["chrf"]
    assert (chrf["correction"], chrf["sided"]) == ("bonferroni", "two-sided")
    assert chrf["interval"] == "two-sided percentile bootstrap"
    for a, row in chrf["bootstrap_p"].items():
        for b, raw in row.items():
            # Bonferroni over the 6 pairs, by hand.
            assert chrf["bootstrap_p_adjusted"][a][b] == pytest.approx(
                min(1.0, 6 * raw), abs=1e-12
            )
    human = board["human_significance"]["adequacy"]
    assert human["test"] == "paired approximate randomisation"
    assert (human["sided"], human["correction"]) == ("two-sided", "bonferroni")
    systems = {system["system"]: system for system in board["systems"]}
    adequacy = systems["alpha"]["human"]["adequacy"]
    assert adequacy["cluster"] == 1 and adequacy["rank_range"][0] == 1
    assert adequacy["ci_low"] <= adequacy["z"] <= adequacy["ci_high"]
    default = client.get(url).json()
    assert default["correction"] == "holm"
    assert default["significance"]["chrf"]["correction"] == "holm"


def test_the_pvalue_page_shows_adjusted_p_values_and_names_them(
    client, owner, compared
) -> None:
    client.login(username=owner.username, password=PASSWORD)
    url = reverse("test_set_pvalues", args=[compared.pk])
    page = client.get(url, {"metric": "chrf", "test": "ar"}).content.decode()
    assert "Two-sided p-value" in page
    assert "paired approximate randomisation, 500 trials" in page
    assert "Holm-adjusted over all 6 pairs (raw p-value in brackets)" in page
    assert 'class="raw-p"' in page
    page = client.get(url, {"metric": "chrf", "correction": "none"}).content.decode()
    assert "uncorrected (no correction for multiple comparisons)" in page
    assert 'class="raw-p"' not in page


def test_the_compare_page_names_sides_and_the_leaderboard_correction(
    client, owner, compared
) -> None:
    client.login(username=owner.username, password=PASSWORD)
    outputs = dict(compared.outputs.values_list("system__name", "pk"))
    page = client.get(
        reverse("compare_outputs", args=[compared.pk]),
        {"a": outputs["alpha"], "b": outputs["delta"]},
    ).content.decode()
    assert "bootstrap p <small>two-sided</small>" in page
    assert "two-sided p-values of paired bootstrap resampling" in page
    assert 'class="adjusted-p"' in page and "Holm-adjusted" in page


def test_a_comparison_stored_before_corrections_shows_no_clusters(compared) -> None:
    # Clusters stored under the old rule name no correction: the leaderboard
    # shows the score as pending (the next comparison job recomputes it)
    # rather than a cluster that may hold significantly different systems.
    stored = MetricComparison.objects.get(test_set=compared, kind="metric")
    for entry in stored.summary.values():
        del entry["clusters"]
    stored.save()
    board = build_leaderboard(compared, rank_by="chrf")
    cells = [cells[0] for _row, cells in board.display_rows()]
    assert all(cell.significance is None and cell.pending for cell in cells)


def test_the_exports_name_the_correction_and_the_sides(client, owner, compared) -> None:
    client.login(username=owner.username, password=PASSWORD)
    base = compared.get_absolute_url()
    text = client.get(
        base + "leaderboard.signatures.csv", {"correction": "bonferroni"}
    ).content.decode()
    frame = pd.read_csv(io.StringIO(text), comment="#")
    chrf = frame[frame["metric"] == "chrf"].iloc[0]
    assert (chrf["sided"], chrf["correction"]) == ("two-sided", "bonferroni")
    latex = client.get(base + "leaderboard.tex").content.decode()
    assert "two-sided, Holm-adjusted $p < 0.05$ over all pairs" in latex


def test_the_migration_queues_a_comparison_for_old_stored_clusters(compared) -> None:
    migration = import_module(
        "mtdash.evaluation.migrations.0005_recompute_clusters_per_correction"
    )
    ComparisonJob.objects.all().delete()
    migration.queue_recomputation(apps, None)
    assert not ComparisonJob.objects.exists()  # up to date: nothing to do
    stored = MetricComparison.objects.get(test_set=compared, kind="metric")
    for entry in stored.summary.values():
        del entry["clusters"]
    stored.save()
    migration.queue_recomputation(apps, None)
    migration.queue_recomputation(apps, None)
    (job,) = ComparisonJob.objects.all()
    assert (job.test_set_id, job.status) == (compared.pk, "queued")


def test_the_export_links_keep_the_pages_test_and_correction(
    client, owner, compared
) -> None:
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(
        compared.get_absolute_url(),
        {"metric": "chrf", "test": "bootstrap", "correction": "none"},
    ).content.decode()
    csv_link = reverse("test_set_export", args=[compared.pk, "csv"])
    assert f"{csv_link}?metric=chrf&amp;test=bootstrap&amp;correction=none" in page
    default = client.get(compared.get_absolute_url()).content.decode()
    assert f'href="{csv_link}"' in default


def test_the_system_page_names_the_rank_test_and_correction(
    client, owner, compared
) -> None:
    client.login(username=owner.username, password=PASSWORD)
    output = compared.outputs.get(system__name="alpha")
    page = client.get(reverse("output_detail", args=[output.pk])).content.decode()
    assert "95% bootstrap interval <small>(two-sided, percentile)</small>" in page
    assert "(paired approximate randomisation, or paired bootstrap resampling" in page
    assert "two-sided, Holm-adjusted p &lt; 0.05 over all pairs" in page


def test_the_chart_names_the_sides_and_the_correction(compared) -> None:
    board = build_leaderboard(compared, rank_by="chrf", correction="bonferroni")
    layout = leaderboard_figure(board)["layout"]
    assert layout["title"]["text"] == "chrf with two-sided 95% bootstrap intervals"
    assert layout["legend"]["title"]["text"] == (
        "significance cluster (Bonferroni-adjusted p)"
    )


def test_pages_warn_when_too_few_draws_can_separate_no_pair(
    client, owner, compared
) -> None:
    # 50 resamples: Holm's smallest p over 6 pairs is 6 / 51 = 0.118.
    MetricComparison.objects.filter(test_set=compared, kind="metric").update(
        n_samples=50
    )
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(
        compared.get_absolute_url(), {"metric": "chrf", "test": "bootstrap"}
    )
    text = page.content.decode()
    assert 'id="resolution-warning"' in text
    assert "the smallest p-value is 1/51" in text
    assert "raises to 0.118" in text and "(at least 120)" in text
    # Approximate randomisation (500 trials: 6 / 501 = 0.012) can.
    text = client.get(
        compared.get_absolute_url(), {"metric": "chrf", "test": "ar"}
    ).content.decode()
    assert 'id="resolution-warning"' not in text
    url = reverse("test_set_pvalues", args=[compared.pk])
    assert (
        'id="resolution-warning"'
        in client.get(url, {"test": "bootstrap"}).content.decode()
    )
    api = client.get(
        f"/api/v1/test-sets/{compared.pk}/leaderboard?test=bootstrap"
    ).json()
    assert api["significance"]["chrf"]["smallest_adjusted_p"] == pytest.approx(
        6 / 51, abs=1e-12
    )


def test_approximate_randomisation_is_the_default_test_everywhere(
    client, owner, compared
) -> None:
    # 50 bootstrap resamples cannot separate any pair after Holm (6 / 51 >
    # 0.05); the default test must still give the leaderboard its clusters.
    MetricComparison.objects.filter(test_set=compared, kind="metric").update(
        n_samples=50
    )
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(compared.get_absolute_url(), {"metric": "chrf"}).content.decode()
    assert "<strong>approximate randomisation</strong>" in page
    assert 'id="resolution-warning"' not in page
    board = build_leaderboard(compared, rank_by="chrf")
    assert board.test == "ar"
    api = client.get(f"/api/v1/test-sets/{compared.pk}/leaderboard").json()
    assert api["significance"]["chrf"]["test"] == "ar"
    matrix = client.get(
        reverse("test_set_pvalues", args=[compared.pk])
    ).content.decode()
    assert '<option value="ar" selected>' in matrix
    # The system page shows the default test's rank range.
    for row, cells in board.display_rows():
        chrf = next(cell for cell in cells if cell.column.name == "chrf")
        expected = f"{chrf.significance.rank_range} of 4"
        system = client.get(reverse("output_detail", args=[row.output_id]))
        assert f'<td class="num">{expected}</td>' in system.content.decode()


def test_the_exports_name_the_human_columns_test_and_the_clusters_draws(
    client, owner, compared
) -> None:
    # The human columns' clusters in the CSV and the LaTeX table come from
    # their own test (paired randomisation over commonly judged segments):
    # the sidecar and the caption name it, its sides, correction and trials.
    client.login(username=owner.username, password=PASSWORD)
    base = compared.get_absolute_url()
    text = client.get(base + "leaderboard.signatures.csv").content.decode()
    frame = pd.read_csv(io.StringIO(text), comment="#")
    csv_frame = pd.read_csv(
        io.StringIO(client.get(base + "leaderboard.csv").content.decode())
    )
    (human,) = frame[frame["metric"] == "human adequacy"].itertuples()
    assert "human adequacy cluster" in csv_frame.columns
    assert human.signature.startswith("human:adequacy|")
    assert (human.test, human.sided, human.correction) == ("ar", "two-sided", "holm")
    assert (human.ar_trials, human.bootstrap_samples) == (500, 300)
    latex = client.get(base + "leaderboard.tex").content.decode()
    caption = latex[latex.index(r"\caption{") :]
    # Clusters of the ranked metric: approximate randomisation, 500 trials
    # (the 300 bootstrap resamples give the intervals, not the clusters).
    assert "approximate randomisation, two-sided, Holm-adjusted $p < 0.05$" in caption
    assert "over all pairs, 500 trials, seed 3" in caption
    assert (
        "adequacy: paired approximate randomisation over the segments judged for "
        "both systems, two-sided, Holm-adjusted $p < 0.05$ over all pairs, 500 trials"
    ) in caption
    bootstrap = client.get(base + "leaderboard.tex", {"test": "bootstrap"})
    assert "over all pairs, 300 bootstrap resamples, seed 3" in (
        bootstrap.content.decode()
    )
