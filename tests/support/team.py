"""The team topology as a user runs it: ``bin/run --team`` in a subprocess,
its process tree, and an HTTP client that logs in and posts forms through the
live gunicorn (standard library only: no test client, no requests)."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

from tests.support.services import PROJECT_ROOT, child_pids

READY_LINE = "mtdash is running at"


@dataclass
class TeamServer:
    """``bash bin/run --team`` in a session of its own (so that a test that
    fails can still stop whatever it left), its output in ``out_path``."""

    process: subprocess.Popen
    out_path: Path
    data_dir: Path
    base_url: str
    startup_seconds: float = 0.0

    @classmethod
    def start(
        cls, env: dict[str, str], data_dir: Path, port: int, *args: str
    ) -> TeamServer:
        data_dir.mkdir(parents=True, exist_ok=True)
        out_path = data_dir / "bin-run.out"
        started = time.monotonic()
        with out_path.open("w") as out:
            process = subprocess.Popen(
                ["bash", "bin/run", "--team", "--port", str(port), *args],
                cwd=PROJECT_ROOT,
                env=dict(env, MTDASH_DATA_DIR=str(data_dir)),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = cls(process, out_path, data_dir, f"http://127.0.0.1:{port}")
        # Up to bin/run's own 120 s for the workers and web server, after
        # migrating and collecting the static files (20 s on a busy machine).
        server.wait_ready(timeout=180)
        server.startup_seconds = time.monotonic() - started
        return server

    def output(self) -> str:
        return self.out_path.read_text(errors="replace")

    def log(self, name: str) -> str:
        path = self.data_dir / "log" / name
        return path.read_text(errors="replace") if path.exists() else ""

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while READY_LINE not in self.output():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill_session()
                raise AssertionError(f"bin/run --team did not start:\n{self.output()}")
            time.sleep(0.1)

    def tree(self) -> list[int]:
        """Every process below bin/run (workers, their pools, beat, gunicorn
        and its workers)."""
        return descendants(self.process.pid)

    def kill_session(self) -> None:
        """Last resort after a failed test: kill the session this test
        started and every group bin/run made inside it."""
        pids = [self.process.pid, *self.tree()]
        for pid in pids:
            try:
                os.killpg(os.getpgid(pid), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        children = child_pids(todo.pop())
        found += children
        todo += children
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """The pids still running after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while (left := [pid for pid in pids if running(pid)]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)
    return left


def worker_node(pid: int) -> str | None:
    """The Celery node (``-n worker1@%h``) a worker or pool process belongs
    to: its own command line, else its parent's."""
    for candidate in (pid, parent_pid(pid)):
        if candidate is not None and (node := _own_node(candidate)) is not None:
            return node
    return None


def _own_node(pid: int) -> str | None:
    """The node ``-n`` names on ``pid``'s own command line, if any."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    if b"-n" in args:
        return args[args.index(b"-n") + 1].decode().split("@")[0]
    return None


def is_worker_main(pid: int, node: str) -> bool:
    """``pid`` is the Celery worker ``node`` itself, not one of its pool."""
    parent = parent_pid(pid)
    # The parent's own command line only: worker_node would also read the
    # grandparent's, and a pytest run with ``-n 0`` (one process, no xdist)
    # started the supervisor, so "-n 0" made every worker look like a pool.
    return worker_node(pid) == node and parent is not None and _own_node(parent) is None


def parent_pid(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class WebClient:
    """A browser without JavaScript: cookies, CSRF token, forms; redirects
    are returned, not followed, so a test sees where a form sent it."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects()
        )

    def request(self, path: str, data: bytes | None = None, headers=None) -> Response:
        request = urllib.request.Request(
            self.base_url + path, data=data, headers=headers or {}
        )
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Response(answer.status, dict(answer.headers), answer.read())
        except urllib.error.HTTPError as error:  # 3xx and 4xx/5xx alike
            return Response(error.code, dict(error.headers), error.read())

    def get(self, path: str) -> Response:
        return self.request(path)

    def csrf_token(self, path: str) -> str:
        """GET the form page; the token the page carries."""
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert match, f"no CSRF token on {path}"
        return match.group(1)

    def post(
        self,
        path: str,
        fields: dict[str, str | list[str]],
        files: dict[str, list[tuple[str, str]]] | None = None,
    ) -> Response:
        """POST ``fields`` and ``files`` (field -> [(file name, text)]) as
        multipart, with the CSRF token of the form at ``path``."""
        fields = dict(fields, csrfmiddlewaretoken=self.csrf_token(path))
        body, content_type = multipart(fields, files or {})
        return self.request(
            path,
            body,
            {"Content-Type": content_type, "Referer": self.base_url + path},
        )

    def log_in(self, username: str, password: str) -> None:
        answer = self.post(
            "/accounts/login/", {"username": username, "password": password}
        )
        assert answer.status == 302, f"login failed ({answer.status})"


def multipart(
    fields: dict[str, str | list[str]], files: dict[str, list[tuple[str, str]]]
) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, values in fields.items():
        for value in [values] if isinstance(values, str) else values:
            parts.append(
                f'Content-Disposition: form-data; name="{name}"\r\n\r\n{value}'.encode()
            )
    for name, uploads in files.items():
        for file_name, text in uploads:
            head = (
                f'Content-Disposition: form-data; name="{name}"; '
                f'filename="{file_name}"\r\nContent-Type: text/plain\r\n\r\n'
            )
            parts.append(head.encode() + text.encode("utf-8"))
    body = b"".join(f"--{boundary}\r\n".encode() + part + b"\r\n" for part in parts)
    body += f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def redirect_path(answer: Response) -> str:
    location = answer.headers.get("Location", "")
    return urllib.parse.urlsplit(location).path
