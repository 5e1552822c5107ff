"""A database outage under a real gunicorn: every API route answers JSON 503
with ``Retry-After`` (never Django's HTML 500 page), and the same requests
answer normally once the database is back.

The web server is a gunicorn process of the test's own; the database goes
away for it only, while this process keeps its own connection:

- PostgreSQL: gunicorn reaches the server through :class:`TcpProxy`, with
  persistent connections (``MTDASH_DB_CONN_MAX_AGE=60``); the outage stops
  the proxy, so the first request meets a connection reset mid-use and the
  next ones a refused connection.
- SQLite: gunicorn opens the database through a symbolic link, which the
  outage points at a directory that does not exist ("unable to open
  database file", as when a volume is gone); a new connection per request.

Each variant runs when the suite runs on its database and is skipped
otherwise. Requests come with a token (the token lookup is the first query)
or with a session cookie (the session's row is read first).
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from mtdash.api.models import ApiToken
from mtdash.evaluation.services.uploads import create_system_output
from tests.support import services
from tests.support.tcp_proxy import TcpProxy

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]


class PostgresOutage:
    """gunicorn's path to PostgreSQL, through a proxy this test can cut."""

    conn_max_age = "60"
    # The persistent connection is reset; each request's health check
    # (CONN_HEALTH_CHECKS) finds it broken and opens a new one, refused.
    causes = ("Connection refused",)

    def __init__(self, settings_dict: dict, work_dir: Path):
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = int(settings_dict.get("PORT") or 5432)
        self.proxy = TcpProxy(host, port).start()
        self.server_db_url = services.database_url(
            dict(settings_dict, HOST="127.0.0.1", PORT=self.proxy.port)
        )

    def begin(self) -> None:
        self.proxy.stop()

    def end(self) -> None:
        self.proxy.start()

    def close(self) -> None:
        self.proxy.close()


class SqliteOutage:
    """gunicorn opens the SQLite file through a link the test re-points."""

    conn_max_age = "0"  # an open SQLite file would outlive the link
    causes = ("unable to open database file",)

    def __init__(self, settings_dict: dict, work_dir: Path):
        self.real = Path(settings_dict["NAME"]).resolve()
        self.link = work_dir / "database.sqlite3"
        self._point_at(self.real)
        self.server_db_url = f"sqlite:///{self.link}"

    def _point_at(self, target: Path) -> None:
        staged = self.link.with_suffix(".staged")
        staged.unlink(missing_ok=True)
        staged.symlink_to(target)
        os.replace(staged, self.link)

    def begin(self) -> None:
        self._point_at(self.link.parent / "volume-gone" / "database.sqlite3")

    def end(self) -> None:
        self._point_at(self.real)

    def close(self) -> None:
        self.end()


OUTAGES = {"postgresql": PostgresOutage, "sqlite": SqliteOutage}


@pytest.fixture(scope="module", params=sorted(OUTAGES))
def outage(request, django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        vendor, settings_dict = connection.vendor, connection.settings_dict
    if vendor != request.param:
        pytest.skip(f"the {request.param} outage needs the suite to run on it")
    outage = OUTAGES[vendor](settings_dict, tmp_path_factory.mktemp("outage"))
    yield outage
    outage.close()


@dataclass(frozen=True)
class WebServer:
    host: str
    log_path: Path


@pytest.fixture(scope="module")
def web_server(outage, redis_url, tmp_path_factory):
    """gunicorn (one worker) on the database behind ``outage``; its own
    Redis, so that an upload's message reaches no other test's worker."""
    log_path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    port = services.free_port()
    env = dict(
        os.environ,
        DATABASE_URL=outage.server_db_url,
        REDIS_URL=redis_url,
        MTDASH_DB_CONN_MAX_AGE=outage.conn_max_age,
        MTDASH_SECRET_KEY=settings.SECRET_KEY,
    )
    env.pop("MTDASH_DEBUG", None)
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "mtdash.wsgi"]
            + ["--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "60"],
            cwd=services.PROJECT_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    host = f"127.0.0.1:{port}"
    services.wait_until(
        lambda: process.poll() is not None or answers(host),
        120,
        what="gunicorn to answer",
    )
    assert process.poll() is None, log_path.read_text()
    yield WebServer(host, log_path)
    services.stop(process)


def answers(host: str) -> bool:
    try:
        request(host, "GET", "/healthz")
    except OSError:
        return False
    return True


def request(host: str, method: str, path: str, body=b"", headers=None):
    """(status, headers, body bytes) of one request on a new connection."""
    connection = http.client.HTTPConnection(host, timeout=60)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def multipart(fields: dict[str, str], files: dict[str, tuple[str, str]]):
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
        f"\r\n\r\n{value}\r\n"
        for name, value in fields.items()
    ] + [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
        f'filename="{file_name}"\r\nContent-Type: text/plain\r\n\r\n{text}\r\n'
        for name, (file_name, text) in files.items()
    ]
    body = ("".join(parts) + f"--{boundary}--\r\n").encode()
    return body, f"multipart/form-data; boundary={boundary}"


