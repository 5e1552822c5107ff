"""The meta-evaluation pages: the section of a test set's metric-evaluation
page (the settings form, the job's progress, the table with its clusters and
ORANGE beside), the pages across test sets, exports, and who may see them."""

from __future__ import annotations

import csv
import io
import re

import pandas as pd
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from mtdash.evaluation.models import SystemOutput
from mtdash.judgments.correlations.inputs import inputs_digest
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.meta_evaluation.page import job_tables, shade
from mtdash.judgments.models import Criterion, JudgmentImport, MetaEvaluation
from tests.web.judgments.meta_evaluation_support import (
    another_test_set,
    judge,
    queue,
    run,
)

FORM = {
    "criterion": "adequacy",
    "permutations": "200",
    "seed": "1",
    "group_by": "item",
    "tie_calibration": "on",
    "kendall_variant": "23",
}


@pytest.fixture
def judged(test_set, owner):
    return judge(test_set, owner)


def correlations_page(client, test_set, **query) -> str:
    url = reverse("test_set_correlations", args=[test_set.pk])
    response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def section(html: str) -> str:
    start = html.index('id="meta-evaluation"')
    return html[start : html.index("</section>", html.index('id="meta-form"'))]


def table_cells(html: str, table_id: str) -> dict[str, list[tuple[int, int, str]]]:
    """metric -> [(shade, cluster, value)] of a meta-evaluation table."""
    table = html[html.index(f'id="{table_id}"') :]
    table = table[: table.index("</table>")]
    rows = {}
    for metric, body in re.findall(
        r'<tr data-metric="([^"]*)">(.*?)</tr>', table, re.S
    ):
        rows[metric] = [
            (int(s), int(c), v)
            for s, c, v in re.findall(
                r'meta-cell shade-(\d)" data-cluster="(\d+)".*?'
                r'<span class="value">([^<]*)</span>',
                body,
                re.S,
            )
        ]
    return rows


@pytest.mark.django_db
def test_the_section_offers_the_settings_until_a_job_runs(client, member, judged):
    client.force_login(member)
    html = section(correlations_page(client, judged))
    assert "WMT meta-evaluation" in html
    assert 'id="meta-none"' in html
    action = reverse("test_set_meta_evaluation", args=[judged.pk])
    assert f'action="{action}"' in html and "csrfmiddlewaretoken" in html
    for name in ("permutations", "seed", "group_by", "tie_calibration"):
        assert f'name="{name}"' in html, name
    assert 'name="kendall_variant"' in html
    assert 'value="1000"' in html  # WMT's default number of permutations
    # One switch per judged criterion.
    assert "criterion=adequacy#meta-evaluation" in html
    assert "criterion=fluency#meta-evaluation" in html


@pytest.mark.django_db
def test_the_form_queues_a_job_and_the_page_follows_its_progress(
    client, member, judged
):
    client.force_login(member)
    url = reverse("test_set_meta_evaluation", args=[judged.pk])
    response = client.post(url, {**FORM, "criterion": "fluency", "seed": "7"})
    page_url = reverse("test_set_correlations", args=[judged.pk])
    assert response.status_code == 302
    assert response["Location"] == f"{page_url}?criterion=fluency#meta-evaluation"
    job = MetaEvaluation.objects.get()
    assert (job.criterion, job.created_by, job.team) == ("fluency", member, judged.team)
    assert job.protocol_settings["seed"] == 7
    assert job.protocol_settings["permutations"] == 200
    html = section(correlations_page(client, judged, criterion="fluency"))
    status = reverse("meta_evaluation_status", args=[job.pk])
    assert f'data-status-url="{status}"' in html
    assert 'class="job-progress"' in html and 'id="meta-table"' not in html
    assert client.get(status).json()["status"] == "queued"
    # The form starts from the waiting job's settings.
    assert 'name="seed" value="7"' in html
    # Asking again: the same waiting job.
    client.post(url, {**FORM, "criterion": "fluency", "seed": "7"})
    assert MetaEvaluation.objects.count() == 1
    run(job)
    assert client.get(status).json()["status"] == "succeeded"
    html = section(correlations_page(client, judged, criterion="fluency"))
    assert 'id="meta-table"' in html and "data-status-url" not in html
    assert "seed 7" in html and "200 permutations" in html  # the settings used


