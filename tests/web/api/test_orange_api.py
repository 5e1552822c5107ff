"""ORANGE over the API: n-best upload (plain or gzip, capped), a job, its
results equal to ``python -m scoring orange --json``, retry."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from mtdash.orange.jobs.lifecycle import run_orange_job_now
from mtdash.orange.models import NBestList, OrangeChunk, OrangeJob
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401
    TOY_NBEST,
    artifact_dir_fixture,
    check_waiting_uploads,
)


def nbest_url(test_set) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/nbest/"


def upload_nbest(api, test_set, data: bytes, name="toy.nbest", **extra):
    """Post the list, then run the check it queued (a worker's job) here."""
    fields = {"nbest": text_file(name, data), "name": "toy 3-best"}
    response = api.post(nbest_url(test_set), fields, format="multipart", **extra)
    check_waiting_uploads()
    return response


def refusal(api, response) -> dict:
    """The one error of a list its check refused, from GET /api/v1/nbest/{id}."""
    assert response.status_code == 201, response.json()
    body = api.get(f"/api/v1/nbest/{response.json()['id']}").json()
    assert body["status"] == "failed"
    [problem] = body["errors"]
    return problem


def test_an_nbest_list_is_stored_and_checked(api, test_set, artifact_dir):
    response = upload_nbest(api, test_set, TOY_NBEST.encode())
    assert response.status_code == 201, response.json()
    nbest = NBestList.objects.get()
    assert response.json() == {"id": nbest.pk, "status": "queued"}
    assert (nbest.n_sentences, nbest.n_candidates) == (3, 8)
    body = api.get(f"/api/v1/nbest/{nbest.pk}").json()
    assert body["status"] == "succeeded" and body["progress"] == 100
    assert (body["n_sentences"], body["n_candidates"]) == (3, 8)
    assert "errors" not in body


def test_a_gzip_compressed_list_is_stored_as_sent_and_checked_decompressed(
    api, test_set, artifact_dir
):
    data = gzip.compress(TOY_NBEST.encode())
    response = upload_nbest(api, test_set, data, name="toy.nbest.gz")
    assert response.status_code == 201, response.json()
    nbest = NBestList.objects.get()
    assert nbest.n_candidates == 8 and nbest.status == "succeeded"
    assert (nbest.file_name, nbest.upload_name) == ("toy.nbest", "toy.nbest.gz")
    assert nbest.uploaded_bytes == len(data)


def test_decompression_stops_at_the_nbest_limit(api, test_set, artifact_dir, settings):
    settings.MTDASH_MAX_NBEST_BYTES = 100_000
    bomb = gzip.compress(b"0 ||| a ||| f=1 ||| 1\n" * 1_000_000)  # 22 MB, ~60 kB packed
    assert len(bomb) < settings.MTDASH_MAX_NBEST_BYTES
    problem = refusal(api, upload_nbest(api, test_set, bomb, name="bomb.nbest.gz"))
    assert problem["file"] == "bomb.nbest.gz"
    assert problem["message"].startswith("decompressed, the file is more than 100,000")
    assert not NBestList.objects.filter(status="succeeded").exists()
    assert not any(artifact_dir.rglob("*.*")) if artifact_dir.exists() else True


def test_a_file_over_the_nbest_limit_is_refused_at_once(
    api, test_set, artifact_dir, settings
):
    settings.MTDASH_MAX_NBEST_BYTES = 100
    response = upload_nbest(api, test_set, TOY_NBEST.encode())
    assert response.status_code == 400
    [problem] = response.json()["errors"]
    assert problem["file"] == "toy.nbest"
    assert problem["message"].endswith("the limit for an n-best list is 100")
    assert not NBestList.objects.exists()
    assert not any(artifact_dir.rglob("*.*")) if artifact_dir.exists() else True


def test_broken_gzip_data_is_refused(api, test_set, artifact_dir):
    data = gzip.compress(TOY_NBEST.encode())[:-12]
    problem = refusal(api, upload_nbest(api, test_set, data, name="cut.nbest.gz"))
    assert problem["file"] == "cut.nbest.gz"
    assert problem["message"].startswith("the gzip data cannot be decompressed")


def test_a_malformed_list_is_named_with_its_line(api, test_set, artifact_dir):
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "malformed"
    data = (fixture / "id-out-of-range.nbest").read_bytes()
    response = upload_nbest(api, test_set, data, name="id-out-of-range.nbest")
    problem = refusal(api, response)
    assert (problem["file"], problem["line"]) == ("id-out-of-range.nbest", 2)
    assert problem["message"].startswith("sentence id")
    assert not any(artifact_dir.rglob("*.*")) if artifact_dir.exists() else True
    # A refused list cannot be used.
    url = f"/api/v1/nbest/{response.json()['id']}/orange/"
    started = api.post(url, {"metrics": ["bleu"]}, format="json")
    assert started.status_code == 409
    assert "the n-best list was refused" in started.json()["errors"][0]["message"]
    assert not OrangeJob.objects.exists()


def test_a_list_still_being_checked_cannot_start_orange(api, test_set, artifact_dir):
    fields = {"nbest": text_file("toy.nbest", TOY_NBEST.encode()), "name": "toy"}
    response = api.post(nbest_url(test_set), fields, format="multipart")
    url = f"/api/v1/nbest/{response.json()['id']}/orange/"
    started = api.post(url, {"metrics": ["bleu"]}, format="json")
    assert started.status_code == 409
    assert "still being checked" in started.json()["errors"][0]["message"]


def test_another_teams_test_set_and_list_are_404s(
    api, outsider_api, test_set, artifact_dir
):
    assert upload_nbest(outsider_api, test_set, TOY_NBEST.encode()).status_code == 404
    nbest_id = upload_nbest(api, test_set, TOY_NBEST.encode()).json()["id"]
    response = outsider_api.post(
        f"/api/v1/nbest/{nbest_id}/orange/", {"metrics": ["bleu"]}, format="json"
    )
    assert response.status_code == 404
    assert not OrangeJob.objects.exists()


@pytest.fixture
def finished_job(api, test_set, artifact_dir, queued):
    nbest_id = upload_nbest(api, test_set, TOY_NBEST.encode()).json()["id"]
    request = {"metrics": ["bleu", "ter"], "bootstrap": 200, "seed": 7}
    response = api.post(f"/api/v1/nbest/{nbest_id}/orange/", request, format="json")
    assert response.status_code == 201, response.json()
    job = OrangeJob.objects.get()
    assert response.json() == {"job_id": job.pk}
    body = api.get(f"/api/v1/orange/{job.pk}").json()
    assert body["status"] == "queued" and body["kind"] == "orange"
    run_orange_job_now(job)
    return job


@pytest.mark.parametrize("tested", [True, False], ids=["paired-test", "untested"])
def test_a_finished_job_answers_what_the_cli_prints(
    api, test_set, finished_job, tmp_path, tested
):
    # A job runs the paired test at merge: it answers what the command line
    # prints with --paired-test. A job merged before the test existed (its
    # scores untested) answers what it prints without.
    if not tested:
        finished_job.scores.update(tested=False)
    response = api.get(f"/api/v1/orange/{finished_job.pk}")
    assert response["X-Job-Status"] == "succeeded"
    (tmp_path / "toy.nbest").write_text(TOY_NBEST)
    refs = []
    for label, stream in zip("AB", test_set.reference_streams()):
        (tmp_path / label).write_text("\n".join(stream) + "\n")
        refs.append(str(tmp_path / label))
    cli = subprocess.run(
        [sys.executable, "-m", "scoring", "orange", "--json", "--nbest",
         str(tmp_path / "toy.nbest"), "--refs", *refs, "--metric", "bleu",
         "--metric", "ter", "--bootstrap", "200", "--seed", "7",
         *(["--paired-test"] if tested else [])],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    expected = json.loads(cli.stdout)
    assert list(response.json()["metrics"]) == ["bleu", "ter"]
    _assert_close(response.json(), expected)
    assert ("paired_test" in expected) == tested
    for entry in expected["metrics"].values():
        assert ("paired_test" in entry) == tested


def _assert_close(got, expected) -> None:
    """Equal JSON, floats to 1e-9 (the database stores them as doubles)."""
    if isinstance(expected, dict):
        assert set(got) == set(expected)
        for key in expected:
            _assert_close(got[key], expected[key])
    elif isinstance(expected, list):
        assert len(got) == len(expected)
        for item, wanted in zip(got, expected):
            _assert_close(item, wanted)
    elif isinstance(expected, float):
        assert got == pytest.approx(expected, abs=1e-9)
    else:
        assert got == expected


def test_the_job_status_says_the_orange_job(api, finished_job):
    body = api.get(f"/api/v1/jobs/{finished_job.pk}?kind=orange").json()
    assert (body["kind"], body["status"], body["progress"]) == (
        "orange",
        "succeeded",
        100,
    )
    assert body["attempts"] == OrangeChunk.objects.count()


def test_a_finished_job_is_not_retried_and_a_failed_one_is(
    api, finished_job, queued, django_capture_on_commit_callbacks
):
    response = api.post(f"/api/v1/orange/{finished_job.pk}/retry")
    assert response.status_code == 409
    assert "Only a failed job" in response.json()["errors"][0]["message"]
    OrangeJob.objects.filter(pk=finished_job.pk).update(status="failed")
    OrangeChunk.objects.filter(job=finished_job).update(status="failed")
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/v1/jobs/{finished_job.pk}/retry?kind=orange")
    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    chunk_ids = list(OrangeChunk.objects.values_list("pk", flat=True))
    assert queued[-1] == chunk_ids


@pytest.mark.parametrize(
    "request_body, message",
    [
        ({"metrics": ["meteor:paraphrase=/etc/passwd"]}, "names a file on the server"),
        ({"metrics": ["bleu"], "bootstrap": -1}, "bootstrap: "),
        ({"metrics": [3]}, "metrics: give a list of metric specs"),
    ],
)
def test_an_orange_request_is_checked_like_the_web_form(
    api, test_set, artifact_dir, request_body, message
):
    nbest_id = upload_nbest(api, test_set, TOY_NBEST.encode()).json()["id"]
    response = api.post(
        f"/api/v1/nbest/{nbest_id}/orange/", request_body, format="json"
    )
    assert response.status_code == 400
    assert message in response.json()["errors"][0]["message"]
    assert not OrangeJob.objects.exists()


def test_a_retried_orange_request_returns_the_same_job(api, test_set, artifact_dir):
    nbest_id = upload_nbest(api, test_set, TOY_NBEST.encode()).json()["id"]
    url = f"/api/v1/nbest/{nbest_id}/orange/"
    first = api.post(
        url, {"metrics": ["bleu"]}, format="json", HTTP_IDEMPOTENCY_KEY="o"
    )
    again = api.post(
        url, {"metrics": ["bleu"]}, format="json", HTTP_IDEMPOTENCY_KEY="o"
    )
    assert first.json() == again.json() and OrangeJob.objects.count() == 1
