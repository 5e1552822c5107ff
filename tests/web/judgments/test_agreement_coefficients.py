"""Fleiss' kappa, weighted kappa and the ICC next to the judges' agreement
(service, partial, API), checked against statsmodels, scikit-learn and the
ICC's formula computed here; undefined figures (a single repeat) shown as
"undefined" with the reason on the page and null in JSON."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse

from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.imports.judgments import import_judgments
from tests.scoring.support.icc_reference import icc_by_formula
from tests.web.api.conftest import client_with, create_token
from tests.web.judgments.test_agreement import ADEQUACY, DA, by_criterion, judgments_csv
from tests.web.judgments.test_campaigns import (
    build_judged_set,
    make_campaign,
    rate_everything,
)


@pytest.fixture
def judged_set(team, owner, member):
    return build_judged_set(team, owner)


@pytest.fixture
def imported(judged_set, owner):
    import_judgments(judged_set, owner, judgments_csv(), "judgments.csv")
    return judged_set


def coefficients(row) -> dict:
    return {c["method"]: c for c in row["coefficients"]}


def test_a_1_to_5_scale_gets_fleiss_and_weighted_kappas_as_the_references_do(
    imported,
):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import fleiss_kappa

    found = coefficients(by_criterion(agreement_summary(imported))["adequacy"])
    # Fleiss: 9 items have 3 ratings, 3 items 2: the 9 are used.
    full = [i for i in range(12) if all(ADEQUACY[j][i] is not None for j in ADEQUACY)]
    table = [
        [sum(ADEQUACY[j][i] == c for j in ADEQUACY) for c in range(1, 6)] for i in full
    ]
    assert found["fleiss"]["value"] == pytest.approx(fleiss_kappa(table), abs=1e-12)
    assert found["fleiss"]["n_items"] == 9
    assert "9 of 12 items" in found["fleiss"]["note"]
    for weights in ("linear", "quadratic"):
        kappas = []
        for a, b in itertools.combinations(ADEQUACY, 2):
            shared = [
                i for i in range(12) if None not in (ADEQUACY[a][i], ADEQUACY[b][i])
            ]
            kappas.append(
                cohen_kappa_score(
                    [ADEQUACY[a][i] for i in shared],
                    [ADEQUACY[b][i] for i in shared],
                    weights=weights,
                    labels=[1, 2, 3, 4, 5],
                )
            )
        row = found[f"kappa-{weights}"]
        assert row["value"] == pytest.approx(np.mean(kappas), abs=1e-12)
        assert row["interval"][0] <= row["value"] <= row["interval"][1]
        assert row["n_judges"] == 3


@pytest.mark.parametrize("criterion, table", [("adequacy", ADEQUACY), ("da", DA)])
def test_every_criterion_gets_both_iccs_of_its_largest_complete_table(
    imported, criterion, table
):
    found = coefficients(by_criterion(agreement_summary(imported))[criterion])
    # j3 skipped 3 items: 9 items x 3 judges (27 ratings) beats 12 x 2 (24).
    full = [i for i in range(12) if all(table[j][i] is not None for j in table)]
    single, average = icc_by_formula([[table[j][i] for j in table] for i in full])
    assert found["icc-a1"]["value"] == pytest.approx(single, abs=1e-12)
    assert found["icc-ak"]["value"] == pytest.approx(average, abs=1e-12)
    assert (found["icc-a1"]["n_items"], found["icc-a1"]["n_judges"]) == (9, 3)
    assert "9 of 12 items" in found["icc-a1"]["note"]
    for method in ("icc-a1", "icc-ak"):
        low, high = found[method]["interval"]
        assert low <= found[method]["value"] <= high


def test_da_gets_no_kappa_but_the_reason(imported):
    found = coefficients(by_criterion(agreement_summary(imported))["da"])
    for method in ("fleiss", "kappa-linear", "kappa-quadratic"):
        assert found[method]["value"] is None
        assert "see the ICC" in found[method]["undefined"]


def test_the_partial_shows_the_coefficients_and_the_json_is_safe(imported):
    summary = agreement_summary(imported)
    json.dumps(summary, allow_nan=False)
    html = render_to_string("judgments/_agreement.html", {"agreement": summary})
    assert 'id="agreement-coefficients"' in html
    assert 'data-criterion="adequacy" data-method="kappa-quadratic"' in html
    assert "ICC(A,1)" in html and "Shrout &amp; Fleiss" in html
    value = coefficients(by_criterion(summary)["adequacy"])["fleiss"]["value"]
    assert f"{value:.3f}" in html


def test_the_api_serves_the_coefficients(imported, owner):
    cache.clear()
    api = client_with(create_token(owner.username).strip())
    response = api.get(reverse("api_agreement", args=[imported.pk]))
    assert response.status_code == 200
    row = by_criterion(response.json())["adequacy"]
    assert [c["method"] for c in row["coefficients"]] == [
        "fleiss",
        "kappa-linear",
        "kappa-quadratic",
        "icc-a1",
        "icc-ak",
    ]
    assert row["coefficients"][3]["value"] is not None
    cache.clear()


def test_a_single_repeat_gives_an_undefined_intra_alpha_with_its_reason(
    judged_set, owner, member, client
):
    campaign = make_campaign(
        judged_set, owner, [owner, member], controls_per_judge=1, criteria=["adequacy"]
    )
    firsts = {}

    def rating(a):
        if a.kind == "regular":
            firsts[a.pk] = 4
            return 4
        return 2 if a.kind == "repeat" else 1  # the repeat differs

    rate_everything(campaign, owner, rating)
    summary = agreement_summary(judged_set)
    intra = by_criterion(summary)["adequacy"]["intra"]
    assert intra["n_pairs"] == 1
    assert intra["alpha"] is None  # was 0.000
    assert "single repeat" in intra["undefined"]
    json.dumps(summary, allow_nan=False)
    client.force_login(owner)
    page = client.get(reverse("judgments_overview", args=[judged_set.pk]))
    html = page.content.decode()
    cell = html.split('data-criterion="adequacy"', 1)[1].split("</tr>", 1)[0]
    assert "undefined" in cell and "single repeat" in cell
    assert "0.000" not in cell.split('class="num intra"', 1)[1]
