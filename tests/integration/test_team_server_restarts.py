"""A team server outlives a dead process (issue 24, item 3).

A ``kill -9`` of one worker under ``bin/run --team`` once took down the web
server, the other worker and beat, and nothing restarted them. Here bin/run's
supervisor (``python -m mtdash.supervision``) runs a plan like bin/run's,
reduced to what a test can run on its own database (SQLite or PostgreSQL)
and Redis: two real Celery workers, beat (sweeping every second) and
gunicorn. A worker is killed with SIGKILL while it holds a job: the web
server keeps answering, the supervisor starts a new worker in its place, and
that worker takes over the dead one's job and completes it; the other worker
and beat are the same processes throughout. A child killed again and again
is given up after the limit while the rest keep serving. SIGTERM stops
everything; the times are printed (``pytest -s``) and quoted in the README.

``tests/integration/test_team_topology.py`` kills a worker of the full
``bin/run --team`` on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from tests.support import services
from tests.support.team import (
    descendants,
    is_worker_main,
    parent_pid,
    running,
    wait_gone,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat sat on the mat", "it is raining today", "hello all of you"]
READY = "SUPERVISED TEST SERVER IS UP"
LEASE = 4
RECOVERY_LIMIT = 120.0
STOP_LIMIT = 10.0  # "within a few seconds": the 3 s grace, then kill


@pytest.fixture(scope="module")
def broker(django_db_setup, django_db_blocker, tmp_path_factory):
    with services.module_broker(
        "supervised-redis", django_db_blocker, tmp_path_factory
    ) as own:
        yield own


@pytest.fixture(autouse=True)
def short_leases(settings):
    settings.MTDASH_JOB_LEASE_SECONDS = LEASE


@dataclass
class SupervisedServer:
    process: subprocess.Popen
    out_path: Path
    log_dir: Path
    url: str

    def output(self) -> str:
        return self.out_path.read_text(errors="replace")

    def children(self) -> dict[str, int]:
        """The supervisor's children by role: worker1, worker2, beat, web."""
        found = {}
        for pid in services.child_pids(self.process.pid):
            if not running(pid):
                continue
            for node in ("worker1", "worker2"):
                if is_worker_main(pid, node):
                    found[node] = pid
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if b"beat" in args:
                found["beat"] = pid
            if b"gunicorn" in args:
                found["web"] = pid
        return found

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.url, timeout=5) as answer:
                return answer.status == 200
        except OSError:
            return False

    def stop(self) -> float:
        """SIGTERM; the seconds until the supervisor has exited."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=60) == 0, self.output()
        return time.monotonic() - started


@pytest.fixture
def supervised(broker, collected_static, tmp_path):
    """Start the supervisor on a plan like bin/run's; kill what is left."""
    servers = []

    def start(*options: str, worker_env: dict[str, str] | None = None):
        data_dir, log_dir = tmp_path / "var", tmp_path / "var" / "log"
        log_dir.mkdir(parents=True)
        (data_dir / "staticfiles").symlink_to(collected_static)
        port = services.free_port()
        env = dict(
            os.environ,
            DATABASE_URL=broker.db_url,
            REDIS_URL=broker.url,
            MTDASH_DATA_DIR=str(data_dir),
            MTDASH_SECRET_KEY="supervised-test-" + "k" * 32,
            MTDASH_JOB_LEASE_SECONDS=str(LEASE),
            MTDASH_SWEEP_SECONDS="1",
        )
        workers = [dict(worker_env or {}) for _ in range(2)]
        plan = tmp_path / "plan.jsonl"
        plan.write_text(plan_lines(log_dir, port, workers))
        out_path = tmp_path / "supervisor.out"
        with out_path.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "mtdash.supervision", str(plan)]
                + ["--ready-url", f"http://127.0.0.1:{port}/accounts/login/"]
                + ["--ready-message", READY, *options],
                cwd=services.PROJECT_ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = SupervisedServer(
            process, out_path, log_dir, f"http://127.0.0.1:{port}/accounts/login/"
        )
        servers.append(server)
        services.wait_until(
            lambda: READY in server.output() or process.poll() is not None,
            300,
            what="the supervised server to come up",
        )
        assert READY in server.output(), server.output()
        return server

    yield start
    for server in servers:
        tree = [server.process.pid, *descendants(server.process.pid)]
        for pid in tree:
            try:
                os.killpg(os.getpgid(pid), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        server.process.wait(timeout=10)


def plan_lines(log_dir: Path, port: int, worker_envs: list[dict[str, str]]) -> str:
    """bin/run's plan for 2 workers of 1 slot, beat and 1 web process."""
    python = [sys.executable, "-m"]
    lines = []
    for i, worker_env in enumerate(worker_envs, start=1):
        settings = [f"{name}={value}" for name, value in worker_env.items()]
        command = ["env", *settings, *python, "celery", "-A", "mtdash", "worker"]
        command += ["-n", f"worker{i}@%h", "--concurrency=1", "--loglevel=INFO"]
        lines.append(child(f"worker{i}", log_dir / f"worker{i}.log", command, "ready."))
    beat = [*python, "celery", "-A", "mtdash", "beat", "--loglevel=INFO"]
    lines.append(child("beat", log_dir / "beat.log", beat))
    web = [*python, "gunicorn", "-c", "python:mtdash.gunicorn_conf", "mtdash.wsgi"]
    web += ["--bind", f"127.0.0.1:{port}"]
    web += ["--workers", "1", "--error-logfile", str(log_dir / "web.log")]
    lines.append(child("web", "-", web))
    return "".join(json.dumps(line) + "\n" for line in lines)


def child(name: str, log, command: list[str], ready: str = "") -> dict:
    return {
        "kind": "child",
        "name": name,
        "log": str(log),
        "ready": ready,
        "command": command,
    }


def claimed_by(pk: int) -> str | None:
    row = ScoringJob.objects.get(pk=pk)
    return row.claimed_by if row.status == "running" else None


def worker_main_of(claim: str) -> int:
    """The worker main process whose pool child made the claim (host:pid)."""
    return parent_pid(int(claim.rsplit(":", 1)[1]))


def test_a_killed_worker_is_restarted_and_takes_over_its_job_while_the_rest_serve(
    supervised, owner, test_set
):
    # Every job sleeps ten minutes on its first attempt: each worker holds one.
    server = supervised(worker_env={"MTDASH_JOB_TEST_DELAY_SECONDS": "600"})
    jobs = [
        create_system_output(test_set, owner, f"system {i}", HYPOTHESES) for i in (1, 2)
    ]
    claims = [
        services.wait_until(lambda job=job: claimed_by(job.pk), 60, what="a claim")
        for job in jobs
    ]
    before = server.children()
    assert {worker_main_of(claim) for claim in claims} == {
        before["worker1"],
        before["worker2"],
    }
    held_by = dict(zip((worker_main_of(c) for c in claims), jobs, strict=True))
    doomed = held_by[before["worker2"]]
    old_pool = services.child_pids(before["worker2"])

    os.kill(before["worker2"], signal.SIGKILL)
    killed_at = time.monotonic()
    assert server.answers()
    restarted = services.wait_until(
        lambda: (
            server.children().get("worker2") not in (None, before["worker2"])
            and server.children()["worker2"]
        ),
        60,
        what="a new worker2",
    )
    print(f"\nTEAM a new worker2 after {time.monotonic() - killed_at:.1f} s")
    assert wait_gone(old_pool, 5) == [], "the dead worker's pool was left running"
    done = services.wait_until(
        lambda: ScoringJob.objects.filter(pk=doomed.pk, status="succeeded").first(),
        RECOVERY_LIMIT,
        what="the dead worker's job to complete on the new worker",
    )
    print(
        f"\nRECOVERY team server, kill -9 of a worker: {time.monotonic() - killed_at:.1f} s"
    )
    assert done.attempts == 2
    assert worker_main_of(done.claimed_by) == restarted
    assert server.answers()
    after = server.children()
    assert {name: after[name] for name in ("worker1", "beat", "web")} == {
        name: before[name] for name in ("worker1", "beat", "web")
    }
    assert (
        "worker2 (pid" in server.output() and "was killed by SIGKILL" in server.output()
    )

    tree = descendants(server.process.pid)
    seconds = server.stop()  # worker1 still runs its ten-minute job
    print(f"\nTEAM stop on SIGTERM with a worker busy: {seconds:.1f} s")
    assert seconds < STOP_LIMIT
    assert wait_gone(tree, 5) == [], "processes left behind by the supervisor"


def test_a_child_killed_again_and_again_is_given_up_and_the_rest_keep_serving(
    supervised,
):
    server = supervised(
        "--restart-limit", "3", "--restart-window", "60", "--restart-delay", "0.2"
    )
    before = server.children()
    beat = before["beat"]
    for restart in range(1, 4):
        os.kill(beat, signal.SIGKILL)
        beat = services.wait_until(
            lambda old=beat: (
                server.children().get("beat") not in (None, old)
                and server.children()["beat"]
            ),
            30,
            what=f"beat's restart {restart}",
        )
    os.kill(beat, signal.SIGKILL)
    services.wait_until(
        lambda: "GIVING UP on beat" in server.output(), 10, what="the give-up"
    )
    # Longer than the next back-off would have been (0.2 s * 2**3).
    time.sleep(3)
    assert "beat" not in server.children()
    assert server.output().count("==> restarted beat") == 3
    assert "after 3 restarts in 60 s" in server.output()
    assert server.answers()
    after = server.children()
    assert {name: after[name] for name in ("worker1", "worker2", "web")} == {
        name: before[name] for name in ("worker1", "worker2", "web")
    }
    assert server.process.poll() is None

    tree = descendants(server.process.pid)
    seconds = server.stop()
    print(f"\nTEAM stop on SIGTERM, workers idle: {seconds:.1f} s")
    assert seconds < STOP_LIMIT
    assert wait_gone(tree, 5) == [], "processes left behind by the supervisor"
