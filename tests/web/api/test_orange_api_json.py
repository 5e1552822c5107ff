"""The API's ORANGE results equal ``python -m scoring orange --json
--paired-test`` (the job ran the paired test) for every ``above_reference``
limit; a bad limit is a 400 naming the parameter."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.web.api.test_orange_api import _assert_close, finished_job  # noqa: F401
from tests.web.orange.orange_support import TOY_NBEST, artifact_dir_fixture  # noqa: F401


def cli_json(test_set, tmp_path, *extra: str) -> dict:
    (tmp_path / "toy.nbest").write_text(TOY_NBEST)
    refs = []
    for label, stream in zip("AB", test_set.reference_streams()):
        (tmp_path / label).write_text("\n".join(stream) + "\n")
        refs.append(str(tmp_path / label))
    completed = subprocess.run(
        [sys.executable, "-m", "scoring", "orange", "--json", "--nbest",
         str(tmp_path / "toy.nbest"), "--refs", *refs, "--metric", "bleu",
         "--metric", "ter", "--bootstrap", "200", "--seed", "7", *extra],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(completed.stdout)


@pytest.mark.parametrize("limit", ["0", "1", "all", "none"])
def test_every_limit_answers_what_the_cli_prints(
    api,
    test_set,
    finished_job,  # noqa: F811
    tmp_path,
    limit,
):
    response = api.get(f"/api/v1/orange/{finished_job.pk}?above_reference={limit}")
    assert response.status_code == 200
    expected = cli_json(test_set, tmp_path, "--paired-test", "--above-reference", limit)
    _assert_close(response.json(), expected)
    body = response.json()
    assert body["above_reference_limit"] == (int(limit) if limit.isdigit() else limit)
    listed = {
        (sentence["sentence"], index)
        for entry in body["metrics"].values()
        for sentence in entry.get("above_reference", [])
        for index, _ in sentence["candidates"]
    }
    texts = {
        (int(s), int(j))
        for s, by_index in body["candidate_texts"].items()
        for j in by_index
    }
    assert texts == listed


def test_a_bad_limit_is_refused(api, finished_job):  # noqa: F811
    response = api.get(f"/api/v1/orange/{finished_job.pk}?above_reference=many")
    assert response.status_code == 400
    assert "--above-reference" in response.json()["errors"][0]["message"]
