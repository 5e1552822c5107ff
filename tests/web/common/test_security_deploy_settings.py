"""The production settings documented in the README pass ``check --deploy``."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[3]

README = PROJECT_ROOT / "README.md"


def documented_production_variables() -> dict[str, str]:
    """The ``bash`` block the README introduces with ``check --deploy``."""
    text = README.read_text(encoding="utf-8")
    match = re.search(
        r"`python manage\.py check --deploy`.*?```bash\n(.*?)```", text, re.S
    )
    assert match, "README: the production block after `check --deploy` is missing"
    variables = {}
    for line in match.group(1).splitlines():
        name, _, value = line.partition("=")
        variables[name.strip()] = value.strip()
    return variables


def run_check_deploy(tmp_path, variables: dict[str, str]):
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("MTDASH_") and key != "DATABASE_URL"
    }
    environment.update(variables, MTDASH_DATA_DIR=str(tmp_path))
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_prints_no_warning_with_the_documented_production_variables(
    tmp_path,
):
    variables = documented_production_variables()
    assert variables["MTDASH_SECRET_KEY"].startswith("<")  # a placeholder
    variables["MTDASH_SECRET_KEY"] = secrets.token_urlsafe(50)

    completed = run_check_deploy(tmp_path, variables)

    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in completed.stderr and "?: (" not in completed.stderr


@pytest.mark.parametrize(
    ("left_out", "warning"),
    [
        ("MTDASH_HSTS_SECONDS", "security.W004"),
        ("MTDASH_SSL_REDIRECT", "security.W008"),
        ("MTDASH_SECURE_COOKIES", "security.W012"),
    ],
)
def test_each_production_variable_is_needed(tmp_path, left_out, warning):
    variables = documented_production_variables()
    variables["MTDASH_SECRET_KEY"] = secrets.token_urlsafe(50)
    del variables[left_out]

    completed = run_check_deploy(tmp_path, variables)

    assert completed.returncode != 0
    assert warning in completed.stdout + completed.stderr


def test_every_documented_production_variable_is_in_the_configuration_table():
    text = README.read_text(encoding="utf-8")
    table = text.split("## Configuration", 1)[1].split("```bash", 1)[0]
    for name in documented_production_variables():
        assert f"`{name}`" in table, name
