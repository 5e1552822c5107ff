"""The n-best upload and the ORANGE worker read a list line for line alike.

Both split lines at "\\n" only (``decode_segments``) and parse them with
``iter_nbest``; a hypothesis holding U+2028, U+0085 or a form feed is one
line in both, and a negative sentence id is refused by the upload's check,
naming the line, instead of failing in an ORANGE chunk.
"""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from mtdash.orange.jobs.artifacts import (
    load_nbest_index,
    read_nbest_entries,
    write_nbest_artifact,
)
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.models import NBestList, OrangeJob
from mtdash.orange.nbest.uploads import parse_nbest_upload
from scoring import InputFileError
from scoring.orange import NBestEntry, OrangeOptions, open_nbest
from tests.conftest import PASSWORD
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixture)
    artifact_dir_fixture,
    check_waiting_uploads,
)

pytestmark = pytest.mark.usefixtures("artifact_dir")

# Every character str.splitlines() breaks at, besides "\n" and "\r".
LINE_BREAKS_INSIDE_TEXT = {
    "line separator U+2028": "\u2028",
    "paragraph separator U+2029": "\u2029",
    "next line U+0085": "\x85",
    "form feed": "\x0c",
    "vertical tab": "\x0b",
    "file separator": "\x1c",
    "group separator": "\x1d",
    "record separator": "\x1e",
}


def nbest_text(break_char: str) -> str:
    return (
        f"0 ||| the cat{break_char}is on the mat ||| lm=-1 ||| -1.5\n"
        f"0 ||| the cat sat ||| lm=-2 ||| -2.5\n"
        f"1 ||| it rains{break_char} ||| lm=-1 ||| -1\n"
        f"1 ||| {break_char}raining ||| lm=-3 ||| -3\n"
        f"2 ||| hello all ||| lm=-1 ||| -1\n"
        f"2 ||| hello{break_char}{break_char}everyone ||| lm=-2 ||| -2\n"
    )


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def upload(client, test_set, content: str):
    """Post the form, then run the worker's check of the upload here."""
    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "", "description": "", "nbest_file": text_file("toy.nbest", content)},
    )
    check_waiting_uploads()
    return response


def fields(entries) -> list[tuple]:
    return [(e.sentence_id, e.hypothesis, e.features, e.score) for e in entries]


@pytest.mark.parametrize(
    "break_char",
    list(LINE_BREAKS_INSIDE_TEXT.values()),
    ids=list(LINE_BREAKS_INSIDE_TEXT),
)
def test_a_line_break_character_inside_a_hypothesis_reads_the_same_in_the_worker(
    logged_in, test_set, owner, break_char
):
    content = nbest_text(break_char)
    response = upload(logged_in, test_set, content)
    assert response.status_code == 302
    nbest = NBestList.objects.get()
    assert (nbest.n_sentences, nbest.n_candidates) == (3, 6)

    uploaded = parse_nbest_upload(content.encode("utf-8"), "toy.nbest", 3)
    for first in range(3):  # every chunk a worker could be given
        read = read_nbest_entries(nbest.artifact, first, first + 1)
        assert [fields(group) for group in read] == [fields(uploaded.sentences[first])]
    assert uploaded.sentences[0][0].hypothesis == f"the cat{break_char}is on the mat"

    job = run_orange_job_now(
        create_orange_job(
            nbest, owner, ["bleu", "rouge-l"], OrangeOptions(n_bootstrap=0), queue=False
        )
    )
    assert job.status == OrangeJob.Status.SUCCEEDED, job.error_message
    assert job.scores.count() == 2


def test_the_command_line_reader_splits_lines_as_the_upload_does(tmp_path):
    content = nbest_text("\u2028").replace("\n1 |||", "\r\n1 |||")
    path = tmp_path / "toy.nbest"
    path.write_bytes(content.encode("utf-8"))
    uploaded = parse_nbest_upload(content.encode("utf-8"), "toy.nbest", 3)
    assert fields(open_nbest(path)) == fields(
        entry for group in uploaded.sentences for entry in group
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "-1 ||| a ||| ||| 0\n0 ||| b ||| ||| 0\n",
            "toy.nbest, line 1: sentence id -1 is negative; ids are the test set's "
            "line numbers counted from 0",
        ),
        (
            "0 ||| a ||| ||| 0\n\n-3 ||| b ||| ||| 0\n",
            "toy.nbest, line 3: sentence id -3 is negative; ids are the test set's "
            "line numbers counted from 0",
        ),
    ],
)
def test_a_negative_sentence_id_is_refused_at_upload_naming_the_line(
    logged_in, test_set, artifact_dir, content, message
):
    response = upload(logged_in, test_set, content)

    assert response.status_code == 302
    nbest = NBestList.objects.get()
    assert nbest.status == NBestList.Status.FAILED
    assert nbest.error_message == message
    page = logged_in.get(response["Location"]).content.decode()
    assert html.escape(message) in page
    stored = [p for p in artifact_dir.rglob("*") if p.is_file()]
    assert stored == []


def test_the_worker_reader_refuses_a_negative_id_with_the_same_rule():
    # Only an upload writes artifacts, and it refuses -1; should one hold it
    # anyway, the worker's reader names the line instead of mis-ranking.
    relative = write_nbest_artifact(
        [[NBestEntry(-1, "a", "", None, 1)], [NBestEntry(0, "b", "", None, 2)]]
    )
    assert load_nbest_index(relative).sentence_ids.tolist() == [-1, 0]
    with pytest.raises(InputFileError, match="line 1: sentence id -1 is negative"):
        read_nbest_entries(relative, 0, 2)
