"""The metric-evaluation page, its exports and the API name what their
numbers are: the interval
(two-sided percentile bootstrap, whole segments resampled at sentence
level), the paired test against the best with its sidedness, every tied
best metric, and "too few points" for a criterion judged for two systems."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.judgments.correlations.page import arrange, stored_table
from mtdash.judgments.imports.judgments import import_judgments
from tests.web.api.test_correlations_api import token_client
from tests.web.judgments.test_correlations_support import (
    SETTINGS,
    comet_tsv,
    compare_test_set,
    judgments_csv,
    scored_outputs,
)

# A third criterion judged for two of the four systems only.
USABILITY = b"1,good,j1,usability,4\n2,good,j1,usability,5\n1,poor,j1,usability,2\n"
BOOTSTRAP_TEST = "paired bootstrap of the difference of correlations"


@pytest.fixture
def judged(test_set, owner, settings):
    scored_outputs(test_set, owner)
    settings.MTDASH_COMPARISON_SEED = SETTINGS.seed
    settings.MTDASH_COMPARISON_SAMPLES = SETTINGS.n_samples
    import_external_scores(
        test_set, owner, "comet", "wmt22-comet-da", True, comet_tsv(), "comet.tsv"
    )
    import_judgments(test_set, owner, judgments_csv() + USABILITY, "judgments.csv")
    compare_test_set(test_set, options=SETTINGS)
    return test_set


def _page(client, test_set, level: str) -> str:
    url = reverse("test_set_correlations", args=[test_set.pk])
    response = client.get(url, {"level": level, "method": "pearson"})
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}">(.*?)</', html, re.S)
    assert found, element_id
    return re.sub(r"\s+", " ", found.group(1))


@pytest.mark.django_db
def test_the_page_names_interval_unit_test_and_sidedness(client, member, judged):
    client.force_login(member)
    system = _page(client, judged, "system")
    assert _text(system, "correlations-interval") == (
        "two-sided 95% percentile bootstrap interval, 200 resamples of systems, "
        "seed 12345"
    )
    assert _text(system, "correlations-test") == (
        f"{BOOTSTRAP_TEST} (two-sided, α = 0.05)"
    )
    sentence = _page(client, judged, "sentence")
    assert "resamples of segments" in _text(sentence, "correlations-interval")
    assert _text(sentence, "correlations-unit").startswith("whole segments")
    assert "kept together" in _text(sentence, "correlations-unit")
    # Every stored best (ties included) is marked on the page.
    for level, html in (("system", system), ("sentence", sentence)):
        table = stored_table(judged, level, "pearson")
        n_best = sum(len(column["best_metrics"]) for column in table["criteria"])
        assert html.count('<td class="num cell best">') == n_best


@pytest.mark.django_db
def test_a_criterion_judged_for_two_systems_is_too_few_points(client, member, judged):
    table = stored_table(judged, "system", "pearson")
    usability = next(c for c in table["criteria"] if c["criterion"] == "usability")
    assert (usability["status"], usability["n_points"]) == ("too few points", 2)
    assert usability["best_metric"] is None and usability["best_metrics"] == []
    assert all(cell["coefficient"] is None for cell in usability["cells"])
    assert all(
        cell["low"] is None and cell["high"] is None for cell in usability["cells"]
    )
    assert not any(cell["best"] for cell in usability["cells"])
    client.force_login(member)
    html = _page(client, judged, "system")
    assert html.count('<td class="num too-few"') == len(usability["cells"])
    assert "2 points: too few" in html
    assert "usability: too few points: 2 system-level point(s)" in html
    # No coefficient, interval or mark (it used to read 1.000 [1.00, 1.00]).
    assert (
        'class="cell-button" data-metric="bleu" data-criterion="usability"' not in html
    )
    assert 'data-criterion="usability" title="scatter' not in html


@pytest.mark.django_db
def test_exports_name_the_test_its_sidedness_and_the_unit(client, member, judged):
    client.force_login(member)
    csv_url = reverse("test_set_correlation_export", args=[judged.pk, "csv"])
    response = client.get(csv_url, {"level": "sentence", "method": "pearson"})
    frame = pd.read_csv(io.StringIO(response.content.decode()))
    assert set(frame.test) == {BOOTSTRAP_TEST}
    assert set(frame.test_sides) == {"two-sided"}
    assert set(frame.resampling_unit) == {"segment"}
    assert set(frame.interval) == {"two-sided percentile bootstrap"}
    assert set(frame.alpha) == {0.05} and set(frame.confidence) == {0.95}
    # Usability per sentence: 3 points but 2 segments, no interval to draw.
    usability = frame[frame.criterion == "usability"]
    assert set(usability.status) == {"ok"} and usability.coefficient.notna().all()
    assert usability.low.isna().all() and usability.high.isna().all()
    system = pd.read_csv(io.StringIO(client.get(csv_url).content.decode()))
    assert set(system.resampling_unit) == {"system"}
    usability = system[system.criterion == "usability"]
    assert set(usability.status) == {"too few points"}
    assert usability.coefficient.isna().all() and not usability.best.any()
    others = frame[frame.criterion != "usability"]
    assert set(others.status) == {"ok"}
    worse = others[~others.best]
    assert worse.compared_with.isin(others[others.best].metric).all()

    tex_url = reverse("test_set_correlation_export", args=[judged.pk, "tex"])
    text = client.get(tex_url, {"level": "sentence"}).content.decode()
    assert "whole segments, all systems' scores of a segment together" in text
    assert rf"({BOOTSTRAP_TEST}, two-sided, $\alpha$ = 0.05)" in text
    assert "% test against the best: paired bootstrap, two-sided, alpha 0.05" in text
    system_tex = client.get(tex_url).content.decode()
    assert r"\textit{too few points}" in system_tex
    assert "% intervals: two-sided 95% percentile bootstrap interval" in system_tex


@pytest.mark.django_db
def test_the_api_json_names_them_as_the_page_does(member, judged):
    client = token_client(member)
    url = reverse("api_test_set_correlations", args=[judged.pk])
    body = client.get(url, {"level": "sentence"}).json()
    assert body["resampling_unit"] == "segment"
    assert body["interval"]["sides"] == "two-sided"
    assert body["interval"]["unit"] == "segment"
    assert body["equivalence_test"]["name"] == BOOTSTRAP_TEST
    assert body["equivalence_test"]["sides"] == "two-sided"
    assert "p <= 0.05" in body["equivalence_test"]["rule"]
    assert APIClient().get(url).status_code in (401, 403)


def test_a_table_stored_before_the_words_is_described_as_resampling_points():
    data = {
        "level": "sentence",
        "method": "pearson",
        "test": "bootstrap",
        "metrics": [],
        "negated": [],
        "n_samples": 100,
        "seed": 1,
        "confidence": 0.95,
        "alpha": 0.05,
        "criteria": [],
    }
    view = arrange(data)
    assert view.unit == "point"
    assert view.test["sides"] == "two-sided"
