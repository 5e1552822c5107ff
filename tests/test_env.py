import re
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from mtdash import env


@pytest.mark.parametrize(
    "raw, expected", [("true", True), ("No", False), ("1", True), ("off", False)]
)
def test_it_parses_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("MTDASH_X", raw)
    assert env.env_bool("MTDASH_X", not expected) is expected


@pytest.mark.parametrize("raw", ["Flase", "2", "enabled"])
def test_it_refuses_a_boolean_it_cannot_read(monkeypatch, raw):
    monkeypatch.setenv("MTDASH_X", raw)
    with pytest.raises(ImproperlyConfigured, match="MTDASH_X"):
        env.env_bool("MTDASH_X", False)


def test_it_refuses_a_number_below_the_minimum(monkeypatch):
    monkeypatch.setenv("MTDASH_N", "0")
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env.env_int("MTDASH_N", 5, minimum=1)


def test_it_refuses_a_non_number(monkeypatch):
    monkeypatch.setenv("MTDASH_N", "12MB")
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env.env_int("MTDASH_N", 5)


def test_it_splits_lists(monkeypatch):
    monkeypatch.setenv("MTDASH_L", " a.example, ,b.example ")
    assert env.env_list("MTDASH_L", []) == ["a.example", "b.example"]


def test_it_creates_a_private_secret_key_once(monkeypatch, tmp_path):
    monkeypatch.delenv("MTDASH_SECRET_KEY", raising=False)
    key_file = tmp_path / "secret_key"
    first = env.secret_key("MTDASH_SECRET_KEY", key_file)
    assert len(first) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert env.secret_key("MTDASH_SECRET_KEY", key_file) == first


def test_it_refuses_a_short_secret_key(monkeypatch, tmp_path):
    monkeypatch.setenv("MTDASH_SECRET_KEY", "short")
    with pytest.raises(ImproperlyConfigured, match="32 characters"):
        env.secret_key("MTDASH_SECRET_KEY", tmp_path / "k")


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("", None),
        ("X-Forwarded-Proto", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("x-forwarded-proto: https", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("X-Scheme:HTTPS", ("HTTP_X_SCHEME", "HTTPS")),
    ],
)
def test_it_reads_the_proxy_header_as_django_wants_it(monkeypatch, raw, expected):
    monkeypatch.setenv("MTDASH_X", raw)
    assert env.env_proxy_header("MTDASH_X") == expected


@pytest.mark.parametrize(
    "raw", ["X Forwarded Proto", "X-Forwarded-Proto:", "X_Forwarded", "-X", "a: b c"]
)
def test_it_refuses_a_proxy_header_it_cannot_read(monkeypatch, raw):
    monkeypatch.setenv("MTDASH_X", raw)
    with pytest.raises(ImproperlyConfigured, match="MTDASH_X"):
        env.env_proxy_header("MTDASH_X")


# --- .env.example documents every variable -------------------------------------

ROOT = Path(__file__).resolve().parents[1]
# A call whose first argument is a variable's name (env_str("MTDASH_X", ...),
# env_choice, artifact_storage, os.environ.get, ...) or os.environ["..."].
# (A bare prefix such as startswith(("MTDASH_", ...)) names no variable.)
NAME = r"((?:MTDASH|DATABASE|REDIS|AWS)_[A-Z0-9_]+)"
READERS = re.compile(rf"\(\s*\"{NAME}\"|os\.environ\[\"{NAME}\"\]")
SHELL_READS = re.compile(r"\$\{?((?:MTDASH|DATABASE|REDIS)_[A-Z0-9_]*)")
# The artifact storage's variables (mtdash.env.artifact_storage): documented
# by name even before the code reads them; boto3 reads the AWS pair itself.
STORAGE = {
    "MTDASH_ARTIFACT_STORAGE",
    "MTDASH_S3_BUCKET",
    "MTDASH_S3_ENDPOINT_URL",
    "MTDASH_S3_REGION",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
}


def variables_read() -> dict[str, str]:
    """Each variable the app (mtdash/) or bin/run reads -> where."""
    found = {}
    for path in sorted((ROOT / "mtdash").rglob("*.py")):
        for match in READERS.finditer(path.read_text()):
            found.setdefault(match.group(1) or match.group(2), str(path))
    for match in SHELL_READS.finditer((ROOT / "bin" / "run").read_text()):
        found.setdefault(match.group(1), "bin/run")
    return found


def documented() -> set[str]:
    """``NAME=`` lines of .env.example, set or commented out."""
    text = (ROOT / ".env.example").read_text()
    return set(re.findall(r"^(?:# )?([A-Z][A-Z0-9_]*)=", text, re.MULTILINE))


def test_every_variable_read_is_documented_in_env_example():
    read = variables_read()
    assert {"MTDASH_SECRET_KEY", "DATABASE_URL", "MTDASH_MAX_UPLOAD_FILES"} <= set(read)
    missing = {name: where for name, where in read.items() if name not in documented()}
    assert not missing, f"not in .env.example: {missing}"


def test_env_example_documents_only_variables_something_reads():
    compose = (ROOT / "docker-compose.yml").read_text()
    used_by_compose = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", compose))
    unknown = documented() - set(variables_read()) - used_by_compose - STORAGE
    assert not unknown, f"documented in .env.example but read nowhere: {unknown}"


def test_env_example_documents_the_artifact_storage():
    assert STORAGE <= documented()
    text = (ROOT / ".env.example").read_text()
    assert "filesystem (default; MTDASH_ARTIFACT_DIR) or s3" in text


def artifact_dir_in_a_fresh_process(tmp_path, **variables) -> str:
    """The settings' artifact directory in a new Python process with these
    environment variables (settings are read once per process)."""
    import os
    import subprocess
    import sys

    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTEST_XDIST_WORKER", "MTDASH_ARTIFACT_DIR")
    }
    environment.update(MTDASH_DATA_DIR=str(tmp_path), **variables)
    environment["DJANGO_SETTINGS_MODULE"] = "mtdash.settings"
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.MTDASH_ARTIFACT_DIR)",
        ],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.strip()


def test_each_parallel_test_process_has_its_own_artifact_directory(tmp_path):
    """Ids repeat across a parallel run's databases: the files they name must
    not (one process's ORANGE job 3 deleted another's chunk files)."""
    assert artifact_dir_in_a_fresh_process(tmp_path) == str(tmp_path / "artifacts")
    first = artifact_dir_in_a_fresh_process(tmp_path, PYTEST_XDIST_WORKER="gw0")
    second = artifact_dir_in_a_fresh_process(tmp_path, PYTEST_XDIST_WORKER="gw1")
    assert first != second
    assert {first, second} <= {
        str(tmp_path / "artifacts" / "test-gw0"),
        str(tmp_path / "artifacts" / "test-gw1"),
    }
    chosen = artifact_dir_in_a_fresh_process(
        tmp_path, PYTEST_XDIST_WORKER="gw0", MTDASH_ARTIFACT_DIR=str(tmp_path / "x")
    )
    assert chosen == str(tmp_path / "x")
