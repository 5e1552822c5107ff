"""The references page: per-reference diagnostics stored by the comparison
job's refresh and read by the page (team-scoped, escaped)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import ComparisonJob, SystemOutput, TestSetAnalysis
from mtdash.evaluation.references import diagnostics as reference_diagnostics
from mtdash.evaluation.references.diagnostics import read_diagnostics, refresh
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.conftest import PASSWORD

SOURCES = [
    "le chat est sur le tapis",
    "il pleut aujourd'hui",
    "la réunion commence à midi",
    "nous avons acheté du pain frais",
    "le train part à huit heures",
]
GOOD_A = [
    "the cat is on the mat",
    "it is raining today",
    "the meeting starts at noon",
    "we bought fresh bread",
    "the train leaves at eight",
]
GOOD_B = [
    "the cat sits on the mat",
    "it is raining today",
    "the meeting begins at noon",
    "we bought some fresh bread",
    "the train leaves at eight o'clock",
]
# C is a good reference except in the 3rd sentence, which is garbage with markup.
BAD_C = [
    "a cat lies on the mat",
    "today it is raining",
    "<script>alert('x')</script> qqq zzz",
    "we have bought fresh bread",
    "at eight the train leaves",
]
SYSTEMS = {
    "sys-one": [
        "the cat is on the mat",
        "it is raining",
        "the meeting is at noon",
        "we bought bread",
        "the train leaves at eight",
    ],
    "sys-two": [
        "a cat on the mat",
        "raining today",
        "meeting starts at midday",
        "we have bought fresh bread",
        "train leaves eight",
    ],
}


def make_test_set(team, owner, references, name="three refs"):
    data = TestSetData(
        name=name,
        source_language="fr",
        target_language="en",
        text_type="news",
        description="",
        sources=SOURCES,
        references=references,
    )
    return create_test_set(team, owner, data)


@pytest.fixture
def three_refs(team, owner):
    test_set = make_test_set(team, owner, {"A": GOOD_A, "B": GOOD_B, "C": BAD_C})
    for name, hypotheses in SYSTEMS.items():
        create_system_output(test_set, owner, name, hypotheses, queue=False)
    return test_set


def visible(test_set):
    return sorted(
        SystemOutput.objects.filter(test_set=test_set, hidden=False).values_list(
            "pk", flat=True
        )
    )


def page(client, user, test_set):
    client.login(username=user.username, password=PASSWORD)
    return client.get(reverse("reference_diagnostics", args=[test_set.pk]))


def test_the_url_is_the_test_sets_references():
    assert reverse("reference_diagnostics", args=[7]) == "/test-sets/7/references/"


def test_refresh_flags_the_garbage_reference_and_counts_closest(three_refs):
    assert refresh(three_refs, visible(three_refs)) is True
    diagnostics = read_diagnostics(three_refs)
    assert diagnostics.state == "ready"
    assert diagnostics.labels == ("A", "B", "C")
    assert diagnostics.n_systems == 2
    first = diagnostics.outliers[0]
    assert (first.number, first.label) == (3, "C")
    assert first.z_references < -3.5 and first.z_systems < -3.5
    assert {(o.number, o.label) for o in diagnostics.outliers} == {(3, "C")}
    counts = dict(diagnostics.closest_counts)
    assert sum(counts.values()) + diagnostics.closest_ties == 5
    assert [t.metric for t in diagnostics.tables] == ["bleu", "chrf", "ter"]
    chrf = diagnostics.tables[1]
    assert [row.label for row in chrf.rows] == ["A", "B", "C"]
    assert chrf.rows[2].others == "A, B"
    assert chrf.rows[0].ranked == 3 and len(chrf.systems) == 2


def test_the_stored_jackknife_equals_the_metric_on_the_reduced_set(three_refs):
    from scoring import get_metric

    refresh(three_refs, visible(three_refs))
    chrf = read_diagnostics(three_refs).tables[1]
    metric = get_metric("chrf")
    assert chrf.rows[2].reference_score == pytest.approx(
        metric.score(BAD_C, [GOOD_A, GOOD_B]).score, abs=1e-9
    )
    scores = dict((name, values) for name, values, _ in chrf.systems)
    assert scores["sys-two"][0] == pytest.approx(
        metric.score(SYSTEMS["sys-two"], [GOOD_B, BAD_C]).score, abs=1e-9
    )


def test_refresh_skips_when_nothing_changed(three_refs, monkeypatch):
    refresh(three_refs, visible(three_refs))
    stored = TestSetAnalysis.objects.get(test_set=three_refs, kind="references")
    calls = []
    monkeypatch.setattr(
        reference_diagnostics, "score_references", lambda *a, **k: calls.append(a)
    )
    assert refresh(three_refs, visible(three_refs)) is False
    again = TestSetAnalysis.objects.get(test_set=three_refs, kind="references")
    assert again.computed_at == stored.computed_at and calls == []


def test_hiding_an_output_recomputes_without_scoring_again(three_refs, monkeypatch):
    refresh(three_refs, visible(three_refs))
    scored = []
    original = reference_diagnostics.score_system
    monkeypatch.setattr(
        reference_diagnostics,
        "score_system",
        lambda *a, **k: scored.append(a) or original(*a, **k),
    )
    SystemOutput.objects.filter(system__name="sys-two").update(hidden=True)
    assert refresh(three_refs, visible(three_refs)) is True
    assert scored == []  # the cached per-output scores were recombined
    diagnostics = read_diagnostics(three_refs)
    assert diagnostics.n_systems == 1
    assert [name for name, _, _ in diagnostics.tables[0].systems] == ["sys-one"]


def test_adding_an_output_scores_only_that_output(three_refs, owner, monkeypatch):
    refresh(three_refs, visible(three_refs))
    scored = []
    original = reference_diagnostics.score_system
    monkeypatch.setattr(
        reference_diagnostics,
        "score_system",
        lambda *a, **k: scored.append(a[1]) or original(*a, **k),
    )
    create_system_output(three_refs, owner, "sys-three", GOOD_B, queue=False)
    assert refresh(three_refs, visible(three_refs)) is True
    assert scored and all(hypotheses == GOOD_B for hypotheses in scored)
    assert read_diagnostics(three_refs).n_systems == 3


def test_a_score_without_a_value_is_stored_as_missing(three_refs, monkeypatch):
    from scoring.analysis.references import SystemScores

    original = reference_diagnostics.score_system

    def undefined_first(*args, **kwargs):
        scores = original(*args, **kwargs)
        held_out = (float("nan"), *scores.held_out[1:])
        return SystemScores(held_out=held_out, agreement=scores.agreement)

    monkeypatch.setattr(reference_diagnostics, "score_system", undefined_first)
    refresh(three_refs, visible(three_refs))  # PostgreSQL refuses NaN in JSON
    table = read_diagnostics(three_refs).tables[0]
    assert all(scores[0] is None and mean is None for _, scores, mean in table.systems)
    assert table.rows[0].ranked == 1 and table.rows[1].ranked == 3


def test_a_deleted_outputs_cache_is_dropped(three_refs):
    refresh(three_refs, visible(three_refs))
    output = SystemOutput.objects.get(system__name="sys-two")
    kind = f"references-output:{output.pk}"
    assert TestSetAnalysis.objects.filter(kind=kind).exists()
    output.delete()
    refresh(three_refs, visible(three_refs))
    assert not TestSetAnalysis.objects.filter(kind=kind).exists()


def test_the_comparison_job_refreshes_the_diagnostics(three_refs):
    compare_test_set(three_refs)
    assert read_diagnostics(three_refs).state == "ready"


def test_without_systems_only_the_references_speak(team, owner):
    test_set = make_test_set(team, owner, {"A": GOOD_A, "B": GOOD_B, "C": BAD_C})
    refresh(test_set, [])
    diagnostics = read_diagnostics(test_set)
    assert diagnostics.n_systems == 0 and diagnostics.evidence == "references"
    first = diagnostics.outliers[0]
    assert (first.number, first.label, first.z_systems) == (3, "C", None)
    assert diagnostics.tables[0].rows[0].best is None


def test_the_page_shows_tables_counts_outliers_and_chart(client, owner, three_refs):
    refresh(three_refs, visible(three_refs))
    response = page(client, owner, three_refs)
    assert response.status_code == 200
    html = response.content.decode()
    for anchor in ('id="held-out-chrf"', 'id="closest-counts"', 'id="outlier-list"'):
        assert anchor in html
    assert 'id="closest-figure"' in html
    assert re.search(r"js/plotly_figure\.[0-9a-f]{12}\.js", html)
    assert "Sentence 3" in html and "sys-one" in html


def test_markup_in_a_reference_is_escaped(client, member, three_refs):
    refresh(three_refs, visible(three_refs))
    html = page(client, member, three_refs).content.decode()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "<script>alert" not in html


def test_two_references_come_with_a_caveat_on_closeness(client, owner, team):
    garbage_once = [*GOOD_A[:2], BAD_C[2], *GOOD_A[3:]]
    test_set = make_test_set(team, owner, {"A": GOOD_A, "B": garbage_once}, "two")
    output = create_system_output(test_set, owner, "s", GOOD_B, queue=False).output
    refresh(test_set, [output.pk])
    diagnostics = read_diagnostics(test_set)
    assert diagnostics.evidence == "systems"
    assert [(o.number, o.label) for o in diagnostics.outliers] == [(3, "B")]
    html = page(client, owner, test_set).content.decode()
    assert 'id="closest-two"' in html and "against the other only" in html


def test_another_team_gets_a_404(client, outsider, three_refs):
    refresh(three_refs, visible(three_refs))
    assert page(client, outsider, three_refs).status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client, three_refs):
    response = client.get(reverse("reference_diagnostics", args=[three_refs.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_one_reference_says_two_are_needed(client, owner, team):
    test_set = make_test_set(team, owner, {"A": GOOD_A}, name="one ref")
    assert refresh(test_set, []) is False
    html = page(client, owner, test_set).content.decode()
    assert 'id="references-too-few"' in html
    assert "need two or more references" in html
    assert not TestSetAnalysis.objects.filter(test_set=test_set).exists()


def test_a_page_without_an_analysis_asks_for_one(client, owner, three_refs):
    html = page(client, owner, three_refs).content.decode()
    assert 'id="references-pending"' in html
    assert ComparisonJob.objects.filter(
        test_set=three_refs, status=ComparisonJob.Status.QUEUED
    ).exists()
