"""Uploading an n-best list: stored as sent, checked completely by the
worker's job (run here in-process), stored as one compressed artifact."""

import gzip

import pytest
from django.urls import reverse

from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from mtdash.orange.jobs.artifacts import (
    CANDIDATES_FILE,
    artifact_path,
    load_nbest_index,
    read_candidates,
)
from mtdash.orange.models import NBestList
from tests.conftest import PASSWORD
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    check_waiting_uploads,
)

pytestmark = pytest.mark.usefixtures("artifact_dir")


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def upload(client, test_set, content, name="toy 3-best", file_name="toy.nbest"):
    """Post the form, then run the check the upload queued."""
    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": name, "description": "", "nbest_file": text_file(file_name, content)},
    )
    check_waiting_uploads()
    return response


def upload_and_read(client, test_set, content, **kwargs):
    """The page the upload leads to, once the check has run."""
    response = upload(client, test_set, content, **kwargs)
    if response.status_code != 302:
        return response
    return client.get(response["Location"])


def no_list_is_ready() -> bool:
    return not NBestList.objects.filter(status=NBestList.Status.SUCCEEDED).exists()


def stored_files(directory):
    return (
        [path for path in directory.rglob("*") if path.is_file()]
        if directory.exists()
        else []
    )


def test_it_stores_an_uploaded_nbest_list_as_one_compressed_artifact(
    logged_in, test_set
):
    response = upload(logged_in, test_set, TOY_NBEST)

    nbest = NBestList.objects.get()
    assert response.status_code == 302
    assert response["Location"] == nbest.get_absolute_url()
    assert (nbest.n_sentences, nbest.n_candidates) == (3, 8)
    assert (nbest.min_candidates, nbest.max_candidates) == (2, 3)
    assert nbest.file_name == "toy.nbest"
    # The artifact is plain gzip of the normalised Moses text, one member per sentence.
    text = gzip.decompress(
        (artifact_path(nbest.artifact) / CANDIDATES_FILE).read_bytes()
    )
    assert text.decode("utf-8").splitlines()[0] == (
        "0 ||| the cat sat on the mat ||| lm=-3.2 tm=-1.0 ||| -4.2"
    )
    assert len(text.decode("utf-8").splitlines()) == 8
    assert load_nbest_index(nbest.artifact).n_candidates.tolist() == [3, 3, 2]


def test_a_worker_reads_only_the_sentences_of_its_chunk(logged_in, test_set):
    upload(logged_in, test_set, TOY_NBEST)
    nbest = NBestList.objects.get()

    ids, candidates = read_candidates(nbest.artifact, 1, 3)

    assert ids == [1, 2]
    assert candidates[0] == ("it is raining today", "it rains", "raining")
    assert candidates[1][0] == 'hello everyone <script>alert("x")</script>'


def test_it_accepts_lists_of_any_length_and_a_subset_of_segments(logged_in, test_set):
    content = "1 ||| it rains ||| ||| \n" + "".join(
        f"2 ||| hello {i} ||| |||\n" for i in range(40)
    )
    upload(logged_in, test_set, content)
    nbest = NBestList.objects.get()
    assert nbest.n_sentences == 2
    assert (nbest.min_candidates, nbest.max_candidates) == (1, 40)


def test_it_names_the_list_after_the_file_when_no_name_is_given(logged_in, test_set):
    upload(logged_in, test_set, TOY_NBEST, name="", file_name="altemp.1000best")
    assert NBestList.objects.get().name == "altemp.1000best"


@pytest.mark.parametrize(
    "content, expected",
    [
        (
            TOY_NBEST + "3 ||| one sentence too many ||| ||| -1\n",
            (
                "toy.nbest, line 9: sentence id 3 is not a segment of the test set, "
                "which has 3 (ids 0–2; Moses counts from 0)"
            ),
        ),
        (
            "0 ||| fine ||| ||| -1\nzero ||| bad id ||| ||| -1\n",
            "toy.nbest, line 2: sentence id &#x27;zero&#x27; is not a whole number",
        ),
        (
            "0 ||| fine ||| ||| -1\n0 ||| no score ||| ||| high\n",
            "toy.nbest, line 2: score &#x27;high&#x27; is not a number",
        ),
        (
            "1 ||| b ||| ||| -1\n0 ||| a ||| ||| -1\n",
            "toy.nbest, line 2: sentence 0 comes after sentence 1",
        ),
        ("0 the cat without separators\n", "toy.nbest, line 1: expected"),
        ("\n\n   \n", "toy.nbest: the file is empty"),
    ],
)
def test_it_refuses_a_bad_nbest_file_naming_the_line(
    logged_in, test_set, artifact_dir, content, expected
):
    response = upload_and_read(logged_in, test_set, content)
    assert response.status_code == 200
    assert expected in response.content.decode()
    assert "Nothing was stored." in response.content.decode()
    assert no_list_is_ready()
    assert stored_files(artifact_dir) == []


def test_it_refuses_invalid_utf8_naming_the_line_and_keeps_nothing(
    logged_in,
    test_set,
    artifact_dir,
):
    content = TOY_NBEST.encode("utf-8") + b"2 ||| caf\xe9 ||| ||| -2\n"
    response = upload_and_read(logged_in, test_set, content)
    page = response.content.decode()
    assert "toy.nbest, line 9: invalid UTF-8" in page
    assert "save the file as UTF-8" in page
    assert no_list_is_ready()
    assert stored_files(artifact_dir) == []


