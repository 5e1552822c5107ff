"""A test set's readability page, its exports and its API: the numbers are
the library's (scoring.readability.text_complexity on the same texts), a
language without syllable rules is named and shown without numbers, the
counting is a worker's job (queued on upload, never done in a request; the
page shows its progress, then the stored counts), and only team members see
it."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from mtdash.celery import app as celery_app
from mtdash.evaluation.models import ReadabilityJob, ReferenceSegment, TestSetAnalysis
from mtdash.evaluation.readability import page as readability_page
from mtdash.evaluation.readability.jobs import run_readability_job
from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from scoring.readability import text_complexity
from tests.scoring.support.realdata import DATA_DIR
from tests.web.api.conftest import client_with, create_token
from tests.web.evaluation.readability_support import count_readability

pytestmark = pytest.mark.django_db

SOURCES = ["le chat est sur le tapis", "il pleut", "bonjour à tous"]
REFERENCES = {
    "A": ["the cat is on the mat", "it is raining", "hello everyone"],
    "B": ["there is a cat on the mat", "it rains", "hello all"],
}


@pytest.fixture
def german_test_set(team, owner):
    data = TestSetData(
        name="<b>news</b> it-en",
        source_language="it",
        target_language="en",
        text_type="news",
        description="",
        sources=["Die Katze sitzt auf der Matte.", "Es regnet seit 2021."],
        references={"A": ["The cat sits on the mat.", "It has rained since 2021."]},
    )
    return create_test_set(team, owner, data)


def page(client, test_set):
    return client.get(reverse("readability_test_set", args=[test_set.pk]))


@pytest.fixture
def no_counting_here(monkeypatch):
    """Counting in this process fails the test (undo() to let a worker run)."""

    def counting(*args, **kwargs):
        raise AssertionError("readability counted in the request")

    monkeypatch.setattr(readability_page, "measure_text", counting)
    return monkeypatch


def test_the_page_never_counts_it_shows_the_job_then_the_workers_counts(
    client, owner, test_set, no_counting_here
):
    client.force_login(owner)
    response = page(client, test_set)
    assert response.status_code == 200
    state = response.context["state"]
    assert state.state == "pending" and state.readability is None
    assert state.job.status == "queued"
    html = response.content.decode()
    assert 'id="readability-pending"' in html and 'id="readability-table"' not in html
    status_url = reverse("readability_job_status", args=[test_set.pk])
    assert f'data-status-url="{status_url}"' in html and "js/job_progress" in html
    assert client.get(status_url).json()["status"] == "queued"
    # The exports and the API wait for the worker too.
    export = reverse("readability_test_set_export", args=[test_set.pk, "csv"])
    assert client.get(export).status_code == 202
    api = client_with(create_token(owner.username).strip())
    answer = api.get(f"/api/v1/test-sets/{test_set.pk}/readability")
    assert answer.status_code == 202
    assert answer.json()["job"] == {"status": "queued", "progress": 0}

    no_counting_here.undo()  # the worker's turn
    assert run_readability_job(state.job.pk) is True
    status = client.get(status_url).json()
    assert (status["status"], status["progress"], status["finished"]) == (
        "succeeded",
        100,
        True,
    )
    ready = page(client, test_set)
    assert ready.context["state"].state == "ready"
    assert 'id="readability-table"' in ready.content.decode()
    assert client.get(export).status_code == 200
    assert api.get(f"/api/v1/test-sets/{test_set.pk}/readability").status_code == 200


def test_an_upload_queues_one_readability_job_sent_after_the_commit(
    team, owner, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: sent.append((name, args[0]))
    )
    data = TestSetData("t", "de", "en", "news", "", ["Ein Satz."], {"A": ["A line."]})
    with django_capture_on_commit_callbacks(execute=True):
        test_set = create_test_set(team, owner, data)
    job = ReadabilityJob.objects.get(test_set=test_set)
    assert sent == [("mtdash.evaluation.tasks.measure_readability", job.pk)]
    assert job.inputs == readability_page.readability_inputs(test_set)


def test_running_a_job_twice_stores_the_counts_once(test_set):
    job = ReadabilityJob.objects.get(test_set=test_set)
    assert run_readability_job(job.pk) is True
    assert run_readability_job(job.pk) is False  # finished: nothing to claim
    first = TestSetAnalysis.objects.get(test_set=test_set, kind="readability")
    readability_page.measure_test_set(test_set)  # a second run, by hand
    stored = TestSetAnalysis.objects.filter(test_set=test_set, kind="readability")
    assert stored.count() == 1 and stored.get().data["texts"] == first.data["texts"]


def test_a_page_with_no_fresh_counts_queues_one_job_only(
    client, owner, test_set, monkeypatch
):
    count_readability(test_set)
    client.force_login(owner)
    assert page(client, test_set).context["state"].state == "ready"
    # A new library version (any change of the inputs) makes the counts stale.
    monkeypatch.setattr(readability_page, "SCORING_VERSION", "99.0")
    first = page(client, test_set).context["state"]
    second = page(client, test_set).context["state"]
    assert first.state == second.state == "pending"
    assert first.job.pk == second.job.pk
    assert ReadabilityJob.objects.filter(test_set=test_set).count() == 2
    assert count_readability(test_set) == 1
    assert page(client, test_set).context["state"].state == "ready"


def test_a_failed_count_is_shown_with_a_button_to_count_again(client, owner, test_set):
    job = ReadabilityJob.objects.get(test_set=test_set)
    ReadabilityJob.objects.filter(pk=job.pk).claim()
    ReadabilityJob.objects.filter(pk=job.pk).fail("ValueError: <b>bad</b> text")
    client.force_login(owner)
    response = page(client, test_set)
    assert response.context["state"].state == "failed"
    html = response.content.decode()
    assert "ValueError: &lt;b&gt;bad&lt;/b&gt; text" in html and "<b>bad" not in html
    assert 'id="readability-retry"' in html
    # Showing the failure queues nothing; the button does.
    assert ReadabilityJob.objects.filter(test_set=test_set).count() == 1
    retry = client.post(reverse("readability_retry", args=[test_set.pk]))
    assert retry.status_code == 302
    assert ReadabilityJob.objects.filter(test_set=test_set).unfinished().count() == 1
    assert page(client, test_set).context["state"].state == "pending"
    export = reverse("readability_test_set_export", args=[test_set.pk, "tex"])
    assert client.get(export).status_code == 202
    client.force_login(owner)
    assert (
        client.get(reverse("readability_retry", args=[test_set.pk])).status_code == 405
    )


def test_it_shows_the_library_figures_of_the_source_and_each_reference(
    client, owner, test_set
):
    count_readability(test_set)
    client.force_login(owner)
    response = page(client, test_set)
    assert response.status_code == 200
    texts = response.context["readability"].texts
    assert [(t.role, t.label) for t in texts] == [
        ("source", ""),
        ("reference", "A"),
        ("reference", "B"),
    ]
    expected = [text_complexity(SOURCES, "fr")] + [
        text_complexity(REFERENCES[label], "en") for label in ("A", "B")
    ]
    # Counted by hand, not by the library the page calls: (sentences, words,
    # syllables). Source: le chat est sur le ta-pis (7) / il pleut (2) /
    # bon-jour à tous (4); A: the cat is on the mat (6) / it is rain-ing (4) /
    # hel-lo ev-ery-one (5); B: there is a cat on the mat (7) / it rains (2)
    # / hel-lo all (3).
    by_hand = [(3, 11, 13), (3, 11, 15), (3, 11, 12)]
    assert [
        (t.figures.n_sentences, t.figures.n_words, t.figures.n_syllables) for t in texts
    ] == by_hand
    html = response.content.decode()
    for text, library in zip(texts, expected, strict=True):
        assert text.figures.n_words == library.n_words
        assert text.figures.n_syllables == library.n_syllables
        for name in ("asl", "asw", "flesch_reading_ease", "flesch_kincaid_grade"):
            assert getattr(text.figures, name) == pytest.approx(
                getattr(library, name), abs=1e-12
            )
        assert f"{library.asw:.3f}" in html
        assert f"{library.flesch_reading_ease:.2f}" in html
    # Which language's syllable rules apply is said for each text.
    assert "French syllable rules" in html
    assert "English syllables from the CMU Pronouncing Dictionary" in html
    assert 'id="readability-chart"' in html


def test_a_language_without_syllable_rules_is_named_and_shows_no_numbers(
    client, owner, german_test_set
):
    count_readability(german_test_set)
    client.force_login(owner)
    response = page(client, german_test_set)
    source = response.context["readability"].source
    assert source.figures is None
    assert "No syllable rules for Italian (it)" in source.reason
    # ... and it lists the languages that are counted (issue 19, item 7)
    for code in ("cs", "de", "en", "es", "fr", "ru"):
        assert f"({code})" in source.reason.split(":", 1)[1], code
    html = response.content.decode()
    assert "No syllable rules for Italian (it)" in html
    row = html.split('id="text-source"')[1].split("</tr>")[0]
    assert "colspan" in row and '<td class="num">' not in row
    # The English reference is measured; the test set's name is escaped.
    assert response.context["readability"].references[0].figures is not None
    assert "&lt;b&gt;news&lt;/b&gt; it-en" in html and "<b>news</b>" not in html


def test_changed_segments_are_counted_again_by_a_worker(client, owner, test_set):
    count_readability(test_set)
    client.force_login(owner)
    before = page(client, test_set).context["readability"]
    segment = ReferenceSegment.objects.get(
        reference_set__test_set=test_set, reference_set__label="A", index=0
    )
    segment.text = "the extraordinarily complicated situation"
    segment.save()
    assert page(client, test_set).context["state"].state == "pending"
    assert count_readability(test_set) == 1
    after = page(client, test_set).context["readability"]
    changed = ["the extraordinarily complicated situation", *REFERENCES["A"][1:]]
    assert after.references[0].figures.asw == pytest.approx(
        text_complexity(changed, "en").asw, abs=1e-12
    )
    assert after.references[0].figures != before.references[0].figures
    assert TestSetAnalysis.objects.filter(kind="readability").count() == 1


def test_a_member_sees_it_and_an_outsider_gets_404(client, member, outsider, test_set):
    client.force_login(member)
    assert page(client, test_set).status_code == 200
    client.force_login(outsider)
    assert page(client, test_set).status_code == 404
    export = reverse("readability_test_set_export", args=[test_set.pk, "csv"])
    assert client.get(export).status_code == 404
    status = reverse("readability_job_status", args=[test_set.pk])
    assert client.get(status).status_code == 404
    retry = reverse("readability_retry", args=[test_set.pk])
    assert client.post(retry).status_code == 404


def test_anonymous_visitors_are_sent_to_the_login_page(client, test_set):
    for url in (
        reverse("readability_test_set", args=[test_set.pk]),
        reverse("readability_test_set_export", args=[test_set.pk, "tex"]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def pandas_or_skip():
    return pytest.importorskip(
        "pandas", reason="pandas is not installed: the CSV is checked with csv only"
    )


def test_the_csv_export_has_the_library_numbers(client, owner, german_test_set):
    count_readability(german_test_set)
    client.force_login(owner)
    url = reverse("readability_test_set_export", args=[german_test_set.pk, "csv"])
    response = client.get(url)
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["text"] for row in rows] == ["source", "reference"]
    assert rows[0]["measured"] == "False" and rows[0]["asw"] == ""
    library = text_complexity(
        ["The cat sits on the mat.", "It has rained since 2021."], "en"
    )
    assert int(rows[1]["n_words"]) == library.n_words
    assert float(rows[1]["asw"]) == pytest.approx(library.asw, abs=1e-12)
    assert float(rows[1]["flesch_kincaid_grade"]) == pytest.approx(
        library.flesch_kincaid_grade, abs=1e-12
    )
    assert rows[1]["signature"] == library.signature


def test_pandas_reads_the_csv_export_with_numeric_columns(
    client, owner, german_test_set
):
    pd = pandas_or_skip()
    count_readability(german_test_set)
    client.force_login(owner)
    url = reverse("readability_test_set_export", args=[german_test_set.pk, "csv"])
    frame = pd.read_csv(io.StringIO(client.get(url).content.decode()))
    assert list(frame["text"]) == ["source", "reference"]
    assert pd.isna(frame.loc[0, "asw"]) and not frame.loc[0, "measured"]
    for column in ("asl", "asw", "flesch_reading_ease", "flesch_kincaid_grade"):
        assert pd.api.types.is_float_dtype(frame[column])
    assert frame.loc[1, "asw"] == pytest.approx(
        text_complexity(["The cat sits on the mat.", "It has rained since 2021."]).asw,
        abs=1e-12,
    )


def test_the_latex_export_is_a_table_with_the_name_escaped(
    client, owner, german_test_set
):
    count_readability(german_test_set)
    client.force_login(owner)
    url = reverse("readability_test_set_export", args=[german_test_set.pk, "tex"])
    body = client.get(url).content.decode()
    assert r"\begin{tabular}{llrrrrrr}" in body and r"\end{table}" in body
    assert r"\textless{}b\textgreater{}news" in body
    assert "no syllable rules for this language" in body
    assert client.get(url.replace(".tex", ".pdf")).status_code == 404


def test_the_api_answers_the_same_figures_with_a_token(owner, outsider, test_set):
    count_readability(test_set)
    api = client_with(create_token(owner.username).strip())
    url = f"/api/v1/test-sets/{test_set.pk}/readability"
    body = api.get(url).json()
    assert [t["label"] for t in body["texts"]] == ["", "A", "B"]
    library = text_complexity(SOURCES, "fr")
    source = body["texts"][0]
    assert source["measured"] and source["figures"]["asw"] == pytest.approx(
        library.asw, abs=1e-12
    )
    assert source["figures"]["signature"] == library.signature
    assert "French" in source["syllable_rules"]
    outsider_api = client_with(create_token(outsider.username).strip())
    assert outsider_api.get(url).status_code == 404
    from rest_framework.test import APIClient

    assert APIClient().get(url).status_code == 401


def test_real_wmt21_de_en_references_get_the_librarys_figures_once(
    client, owner, team, monkeypatch
):
    """WMT21 de-en (the full data, or the fixtures' first segments): the
    German source and references A and B as the library measures the files,
    once the worker has counted them; every view reads the stored counts."""
    pair = DATA_DIR / "wmt21" / "de-en"
    read = lambda name: (pair / name).read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    data = TestSetData(
        "newstest2021 de-en", "de", "en", "news", "", read("src.de"),
        {"A": read("ref.A.en"), "B": read("ref.B.en")},
    )  # fmt: skip
    test_set = create_test_set(team, owner, data)
    client.force_login(owner)
    assert page(client, test_set).context["state"].state == "pending"
    assert count_readability(test_set) == 1
    first = page(client, test_set).context["readability"]
    assert first.source.figures == text_complexity(read("src.de"), "de")
    for text, name in zip(first.references, ("ref.A.en", "ref.B.en"), strict=True):
        library = text_complexity(read(name), "en")
        assert text.figures == library
    monkeypatch.setattr(readability_page, "measure_text", None)  # never called
    second = page(client, test_set).context["readability"]
    assert second.texts == first.texts


def test_the_openapi_schema_names_both_readability_endpoints(client, db):
    schema = client.get("/api/v1/schema").content.decode()
    assert "/api/v1/test-sets/{id}/readability:" in schema
    assert "/api/v1/readability:" in schema
    assert "operationId: readability_across_test_sets" in schema
