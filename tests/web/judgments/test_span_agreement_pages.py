"""The "Error spans" section of the metric-evaluation page (the form, the
job's progress or failure, the table of the chosen variant and averaging
with its per-system rows), its exports read back, escaping of metric names,
and who may see them."""

from __future__ import annotations

import csv
import io
import re

import pandas as pd
import pytest
from django.urls import reverse

from mtdash.judgments.error_spans.agreement_exports import CSV_HEADER
from mtdash.judgments.models import (
    ErrorSpan,
    ErrorSpanAnnotation,
    ErrorSpanEvaluation,
    JudgmentImport,
)
from tests.web.judgments.span_agreement_support import (
    JUDGE,
    JUDGE_LINES,
    annotate,
    computed,
    import_metric,
    queue,
    run,
)
from tests.web.judgments.span_world import METRIC, METRIC_LINES

pytestmark = pytest.mark.django_db
FORM = {"bootstrap": "200", "seed": "7"}


@pytest.fixture
def annotated(test_set, owner):
    return annotate(test_set, owner)


def page(client, test_set, **query) -> str:
    response = client.get(reverse("test_set_correlations", args=[test_set.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def section(html: str) -> str:
    start = html.index('id="error-spans"')
    return html[start : html.index("</section>", html.index('id="span-form"'))]


def data_rows(text: str) -> list[dict[str, str]]:
    """A CSV export's rows, read by the csv module past its # lines."""
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def figures_of(job, metric: str, variant="mpp", average="micro") -> dict:
    (entry,) = [m for m in job.result["metrics"] if m["metric"] == metric]
    (result,) = [
        r
        for r in entry["results"]
        if (r["variant"], r["average"]) == (variant, average)
    ]
    return result


def overall_cells(html: str) -> dict[str, list[str]]:
    """metric -> the P, R, F1 values shown in the section's main table."""
    table = html[html.index('id="span-agreement-table"') :]
    table = table[: table.index("</table>")]
    return {
        metric: re.findall(r'<span class="value">([^<]*)</span>', body)
        for metric, body in re.findall(
            r'<tr data-metric="([^"]*)">(.*?)</tr>', table, re.S
        )
    }


def test_there_is_no_section_without_a_metrics_spans(client, owner, test_set):
    annotate(test_set, owner, metrics=False)
    client.force_login(owner)
    assert 'id="error-spans"' not in page(client, test_set)


def test_spans_of_an_import_that_names_no_source_are_no_metrics(
    client, owner, test_set
):
    """A batch with annotations but no ``span_source`` (a campaign's, say)
    does not make the section appear."""
    annotate(test_set, owner, metrics=False)
    JudgmentImport.objects.create(
        test_set=test_set, file_name="campaign", layout="campaign", n_annotations=3
    )
    client.force_login(owner)
    assert 'id="error-spans"' not in page(client, test_set)


def test_the_section_offers_the_settings_until_a_job_runs(client, member, annotated):
    client.force_login(member)
    html = section(page(client, annotated))
    assert "Error spans" in html and 'id="span-none"' in html
    assert 'id="span_bootstrap"' in html and 'value="1000"' in html
    assert 'id="span_seed"' in html
    assert 'id="span-variant-mpp" title="partial overlap, partial credit"' in html
    assert 'class="active" aria-current="true">mpp<' in html
    assert 'class="active" aria-current="true">micro<' in html


def test_the_form_queues_a_job_and_returns_to_the_section(client, owner, annotated):
    client.force_login(owner)
    url = reverse("error_span_agreement_run", args=[annotated.pk])
    response = client.post(url, {**FORM, "span_variant": "em", "span_average": "macro"})
    assert response.status_code == 302
    assert response["Location"].endswith(
        "?span_variant=em&span_average=macro#error-spans"
    )
    job = ErrorSpanEvaluation.objects.get()
    assert (job.n_samples, job.seed, job.status) == (200, 7, "queued")
    assert job.created_by == owner
    html = section(page(client, annotated))
    assert f'id="span-job-{job.pk}"' in html and "job-progress" in html
    assert reverse("error_span_evaluation_status", args=[job.pk]) in html
    assert "js/job_progress" in page(client, annotated)
    # Asking again for the same settings on the same spans: the same job.
    client.post(url, FORM)
    assert ErrorSpanEvaluation.objects.count() == 1


def test_settings_out_of_range_are_refused_with_the_field(client, owner, annotated):
    client.force_login(owner)
    url = reverse("error_span_agreement_run", args=[annotated.pk])
    response = client.post(url, {"bootstrap": "10001", "seed": "1"}, follow=True)
    text = response.content.decode()
    assert "Could not queue it: bootstrap:" in text
    assert not ErrorSpanEvaluation.objects.exists()


def test_the_table_shows_the_stored_figures_of_the_chosen_view(
    client, member, annotated
):
    job = computed(annotated)
    client.force_login(member)
    html = section(page(client, annotated))
    assert 'id="span-none"' not in html
    shown = overall_cells(html)
    assert list(shown) == [JUDGE, METRIC]
    for metric, values in shown.items():
        overall = figures_of(job, metric)["overall"]
        assert values == [
            f"{overall[name]:.3f}" for name in ("precision", "recall", "f1")
        ]
    low, high = figures_of(job, JUDGE)["overall"]["intervals"]["f1"]
    assert f"[{low:.3f}, {high:.3f}]" in html
    assert "200 bootstrap resamples of segments" in html and "seed 7" in html
    assert "gold: first annotator by name" in html
    # Per system, behind a details element.
    details = html[html.index(f'<details class="span-systems" data-metric="{JUDGE}"') :]
    details = details[: details.index("</details>")]
    systems = figures_of(job, JUDGE)["systems"]
    assert re.findall(r'data-system="([^"]*)"', details) == sorted(systems)
    f1 = systems["gamma"]["f1"]
    assert (
        f'<td class="num span-cell" data-figure="f1"><span class="value">{f1:.3f}'
        in (details)
    )
    # Another variant and averaging.
    html = section(page(client, annotated, span_variant="em", span_average="macro"))
    assert 'data-variant="em" data-average="macro"' in html
    overall = figures_of(job, JUDGE, "em", "macro")["overall"]
    assert overall_cells(html)[JUDGE][2] == f"{overall['f1']:.3f}"
    # An unknown choice falls back to micro mpp.
    html = section(page(client, annotated, span_variant="x", span_average="y"))
    assert 'data-variant="mpp" data-average="micro"' in html


def test_a_result_shows_stale_after_an_import(client, owner, test_set):
    annotate(test_set, owner, metrics=False)
    import_metric(test_set, owner, JUDGE, JUDGE_LINES)
    computed(test_set)
    client.force_login(owner)
    assert 'id="span-stale"' not in page(client, test_set)
    import_metric(test_set, owner, METRIC, METRIC_LINES)
    assert 'id="span-stale"' in page(client, test_set)


def test_a_failed_job_shows_its_message_and_runs_again(client, owner, annotated):
    job, _ = queue(annotated)
    ErrorSpanEvaluation.objects.filter(pk=job.pk).fail("no metric could be evaluated")
    client.force_login(owner)
    html = section(page(client, annotated))
    assert '<p class="error span-error">no metric could be evaluated</p>' in html
    assert 'name="bootstrap" value="200"' in html and 'name="seed" value="7"' in html
    client.post(reverse("error_span_agreement_run", args=[annotated.pk]), FORM)
    assert ErrorSpanEvaluation.objects.exclude(pk=job.pk).get().status == "queued"


def test_the_csv_export_reads_back_every_figure(client, member, annotated):
    job = computed(annotated)
    client.force_login(member)
    response = client.get(
        reverse("error_span_agreement_export", args=[annotated.pk, "csv"])
    )
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    rows = data_rows(text)
    assert list(rows[0]) == CSV_HEADER
    n_systems = 3
    assert len(rows) == 2 * 4 * 2 * (1 + n_systems)  # metrics, variants, averages
    for row in rows:
        result = figures_of(job, row["metric"], row["variant"], row["average"])
        figures = (
            result["overall"]
            if row["level"] == "overall"
            else result["systems"][row["system"]]
        )
        for name in ("precision", "recall", "f1"):
            assert float(row[name]) == figures[name]
            low, high = figures["intervals"][name]
            assert (float(row[f"{name}_low"]), float(row[f"{name}_high"])) == (
                low,
                high,
            )
        assert int(row["segments"]) == figures["segments"]
        assert (row["bootstrap"], row["seed"], row["confidence"]) == (
            "200",
            "7",
            "0.95",
        )
    assert text.startswith("# span-level meta-evaluation of test set toy fr-en")
    assert "200 bootstrap resamples" in text
    frame = pd.read_csv(io.StringIO(text), comment="#")
    assert frame.shape == (len(rows), len(CSV_HEADER))
    assert str(frame["f1"].dtype) == "float64" and frame["f1"].notna().all()


def test_the_latex_export_is_the_chosen_table(client, member, annotated):
    job = computed(annotated)
    client.force_login(member)
    url = reverse("error_span_agreement_export", args=[annotated.pk, "tex"])
    response = client.get(url, {"span_variant": "w25", "span_average": "micro"})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('-w25-micro.tex"')
    text = response.content.decode()
    overall = figures_of(job, JUDGE, "w25", "micro")["overall"]
    low, high = overall["intervals"]["f1"]
    assert (
        f"{JUDGE} & {overall['precision']:.3f}" in text
        and f"{overall['f1']:.3f} {{\\footnotesize [{low:.3f}, {high:.3f}]}}" in text
    )
    assert r"\begin{tabular}{lrrrr}" in text and r"\bottomrule" in text
    assert "WMT25 severity-aware" in text and r"95\% percentile bootstrap" in text
    assert text.count("&") == 4 * 3  # header and two metrics, 4 separators each


def test_an_export_without_a_stored_result_is_404(client, member, annotated):
    client.force_login(member)
    url = reverse("error_span_agreement_export", args=[annotated.pk, "csv"])
    assert client.get(url).status_code == 404


def test_metric_names_are_escaped_in_the_page_and_the_exports(client, owner, annotated):
    hostile = '=cmd|<script>alert("x")</script>_50% & co'
    batch = JudgmentImport.objects.create(
        test_set=annotated,
        file_name="hostile.jsonl",
        layout="spans-jsonl",
        span_source=hostile,
        n_annotations=1,
        n_spans=1,
    )
    output = annotated.outputs.get(system__name="beta")
    annotation = ErrorSpanAnnotation.objects.create(
        output=output, index=0, annotator=hostile, kind="metric", batch=batch, line=1
    )
    ErrorSpan.objects.create(annotation=annotation, start=8, end=12, severity="major")
    job = computed(annotated)
    assert hostile in [m["metric"] for m in job.result["metrics"]]
    client.force_login(owner)
    html = page(client, annotated)
    assert "<script>alert" not in html
    assert "=cmd|&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;_50% &amp; co" in html
    export = reverse("error_span_agreement_export", args=[annotated.pk, "csv"])
    text = client.get(export).content.decode()
    rows = data_rows(text)
    assert {row["metric"] for row in rows} >= {"'" + hostile}  # a formula no more
    export = reverse("error_span_agreement_export", args=[annotated.pk, "tex"])
    tex = client.get(export).content.decode()
    escaped = (
        r'=cmd\textbar{}\textless{}script\textgreater{}alert("x")'
        r"\textless{}/script\textgreater{}\_50\% \& co & "
    )
    assert escaped in tex


def test_another_team_gets_404_everywhere(client, outsider, annotated):
    job = computed(annotated)
    client.force_login(outsider)
    urls = [
        reverse("test_set_correlations", args=[annotated.pk]),
        reverse("error_span_agreement_export", args=[annotated.pk, "csv"]),
        reverse("error_span_agreement_export", args=[annotated.pk, "tex"]),
        reverse("error_span_evaluation_status", args=[job.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404, url
    run_url = reverse("error_span_agreement_run", args=[annotated.pk])
    assert client.post(run_url, FORM).status_code == 404
    assert ErrorSpanEvaluation.objects.count() == 1


def test_the_status_json_follows_the_job(client, member, annotated):
    job, _ = queue(annotated)
    client.force_login(member)
    url = reverse("error_span_evaluation_status", args=[job.pk])
    data = client.get(url).json()
    assert (data["status"], data["progress"], data["finished"]) == ("queued", 0, False)
    run(job)
    data = client.get(url).json()
    assert (data["status"], data["progress"], data["finished"]) == (
        "succeeded",
        100,
        True,
    )
