"""One metric's drill-down of a stored meta-evaluation: the page and
``GET /api/v1/meta-evaluations/{id}/test-sets/{id}/metrics/{metric}``,
their figures against the stored cells and against the library on arrays
written from the judged test set's tables, links from the WMT tables, who
may see them, and escaping of names and sentences."""

from __future__ import annotations

import re

import numpy as np
import pytest
from django.urls import reverse

from mtdash.evaluation.models import Segment, System
from mtdash.judgments.correlations.inputs import metric_scores, with_sentence_scores
from mtdash.judgments.meta_evaluation.drill_down import one_metric_scores
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.models import MetaEvaluation
from scoring.stats import segment_outcomes
from tests.web.judgments.meta_evaluation_support import judge, queue, run
from tests.web.judgments.test_correlations_support import ADEQUACY, COMET

SYSTEMS = ("good", "fair", "poor", "<b>odd</b>")
SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
def judged(test_set, owner):
    return judge(test_set, owner)


@pytest.fixture
def job(owner, judged):
    return run(queue(owner, [judged])[0])


def page_url(job, test_set, metric: str) -> str:
    return reverse("meta_evaluation_metric", args=[job.pk, test_set.pk, metric])


def api_url(job, test_set, metric: str) -> str:
    return f"/api/v1/meta-evaluations/{job.pk}/test-sets/{test_set.pk}/metrics/{metric}"


def stored(job, task: str, metric: str) -> dict:
    block = job.result["test_sets"][0]
    cells = next(t["cells"] for t in block["tasks"] if t["task"] == task)
    return next(cell for cell in cells if cell["metric"] == metric)


def rows(html: str, table_id: str) -> list[str]:
    table = html[html.index(f'id="{table_id}"') :]
    return re.findall(r"<tr[ >].*?</tr>", table[: table.index("</table>")], re.S)[1:]