@pytest.mark.django_db
def test_the_table_shows_each_task_with_its_clusters_shaded(client, member, judged):
    job = run(queue(member, [judged])[0])
    client.force_login(member)
    html = section(correlations_page(client, judged))
    cells = table_cells(html, "meta-table")
    assert set(cells) == {"bleu", "chrf", "ter", "comet"}
    tables = job_tables(job).tables[0]
    headers = re.findall(r'data-task="([^"]+)"', html)
    assert headers == [column.task for column in tables.columns]
    for task_index, task in enumerate(job.result["test_sets"][0]["tasks"]):
        n_clusters = max(cell["cluster"] for cell in task["cells"])
        for cell in task["cells"]:
            shown = cells[cell["metric"]][task_index]
            assert shown == (
                shade(cell["cluster"], n_clusters),
                cell["cluster"],
                f"{cell['coefficient']:.3f}",
            )
    # The top cluster is the darkest shade; acc_eq shows its epsilon.
    assert all(cells[m][0][0] == 5 for m in cells if cells[m][0][1] == 1)
    assert "ε = " in html
    assert "Kendall τ_23" in html and "acc_eq" in html and "SPA" in html
    assert '<span class="negated" title="an error rate, negated">−</span>ter' in html
    export = reverse("meta_evaluation_export", args=[job.pk, "csv"])
    assert f'href="{export}"' in html


@pytest.mark.django_db
def test_the_section_says_when_the_judgments_in_use_changed(client, member, judged):
    run(queue(member, [judged])[0])
    client.force_login(member)

    def stale() -> bool:
        return 'id="meta-stale"' in section(correlations_page(client, judged))

    assert not stale()
    adequacy = Criterion.objects.get(test_set=judged, name="adequacy")
    # Leaving out a source without judgments keeps the same judgments: the
    # digest read with each judgment's source checked is the one read without.
    empty = JudgmentImport.objects.create(
        test_set=judged, file_name="empty.csv", layout="csv"
    )
    adequacy.left_out.add(empty)
    assert not stale()
    imported = JudgmentImport.objects.get(test_set=judged, file_name="judgments.csv")
    adequacy.left_out.add(imported)
    assert stale()
    adequacy.left_out.remove(imported, empty)
    assert not stale()


@pytest.mark.django_db
def test_the_digest_checks_each_judgments_source_only_when_one_is_left_out(
    judged,
):
    def digest_queries() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            inputs_digest(judged, visible_outputs(judged), "wmt-protocol")
        return [query["sql"] for query in queries]

    assert not any("EXISTS" in sql for sql in digest_queries())
    imported = JudgmentImport.objects.get(test_set=judged, file_name="judgments.csv")
    Criterion.objects.get(test_set=judged, name="fluency").left_out.add(imported)
    assert any("EXISTS" in sql for sql in digest_queries())


@pytest.mark.django_db
def test_orange_figures_of_the_same_metric_sit_beside(
    client, member, judged, monkeypatch
):
    run(queue(member, [judged])[0])
    summary = [
        {
            "job_id": 7,
            "nbest": "toy 100-best",
            "url": "/orange/jobs/7/",
            "metrics": [
                {
                    "metric": "chrf",
                    "label": "chrf",
                    "orange": 13.25,
                    "orange_ci_low": 11.0,
                    "orange_ci_high": 15.0,
                    "avg_rank": 3.4,
                    "best": False,
                    "equivalent": True,
                }
            ],
        }
    ]
    monkeypatch.setattr(
        "mtdash.judgments.correlations.views.orange_summary", lambda test_set: summary
    )
    client.force_login(member)
    html = section(correlations_page(client, judged))
    assert "ORANGE %" in html
    chrf = html[html.index('<tr data-metric="chrf">') :]
    chrf = chrf[: chrf.index("</tr>")]
    assert '<a href="/orange/jobs/7/"' in chrf and ">13.25</a>" in chrf
    bleu = html[html.index('<tr data-metric="bleu">') :]
    assert (
        bleu[: bleu.index("</tr>")]
        .rstrip()
        .endswith('<td class="num orange-column">–</td>')
    )


