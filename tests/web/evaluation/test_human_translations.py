"""Human translations as systems: a reference entered as a system output is
scored against the other references only, ranked in the same leaderboard
columns (not flagged as another signature), read by the metric evaluation,
marked as human, and refused with a reason when it cannot be entered."""

from __future__ import annotations

import math
import re

import pytest
import sacrebleu
from django.urls import reverse

from mtdash.evaluation.leaderboard.as_json import leaderboard_json
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.models import CorpusScore, SystemOutput
from mtdash.evaluation.references.as_system import (
    CannotEnterReference,
    enter_reference_as_system,
)
from mtdash.evaluation.references.diagnostics import read_diagnostics, refresh
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.evaluation.systems.sentence_page import build_sentence_view
from mtdash.judgments.correlations.inputs import metric_columns
from tests.conftest import PASSWORD
from tests.web.evaluation.test_reference_diagnostics import (
    BAD_C,
    GOOD_A,
    GOOD_B,
    SYSTEMS,
    make_test_set,
)

METRICS = ["bleu", "chrf", "ter"]


@pytest.fixture
def scored(team, owner):
    """Three references, two MT systems scored against all three."""
    test_set = make_test_set(team, owner, {"A": GOOD_A, "B": GOOD_B, "C": BAD_C})
    for name, hypotheses in SYSTEMS.items():
        job = create_system_output(
            test_set, owner, name, hypotheses, metrics=METRICS, queue=False
        )
        run_scoring_job(job.pk)
    return test_set


def enter(test_set, label, owner, **options):
    job = enter_reference_as_system(test_set, label, owner, queue=False, **options)
    assert run_scoring_job(job.pk) is True
    return SystemOutput.objects.get(pk=job.output_id)


def test_it_is_scored_against_the_other_references_with_the_test_sets_metrics(
    scored, owner
):
    output = enter(scored, "B", owner)
    assert output.system.name == "ref-B" and output.is_human_translation
    assert output.hypotheses() == GOOD_B
    stored = {c.metric: c for c in CorpusScore.objects.filter(output=output)}
    assert sorted(stored) == METRICS  # the metrics the other outputs have
    # sacreBLEU with references A and C only (B left out).
    expected_bleu = sacrebleu.corpus_bleu(GOOD_B, [GOOD_A, BAD_C]).score
    assert math.isclose(stored["bleu"].score, expected_bleu, rel_tol=1e-9)
    expected_chrf = sacrebleu.corpus_chrf(GOOD_B, [GOOD_A, BAD_C]).score
    assert math.isclose(stored["chrf"].score, expected_chrf, rel_tol=1e-9)
    assert "nrefs:2" in stored["bleu"].signature
    machine = CorpusScore.objects.get(output__system__name="sys-one", metric="bleu")
    assert "nrefs:3" in machine.signature


def test_the_leaderboard_ranks_it_in_the_same_columns_marked_human(scored, owner):
    output = enter(scored, "B", owner)
    board = build_leaderboard(scored)
    assert not board.has_other_signatures
    row = next(r for r in board.rows if r.output_id == output.pk)
    assert row.human_translation_of == "B"
    cells = board.cell(row, board.columns[0]), board.cell(row, board.columns[1])
    assert all(cell.value is not None and not cell.other_signature for cell in cells)
    # chrF's signature names the references' order: still one column.
    assert [c.name for c in board.columns] == ["bleu", "chrf", "ter"]
    systems = {s["system"]: s for s in leaderboard_json(board)["systems"]}
    assert systems["ref-B"]["human_translation_of"] == "B"
    assert systems["sys-one"]["human_translation_of"] is None


def test_an_mt_output_scored_by_another_version_is_still_flagged(scored, owner):
    enter(scored, "B", owner)
    job = create_system_output(
        scored, owner, "sys-three", SYSTEMS["sys-one"], metrics=METRICS, queue=False
    )
    run_scoring_job(job.pk)
    CorpusScore.objects.filter(output__system__name="sys-two", metric="bleu").update(
        signature="bleu|nrefs:3|case:mixed|tok:13a|smooth:exp|n:4|version:0.0.1"
    )
    board = build_leaderboard(scored)
    bleu = board.columns[0]
    assert len(bleu.signatures) == 2 and board.has_other_signatures
    row = next(r for r in board.rows if r.system == "sys-two")
    assert board.cell(row, bleu).other_signature


def test_the_metric_evaluation_reads_its_scores(scored, owner):
    output = enter(scored, "C", owner)
    visible = dict(
        SystemOutput.objects.filter(test_set=scored).values_list("pk", "system__name")
    )
    columns = metric_columns(scored, visible)
    assert all(output.pk in columns[name] for name in METRICS)


def test_its_sentence_page_and_the_diagnostics_leave_its_own_reference_out(
    scored, owner
):
    output = enter(scored, "B", owner)
    view = build_sentence_view(output, 1)
    assert [r.label for r in view.references] == ["A", "C"]
    visible = list(scored.outputs.values_list("pk", flat=True))
    refresh(scored, visible)
    assert read_diagnostics(scored).n_systems == 2  # the MT systems only


@pytest.mark.parametrize(
    ("label", "name", "message"),
    [
        ("Z", "", "has no reference 'Z' (its references: A, B, C)"),
        ("A", "sys-one", "system 'sys-one' already has an output here"),
        ("A", "x" * 201, "at most 200 characters"),
    ],
)
def test_what_cannot_be_entered_is_refused_with_the_reason(
    scored, owner, label, name, message
):
    with pytest.raises(CannotEnterReference, match=re.escape(message)):
        enter_reference_as_system(scored, label, owner, system_name=name, queue=False)
    assert not SystemOutput.objects.filter(reference__isnull=False).exists()


def test_a_reference_is_entered_once_and_needs_another_reference(scored, owner, team):
    enter_reference_as_system(scored, "A", owner, queue=False)
    with pytest.raises(CannotEnterReference, match="already a system .'ref-A'."):
        enter_reference_as_system(scored, "A", owner, system_name="again", queue=False)
    single = make_test_set(team, owner, {"A": GOOD_A}, name="one ref")
    with pytest.raises(CannotEnterReference, match="needs two at least"):
        enter_reference_as_system(single, "A", owner, queue=False)


def test_the_references_page_enters_it_and_the_leaderboard_marks_it(
    client, scored, owner
):
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(reverse("reference_diagnostics", args=[scored.pk]))
    assert page.status_code == 200
    url = reverse("reference_as_system", args=[scored.pk, "C"])
    assert url.encode() in page.content and b'value="ref-C"' in page.content
    response = client.post(url, {"system_name": "<b>Human C</b>"})
    output = SystemOutput.objects.get(reference__label="C")
    job = output.scoring_jobs.get()
    assert response.status_code == 302 and response.url == job.get_absolute_url()
    run_scoring_job(job.pk)
    board = client.get(reverse("test_set_detail", args=[scored.pk]))
    assert b"&lt;b&gt;Human C&lt;/b&gt;" in board.content
    assert b"<b>Human C</b>" not in board.content
    assert b'class="tag human-translation"' in board.content
    again = client.post(url, {"system_name": "other"}, follow=True)
    assert b"already a system" in again.content


def test_only_the_team_may_enter_one(client, scored, outsider):
    url = reverse("reference_as_system", args=[scored.pk, "C"])
    assert client.post(url).status_code == 302  # to the login page
    client.login(username=outsider.username, password=PASSWORD)
    assert client.post(url).status_code == 404
    assert client.get(url).status_code in (404, 405)
    assert not SystemOutput.objects.filter(reference__isnull=False).exists()
