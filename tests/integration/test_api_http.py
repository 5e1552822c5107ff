"""The API over real HTTP: a live server, a token from the command, a real
Celery worker scoring the uploaded output; the leaderboard read at the end."""

from __future__ import annotations

import http.client
import io
import json
import time
import uuid
from urllib.parse import urlsplit

import pytest
import sacrebleu
from django.core.management import call_command

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SOURCES = ["le chat est sur le tapis", "il pleut", "bonjour à tous"]
REFERENCES = {
    "A": ["the cat is on the mat", "it is raining", "hello everyone"],
    "B": ["there is a cat on the mat", "it rains", "hello all"],
}
HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]


def multipart(fields: list[tuple[str, str]], files: list[tuple[str, str, str]]):
    """A multipart/form-data body: (name, value) fields, (name, file name, text) files."""
    boundary = uuid.uuid4().hex
    body = io.BytesIO()
    for name, value in fields:
        body.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
            f"\r\n\r\n{value}\r\n".encode()
        )
    for name, file_name, text in files:
        body.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{file_name}"\r\nContent-Type: text/plain\r\n\r\n'.encode()
        )
        body.write(text.encode() + b"\r\n")
    body.write(f"--{boundary}--\r\n".encode())
    return body.getvalue(), f"multipart/form-data; boundary={boundary}"


def test_set_upload() -> tuple[bytes, str]:
    return multipart(
        [("name", "http toy"), ("source_language", "fr"), ("target_language", "en")]
        + [("reference_label", label) for label in REFERENCES],
        [("source", "src.fr", "\n".join(SOURCES) + "\n")]
        + [
            ("reference", f"ref.{label}", "\n".join(lines) + "\n")
            for label, lines in REFERENCES.items()
        ],
    )


test_set_upload.__test__ = False


class Api:
    def __init__(self, base_url: str, key: str):
        self.host = urlsplit(base_url).netloc
        self.headers = {"Authorization": f"Token {key}"}

    def request(self, method, path, body=None, content_type=None, **headers):
        connection = http.client.HTTPConnection(self.host, timeout=30)
        all_headers = {**self.headers, **headers}
        if content_type:
            all_headers["Content-Type"] = content_type
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = json.loads(response.read() or b"null")
        connection.close()
        return response.status, data


def test_an_upload_over_http_is_scored_by_the_worker(
    live_server, owner, team, celery_worker_process
):
    out = io.StringIO()
    call_command("create_api_token", owner.username, stdout=out)
    api = Api(live_server.url, out.getvalue().strip())

    started = time.monotonic()
    status, created = api.request(
        "POST", "/api/v1/test-sets/", *test_set_upload(), **{"Idempotency-Key": "t1"}
    )
    assert status == 201, created
    assert created["n_segments"] == 3 and created["references"] == ["A", "B"]
    # A retry of the same request (a new multipart boundary) gets the same answer.
    status, again = api.request(
        "POST", "/api/v1/test-sets/", *test_set_upload(), **{"Idempotency-Key": "t1"}
    )
    assert (status, again) == (201, created)

    body, content_type = multipart(
        [("system", "http-sys"), ("metric", "bleu"), ("metric", "chrf")],
        [("hypotheses", "hyp.en", "\n".join(HYPOTHESES) + "\n")],
    )
    status, output = api.request(
        "POST", f"/api/v1/test-sets/{created['id']}/outputs/", body, content_type
    )
    assert status == 201, output

    deadline = time.monotonic() + 120
    while True:
        status, job = api.request("GET", f"/api/v1/jobs/{output['job_id']}")
        assert status == 200 and job["kind"] == "scoring"
        if job["status"] in ("succeeded", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    elapsed = time.monotonic() - started
    assert job["status"] == "succeeded", job
    assert job["progress"] == 100 and job["attempts"] == 1

    status, board = api.request("GET", f"/api/v1/test-sets/{created['id']}/leaderboard")
    assert status == 200
    assert [m["spec"] for m in board["metrics"]] == ["bleu", "chrf"]
    [row] = board["systems"]
    assert (row["system"], row["output_id"]) == ("http-sys", output["output_id"])
    expected = sacrebleu.corpus_bleu(HYPOTHESES, list(REFERENCES.values())).score
    assert row["scores"]["bleu"]["score"] == pytest.approx(expected, abs=1e-4)
    assert celery_worker_process.poll() is None
    print(f"\nupload, scoring by the worker and leaderboard over HTTP: {elapsed:.2f} s")
