"""Artifacts go through Django's storage API; by default a directory, as before.

The S3 path, against a real S3-compatible server, is tested in
``tests/integration/test_s3_artifacts.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.files.base import ContentFile

from mtdash.env import artifact_storage as storage_setting
from mtdash.orange.artifact_storage import (
    ArtifactFileSystemStorage,
    artifact_storage,
    delete_tree,
    read_bytes,
    read_range,
    save_file,
)
from mtdash.orange.jobs import artifacts
from tests.support.services import PROJECT_ROOT
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    make_nbest,
)

S3_VARIABLES = (
    "MTDASH_ARTIFACT_STORAGE",
    "MTDASH_S3_BUCKET",
    "MTDASH_S3_ENDPOINT_URL",
    "MTDASH_S3_REGION",
)


def files_under(directory) -> list[str]:
    return sorted(
        str(path.relative_to(directory))
        for path in directory.rglob("*")
        if path.is_file()
    )


@pytest.fixture
def clean_environment(monkeypatch):
    for name in S3_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


# -- the file-system default ---------------------------------------------------


def test_the_default_storage_is_the_artifact_directory(
    clean_environment, settings, artifact_dir
):
    assert storage_setting("MTDASH_ARTIFACT_STORAGE") == {
        "BACKEND": "mtdash.orange.artifact_storage.ArtifactFileSystemStorage"
    }
    storage = artifact_storage()
    assert isinstance(storage, ArtifactFileSystemStorage)
    # It follows the setting, so a test's (or an operator's) directory is used.
    assert storage.location == str(artifact_dir)


def test_an_uploaded_list_lands_where_it_always_did(test_set, owner, artifact_dir):
    nbest = make_nbest(test_set, TOY_NBEST, user=owner)

    assert nbest.artifact.startswith("orange/nbest/")
    assert files_under(artifact_dir) == [
        f"{nbest.artifact}/{artifacts.CANDIDATES_FILE}",
        f"{nbest.artifact}/{artifacts.INDEX_FILE}",
    ]
    assert artifacts.artifact_path(nbest.artifact) == artifact_dir / nbest.artifact
    ids, candidates = artifacts.read_candidates(nbest.artifact, 1, 3)
    assert ids == [1, 2]
    assert candidates[1] == ('hello everyone <script>alert("x")</script>', "hello all")


def test_saving_a_name_again_replaces_the_file_without_leftovers(artifact_dir):
    save_file("orange/jobs/7/chunk-00000.npz", b"first")
    save_file("orange/jobs/7/chunk-00000.npz", b"second")

    assert files_under(artifact_dir) == ["orange/jobs/7/chunk-00000.npz"]
    assert read_bytes("orange/jobs/7/chunk-00000.npz") == b"second"
    assert read_range("orange/jobs/7/chunk-00000.npz", 1, 4) == b"eco"


class BrokenUpload(ContentFile):
    """Yields one chunk, then fails as a full disk or a dropped stream would."""

    def chunks(self, chunk_size=None):
        yield b"half of "
        raise OSError("no space left on device")


def test_a_failed_save_leaves_the_old_file_whole_and_no_temporary_file(
    artifact_dir,
):
    save_file("orange/jobs/7/chunk-00000.npz", b"the old result")

    with pytest.raises(OSError, match="no space left"):
        save_file("orange/jobs/7/chunk-00000.npz", BrokenUpload(b""))
    with pytest.raises(OSError, match="no space left"):
        save_file("orange/jobs/7/chunk-00001.npz", BrokenUpload(b""))

    assert files_under(artifact_dir) == ["orange/jobs/7/chunk-00000.npz"]
    assert read_bytes("orange/jobs/7/chunk-00000.npz") == b"the old result"


def test_a_list_whose_index_cannot_be_written_leaves_nothing(
    test_set, owner, artifact_dir, monkeypatch
):
    def failing_savez(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", failing_savez)
    with pytest.raises(OSError, match="disk full"):
        make_nbest(test_set, TOY_NBEST, user=owner)

    assert files_under(artifact_dir) == []


def test_deleting_a_prefix_deletes_everything_under_it_and_nothing_else(
    artifact_dir,
):
    save_file("orange/jobs/7/chunk-00000.npz", b"a")
    save_file("orange/jobs/7/chunk-00001.npz", b"b")
    save_file("orange/jobs/70/chunk-00000.npz", b"c")

    delete_tree("orange/jobs/7")
    delete_tree("orange/jobs/8")  # missing: fine

    assert files_under(artifact_dir) == ["orange/jobs/70/chunk-00000.npz"]
    assert not (artifact_dir / "orange/jobs/7").exists()
    with pytest.raises(ValueError, match="refusing"):
        delete_tree("")
    with pytest.raises(FileNotFoundError):
        read_bytes("orange/jobs/7/chunk-00000.npz")


# -- choosing the backend --------------------------------------------------------


def test_s3_is_configured_from_the_documented_variables(clean_environment):
    clean_environment.setenv("MTDASH_ARTIFACT_STORAGE", "S3")
    clean_environment.setenv("MTDASH_S3_BUCKET", "mt-artifacts")
    clean_environment.setenv("MTDASH_S3_ENDPOINT_URL", "http://127.0.0.1:9000")
    clean_environment.setenv("MTDASH_S3_REGION", "eu-west-1")

    config = storage_setting("MTDASH_ARTIFACT_STORAGE")

    assert config["BACKEND"] == "storages.backends.s3.S3Storage"
    options = config["OPTIONS"]
    assert (
        options["bucket_name"],
        options["endpoint_url"],
        options["region_name"],
    ) == (
        "mt-artifacts",
        "http://127.0.0.1:9000",
        "eu-west-1",
    )
    assert options["file_overwrite"] is True
    assert options["addressing_style"] == "path"


def test_amazon_s3_needs_neither_endpoint_nor_region(clean_environment):
    clean_environment.setenv("MTDASH_ARTIFACT_STORAGE", "s3")
    clean_environment.setenv("MTDASH_S3_BUCKET", "mt-artifacts")

    options = storage_setting("MTDASH_ARTIFACT_STORAGE")["OPTIONS"]

    assert options["endpoint_url"] is None and options["region_name"] is None
    assert options["addressing_style"] is None  # boto3 chooses


@pytest.mark.parametrize(
    "variables, message",
    [
        ({"MTDASH_ARTIFACT_STORAGE": "s3"}, "MTDASH_ARTIFACT_STORAGE=s3 needs MTDASH_S3_BUCKET"),
        ({"MTDASH_ARTIFACT_STORAGE": "minio"}, "MTDASH_ARTIFACT_STORAGE='minio' is not one of filesystem, s3"),
    ],
)  # fmt: skip
def test_a_bad_choice_is_refused_naming_the_variable(
    clean_environment, variables, message
):
    for name, value in variables.items():
        clean_environment.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=message):
        storage_setting("MTDASH_ARTIFACT_STORAGE")


def test_the_app_does_not_start_with_s3_and_no_bucket(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in S3_VARIABLES}
    env.update(MTDASH_ARTIFACT_STORAGE="s3", MTDASH_DATA_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-m", "django", "check", "--settings=mtdash.settings"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "MTDASH_ARTIFACT_STORAGE=s3 needs MTDASH_S3_BUCKET" in result.stderr