def test_it_refuses_a_file_over_the_size_limit(
    logged_in, test_set, settings, artifact_dir
):
    settings.MTDASH_MAX_NBEST_BYTES = 100
    response = upload(logged_in, test_set, TOY_NBEST)
    assert response.status_code == 200
    assert (
        f"toy.nbest: the file is {len(TOY_NBEST.encode())} bytes; the limit for an n-best "
        "list is 100" in response.content.decode()
    )
    assert "Nothing was stored." in response.content.decode()
    assert not NBestList.objects.exists()
    assert stored_files(artifact_dir) == []


def test_it_refuses_a_second_list_with_the_same_name(logged_in, test_set):
    upload(logged_in, test_set, TOY_NBEST)
    response = upload(logged_in, test_set, TOY_NBEST)
    assert "already has an n-best list named" in response.content.decode()
    assert NBestList.objects.count() == 1


@pytest.fixture
def one_reference_test_set(team, owner):
    data = TestSetData(
        name="one ref", source_language="fr", target_language="en", text_type="",
        description="", sources=["un", "deux"], references={"A": ["one", "two"]},
    )  # fmt: skip
    return create_test_set(team, owner, data)


def test_it_says_why_a_test_set_with_one_reference_cannot_have_orange(
    logged_in,
    one_reference_test_set,
    artifact_dir,
):
    page = logged_in.get(reverse("orange_test_set", args=[one_reference_test_set.pk]))
    assert "ORANGE needs at least 2 reference translations" in page.content.decode()
    assert "this test set has only 1 (A)" in page.content.decode()

    response = upload(logged_in, one_reference_test_set, "0 ||| one ||| ||| -1\n")
    assert "ORANGE needs at least 2 reference translations" in response.content.decode()
    assert not NBestList.objects.exists()
    assert stored_files(artifact_dir) == []


def test_deleting_a_test_set_deletes_its_nbest_artifacts(
    logged_in,
    test_set,
    artifact_dir,
    django_capture_on_commit_callbacks,
):
    upload(logged_in, test_set, TOY_NBEST)
    assert stored_files(artifact_dir)
    with django_capture_on_commit_callbacks(execute=True):
        test_set.delete()
    assert stored_files(artifact_dir) == []


def test_it_accepts_a_gzip_compressed_list_and_stores_it_as_sent_until_checked(
    logged_in, test_set, artifact_dir
):
    data = gzip.compress(TOY_NBEST.encode("utf-8"))
    response = logged_in.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "", "description": "", "nbest_file": text_file("toy.nbest.gz", data)},
    )
    nbest = NBestList.objects.get()
    assert response["Location"] == nbest.get_absolute_url()
    # Stored as sent, waiting for the worker's check; no job can use it yet.
    assert nbest.status == NBestList.Status.QUEUED
    assert [p.name for p in stored_files(artifact_dir)] == ["upload.gz"]
    page = logged_in.get(nbest.get_absolute_url()).content.decode()
    assert "Waiting to be checked" in page and 'id="orange-form"' not in page

    [nbest] = check_waiting_uploads()

    assert (nbest.status, nbest.n_candidates, nbest.progress) == ("succeeded", 8, 100)
    assert (nbest.name, nbest.file_name, nbest.upload_name) == (
        "toy.nbest.gz",
        "toy.nbest",
        "toy.nbest.gz",
    )
    names = sorted(p.name for p in stored_files(artifact_dir))
    assert names == [CANDIDATES_FILE, "index.npz"]
    _, candidates = read_candidates(nbest.artifact, 0, 3)
    assert candidates[2] == ('hello everyone <script>alert("x")</script>', "hello all")


def test_a_plain_upload_is_compressed_on_its_way_to_storage(
    logged_in, test_set, artifact_dir
):
    upload_before_check = logged_in.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "", "description": "", "nbest_file": text_file("a.nbest", TOY_NBEST)},
    )
    assert upload_before_check.status_code == 302
    [stored] = stored_files(artifact_dir)
    assert gzip.decompress(stored.read_bytes()) == TOY_NBEST.encode("utf-8")


def test_a_gzip_list_over_the_limit_once_decompressed_is_refused_by_the_check(
    logged_in, test_set, artifact_dir, settings
):
    settings.MTDASH_MAX_NBEST_BYTES = 200
    data = gzip.compress(TOY_NBEST.encode("utf-8"))  # 320 bytes, ~190 packed
    assert len(data) <= 200
    page = upload_and_read(logged_in, test_set, data, file_name="toy.nbest.gz")
    assert (
        "toy.nbest.gz: decompressed, the file is more than 200 bytes; the limit "
        "for an n-best list is 200" in page.content.decode()
    )
    assert no_list_is_ready()
    assert stored_files(artifact_dir) == []


def test_a_refused_name_may_be_used_again_and_no_job_can_use_the_refused_list(
    logged_in, test_set, artifact_dir
):
    upload(logged_in, test_set, "0 ||| a ||| ||| high\n")
    refused = NBestList.objects.get()
    response = logged_in.post(
        refused.get_absolute_url(), {"metrics": ["bleu"], "n_bootstrap": 0, "seed": 1}
    )
    assert response.status_code == 200 and not refused.orange_jobs.exists()

    upload(logged_in, test_set, TOY_NBEST)

    [again] = NBestList.objects.all()
    assert again.pk != refused.pk and again.is_ready
