"""``python manage.py bench_pages`` on a tiny leaderboard: it builds, times
and lists every page (no timing asserts: this machine's load is not ours)."""

from __future__ import annotations

import json
from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from mtdash.bench.build import METRIC_SPECS, BenchSize, build_bench
from mtdash.bench.pages import PAGES
from mtdash.evaluation.models import (
    CorpusScore,
    MetricComparison,
    TestSet,
    TestSetAnalysis,
)
from mtdash.evaluation.services.statistics_store import unpack_statistics
from mtdash.judgments.models import MetaEvaluation
from scoring import get_metric

TINY = ["--systems", "3", "--metrics", "2", "--segments", "20", "--requests", "2"]
# The judged test set: 3 systems x 20 segments, 2 registered + 1 external metric.
JUDGED = ["--judged-systems", "3", "--judged-segments", "20", "--judged-metrics", "3"]
TINY += JUDGED
# For the tests whose point is not the judged test set's pages nor the
# timings: the same leaderboard, no judged test set, one request per page.
LEAN = [*TINY[:6], "--requests", "1", "--warmups", "0", "--judged-systems", "0"]


def run(*args: str) -> str:
    out = StringIO()
    call_command("bench_pages", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_times_every_page_and_writes_the_figures_as_json(tmp_path):
    report_file = tmp_path / "bench.json"
    output = run("--configured-db", *TINY, "--json", str(report_file))

    table = output[output.index("page ") :]
    for page in PAGES:
        for mode in ("warm", "cold"):
            assert f"{page.label:<23} {mode}" in table, (page.label, mode)
    assert "build: text" in output and "comparison job" in output
    assert "120 segment scores" in output  # 3 systems x 2 metrics x 20

    report = json.loads(report_file.read_text())
    assert [row["page"] for row in report["pages"][::2]] == [p.label for p in PAGES]
    leaderboard = report["pages"][0]
    assert leaderboard["status"] == 200
    assert len(leaderboard["times_ms"]) == 2
    assert leaderboard["median_ms"] > 0
    # The comparison job ran: the leaderboard has intervals to show.
    assert MetricComparison.objects.count() == 2
    # The judged test set: its correlations computed and every page served.
    judged = report["judged"]
    assert judged["size"]["metrics"] == 3 and judged["correlation_job_seconds"] > 0
    assert "correlation job:" in output and "sentence:kendall" in output
    analysis = TestSetAnalysis.objects.get(kind="correlations")
    assert analysis.data["complete"]
    table = analysis.data["tables"]["system:pearson"]
    assert len(table["metrics"]) == 3  # bleu, chrf and one external metric
    assert [c["criterion"] for c in table["criteria"]] == ["da", "adequacy", "fluency"]
    correlation_pages = [
        row
        for row in report["pages"]
        if row["page"].startswith(("correlation", "API c"))
    ]
    assert len(correlation_pages) == 10  # 5 pages, warm and cold
    for row in correlation_pages:
        assert row["status"] == 200, row["page"]
        assert row["target_ms"] == 500
    # Its WMT meta-evaluation: stored by the runner, then its pages served.
    assert "meta-evaluation job (da):" in output
    assert judged["meta_evaluation_job_seconds"] > 0
    meta = MetaEvaluation.objects.get()
    assert meta.status == MetaEvaluation.Status.SUCCEEDED
    assert meta.criterion == "da" and meta.result["test_sets"][0]["metrics"]
    meta_pages = {
        (row["page"], row["mode"]): row
        for row in report["pages"]
        if row["page"].startswith("WMT")
    }
    assert len(meta_pages) == 10  # 5 pages (the drill-down too), warm and cold
    for (page, _mode), row in meta_pages.items():
        assert row["status"] == 200, page
        assert row["target_ms"] == 300
    section = meta_pages["WMT section", "warm"]
    assert section["url"].endswith("?criterion=da")
    # The section shows the stored table: the page is larger than without it.
    plain_page = next(row for row in report["pages"] if row["page"] == "correlations")
    assert section["size_bytes"] > plain_page["size_bytes"] + 1000
    assert meta_pages["WMT CSV", "warm"]["url"].endswith(f"/{meta.pk}/export.csv")
    assert meta_pages["WMT LaTeX", "warm"]["url"].endswith(f"/{meta.pk}/export.tex")
    assert meta_pages["WMT across test sets", "warm"]["url"].endswith(f"/{meta.pk}/")


@pytest.mark.django_db
def test_it_refuses_a_database_with_other_data_unless_forced(test_set):
    with pytest.raises(CommandError, match="holds other data"):
        run("--configured-db", *TINY)
    assert "leaderboard" in run("--configured-db", "--force", *LEAN)
    assert TestSet.objects.filter(pk=test_set.pk).exists()


@pytest.mark.django_db
def test_an_unknown_page_to_profile_lists_the_pages():
    with pytest.raises(CommandError, match="pages: leaderboard, system page"):
        run("--configured-db", *TINY, "--profile", "nope")


@pytest.mark.django_db
def test_profiling_a_page_prints_where_its_time_goes():
    output = run("--configured-db", *LEAN, "--profile", "leaderboard:cold")
    assert "profile of leaderboard, cold" in output
    assert "cumulative" in output


@pytest.mark.django_db
def test_stored_scores_equal_what_the_metrics_compute_on_the_stored_text():
    """Systems reuse base systems' statistics rows; the scores must still be
    exactly those of scoring the output's own text."""
    size = BenchSize(segments=30, references=2, systems=4, metrics=4, base_systems=3)
    data = build_bench(size, seed=3, say=lambda text: None)
    output = data.test_set.outputs.get(pk=data.output_ids[2])
    references = data.test_set.reference_streams()
    for spec in METRIC_SPECS[: size.metrics]:
        stored = CorpusScore.objects.get(output=output, metric=spec)
        result = get_metric(spec).score(output.hypotheses(), references, sentence=True)
        assert stored.score == pytest.approx(result.score, abs=1e-9), spec
        assert stored.signature == result.signature
        assert np.array_equal(unpack_statistics(stored.statistics), result.statistics)
        sentence_scores = list(
            stored.segment_scores.order_by("index").values_list("score", flat=True)
        )
        assert sentence_scores == pytest.approx(result.sentence_scores, abs=1e-9)


@pytest.mark.django_db(transaction=True)
def test_by_default_it_uses_a_throwaway_sqlite_file(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    output = run(*LEAN)
    assert f"benchmark database: {tmp_path / 'bench.sqlite3'}" in output
    assert "leaderboard             warm" in output
    assert (tmp_path / "bench.sqlite3").stat().st_size > 0
    assert not TestSet.objects.exists()  # the configured database is untouched
