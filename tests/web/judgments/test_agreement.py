"""The agreement summary of a test set: per criterion, from imported and
campaign judgments, checked against independent computations (the
definition of alpha by brute force, NumPy's Pearson), JSON-safe, stored
until the judgments change; and its partial."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from django.template.loader import render_to_string

from mtdash.judgments.campaigns import agreement
from mtdash.judgments.campaigns.agreement import agreement_summary
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import AgreementSnapshot
from tests.scoring.stats.test_stats_agreement import brute_force_alpha
from tests.web.judgments.test_campaigns import (
    build_judged_set,
    make_campaign,
    rate_everything,
)


@pytest.fixture
def judged_set(team, owner, member):
    return build_judged_set(team, owner)


# Three judges rate adequacy (1-5) and DA (0-100) of both systems' first six
# segments; judge j3 skips some (missing values).
ADEQUACY = {
    "j1": [5, 4, 3, 4, 2, 5, 4, 3, 2, 1, 3, 4],
    "j2": [5, 3, 3, 4, 2, 4, 4, 2, 2, 1, 4, 4],
    "j3": [4, 4, None, 5, 1, 5, None, 3, 2, 2, 3, None],
}
DA = {
    "j1": [90, 70, 55, 80, 30, 95, 75, 50, 35, 10, 60, 70],
    "j2": [85, 60, 60, 70, 40, 90, 70, 45, 20, 15, 65, 80],
    "j3": [95, 75, None, 85, 20, 99, None, 55, 40, 25, 50, None],
}


def judgments_csv() -> bytes:
    lines = ["segment,system,judge,criterion,value"]
    for criterion, table in (("adequacy", ADEQUACY), ("da", DA)):
        for judge, values in table.items():
            for position, value in enumerate(values):
                if value is None:
                    continue
                system = "sys-a" if position < 6 else "sys-b"
                lines.append(f"{position % 6 + 1},{system},{judge},{criterion},{value}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def imported(judged_set, owner):
    import_judgments(judged_set, owner, judgments_csv(), "judgments.csv")
    return judged_set


def by_criterion(summary) -> dict:
    return {row["criterion"]: row for row in summary["criteria"]}


def test_adequacy_gets_ordinal_alpha_equal_to_its_definition(imported):
    row = by_criterion(agreement_summary(imported))["adequacy"]
    items, values = [], []
    for table_values in ADEQUACY.values():
        for position, value in enumerate(table_values):
            if value is not None:
                items.append(position)
                values.append(value)
    expected = brute_force_alpha(items, values, "ordinal")
    assert row["method"] == "alpha-ordinal"
    assert row["value"] == pytest.approx(expected, abs=1e-9)
    assert row["interval"][0] <= row["value"] <= row["interval"][1]
    assert (row["n_items"], row["n_judges"]) == (12, 3)
    assert row["n_judgments"] == 33


def test_da_gets_the_mean_pearson_over_judge_pairs(imported):
    row = by_criterion(agreement_summary(imported))["da"]
    rs = []
    for a, b in itertools.combinations(DA, 2):
        shared = [i for i in range(12) if DA[a][i] is not None and DA[b][i] is not None]
        rs.append(
            np.corrcoef([DA[a][i] for i in shared], [DA[b][i] for i in shared])[0, 1]
        )
    assert row["method"] == "pearson"
    assert row["value"] == pytest.approx(np.mean(rs), abs=1e-12)
    assert row["interval"][0] < row["value"] < row["interval"][1]
    assert row["n_judges"] == 3


def test_the_summary_is_json_safe_and_stored_until_judgments_change(
    imported, owner, django_assert_max_num_queries, monkeypatch
):
    first = agreement_summary(imported)
    json.dumps(first, allow_nan=False)
    calls = []
    original = agreement.compute_agreement
    monkeypatch.setattr(
        agreement, "compute_agreement", lambda ts: calls.append(ts) or original(ts)
    )
    with django_assert_max_num_queries(4):
        assert agreement_summary(imported) == first
    assert calls == []
    more = b"segment,system,judge,criterion,value\n1,sys-a,j4,adequacy,1\n"
    import_judgments(imported, owner, more, "more.csv")
    changed = agreement_summary(imported)
    assert len(calls) == 1
    assert by_criterion(changed)["adequacy"]["n_judgments"] == 34
    assert AgreementSnapshot.objects.get(test_set=imported).summary == changed


def test_no_judgments_gives_an_empty_summary_and_a_short_partial(judged_set):
    summary = agreement_summary(judged_set)
    assert summary["criteria"] == [] and summary["unreliable_judges"] == []
    html = render_to_string("judgments/_agreement.html", {"agreement": summary})
    assert "No judgments yet" in html


def test_campaign_repeats_give_intra_annotator_figures_and_flags(
    judged_set, owner, member
):
    campaign = make_campaign(
        judged_set, owner, [owner, member], controls_per_judge=3, criteria=["adequacy"]
    )
    firsts = {}

    def rating(a):
        if a.kind == "regular":
            firsts[a.pk] = 2 + a.item.index % 3
            return firsts[a.pk]
        if a.kind == "repeat":
            return firsts[a.control_of_id]  # always the same again
        return 1

    rate_everything(campaign, owner, rating)
    rate_everything(campaign, member, lambda a: 5 if a.kind == "repeat" else 1)
    summary = agreement_summary(judged_set)
    row = by_criterion(summary)["adequacy"]
    assert row["intra"]["n_pairs"] == 6
    # alice repeats exactly (3 pairs), bob's repeats are 5 after 1 (3 pairs)
    assert row["intra"]["exact_share"] == pytest.approx(0.5)
    assert row["intra"]["mean_absolute_difference"] == pytest.approx(2.0)
    flagged = {j["judge"]: j for j in summary["unreliable_judges"]}
    assert set(flagged) == {"bob"}
    assert "repeated items rated too differently" in flagged["bob"]["reasons"]
    html = render_to_string("judgments/_agreement.html", {"agreement": summary})
    assert "Krippendorff" in html and "<caption>" in html
    assert 'data-criterion="adequacy"' in html
    json.dumps(summary, allow_nan=False)