def session_cookie(user) -> str:
    """A signed-in session stored as the login view would store it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


@pytest.fixture
def routes(owner, test_set):
    """(name, method, path, body, headers, status when the database is up)."""
    _, key = ApiToken.issue(owner, "outage")
    token = {"Authorization": f"Token {key}"}
    job = create_system_output(test_set, owner, "scored", HYPOTHESES, queue=False)
    cookie = {"Cookie": session_cookie(owner)}

    def upload():
        body, content_type = multipart(
            {"system": f"sys-{uuid.uuid4().hex[:8]}", "metric": "bleu"},
            {"hypotheses": ("hyp.en", "\n".join(HYPOTHESES) + "\n")},
        )
        return body, {**token, "Content-Type": content_type}

    base = "/api/v1"
    return [
        ("GET list", "GET", f"{base}/test-sets/", lambda: (b"", token), 200),
        (
            "GET detail",
            "GET",
            f"{base}/test-sets/{test_set.pk}",
            lambda: (b"", token),
            200,
        ),  # noqa: E501
        ("GET job", "GET", f"{base}/jobs/{job.pk}", lambda: (b"", token), 200),
        (
            "POST upload",
            "POST",
            f"{base}/test-sets/{test_set.pk}/outputs/",
            upload,
            201,
        ),  # noqa: E501
        (
            "GET leaderboard (session)",
            "GET",
            f"{base}/test-sets/{test_set.pk}/leaderboard",
            lambda: (b"", cookie),
            200,
        ),
    ]


def test_every_api_route_answers_json_503_while_the_database_is_away(
    outage, web_server, routes
):
    for name, method, path, make, expected in routes:
        body, headers = make()
        status, _, content = request(web_server.host, method, path, body, headers)
        assert status == expected, (name, status, content[:300])

    outage.begin()
    try:
        answered = []
        for name, method, path, make, _ in routes:
            body, headers = make()
            started = time.monotonic()
            status, response_headers, content = request(
                web_server.host, method, path, body, headers
            )
            answered.append((name, status, time.monotonic() - started))
            assert status == 503, (name, status, content[:300])
            assert response_headers["Content-Type"] == "application/json", name
            assert int(response_headers["Retry-After"]) > 0, name
            assert json.loads(content) == {
                "errors": [
                    {
                        "file": None,
                        "line": None,
                        "message": "the database is unavailable; "
                        f"try again in {response_headers['Retry-After']} s",
                    }
                ]
            }, name
    finally:
        outage.end()
    log = web_server.log_path.read_text()
    assert log.count("database unavailable for ") >= len(routes)
    for cause in outage.causes:
        assert cause in log  # the database really was away, as planned
    print("\n" + "\n".join(f"{n}: {s} in {t * 1000:.0f} ms" for n, s, t in answered))

    for name, method, path, make, expected in routes:
        body, headers = make()
        status, _, content = request(web_server.host, method, path, body, headers)
        assert status == expected, (name, status, content[:300])
