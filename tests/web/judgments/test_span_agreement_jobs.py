"""The span-level meta-evaluation job: what it reads (the stored human and
metric spans of the visible outputs), what it stores (``evaluate_spans`` of
the library, and what ``python -m scoring spans --json`` prints for files
written from the stored rows), its progress, asking twice, changed spans,
refusals and failures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtdash.common.sweeper import job_models
from mtdash.evaluation.models import SystemOutput
from mtdash.judgments.error_spans.agreement_jobs import (
    evaluate,
    is_stale,
    read_spans,
    run_span_evaluation,
)
from mtdash.judgments.error_spans.agreement_options import AgreementSettings
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.meta_evaluation.inputs import visible_outputs
from mtdash.judgments.meta_evaluation.jobs import RequestProblem
from mtdash.judgments.models import ErrorSpanEvaluation, JudgmentImport
from scoring.spans import parse_mqm_tsv, parse_spans_jsonl, write_spans_jsonl
from scoring.stats.span_agreement import AVERAGES, evaluate_spans
from scoring.stats.span_matching import VARIANTS
from tests.web.judgments.span_agreement_support import (
    FAST,
    JUDGE,
    JUDGE_LINES,
    annotate,
    assert_close,
    import_metric,
    queue,
    run,
)
from tests.web.judgments.span_world import (
    ESA_LINES,
    METRIC,
    METRIC_LINES,
    annotated_outputs,
    jsonl,
    mqm_tsv,
)

pytestmark = pytest.mark.django_db
PROJECT_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def annotated(test_set, owner):
    return annotate(test_set, owner)


def library_figures(settings=FAST) -> list[dict]:
    """``evaluate_spans`` on the imported files themselves, metrics by name."""
    human = parse_mqm_tsv(mqm_tsv(), "mqm.tsv").annotations
    metrics = {
        METRIC: parse_spans_jsonl(jsonl(METRIC_LINES), "m.jsonl").annotations,
        JUDGE: parse_spans_jsonl(jsonl(JUDGE_LINES), "j.jsonl").annotations,
    }
    return [
        evaluate_spans(
            human,
            metrics[name],
            variants=VARIANTS,
            averages=AVERAGES,
            n_samples=settings.n_samples,
            seed=settings.seed,
        ).to_dict()
        for name in sorted(metrics)
    ]


def test_the_stored_figures_are_evaluate_spans_on_the_imported_spans(owner, annotated):
    job, created = queue(annotated, owner)
    assert created and job.status == "queued"
    job = run(job)
    assert job.status == "succeeded", job.error_message
    assert job.progress == 100
    result = job.result
    assert [m["metric"] for m in result["metrics"]] == [JUDGE, METRIC]
    assert_close(result["metrics"], library_figures())
    assert result["variants"] == ["em", "mp", "mpp", "w25"]
    assert result["averages"] == ["micro", "macro"]
    assert result["metrics_failed"] == []
    human = result["human"]
    assert (human["file"], human["format"], human["kind"]) == (
        "mqm.tsv",
        "mqm-tsv",
        "human",
    )
    assert (human["annotations"], human["spans"], human["systems"]) == (18, 10, 3)
    assert human["annotators"] == ["r1", "r2"]
    assert [(f["file"], f["annotators"]) for f in result["metric_files"]] == [
        (f"{JUDGE}.jsonl", [JUDGE]),
        (f"{METRIC}.jsonl", [METRIC]),
    ]
    # Seeded: every interval present, the point inside it.
    (mpp,) = [
        r
        for r in result["metrics"][0]["results"]
        if (r["variant"], r["average"]) == ("mpp", "micro")
    ]
    low, high = mpp["overall"]["intervals"]["f1"]
    assert low <= mpp["overall"]["f1"] <= high
    assert not is_stale(job, visible_outputs(annotated))


def test_the_command_line_prints_the_same_figures_for_files_of_the_stored_rows(
    owner, annotated, tmp_path
):
    job = run(queue(annotated, owner)[0])
    stored = read_spans(visible_outputs(annotated))
    human = tmp_path / "human.jsonl"
    human.write_text(write_spans_jsonl(stored.human), encoding="utf-8")
    command = [sys.executable, "-m", "scoring", "spans", "--human", str(human)]
    for name, predicted in stored.metrics.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(write_spans_jsonl(predicted, "metric"), encoding="utf-8")
        command += ["--metric", str(path)]
    command += ["--variant", "all", "--average", "both", "--bootstrap", "200"]
    command += ["--seed", "7", "--json"]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert_close(job.result["metrics"], printed["metrics"])
    assert printed["variants"] == job.result["variants"]
    assert printed["averages"] == job.result["averages"]
    for key in ("annotations", "spans", "systems", "annotators"):
        assert printed["human"][key] == job.result["human"][key], key


def test_the_progress_is_the_reading_then_each_metric(owner, annotated):
    job, _ = queue(annotated, owner)
    reports: list[int] = []
    evaluate(job, reports.append)
    assert reports == [10, 55, 100]


def test_asking_again_returns_the_stored_or_waiting_job(owner, member, annotated):
    job, created = queue(annotated, owner)
    again, created_again = queue(annotated, member)
    assert created and not created_again and again == job  # waiting
    run(job)
    stored, created = queue(annotated, owner)
    assert not created and stored == job and stored.status == "succeeded"
    other, created = queue(annotated, owner, AgreementSettings(200, seed=8))
    assert created and other != job
    assert ErrorSpanEvaluation.objects.count() == 2


def test_new_spans_or_hidden_outputs_make_the_result_stale(owner, test_set):
    annotate(test_set, owner, metrics=False)
    import_metric(test_set, owner, METRIC, METRIC_LINES)
    job = run(queue(test_set, owner)[0])
    assert [m["metric"] for m in job.result["metrics"]] == [METRIC]
    import_metric(test_set, owner, JUDGE, JUDGE_LINES)
    assert is_stale(job, visible_outputs(test_set))
    newer, created = queue(test_set, owner)
    assert created and newer != job
    run(newer)
    assert not is_stale(newer, visible_outputs(test_set))
    SystemOutput.objects.filter(test_set=test_set, system__name="gamma").update(
        hidden=True
    )
    assert is_stale(newer, visible_outputs(test_set))


def test_a_hidden_output_is_left_out(owner, annotated):
    SystemOutput.objects.filter(test_set=annotated, system__name="gamma").update(
        hidden=True
    )
    job = run(queue(annotated, owner)[0])
    for metric in job.result["metrics"]:
        assert metric["systems"] == ["alpha", "beta"]
    assert job.result["human"]["annotations"] == 12


def test_a_test_set_without_metric_or_human_spans_is_refused(owner, test_set):
    annotate(test_set, owner, metrics=False)
    with pytest.raises(RequestProblem, match="no metric has error spans"):
        queue(test_set, owner)
    JudgmentImport.objects.filter(test_set=test_set).delete()
    import_metric(test_set, owner, METRIC, METRIC_LINES)
    with pytest.raises(RequestProblem, match="no human error spans"):
        queue(test_set, owner)
    assert not ErrorSpanEvaluation.objects.exists()


def test_a_metric_without_a_segment_in_common_is_listed_with_its_problem(
    owner, test_set
):
    annotated_outputs(test_set, owner)
    import_error_spans(test_set, owner, jsonl(ESA_LINES), "esa.jsonl")  # alpha, beta
    import_metric(test_set, owner, JUDGE, JUDGE_LINES)
    gamma_only = [line for line in METRIC_LINES if line["system"] == "gamma"]
    import_metric(test_set, owner, METRIC, gamma_only)
    job = run(queue(test_set, owner)[0])
    assert job.status == "succeeded", job.error_message
    assert [m["metric"] for m in job.result["metrics"]] == [JUDGE]
    (failed,) = job.result["metrics_failed"]
    assert failed["metric"] == METRIC
    assert failed["error"].startswith("no segment has both human spans")


def test_spans_gone_before_the_worker_ran_fail_the_job_with_a_message(owner, annotated):
    job, _ = queue(annotated, owner)
    JudgmentImport.objects.filter(span_source="human").delete()
    job = run(job)
    assert job.status == "failed"
    assert job.error_message == (
        "the test set has no human error spans on its visible outputs "
        "(import MQM or ESA annotations)"
    )
    assert job.result is None


def test_a_job_runs_once_and_the_sweeper_knows_it(owner, annotated):
    job = run(queue(annotated, owner)[0])
    finished = job.finished_at
    assert run_span_evaluation(job.pk) is False
    job.refresh_from_db()
    assert job.finished_at == finished and job.attempts == 1
    assert ErrorSpanEvaluation in job_models()
