"""The metric-evaluation page: tables read from the stored analysis, the
switches, the scatter plot of a cell, exports, and who may see them."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd
import pytest
from django.urls import reverse
from scipy import stats as scipy_stats

from mtdash.evaluation.models import ComparisonJob, TestSetAnalysis
from mtdash.judgments.correlations.page import stored_table
from mtdash.judgments.imports.judgments import import_judgments
from tests.web.judgments.test_correlations_support import (
    ADEQUACY,
    COMET,
    OUTPUTS,
    judged_test_set,
    judgments_csv,
    scored_outputs,
)


@pytest.fixture
def judged(test_set, owner, settings):
    return judged_test_set(test_set, owner, settings)


def page(client, test_set, **query):
    return client.get(reverse("test_set_correlations", args=[test_set.pk]), query)


def cells(html: str) -> list[tuple[str, str, str]]:
    """(class, metric, criterion) of every cell of the table."""
    return re.findall(
        r'<td class="num cell ([a-z ]*)">\s*<button type="button" class="cell-button" '
        r'data-metric="([^"]*)" data-criterion="([^"]*)"',
        html,
    )


@pytest.mark.django_db
def test_the_table_shows_every_metric_against_every_criterion(client, member, judged):
    client.force_login(member)
    response = page(client, judged)
    assert response.status_code == 200
    html = response.content.decode()
    found = cells(html)
    metrics = {metric for _, metric, _ in found}
    assert metrics == {"bleu", "chrf", "ter", "comet"}
    assert {criterion for _, _, criterion in found} == {"adequacy", "fluency"}
    # One best per criterion, as stored; the classes follow the stored marks.
    table = stored_table(judged, "system", "pearson")
    for column in table["criteria"]:
        for cell in column["cells"]:
            mark = (
                "best" if cell["best"] else "equivalent" if cell["equivalent"] else ""
            )
            assert (mark, cell["metric"], column["criterion"]) in [
                (c.strip(), m, k) for c, m, k in found
            ]
    assert sum(1 for c, _, _ in found if c.strip() == "best") == 2
    assert "negated" in html and "ter" in html  # the error rate is said negated
    assert 'id="correlations-legend"' in html
    # The disagreement explorer of each cell, its parameters URL-encoded.
    explorer = reverse("judgments_disagreements", args=[judged.pk])
    assert f"{explorer}?metric=comet&amp;criterion=adequacy" in html
    # The coefficient shown is the stored one, to three decimals.
    bleu = next(c for c in table["criteria"][0]["cells"] if c["metric"] == "bleu")
    assert f"{bleu['coefficient']:.3f}" in html


@pytest.mark.django_db
def test_the_system_level_coefficient_is_scipys_on_the_systems(judged):
    """A check independent of the library: adequacy means per system against
    COMET's stored means (z-scores keep the order and linear shape of raw
    means here: both judges rate with the same spread)."""
    table = stored_table(judged, "system", "pearson")
    adequacy = next(c for c in table["criteria"] if c["criterion"] == "adequacy")
    systems = adequacy["systems"]
    assert sorted(systems) == sorted(OUTPUTS)
    comet = [np.mean(COMET[s]) for s in systems]
    human = [np.mean(ADEQUACY[s]) for s in systems]
    cell = next(c for c in adequacy["cells"] if c["metric"] == "comet")
    assert cell["coefficient"] == pytest.approx(
        scipy_stats.pearsonr(comet, human).statistic, rel=1e-9
    )


@pytest.mark.django_db
def test_the_switches_choose_level_and_coefficient(client, member, judged):
    client.force_login(member)
    html = page(client, judged, level="sentence", method="kendall").content.decode()
    assert 'data-level="sentence" data-method="kendall"' in html
    assert "Sentence level Kendall" in html
    assert 'id="method-kendall" aria-current="true"' in html
    # Anything else falls back to system level Pearson.
    html = page(client, judged, level="nope", method="x").content.decode()
    assert 'data-level="system" data-method="pearson"' in html


@pytest.mark.django_db
def test_the_scatter_plot_names_the_systems_and_draws_the_fit(client, member, judged):
    client.force_login(member)
    url = reverse("test_set_correlation_scatter", args=[judged.pk])
    response = client.get(
        url, {"level": "system", "metric": "comet", "criterion": "adequacy"}
    )
    assert response.status_code == 200
    data = response.json()
    points, line = data["figure"]["data"]
    assert sorted(points["text"]) == sorted(
        ["good", "fair", "poor", "&lt;b&gt;odd&lt;/b&gt;"]  # escaped for Plotly
    )
    comet = [
        np.mean(
            __import__(
                "tests.web.judgments.test_correlations_support", fromlist=["COMET"]
            ).COMET[s]
        )
        for s in data["systems"]
    ]
    assert points["x"] == pytest.approx(comet, rel=1e-12)
    slope, intercept = np.polyfit(points["x"], points["y"], 1)
    assert line["y"][0] == pytest.approx(slope * min(points["x"]) + intercept)
    sentence = client.get(
        url, {"level": "sentence", "metric": "ter", "criterion": "fluency"}
    ).json()
    assert sentence["n_points"] == 12  # 4 systems x 3 judged segments
    missing = client.get(
        url, {"level": "system", "metric": "nope", "criterion": "adequacy"}
    )
    assert missing.status_code == 404


@pytest.mark.django_db
def test_csv_export_reads_in_pandas_and_holds_the_stored_numbers(
    client, member, judged
):
    client.force_login(member)
    url = reverse("test_set_correlation_export", args=[judged.pk, "csv"])
    response = client.get(url, {"level": "sentence", "method": "spearman"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    frame = pd.read_csv(io.StringIO(response.content.decode()))
    assert len(frame) == 8  # 4 metrics x 2 criteria
    table = stored_table(judged, "sentence", "spearman")
    for column in table["criteria"]:
        for cell in column["cells"]:
            row = frame[
                (frame.metric == cell["metric"])
                & (frame.criterion == column["criterion"])
            ]
            assert row.coefficient.item() == pytest.approx(
                cell["coefficient"], rel=1e-15
            )
            assert bool(row.best.item()) == cell["best"]
    assert frame[frame.metric == "ter"].negated.all()
    assert set(frame.level) == {"sentence"} and set(frame.method) == {"spearman"}


@pytest.mark.django_db
def test_latex_export_is_a_booktabs_table_with_the_best_in_bold(client, member, judged):
    client.force_login(member)
    url = reverse("test_set_correlation_export", args=[judged.pk, "tex"])
    text = client.get(url).content.decode()
    assert r"\toprule" in text and r"\bottomrule" in text and r"\caption{" in text
    assert text.count(r"\textbf{") == 2  # one best per criterion
    assert "ter ($-$)" in text and "negated" in text
    table = stored_table(judged, "system", "pearson")
    best = next(c for c in table["criteria"][0]["cells"] if c["best"])
    assert rf"\textbf{{{best['coefficient']:.3f}}}" in text
    assert (
        client.get(
            reverse("test_set_correlation_export", args=[judged.pk, "xls"])
        ).status_code
        == 404
    )


@pytest.mark.django_db
def test_latex_escapes_names(client, member, test_set, owner, settings):
    scored_outputs(test_set, owner)
    data = judgments_csv().replace(b"adequacy", b"adequacy_%&")
    from tests.web.judgments.test_correlations_support import SETTINGS, compare_test_set

    settings.MTDASH_COMPARISON_SAMPLES = SETTINGS.n_samples
    import_judgments(test_set, owner, data, "judgments.csv")
    compare_test_set(test_set, options=SETTINGS)
    client.force_login(member)
    url = reverse("test_set_correlation_export", args=[test_set.pk, "tex"])
    text = client.get(url).content.decode()
    assert r"adequacy\_\%\&" in text


@pytest.mark.django_db
def test_without_judgments_the_page_says_how_to_get_them(
    client, member, test_set, owner
):
    scored_outputs(test_set, owner)
    client.force_login(member)
    html = page(client, test_set).content.decode()
    assert 'id="correlations-no-judgments"' in html
    assert reverse("judgments_import", args=[test_set.pk]) in html
    assert 'id="correlation-table"' not in html


@pytest.mark.django_db
def test_judgments_not_analysed_yet_show_pending_and_ask_a_worker(
    client, member, test_set, owner
):
    scored_outputs(test_set, owner)
    import_judgments(test_set, owner, judgments_csv(), "judgments.csv")
    ComparisonJob.objects.all().delete()
    client.force_login(member)
    html = page(client, test_set).content.decode()
    assert 'id="correlations-pending"' in html
    assert ComparisonJob.objects.filter(test_set=test_set).count() == 1
    export = reverse("test_set_correlation_export", args=[test_set.pk, "csv"])
    assert client.get(export).status_code == 404


@pytest.mark.django_db
def test_an_unchanged_test_set_is_not_recomputed_and_a_hidden_system_leaves(
    judged, owner
):
    from mtdash.evaluation.leaderboard.comparisons import compare_test_set
    from tests.web.judgments.test_correlations_support import SETTINGS

    before = TestSetAnalysis.objects.get(test_set=judged, kind="correlations")
    compare_test_set(judged, options=SETTINGS)
    after = TestSetAnalysis.objects.get(test_set=judged, kind="correlations")
    assert after.computed_at == before.computed_at
    judged.outputs.filter(system__name="poor").update(hidden=True)
    compare_test_set(judged, options=SETTINGS)
    table = stored_table(judged, "system", "pearson")
    assert "poor" not in table["criteria"][0]["systems"]
    assert table["criteria"][0]["n_points"] == 3


@pytest.mark.django_db
def test_other_teams_and_anonymous_users_see_nothing(client, outsider, judged):
    urls = [
        reverse("test_set_correlations", args=[judged.pk]),
        reverse("test_set_correlation_scatter", args=[judged.pk])
        + "?metric=bleu&criterion=adequacy",
        reverse("test_set_correlation_export", args=[judged.pk, "csv"]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response["Location"]
    client.force_login(outsider)
    for url in urls:
        assert client.get(url).status_code == 404
    assert (
        client.post(reverse("test_set_correlations", args=[judged.pk])).status_code
        == 405
    )


def test_csv_writer_never_lets_a_name_run_as_a_formula():
    from mtdash.judgments.correlations.exports import correlations_csv
    from mtdash.judgments.correlations.page import arrange

    data = {
        "level": "system",
        "method": "pearson",
        "metrics": ["=cmd()"],
        "negated": [],
        "n_samples": 10,
        "seed": 1,
        "confidence": 0.95,
        "alpha": 0.05,
        "criteria": [
            {
                "criterion": "+x",
                "n_points": 3,
                "systems": [],
                "excluded_systems": [],
                "best_metric": "=cmd()",
                "cells": [
                    {
                        "metric": "=cmd()",
                        "coefficient": 0.5,
                        "low": 0.1,
                        "high": 0.9,
                        "n_points": 3,
                        "best": True,
                        "equivalent": False,
                        "p_value": None,
                    }
                ],
            }
        ],
    }
    rows = list(csv.DictReader(io.StringIO(correlations_csv(arrange(data)))))
    assert rows[0]["metric"] == "'=cmd()" and rows[0]["criterion"] == "'+x"


@pytest.mark.django_db
def test_orange_results_are_shown_beside_with_best_and_equivalent(
    client, member, judged, monkeypatch
):
    """The ORANGE summary (mtdash.orange's, here a stand-in of its shape) is
    rendered with its intervals, best and equivalent rows and the job link."""
    summary = [
        {
            "job_id": 7,
            "nbest": "<script>x</script> 100-best",
            "url": "/orange/jobs/7/",
            "metrics": [
                {
                    "metric": "bleus:n=4",
                    "label": "bleus:n=4",
                    "orange": 12.3456,
                    "orange_ci_low": 10.5,
                    "orange_ci_high": 14.25,
                    "avg_rank": 3.1,
                    "best": True,
                    "equivalent": False,
                },
                {
                    "metric": "chrf",
                    "label": "chrf",
                    "orange": 13.0,
                    "orange_ci_low": 11.0,
                    "orange_ci_high": 15.0,
                    "avg_rank": 3.4,
                    "best": False,
                    "equivalent": True,
                },
            ],
        }
    ]
    monkeypatch.setattr(
        "mtdash.judgments.correlations.views.orange_summary", lambda test_set: summary
    )
    client.force_login(member)
    html = page(client, judged).content.decode()
    aside = html[html.index('id="orange-summary"') :]
    assert (
        '<a href="/orange/jobs/7/">&lt;script&gt;x&lt;/script&gt; 100-best</a>' in aside
    )
    assert '<tr class="best"><th scope="row" title="bleus:n=4">bleus:n=4</th>' in aside
    assert '<tr class="equivalent"><th scope="row" title="chrf">chrf</th>' in aside
    assert "12.35" in aside and "[10.50, 14.25]" in aside
    assert "lower is better" in aside
    # The interval and the paired test are named, with their sidedness.
    assert "95% bootstrap percentile interval over sentences, two-sided" in aside
    assert "paired bootstrap over sentences (two-sided, 95%)" in aside


@pytest.mark.django_db
def test_the_test_set_page_links_to_every_page_of_this_issue(client, member, test_set):
    client.force_login(member)
    html = client.get(test_set.get_absolute_url()).content.decode()
    for route in (
        "test_set_correlations",
        "judgments_overview",
        "campaign_list",
        "readability_test_set",
        "orange_test_set",
    ):
        assert f'href="{reverse(route, args=[test_set.pk])}"' in html, route
