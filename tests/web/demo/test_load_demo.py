import pytest
from django.core.management import call_command
from django.urls import reverse

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.make_span_demo import (
    ESA_FILE,
    METRIC,
    METRIC_FILE,
    MQM_FILE,
    SEGMENTS,
)
from mtdash.demo.systems import SYSTEM_RECIPES, demo_systems
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import TestSet
from mtdash.judgments.error_spans.imports import span_import_batches
from mtdash.judgments.models import Criterion, ErrorSpanEvaluation

# The demo user's password is hashed as any test user's (conftest.py):
# the real hasher takes most of a second per log-in, on purpose.
pytestmark = pytest.mark.usefixtures("fast_password_hashing")


def test_the_demo_leaderboard_ranks_systems_in_their_intended_order(db, client):
    call_command("load_demo", "--score-now")
    test_set = TestSet.objects.get()
    leaderboard = build_leaderboard(test_set)
    intended = [
        s.name
        for s in sorted(demo_systems(demo_test_set()), key=lambda s: s.intended_rank)
    ]
    assert test_set.segments.count() >= 40
    assert test_set.reference_sets.count() == 4
    assert len(intended) >= 6
    assert [row.system for row in leaderboard.rows] == intended
    assert client.login(username="demo", password="mtdash-demo")


def test_loading_the_demo_twice_changes_nothing(db):
    call_command("load_demo", "--score-now")
    call_command("load_demo", "--score-now")
    assert TestSet.objects.count() == 1


@pytest.fixture
def demo(db, settings):
    """The demo loaded as ``--score-now`` does, then the comparison job's
    service run as the worker runs it (the leaderboard's human columns and
    the metric evaluation's tables)."""
    settings.MTDASH_COMPARISON_SAMPLES = 100
    call_command("load_demo", "--score-now")
    test_set = TestSet.objects.get()
    compare_test_set(test_set)
    return test_set


def test_the_demo_has_mqm_esa_and_a_metrics_spans_with_their_evaluation(demo):
    imports = {b.file_name: b for b in span_import_batches(demo)}
    n_items = len(SEGMENTS) * len(SYSTEM_RECIPES)
    assert {name: b.n_annotations for name, b in imports.items()} == {
        MQM_FILE: 3 * n_items,
        ESA_FILE: n_items + 16 * len(SYSTEM_RECIPES),
        METRIC_FILE: n_items,
    }
    assert imports[METRIC_FILE].span_source == METRIC
    mqm = Criterion.objects.get(test_set=demo, name="mqm")
    assert mqm.scale == Criterion.Scale.MEAN
    assert Criterion.objects.filter(test_set=demo, name="esa").exists()
    job = ErrorSpanEvaluation.objects.get(test_set=demo)
    assert job.status == ErrorSpanEvaluation.Status.SUCCEEDED, job.error_message
    (metric,) = job.result["metrics"]
    assert metric["metric"] == METRIC
    assert metric["coverage"]["segments"] == n_items


def test_every_page_of_error_spans_shows_the_demos(demo, client):
    assert client.login(username="demo", password="mtdash-demo")
    board = client.get(f"/api/v1/test-sets/{demo.pk}/leaderboard").json()
    intended = [recipe.name for recipe in SYSTEM_RECIPES]
    for criterion in ("mqm", "esa"):
        means = {s["system"]: s["human"][criterion]["mean"] for s in board["systems"]}
        assert sorted(means, key=means.get, reverse=True) == intended, criterion
    output = demo.outputs.get(system__name="phrase-based")
    pages = {
        "sentence": reverse("sentence_detail", args=[output.pk, 1]),
        "overview": reverse("error_spans_overview", args=[demo.pk]),
        "system": reverse("error_spans_system", args=[output.pk]),
        "segments": reverse("error_spans_segments", args=[demo.pk])
        + "?category=Accuracy/Mistranslation",
        "correlations": reverse("test_set_correlations", args=[demo.pk]),
    }
    html = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        html[name] = response.content.decode()
    # Three raters, two ESA annotators (segment 1 is in both) and the metric.
    assert html["sentence"].count('class="annotator"') == 6
    assert "Accuracy/Mistranslation" in html["system"]
    assert html["segments"].count('class="segment-link"') >= 10
    assert "<mark" in html["segments"] and "<mark" in html["sentence"]
    assert 'data-criterion="mqm"' in html["correlations"]
    assert 'data-criterion="esa"' in html["correlations"]
    assert METRIC in html["correlations"].split("Error spans")[-1]
