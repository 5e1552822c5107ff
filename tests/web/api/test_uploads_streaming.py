"""API uploads go to temporary files on disk, never to memory, and past the
upload limit bytes are counted but not written."""

from __future__ import annotations

import os

from mtdash.api.uploads import CappedTemporaryFileUploadHandler
from mtdash.evaluation.models import TestSet
from tests.conftest import PASSWORD
from tests.web.api.conftest import test_set_upload
from tests.web.helpers import text_file


def test_files_are_written_to_disk_and_capped(api, settings, monkeypatch):
    on_disk = {}
    complete = CappedTemporaryFileUploadHandler.file_complete

    def record(handler, file_size):
        uploaded = complete(handler, file_size)
        path = uploaded.temporary_file_path()
        on_disk[uploaded.name] = (os.path.getsize(path), uploaded.size)
        return uploaded

    monkeypatch.setattr(CappedTemporaryFileUploadHandler, "file_complete", record)
    settings.MTDASH_MAX_UPLOAD_BYTES = 1000
    big = "x\n" * 5000  # 10,000 bytes
    data = test_set_upload(source=text_file("big.fr", big))
    response = api.post("/api/v1/test-sets/", data, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "file": "big.fr",
        "line": None,
        "message": "the file is 10,000 bytes; the limit is 1,000",
    }
    # Small files too went to disk; the big one stopped at the limit.
    assert on_disk["ref.A.en"] == (14, 14)
    written, reported = on_disk["big.fr"]
    assert written <= 1000 and reported == 10_000
    assert not TestSet.objects.exists()


def test_the_browsable_api_answers_a_logged_in_browser(client, owner, test_set):
    client.login(username=owner.username, password=PASSWORD)
    response = client.get("/api/v1/test-sets/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "toy fr-en" in response.content.decode()
