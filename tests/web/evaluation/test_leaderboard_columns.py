"""Leaderboard columns are metric configurations, however their specs were typed."""

import csv

from django.urls import reverse

from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from scoring import __version__
from tests.conftest import PASSWORD

GOOD = ["the cat is on the mat", "it is raining", "hello everyone"]
FAIR = ["the cat on mat", "it raining", "hello every one"]


def scored(test_set, owner, system, hypotheses, metrics):
    job = create_system_output(
        test_set, owner, system, hypotheses, metrics=metrics, queue=False
    )
    run_scoring_job(job.pk)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error_message
    return job.output


def store(output, metric: str, score: float, signature: str) -> CorpusScore:
    return CorpusScore.objects.create(
        output=output, metric=metric, score=score, signature=signature
    )


def names(leaderboard) -> list[str]:
    return [column.name for column in leaderboard.columns]


def test_bleu_and_BLEU_are_one_column(test_set, owner):
    scored(test_set, owner, "good", GOOD, ["BLEU"])
    scored(test_set, owner, "fair", FAIR, ["bleu:n=4,smooth=exp"])
    scored(test_set, owner, "other", FAIR, [" Bleu "])
    leaderboard = build_leaderboard(test_set)
    assert names(leaderboard) == ["bleu"]
    assert [row.rank for row in leaderboard.rows] == [1, 2, 3]
    assert all(row.cells[0] is not None for row in leaderboard.rows)


def test_meteor_and_meteor_with_paraphrase_and_the_same_signature_are_one_column(
    test_set, owner
):
    # A paraphrase table that is not there: METEOR runs without it, as by default.
    scored(test_set, owner, "good", GOOD, ["meteor"])
    scored(test_set, owner, "fair", FAIR, ["meteor:paraphrase=/nowhere/para.gz"])
    signatures = set(CorpusScore.objects.values_list("signature", flat=True))
    assert len(signatures) == 1
    leaderboard = build_leaderboard(test_set)
    assert names(leaderboard) == ["meteor"]
    assert leaderboard.columns[0].signatures == tuple(signatures)
    assert [row.system for row in leaderboard.rows] == ["good", "fair"]


def test_a_parameter_at_its_default_is_the_same_column(test_set, owner):
    scored(test_set, owner, "good", GOOD, ["rouge-w:w=1.2", "wer"])
    scored(test_set, owner, "fair", FAIR, ["ROUGE-W", "WER:tokenize=none"])
    assert names(build_leaderboard(test_set)) == ["rouge-w", "wer"]


def test_different_configurations_stay_different_columns(test_set, owner):
    scored(test_set, owner, "good", GOOD, ["bleu", "bleu:n=2", "bleu:lowercase=yes"])
    assert names(build_leaderboard(test_set)) == [
        "bleu",
        "bleu:lowercase=true",
        "bleu:n=2",
    ]


def test_an_output_stored_under_two_spellings_shows_its_latest_score(test_set, owner):
    output = scored(test_set, owner, "good", GOOD, ["bleu"])
    (newer,) = CorpusScore.objects.all()
    older = store(output, "BLEU", 99.0, newer.signature)  # as stored before
    (row,) = build_leaderboard(test_set).rows
    assert row.scores == {"bleu": 99.0}
    newer.save()  # computed again: now the latest
    (row,) = build_leaderboard(test_set).rows
    assert row.scores == {"bleu": newer.score} and newer.score != older.score


def test_the_ranking_metric_may_be_asked_for_in_any_spelling(test_set, owner):
    scored(test_set, owner, "good", GOOD, ["bleu", "ter"])
    scored(test_set, owner, "fair", FAIR, ["bleu", "ter"])
    assert build_leaderboard(test_set, rank_by="TER").primary_metric == "ter"
    assert build_leaderboard(test_set, rank_by="ter:lowercase=true").primary_metric == (
        "ter"
    )
    assert build_leaderboard(test_set, rank_by="no such metric").primary_metric == (
        "bleu"
    )


def test_the_page_ranks_by_a_column_asked_for_in_another_spelling(
    client, owner, test_set
):
    scored(test_set, owner, "good", GOOD, ["bleu", "wer"])
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(test_set.get_absolute_url(), {"metric": "WER"}).content.decode()
    assert "Ranked by <strong>wer</strong>" in page


def test_a_stored_spec_this_version_cannot_read_still_shows(client, owner, test_set):
    output = scored(test_set, owner, "good", GOOD, ["bleu"])
    signature = f"bleu|nrefs:2|order:2|version:{__version__}"
    store(output, "bleu:order=2", 12.3456, signature)
    leaderboard = build_leaderboard(test_set)
    assert names(leaderboard) == ["bleu", "bleu:order=2"]
    old = leaderboard.columns[1]
    assert (old.higher_is_better, old.decimals) == (True, 2)  # read from the signature
    client.login(username=owner.username, password=PASSWORD)
    response = client.get(test_set.get_absolute_url())
    assert response.status_code == 200 and "12.35" in response.content.decode()


def test_scores_from_another_version_are_marked_in_their_column(
    client, owner, test_set
):
    good = scored(test_set, owner, "good", GOOD, ["bleu"])
    scored(test_set, owner, "fair", FAIR, ["bleu"])
    other = scored(test_set, owner, "other", FAIR, ["bleu"])
    current = CorpusScore.objects.get(output=good).signature
    old_signature = current.replace(f"version:{__version__}", "version:0.0.1")
    CorpusScore.objects.filter(output=other).update(signature=old_signature)
    column = build_leaderboard(test_set).columns[0]
    assert column.signatures == (current, old_signature)
    assert column.signature == current
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(test_set.get_absolute_url()).content.decode()
    assert page.count('class="other-signature"') == 1  # only "other" is marked
    assert old_signature in page


def test_the_signatures_sidecar_has_each_scores_signature(client, owner, test_set):
    scored(test_set, owner, "good", GOOD, ["BLEU"])
    client.login(username=owner.username, password=PASSWORD)
    url = reverse("test_set_export", args=[test_set.pk, "signatures.csv"])
    header, row = csv.reader(client.get(url).content.decode().splitlines())
    assert header[:3] == ["metric", "signature", "higher_is_better"]
    assert row[:2] == ["bleu", CorpusScore.objects.get().signature]


def test_new_scores_are_stored_under_the_canonical_spec(test_set, owner):
    output = scored(
        test_set, owner, "good", GOOD, ["BLEU", "bleu:n=4", "ROUGE-W:w=1.2"]
    )
    job = output.scoring_jobs.get()
    assert job.metrics == ["bleu", "rouge-w"]
    stored = CorpusScore.objects.filter(output=output).values_list("metric", flat=True)
    assert sorted(stored) == ["bleu", "rouge-w"]