@pytest.mark.django_db
def test_the_page_shows_the_stored_cells_pairs_chart_and_segments(
    client, member, judged, job
):
    client.force_login(member)
    response = client.get(page_url(job, judged, "bleu"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="drill-table"' in html and '<tr data-metric="bleu">' in html
    assert '<tr data-metric="chrf">' not in html  # this metric's cells only
    accuracy = stored(job, "system:accuracy", "bleu")["coefficient"]
    acc_eq = stored(job, "segment:acc_eq", "bleu")["coefficient"]
    assert f'id="drill-accuracy">{accuracy:.3f}<' in html
    assert f'id="drill-acc-eq">{acc_eq:.3f}<' in html
    pairs = rows(html, "drill-pair-table")
    assert len(pairs) == 6  # four systems
    outcomes = [re.search(r'data-outcome="([^"]*)"', row)[1] for row in pairs]
    order = {"disagree": 0, "metric tie": 1, "human tie": 2, "agree": 3}
    assert outcomes == sorted(outcomes, key=order.get)  # disagreements first
    assert 'data-figure="drill-figure"' in html and 'id="drill-figure"' in html
    assert "plotly" in html
    segments = rows(html, "drill-segment-table")
    assert len(segments) == 3
    assert "segments 1–3 of 3 with a pair" in html
    first_output = judged.outputs.get(system__name="good")  # human order: first
    number = re.search(r'data-segment="(\d+)"', segments[0])[1]
    sentence = reverse("sentence_detail", args=[first_output.pk, int(number)])
    assert f'href="{sentence}"' in segments[0]


@pytest.mark.django_db
def test_comet_against_arrays_written_from_the_tables(client, member, judged, job):
    client.force_login(member)
    response = client.get(api_url(job, judged, "comet"))
    assert response.status_code == 200
    data = response.json()
    cell = stored(job, "segment:acc_eq", "comet")
    assert data["segments"]["epsilon"] == cell["tie_epsilon"]
    assert data["segments"]["acc_eq"] == pytest.approx(cell["coefficient"], abs=1e-12)
    # Per-judge z-scores are a linear map of each judge's values: ties and
    # orders within a segment are those of the raw adequacy table.
    human = np.array([ADEQUACY[s] for s in SYSTEMS], dtype=float)
    metric = np.array([COMET[s] for s in SYSTEMS])
    expected = segment_outcomes(metric, human, cell["tie_epsilon"], SYSTEMS)
    assert data["segments"] == expected.to_dict()
    # COMET's means order the systems as the judges do: every pair agrees,
    # the humans' order first (good, fair, odd, poor).
    pairs = data["system_pairs"]
    assert pairs["accuracy"] == 1.0 and pairs["counts"]["agree"] == 6
    assert [(p["first"], p["second"]) for p in pairs["pairs"][:3]] == [
        ("good", "fair"),
        ("good", "<b>odd</b>"),
        ("good", "poor"),
    ]
    assert all(p["human_difference"] > 0 for p in pairs["pairs"])
    assert {c["task"] for c in data["cells"]} == {
        t["task"] for t in job.result["test_sets"][0]["tasks"]
    }
    assert data["stale"] is False and data["negated"] is False
    assert data["page"] == page_url(job, judged, "comet")


@pytest.mark.django_db
def test_an_error_rate_is_negated_as_the_protocol_negates_it(
    client, member, judged, job
):
    client.force_login(member)
    data = client.get(api_url(job, judged, "ter")).json()
    assert data["negated"] is True
    accuracy = stored(job, "system:accuracy", "ter")["coefficient"]
    assert data["system_pairs"]["accuracy"] == pytest.approx(accuracy, abs=1e-12)
    acc_eq = stored(job, "segment:acc_eq", "ter")["coefficient"]
    assert data["segments"]["acc_eq"] == pytest.approx(acc_eq, abs=1e-12)


@pytest.mark.django_db
def test_one_metrics_scores_are_those_every_metric_reading_gives(judged):
    visible = visible_outputs(judged)
    everything = with_sentence_scores(metric_scores(judged, visible, 3))
    for metric in everything.metrics:
        one = one_metric_scores(judged, visible, 3, metric)
        assert one.higher_is_better[metric] == everything.higher_is_better[metric]
        assert dict(one.corpus[metric]) == dict(everything.corpus[metric])
        assert set(one.sentence[metric]) == set(everything.sentence[metric])
        for system, vector in everything.sentence[metric].items():
            np.testing.assert_array_equal(one.sentence[metric][system], vector)


@pytest.mark.django_db
def test_the_wmt_tables_link_each_metric_to_its_drill_down(client, member, judged, job):
    client.force_login(member)
    detail = client.get(job.get_absolute_url()).content.decode()
    correlations = client.get(
        reverse("test_set_correlations", args=[judged.pk])
    ).content.decode()
    for metric in ("bleu", "chrf", "ter", "comet"):
        link = f'href="{page_url(job, judged, metric)}"'
        assert link in detail and link in correlations, metric


@pytest.mark.django_db
def test_another_team_gets_404_and_strangers_log_in(client, outsider, judged, job):
    for url in (page_url(job, judged, "bleu"), api_url(job, judged, "bleu")):
        response = client.get(url)
        assert response.status_code in (302, 401, 403), url
    client.force_login(outsider)
    assert client.get(page_url(job, judged, "bleu")).status_code == 404
    assert client.get(api_url(job, judged, "bleu")).status_code == 404


@pytest.mark.django_db
def test_a_metric_or_test_set_not_in_the_job_is_404(client, member, judged, job):
    client.force_login(member)
    for url in (
        page_url(job, judged, "meteor"),
        api_url(job, judged, "meteor"),
        page_url(job, judged, "bleu").replace(f"/{judged.pk}/", f"/{judged.pk + 99}/"),
        api_url(job, judged, "bleu").replace(f"/{judged.pk}/", f"/{judged.pk + 99}/"),
    ):
        assert client.get(url).status_code == 404, url


@pytest.mark.django_db
def test_a_waiting_job_shows_its_progress_and_a_failed_one_conflicts(
    client, member, judged
):
    job, _ = queue(member, [judged])
    client.force_login(member)
    html = client.get(page_url(job, judged, "bleu")).content.decode()
    assert "data-status-url" in html and 'id="drill-pair-table"' not in html
    assert client.get(api_url(job, judged, "bleu")).status_code == 202
    MetaEvaluation.objects.filter(pk=job.pk).update(
        status=MetaEvaluation.Status.FAILED, error_message="too few systems"
    )
    response = client.get(api_url(job, judged, "bleu"))
    assert response.status_code == 409
    assert "too few systems" in response.json()["errors"][0]["message"]


@pytest.mark.django_db
def test_names_and_sentences_are_escaped(client, owner, judged):
    System.objects.filter(name="<b>odd</b>").update(name=SCRIPT)
    job = run(queue(owner, [judged])[0])
    Segment.objects.filter(test_set=judged, index=1).update(
        source='<img src=x onerror="alert(2)">'
    )
    client.force_login(owner)
    html = client.get(page_url(job, judged, "comet")).content.decode()
    assert SCRIPT not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the pairs table
    assert "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in html  # a source
    # In the chart's JSON: Plotly shows entities as typed, and json_script
    # escapes the brackets again.
    assert "&amp;lt;script&amp;gt;" not in html
    assert "\\u0026lt;script\\u0026gt;alert(1)" in html
