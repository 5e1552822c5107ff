"""The production settings documented in the README pass ``check --deploy``."""

from __future__ import annotations

import json
import os
import re
import secrets
import select
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


# A process that imports what every Django start of this project imports
# before reading its settings (numpy, scipy, Django itself: about half of
# the 2.4 s of CPU a ``manage.py check`` costs here), then runs each
# ``manage.py`` command it is sent in a child forked from it: a fresh
# process as far as the settings go (they are first imported there, from
# the environment sent), without paying the common imports four times.
FORK_SERVER = r"""
import json, os, runpy, sys, traceback

import numpy, scipy.special, scipy.stats
import django.core.management, django.db.models, django.forms, django.http
import django.template, django.urls

for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.environ.clear()
            os.environ.update(request["env"])
            for fd, name in ((1, "stdout"), (2, "stderr")):
                os.dup2(os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
            sys.argv = ["manage.py", *request["args"]]
            try:
                runpy.run_path("manage.py", run_name="__main__")
                code = 0
            except SystemExit as exit:
                code = exit.code if isinstance(exit.code, int) else int(
                    exit.code is not None
                )
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""


class ManagePy:
    """``manage.py`` commands run by :data:`FORK_SERVER`."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", FORK_SERVER],
            cwd=PROJECT_ROOT,
            env=base_environment(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, tmp_path, env: dict[str, str], *args: str):
        out, err = tmp_path / "manage.out", tmp_path / "manage.err"
        request = {"env": env, "args": args, "stdout": str(out), "stderr": str(err)}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        assert ready, f"manage.py {' '.join(args)} took over 120 s"
        returncode = int(self.process.stdout.readline())
        return subprocess.CompletedProcess(
            ["manage.py", *args], returncode, out.read_text(), err.read_text()
        )

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def manage_py():
    server = ManagePy()
    yield server
    server.close()


def base_environment() -> dict[str, str]:
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("MTDASH_") and key != "DATABASE_URL"
    }


def run_check_deploy(manage_py, tmp_path, variables: dict[str, str]):
    environment = base_environment()
    environment.update(variables, MTDASH_DATA_DIR=str(tmp_path))
    return manage_py.run(
        tmp_path, environment, "check", "--deploy", "--fail-level", "WARNING"
    )


def test_check_deploy_prints_no_warning_with_the_documented_production_variables(
    manage_py, tmp_path
):
    variables = documented_production_variables()
    assert variables["MTDASH_SECRET_KEY"].startswith("<")  # a placeholder
    variables["MTDASH_SECRET_KEY"] = secrets.token_urlsafe(50)

    completed = run_check_deploy(manage_py, tmp_path, variables)

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
def test_each_production_variable_is_needed(manage_py, tmp_path, left_out, warning):
    variables = documented_production_variables()
    variables["MTDASH_SECRET_KEY"] = secrets.token_urlsafe(50)
    del variables[left_out]

    completed = run_check_deploy(manage_py, tmp_path, variables)

    assert completed.returncode != 0
    assert warning in completed.stdout + completed.stderr


def test_every_documented_production_variable_is_in_the_configuration_table():
    text = README.read_text(encoding="utf-8")
    table = text.split("## Configuration", 1)[1].split("```bash", 1)[0]
    for name in documented_production_variables():
        assert f"`{name}`" in table, name