@pytest.mark.django_db
def test_names_are_escaped_everywhere(client, owner, team):
    judged = another_test_set(team, owner, name="<script>x</script>")
    job = run(queue(owner, [judged])[0])
    client.force_login(owner)
    pages = [
        client.get(job.get_absolute_url()).content.decode(),
        client.get(reverse("meta_evaluation_list")).content.decode(),
        section(correlations_page(client, judged)),
    ]
    for html in pages:
        assert "<script>x</script>" not in html and "<b>odd</b>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in pages[0]
    latex = client.get(reverse("meta_evaluation_export", args=[job.pk, "tex"]))
    assert r"\textless{}script\textgreater{}x\textless{}/script\textgreater{}" in (
        latex.content.decode()
    )


@pytest.mark.django_db
def test_csv_export_reads_in_pandas_with_every_stored_cell(client, member, judged):
    job = run(queue(member, [judged])[0])
    client.force_login(member)
    response = client.get(reverse("meta_evaluation_export", args=[job.pk, "csv"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    frame = pd.read_csv(io.StringIO(text))
    assert len(frame) == 6 * 4  # tasks x metrics
    assert set(frame["table"]) == {"toy fr-en"}
    for task in job.result["test_sets"][0]["tasks"]:
        for cell in task["cells"]:
            row = frame[
                (frame["task"] == task["task"]) & (frame["metric"] == cell["metric"])
            ]
            assert len(row) == 1
            assert row["coefficient"].iloc[0] == pytest.approx(
                cell["coefficient"], rel=1e-12
            )
            assert int(row["cluster"].iloc[0]) == cell["cluster"]
    assert set(frame["permutations"]) == {200}
    assert list(frame[frame["metric"] == "ter"]["negated"].unique()) == [True]
    assert next(csv.reader(io.StringIO(text)))[0] == "table"


@pytest.mark.django_db
def test_latex_export_is_booktabs_with_the_clusters_marked(client, member, judged):
    job = run(queue(member, [judged])[0])
    client.force_login(member)
    response = client.get(reverse("meta_evaluation_export", args=[job.pk, "tex"]))
    tex = response.content.decode()
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    assert r"\begin{tabular}{lrrrrrr}" in tex
    assert r"Seg.\ $\tau_{23}$" in tex and r"Sys.\ SPA" in tex
    assert "toy fr-en" in tex
    # Every value with its cluster; the top cluster in bold.
    block = job.result["test_sets"][0]["tasks"][0]["cells"][0]
    assert rf"\textbf{{{block['coefficient']:.3f}}} (1)" in tex
    assert "ter ($-$)" in tex


@pytest.mark.django_db
def test_exports_wait_for_the_job(client, member, judged):
    job, _ = queue(member, [judged])
    client.force_login(member)
    response = client.get(reverse("meta_evaluation_export", args=[job.pk, "csv"]))
    assert response.status_code == 202


@pytest.mark.django_db
def test_a_failed_job_shows_why_and_runs_again(client, member, judged):
    SystemOutput.objects.filter(
        test_set=judged, system__name__in=["good", "fair"]
    ).update(hidden=True)
    job = run(queue(member, [judged])[0])
    client.force_login(member)
    html = section(correlations_page(client, judged))
    assert "at least 3 needed" in html
    retry = reverse("meta_evaluation_retry", args=[job.pk])
    assert f'action="{retry}"' in html
    response = client.post(retry)
    again = MetaEvaluation.objects.exclude(pk=job.pk).get()
    assert (
        response.status_code == 302 and response["Location"] == again.get_absolute_url()
    )
    assert again.status == "queued" and again.protocol_settings == job.protocol_settings
    # A job that did not fail cannot run again.
    response = client.post(reverse("meta_evaluation_retry", args=[again.pk]))
    assert MetaEvaluation.objects.count() == 2


@pytest.mark.django_db
def test_across_test_sets_the_form_queues_a_pooled_job(client, owner, team, judged):
    second = another_test_set(team, owner)
    client.force_login(owner)
    listing = reverse("meta_evaluation_list")
    html = client.get(listing).content.decode()
    assert f'value="{judged.pk}"' in html and f'value="{second.pk}"' in html
    assert f'name="weight_{judged.pk}"' in html
    response = client.post(
        listing,
        {
            **FORM,
            "test_sets": [judged.pk, second.pk],
            f"weight_{judged.pk}": "2",
            f"weight_{second.pk}": "",
        },
    )
    job = MetaEvaluation.objects.get()
    assert (
        response.status_code == 302 and response["Location"] == job.get_absolute_url()
    )
    # In the order of the list (by name), with the weights given (default 1).
    assert job.weights == [
        {"test_set": second.pk, "weight": 1.0},
        {"test_set": judged.pk, "weight": 2.0},
    ]
    detail = client.get(job.get_absolute_url()).content.decode()
    assert "data-status-url" in detail and 'id="meta-overall"' not in detail
    run(job)
    detail = client.get(job.get_absolute_url()).content.decode()
    assert 'id="meta-overall-table"' in detail
    overall = re.findall(
        r'<tr data-metric="([^"]*)"><th scope="row" class="metric-name">[^<]*</th>'
        r'<td class="num meta-cell shade-\d" data-cluster="(\d+)">',
        detail,
    )
    assert overall == [
        (cell["metric"], str(cell["cluster"]))
        for cell in job.result["overall"]["cells"]
    ]
    assert f'id="meta-table-{judged.pk}"' in detail
    assert f'id="meta-table-{second.pk}"' in detail
    assert "toy de-en 0.333" in detail and "toy fr-en 0.667" in detail  # shares
    frame = pd.read_csv(
        io.StringIO(
            client.get(
                reverse("meta_evaluation_export", args=[job.pk, "csv"])
            ).content.decode()
        )
    )
    assert set(frame["table"]) == {"overall", "toy fr-en", "toy de-en"}
    tex = client.get(
        reverse("meta_evaluation_export", args=[job.pk, "tex"])
    ).content.decode()
    assert tex.count(r"\begin{table}") == 3 and "Overall ranking" in tex
    # The listing shows it.
    assert f'href="{job.get_absolute_url()}"' in client.get(listing).content.decode()
    # A pooled result is not the test set's own on its metric-evaluation page.
    assert 'id="meta-none"' in section(correlations_page(client, judged))


@pytest.mark.django_db
def test_across_test_sets_a_criterion_missing_from_one_is_refused(
    client, owner, team, judged
):
    second = another_test_set(team, owner)
    second.criteria.filter(name="fluency").delete()
    client.force_login(owner)
    response = client.post(
        reverse("meta_evaluation_list"),
        {**FORM, "criterion": "fluency", "test_sets": [judged.pk, second.pk]},
    )
    assert response.status_code == 400
    assert "&#x27;toy de-en&#x27; has no judgments of &#x27;fluency&#x27;" in (
        response.content.decode()
    )
    assert not MetaEvaluation.objects.exists()


@pytest.mark.django_db
def test_another_team_sees_nothing(client, owner, outsider, judged):
    job = run(queue(owner, [judged])[0])
    client.force_login(outsider)
    for name in ("meta_evaluation_detail", "meta_evaluation_status"):
        assert client.get(reverse(name, args=[job.pk])).status_code == 404, name
    export = reverse("meta_evaluation_export", args=[job.pk, "csv"])
    assert client.get(export).status_code == 404
    assert (
        client.post(reverse("meta_evaluation_retry", args=[job.pk])).status_code == 404
    )
    queue_url = reverse("test_set_meta_evaluation", args=[judged.pk])
    assert client.post(queue_url, FORM).status_code == 404
    listing = client.get(reverse("meta_evaluation_list")).content.decode()
    assert job.get_absolute_url() not in listing and "toy fr-en" not in listing
    response = client.post(
        reverse("meta_evaluation_list"), {**FORM, "test_sets": [judged.pk]}
    )
    assert response.status_code == 400  # not a choice of theirs


@pytest.mark.django_db
def test_login_and_csrf_are_required(client, member, judged):
    job = run(queue(member, [judged])[0])
    for url in (reverse("meta_evaluation_list"), job.get_absolute_url()):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response["Location"]
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(member)
    queue_url = reverse("test_set_meta_evaluation", args=[judged.pk])
    assert strict.post(queue_url, FORM).status_code == 403
    assert client.get(queue_url).status_code in (302, 405)


@pytest.mark.django_db
def test_the_navigation_links_the_page(client, member):
    client.force_login(member)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("meta_evaluation_list")}">Meta-evaluation</a>' in html
