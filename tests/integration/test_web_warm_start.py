"""Web processes are warm before they take traffic (issue 24 item 6).

A team server's web process once ran past gunicorn's 30 s limit on its first
login page, and first uploads took 15-28 s: each process imported the views
(and, through them, Numba and the compiled kernels) on its first request.
Here gunicorn runs as ``bin/run`` starts it (its configuration,
``mtdash/gunicorn_conf.py``) with 2 workers on the test database; every
worker's first request must be fast, and no web process may load Numba.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from mtdash.teams.models import Membership
from tests.support import services
from tests.support.team import WebClient, descendants

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
# A warm worker answers the login page in ~10 ms; a cold one imported ~550
# modules and compiled the templates first (1-3 s on this machine).
FIRST_REQUEST_BOUND = 1.0
GUNICORN = [
    str(ROOT / ".venv" / "bin" / "gunicorn"),
    "-c",
    "python:mtdash.gunicorn_conf",
]
COMPILED = ("numba", "llvmlite")


@pytest.fixture
def gunicorn(collected_static, tmp_path):
    data_dir = tmp_path / "var"
    data_dir.mkdir()
    (data_dir / "staticfiles").symlink_to(collected_static)
    port = services.free_port()
    access_log = tmp_path / "access.log"
    env = dict(
        os.environ,
        DATABASE_URL=services.database_url(connection.settings_dict),
        MTDASH_DATA_DIR=str(data_dir),
        MTDASH_SECRET_KEY="web-warm-start-test-" + "k" * 32,
        MTDASH_ALLOWED_HOSTS="127.0.0.1,localhost",
    )
    started = time.monotonic()
    process = subprocess.Popen(
        [
            *GUNICORN,
            "mtdash.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(WORKERS),
            "--access-logfile",
            str(access_log),
            # The worker's pid and the request's seconds on every line.
            "--access-logformat",
            '%(p)s "%(r)s" %(s)s %(L)s',
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "gunicorn.err").open("w"),
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    wait_listening(url, process, tmp_path / "gunicorn.err")
    print(f"\nWEB listening after {time.monotonic() - started:.1f} s")
    yield url, process, access_log
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_listening(url: str, process, err: Path) -> None:
    """Until the port accepts a connection (no request is sent: the first
    request is what the test times)."""
    import socket

    host, port = url.removeprefix("http://").split(":")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, err.read_text()
        with socket.socket() as sock:
            if sock.connect_ex((host, int(port))) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"gunicorn did not listen in 120 s:\n{err.read_text()}")


def get(url: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
    return time.monotonic() - started


def first_requests(access_log: Path, path: str = "") -> dict[int, tuple[str, float]]:
    """Each worker pid's first logged request (for ``path``, else any):
    (request line, seconds)."""
    firsts: dict[int, tuple[str, float]] = {}
    for line in access_log.read_text().splitlines():
        found = re.match(r'<?(\d+)>? "([^"]*)" \d+ ([\d.]+)', line)
        if found and f" {path}" in found.group(2):
            pid = int(found.group(1))
            firsts.setdefault(pid, (found.group(2), float(found.group(3))))
    return firsts


def workers_of(process) -> set[int]:
    deadline = time.monotonic() + 60
    while len(workers := set(descendants(process.pid))) < WORKERS:
        assert time.monotonic() < deadline, "gunicorn did not fork its workers"
        time.sleep(0.05)
    return workers


def test_every_web_worker_answers_its_first_request_fast_and_loads_no_numba(
    gunicorn,
):
    url, process, access_log = gunicorn
    workers = workers_of(process)
    # Two at a time until both workers answered: a busy (cold) worker leaves
    # the next connection to the other.
    deadline = time.monotonic() + 120
    with ThreadPoolExecutor(WORKERS) as pool:
        while len(first_requests(access_log)) < WORKERS:
            assert time.monotonic() < deadline, access_log.read_text()
            list(pool.map(get, [f"{url}/accounts/login/"] * WORKERS))
            time.sleep(0.2)  # the access log is written after the answer
    firsts = first_requests(access_log)
    load = Path("/proc/loadavg").read_text().split()[:3]
    for pid, (request, seconds) in sorted(firsts.items()):
        print(f"WEB worker {pid}: first request {request!r} {seconds:.3f} s")
    print(f"WEB load average {' '.join(load)}")
    assert set(firsts) == workers
    slow = {pid: seconds for pid, (_, seconds) in firsts.items()}
    assert max(slow.values()) < FIRST_REQUEST_BOUND, slow

    # Pages that reach scoring and ORANGE code, then the libraries mapped in
    # each worker: neither Numba nor LLVM may be there.
    for path in ("/healthz", "/api/v1/schema", "/orange/", "/accounts/login/"):
        for _ in range(WORKERS):
            get(f"{url}{path}")
    for pid in workers:
        mapped = Path(f"/proc/{pid}/maps").read_text()
        assert not [name for name in COMPILED if f"/{name}/" in mapped], pid


def test_every_web_worker_shows_its_first_output_form_fast(
    gunicorn, django_user_model, test_set
):
    """The output form offers the language's default metrics, built once per
    process: METEOR read WordNet there (3-7 s) until the warm-up did it in
    the master."""
    url, process, access_log = gunicorn
    workers = workers_of(process)
    # The default hasher (the fixtures' fast one is not in gunicorn's settings).
    hasher = PBKDF2PasswordHasher()
    user = django_user_model.objects.create_user("warm")
    user.password = hasher.encode("warm start pw 1", hasher.salt())
    user.save()
    Membership.objects.create(team=test_set.team, user=user, role="owner")
    clients = [WebClient(url) for _ in range(WORKERS)]
    for client in clients:
        client.log_in("warm", "warm start pw 1")
    form = f"/test-sets/{test_set.pk}/outputs/new/"

    def show(client: WebClient) -> None:
        assert client.get(form).status == 200

    deadline = time.monotonic() + 120
    with ThreadPoolExecutor(WORKERS) as pool:
        while len(first_requests(access_log, form)) < WORKERS:
            assert time.monotonic() < deadline, access_log.read_text()
            list(pool.map(show, clients))
            time.sleep(0.2)
    firsts = first_requests(access_log, form)
    for pid, (_, seconds) in sorted(firsts.items()):
        print(f"WEB worker {pid}: first output form {seconds:.3f} s")
    assert set(firsts) == workers
    slow = {pid: seconds for pid, (_, seconds) in firsts.items()}
    assert max(slow.values()) < FIRST_REQUEST_BOUND, slow


def test_no_web_module_imports_numba():
    """Every module the web server can reach (the WSGI application, every
    view of the URL configuration, the warm-up) without Numba."""
    probe = """
import sys
import mtdash.wsgi
from django.urls import get_resolver

def walk(resolver):
    for pattern in resolver.url_patterns:
        if hasattr(pattern, "url_patterns"):
            walk(pattern)
        else:
            pattern.callback

walk(get_resolver())
loaded = sorted(n for n in sys.modules if n.split(".")[0] in ("numba", "llvmlite"))
kernels = sorted(n for n in sys.modules if n.startswith("scoring.batch.kernels"))
print(len(sys.modules), loaded[:5], kernels[:5])
raise SystemExit(1 if loaded or kernels else 0)
"""
    env = dict(os.environ, MTDASH_SECRET_KEY="probe-" + "k" * 40)
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]


def test_bin_run_docker_and_compose_start_gunicorn_with_the_warm_configuration():
    config = "python:mtdash.gunicorn_conf"
    assert config in (ROOT / "bin" / "run").read_text()
    assert config in (ROOT / "Dockerfile").read_text()
    assert config in (ROOT / "docker-compose.yml").read_text()
