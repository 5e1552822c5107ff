"""The judgments page of a test set: imports, WMT aggregates per system and
per segment (checked by hand and against scoring.stats.human_scores), CSV
exports, permissions, escaping, and the summary API."""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Criterion
from mtdash.judgments.overview.store import all_aggregates
from mtdash.judgments.overview.summary import criterion_aggregates
from mtdash.judgments.reading import stored_judgments
from scoring.stats import human_scores

pytestmark = pytest.mark.django_db

TOLERANCE = 1e-12
R = math.sqrt(0.5)  # a z-score of ±1/√2: two values one apart from their mean

# Judge j1 rates A1=4 and B1=2 (mean 3, sample sd √2: z = ±1/√2); judge j2
# rates A1=5 and A2=3 (mean 4: z = ±1/√2). Fluency: one judge, one value.
HAND_WORKED = (
    "segment,system,judge,criterion,value\n"
    "1,alpha,j1,adequacy,4\n"
    "1,beta,j1,adequacy,2\n"
    "1,alpha,j2,adequacy,5\n"
    "2,alpha,j2,adequacy,3\n"
    "3,beta,j3,fluency,4\n"
)


@pytest.fixture
def judged(test_set, owner):
    create_system_output(test_set, owner, "alpha", ["a", "b", "c"], queue=False)
    create_system_output(test_set, owner, "beta", ["x", "y", "z"], queue=False)
    import_judgments(test_set, owner, HAND_WORKED.encode(), "hand.csv")
    return test_set


def by_system(aggregates):
    return {s.system: s for s in aggregates.systems}


def test_system_aggregates_match_the_hand_worked_example(judged):
    adequacy = criterion_aggregates(Criterion.objects.get(name="adequacy"))
    alpha, beta = by_system(adequacy)["alpha"], by_system(adequacy)["beta"]
    # alpha: segment 1 raw (4 + 5) / 2 = 4.5, segment 2 raw 3 -> 3.75;
    # z: segment 1 (R + R) / 2 = R, segment 2 -R -> 0.
    assert abs(alpha.raw_mean - 3.75) < TOLERANCE
    assert abs(alpha.z_mean - 0.0) < TOLERANCE
    assert (alpha.n_judgments, alpha.n_segments, alpha.n_judges) == (3, 2, 2)
    assert abs(beta.raw_mean - 2.0) < TOLERANCE
    assert abs(beta.z_mean + R) < TOLERANCE
    assert (beta.n_judgments, beta.n_segments, beta.n_judges) == (1, 1, 1)
    assert [s.system for s in adequacy.systems] == ["alpha", "beta"]  # best z first
    assert (adequacy.n_judgments, adequacy.n_judges) == (4, 2)


def test_segment_aggregates_match_the_hand_worked_example(judged):
    adequacy = criterion_aggregates(Criterion.objects.get(name="adequacy"))
    rows = [
        (r.segment, r.system, r.n_judges, r.raw_mean, r.z_mean)
        for r in adequacy.segments()
    ]
    expected = [
        (1, "alpha", 2, 4.5, R),
        (1, "beta", 1, 2.0, -R),
        (2, "alpha", 1, 3.0, -R),
    ]
    assert [row[:3] for row in rows] == [row[:3] for row in expected]
    for got, want in zip(rows, expected):
        assert abs(got[3] - want[3]) < TOLERANCE and abs(got[4] - want[4]) < TOLERANCE


def test_aggregates_equal_scoring_human_scores(judged):
    judgments = stored_judgments(judged)
    for aggregates in all_aggregates(judged):
        raw = human_scores(judgments, aggregates.name, standardise=False)
        z = human_scores(judgments, aggregates.name, standardise=True)
        for s in aggregates.systems:
            assert abs(s.raw_mean - raw.system_score(s.system)) < TOLERANCE
            assert abs(s.z_mean - z.system_score(s.system)) < TOLERANCE
            row = z.systems.index(s.system)
            assert s.n_segments == z.judged_segments[row]
        for cell in aggregates.segments():
            row = z.systems.index(cell.system)
            column = list(z.segments).index(cell.segment)
            assert abs(cell.z_mean - z.segment_scores[row, column]) < TOLERANCE
            assert abs(cell.raw_mean - raw.segment_scores[row, column]) < TOLERANCE


