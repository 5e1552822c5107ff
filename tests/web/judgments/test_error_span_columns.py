"""Human error spans as human scores: after the comparison job, MQM and ESA
are human columns of the leaderboard (the API's ``human.mqm`` and
``human.esa``, with intervals and clusters) and criteria of the
metric-evaluation page, through the machinery every judgment goes through."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.correlations.page import stored_table
from mtdash.judgments.error_spans.imports import import_error_spans
from mtdash.judgments.error_spans.options import SpanImportOptions
from tests.web.judgments.span_world import (
    ESA_LINES,
    ESA_SYSTEMS,
    METRIC,
    METRIC_LINES,
    MQM_SYSTEMS,
    OUTPUTS,
    jsonl,
    mqm_tsv,
)
from tests.web.judgments.test_correlations_support import SETTINGS

pytestmark = pytest.mark.django_db


@pytest.fixture
def compared(test_set, owner, settings):
    """Scored outputs, MQM, ESA and a metric's spans imported, then the
    comparison job's service run as the worker runs it."""
    settings.MTDASH_COMPARISON_SEED = SETTINGS.seed
    settings.MTDASH_COMPARISON_SAMPLES = SETTINGS.n_samples
    for system, hypotheses in OUTPUTS.items():
        job = create_system_output(
            test_set, owner, system, hypotheses, metrics=["bleu", "chrf"], queue=False
        )
        run_scoring_job(job.pk)
    import_error_spans(test_set, owner, mqm_tsv(), "mqm.tsv")
    import_error_spans(test_set, owner, jsonl(ESA_LINES), "esa.jsonl")
    options = SpanImportOptions.from_fields(source=METRIC)
    import_error_spans(test_set, owner, jsonl(METRIC_LINES), "x.jsonl", options)
    compare_test_set(test_set, options=SETTINGS)
    return test_set


def test_the_leaderboard_json_has_mqm_and_esa_human_columns(client, owner, compared):
    client.force_login(owner)
    board = client.get(f"/api/v1/test-sets/{compared.pk}/leaderboard").json()

    systems = {s["system"]: s for s in board["systems"]}
    for name, expected in MQM_SYSTEMS.items():
        mqm = systems[name]["human"]["mqm"]
        # As given: the mean is the file's official average, the interval
        # is around it, on the same scale (no per-rater z).
        assert mqm["mean"] == pytest.approx(expected, abs=1e-9)
        assert mqm["z"] == pytest.approx(expected, abs=1e-9)
        assert mqm["ci_low"] <= mqm["mean"] <= mqm["ci_high"]
        assert mqm["judged_segments"] == 3 and mqm["judgments"] == 6
        assert mqm["cluster"] is not None
    assert systems["gamma"]["human"]["mqm"]["ci_low"] < -1.0  # it has errors
    for name, expected in ESA_SYSTEMS.items():
        esa = systems[name]["human"]["esa"]
        assert esa["mean"] == pytest.approx(expected, abs=1e-9)
        assert esa["ci_low"] <= esa["z"] <= esa["ci_high"]
    assert "esa" not in systems["gamma"]["human"]  # ESA judged alpha and beta
    significance = board["human_significance"]
    assert significance["mqm"]["score"] == "raw mean"
    assert significance["mqm"]["sources"] == "mqm.tsv"
    assert significance["esa"]["score"] == "z"  # per-annotator z, as DA
    assert significance["mqm"]["n_samples"] == SETTINGS.n_samples


def test_the_metric_evaluation_page_correlates_metrics_with_mqm_and_esa(
    client, owner, compared
):
    table = stored_table(compared, "system", "pearson")
    assert sorted(c["criterion"] for c in table["criteria"]) == ["esa", "mqm"]
    mqm = next(c for c in table["criteria"] if c["criterion"] == "mqm")
    assert {cell["metric"] for cell in mqm["cells"]} == {"bleu", "chrf"}
    client.force_login(owner)
    html = client.get(reverse("test_set_correlations", args=[compared.pk])).content
    assert b'data-criterion="mqm"' in html and b'data-criterion="esa"' in html
    # A metric's spans are not a criterion: no judgments of xcomet-xl.
    assert METRIC.encode() not in html.split(b"<table")[1]