def test_the_page_shows_imports_systems_segments_and_a_chart(client, member, judged):
    client.force_login(member)
    response = client.get(reverse("judgments_overview", args=[judged.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "hand.csv" in html and "alice" in html  # file and who imported it
    assert "adequacy 4 · fluency 1" in html
    assert "range 1–5 · higher is better · 4 judgments by 2 judges" in html
    assert '<td class="num">3.750</td><td class="num">0.000</td>' in html
    assert 'data-figure="figure-0"' in html and 'id="figure-0"' in html
    assert "plotly-basic" in html
    assert (
        reverse(
            "sentence_detail", args=[judged.outputs.get(system__name="alpha").pk, 2]
        )
        in html
    )
    assert 'id="agreement"' in html


def test_the_segment_table_pages_and_switches_criterion(client, owner, judged):
    client.force_login(owner)
    url = reverse("judgments_overview", args=[judged.pk])
    html = client.get(url, {"criterion": "fluency"}).content.decode()
    table = html[html.index('id="segment-aggregates"') :]
    assert '<td class="num">3</td><td>beta</td>' in table
    assert "alpha" not in table.split("</table>")[0]
    html = client.get(url, {"page": "99"}).content.decode()
    assert "page 1 of 1" in html  # clamped


def test_an_empty_test_set_says_how_to_import(client, owner, test_set):
    client.force_login(owner)
    html = client.get(
        reverse("judgments_overview", args=[test_set.pk])
    ).content.decode()
    assert "No judgments yet." in html
    assert reverse("judgments_import", args=[test_set.pk]) in html


def test_csv_exports_hold_every_aggregate_at_full_precision(client, owner, judged):
    client.force_login(owner)
    answer = client.get(reverse("judgments_systems_csv", args=[judged.pk]))
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    beta = next(
        r for r in rows if r["criterion"] == "adequacy" and r["system"] == "beta"
    )
    assert abs(float(beta["z_mean"]) + R) < TOLERANCE
    assert len(rows) == 3  # adequacy: alpha, beta; fluency: beta
    answer = client.get(reverse("judgments_segments_csv", args=[judged.pk]))
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [(r["criterion"], r["segment"], r["system"]) for r in rows] == [
        ("adequacy", "1", "alpha"),
        ("adequacy", "1", "beta"),
        ("adequacy", "2", "alpha"),
        ("fluency", "3", "beta"),
    ]
    assert float(rows[0]["raw_mean"]) == 4.5


@pytest.mark.parametrize(
    "name", ["judgments_overview", "judgments_systems_csv", "judgments_segments_csv"]
)
def test_pages_need_a_login_and_hide_other_teams(client, outsider, judged, name):
    url = reverse(name, args=[judged.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(url).status_code == 404


def test_names_are_escaped_on_the_page_and_made_text_in_the_csv(
    client, owner, test_set
):
    evil = "<script>alert(1)</script>"
    create_system_output(test_set, owner, "=cmd()", ["a", "b", "c"], queue=False)
    text = f"segment,system,judge,criterion,value\n1,=cmd(),{evil},adequacy,3\n"
    import_judgments(test_set, owner, text.encode(), f"{evil}.csv")
    client.force_login(owner)
    html = client.get(
        reverse("judgments_overview", args=[test_set.pk])
    ).content.decode()
    assert evil not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;.csv" in html
    body = client.get(reverse("judgments_systems_csv", args=[test_set.pk]))
    assert "'=cmd()" in body.content.decode()


def test_the_import_page_links_the_judgments_page(client, owner, judged):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(owner)
    text = "segment,system,judge,criterion,value\n2,beta,j9,adequacy,1\n"
    upload = SimpleUploadedFile("more.csv", text.encode(), content_type="text/csv")
    preview = client.post(
        reverse("judgments_import", args=[judged.pk]), {"file": upload}
    )["Location"]
    confirm = {"action": "import", "previewed": "auto|line"}
    html = client.post(preview, confirm).content.decode()
    assert "1 judgments imported" in html
    assert 'id="see-judgments"' in html
    assert reverse("judgments_overview", args=[judged.pk]) in html


# --- API -------------------------------------------------------------------


def token_client(user) -> APIClient:
    """A client with a token made as users make one (``create_api_token``)."""
    out = io.StringIO()
    call_command("create_api_token", user.username, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    return client


def test_the_summary_api_gives_system_and_paged_segment_aggregates(owner, judged):
    api = token_client(owner)
    url = f"/api/v1/test-sets/{judged.pk}/judgments/summary"
    body = api.get(url, {"page_size": 2}).json()
    adequacy = next(c for c in body["criteria"] if c["criterion"] == "adequacy")
    beta = next(s for s in adequacy["systems"] if s["system"] == "beta")
    assert abs(beta["z_mean"] + R) < TOLERANCE and beta["raw_mean"] == 2.0
    assert body["segments"]["criterion"] == "adequacy"
    assert (body["segments"]["count"], body["segments"]["pages"]) == (3, 2)
    assert [r["segment"] for r in body["segments"]["results"]] == [1, 1]
    page2 = api.get(url, {"page_size": 2, "page": 2}).json()["segments"]
    assert [(r["segment"], r["system"]) for r in page2["results"]] == [(2, "alpha")]
    fluency = api.get(url, {"criterion": "fluency"}).json()["segments"]
    assert fluency["results"][0]["raw_mean"] == 4.0


def test_the_summary_api_refuses_bad_parameters(owner, judged):
    api = token_client(owner)
    url = f"/api/v1/test-sets/{judged.pk}/judgments/summary"
    answer = api.get(url, {"criterion": "nope"})
    assert answer.status_code == 400
    assert "adequacy, fluency" in answer.json()["errors"][0]["message"]
    assert api.get(url, {"page_size": "5000"}).status_code == 400


def test_the_summary_api_hides_other_teams_and_needs_a_token(outsider, judged):
    url = f"/api/v1/test-sets/{judged.pk}/judgments/summary"
    assert APIClient().get(url).status_code in (401, 403)
    assert token_client(outsider).get(url).status_code == 404


def test_the_dot_plot_puts_the_best_system_on_top_and_every_dot_in_range(judged):
    from mtdash.judgments.overview.figures import system_figure

    adequacy = criterion_aggregates(Criterion.objects.get(name="adequacy"))
    figure = system_figure(adequacy)
    trace = figure["data"][0]
    assert trace["type"] == "scatter"  # in Plotly's basic bundle
    assert trace["y"] == ["beta", "alpha"]  # drawn bottom-up: alpha on top
    assert abs(trace["x"][0] + R) < TOLERANCE and abs(trace["x"][1]) < TOLERANCE
    low, high = figure["layout"]["xaxis"]["range"]
    assert low < min(trace["x"]) and high > max(trace["x"])


def test_the_stored_aggregates_read_back_equal_and_follow_changes(judged, owner):
    from mtdash.evaluation.models import System, TestSetAnalysis

    computed = all_aggregates(judged)
    assert TestSetAnalysis.objects.filter(kind__startswith="judgments:").count() == 2
    stored = all_aggregates(judged)  # read from the TestSetAnalysis rows
    for a, b in zip(computed, stored):
        assert a.systems == b.systems
        assert np.array_equal(a.cell_z, b.cell_z)
        assert np.array_equal(a.cell_segments, b.cell_segments)
    System.objects.filter(name="alpha").update(name="gamma")
    assert "gamma" in [s.system for s in all_aggregates(judged)[0].systems]
    more = "segment,system,judge,criterion,value\n3,beta,j1,adequacy,1\n"
    import_judgments(judged, owner, more.encode(), "more.csv")
    assert all_aggregates(judged)[0].n_judgments == 5
