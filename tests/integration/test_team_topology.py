"""The team server as a user runs it without Docker: ``bin/run --team
--workers 2`` on the test database (PostgreSQL) and a Redis of the test's
own. Through the live gunicorn a user logs in, uploads a test set and system
outputs; both worker processes must take jobs, beat must run the sweeper,
static files must be served, a worker killed with SIGKILL must come back
while the rest keep serving, and SIGTERM must stop every process bin/run
started. Startup time and job throughput are
printed (``pytest -s``) and quoted in the README.

docker-compose.yml cannot be run here (no Docker daemon): its structure is
checked instead.
"""

from __future__ import annotations

import gzip
import os
import re
import signal
import time

import pytest
from django.db import connection

from mtdash.evaluation.models import ScoringJob, TestSet
from mtdash.teams.models import Membership, Team
from tests.support import services
from tests.support.team import (
    TeamServer,
    WebClient,
    is_worker_main,
    parent_pid,
    redirect_path,
    wait_gone,
    worker_node,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PASSWORD = "team topology password 7"
SEGMENTS = 40
OUTPUTS = 8
METRICS = ["bleu", "chrf", "ter"]


@pytest.fixture
def postgres():
    if connection.vendor != "postgresql":
        pytest.skip(
            "bin/run --team refuses SQLite: run on PostgreSQL "
            "(DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres)"
        )


@pytest.fixture
def team_env(postgres, settings, tmp_path):
    """The environment bin/run --team gets: the test database, a Redis of
    this test's own, a secret key, the sweeper every second."""
    redis_process, redis_url = services.start_redis(tmp_path)
    env = dict(
        os.environ,
        DATABASE_URL=services.database_url(connection.settings_dict),
        REDIS_URL=redis_url,
        MTDASH_SECRET_KEY="team-topology-test-" + "k" * 32,
        MTDASH_SWEEP_SECONDS="1",
        MTDASH_ARTIFACT_DIR=str(settings.MTDASH_ARTIFACT_DIR),
    )
    yield env
    services.stop(redis_process)


@pytest.fixture
def user(django_user_model):
    # The default (slow) password hasher: gunicorn checks it with its settings.
    user = django_user_model.objects.create_user("tess", password=PASSWORD)
    team = Team.objects.create(name="Topology lab")
    Membership.objects.create(team=team, user=user, role=Membership.Role.OWNER)
    return user


@pytest.fixture
def team_server(team_env, tmp_path):
    servers = []

    def start(*args: str) -> TeamServer:
        server = TeamServer.start(
            team_env, tmp_path / "var", services.free_port(), *args
        )
        servers.append(server)
        print(f"\nTEAM startup ({' '.join(args)}): {server.startup_seconds:.1f} s")
        return server

    yield start
    for server in servers:
        if server.process.poll() is None:
            server.kill_session()


def lines(prefix: str) -> str:
    return "".join(
        f"{prefix} sentence number {i} of the test\n" for i in range(SEGMENTS)
    )


def upload_test_set(client: WebClient, team: Team) -> TestSet:
    answer = client.post(
        "/test-sets/new/",
        {
            "team": str(team.pk),
            "name": "topology fr-en",
            "source_language": "fr",
            "target_language": "en",
            "text_type": "news",
        },
        {
            "source_file": [("src.fr", lines("une phrase"))],
            "reference_files": [
                ("ref.A.en", lines("the reference")),
                ("ref.B.en", lines("another reference")),
            ],
        },
    )
    assert answer.status == 302, answer.text[:2000]
    return TestSet.objects.get(team=team)


def wait_until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout} s")


def test_two_workers_share_the_jobs_beat_sweeps_and_sigterm_stops_all(
    team_server, user
):
    server = team_server("--workers", "2")
    client = WebClient(server.base_url)
    client.log_in("tess", PASSWORD)

    css = client.get("/static/css/base.css")
    assert css.status == 200 and css.body
    assert (server.data_dir / "staticfiles" / "css" / "base.css").exists()
    health = client.get("/healthz")
    assert health.status == 200 and '"broker": "ok"' in health.text

    test_set = upload_test_set(client, user.teams.get())
    started = time.monotonic()
    for i in range(OUTPUTS):
        answer = client.post(
            f"/test-sets/{test_set.pk}/outputs/new/",
            {"system_name": f"system {i}", "metrics": METRICS},
            {"hypothesis_file": [(f"hyp{i}.en", lines(f"system {i} says"))]},
        )
        assert answer.status == 302, answer.text[:2000]
        assert redirect_path(answer).startswith("/jobs/")

    def finished_jobs() -> list[ScoringJob]:
        jobs = list(ScoringJob.objects.filter(output__test_set=test_set))
        done = len(jobs) == OUTPUTS and all(job.is_finished for job in jobs)
        return jobs if done else []

    jobs = wait_until(finished_jobs, 60, "every scoring job finished")
    elapsed = time.monotonic() - started
    print(
        f"\nTEAM throughput: {OUTPUTS} uploads scored ({SEGMENTS} segments, "
        f"{'+'.join(METRICS)}) in {elapsed:.1f} s = {OUTPUTS / elapsed:.2f} jobs/s"
    )
    assert {job.status for job in jobs} == {ScoringJob.Status.SUCCEEDED}, [
        job.error_message for job in jobs
    ]
    status = client.get(f"/jobs/{jobs[0].pk}/status.json")
    assert status.status == 200 and b"succeeded" in status.body
    assert_static_files_are_hashed_gzipped_and_cached(
        client, f"/test-sets/{test_set.pk}/"
    )

    # Both worker processes took jobs: each row names the process that ran it.
    nodes = {worker_node(int(job.claimed_by.rsplit(":", 1)[1])) for job in jobs}
    assert nodes == {"worker1", "worker2"}, [job.claimed_by for job in jobs]

    # Beat runs the sweeper itself every second; no worker is sent it.
    wait_until(
        lambda: server.log("beat.log").count("sweeper: swept in") >= 2,
        15,
        "beat swept twice",
    )
    assert not any(
        "Task mtdash.common.tasks.sweep_jobs[" in server.log(f"worker{i}.log")
        for i in (1, 2)
    )

    tree = server.tree()
    # 2 workers with 2 pool processes each, beat, gunicorn with 3 workers.
    assert len(tree) >= 2 * 3 + 1 + 4, tree
    stopping = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=30) == 0, server.output()
    print(f"\nTEAM stop on SIGTERM: {time.monotonic() - stopping:.1f} s")
    assert wait_gone(tree, 5) == [], "processes left behind by bin/run --team"


def assert_static_files_are_hashed_gzipped_and_cached(client: WebClient, page: str):
    """The page's scripts (Plotly among them: the leaderboard's charts) have
    collectstatic's hashed names; gunicorn (WhiteNoise) answers Plotly
    gzipped, cached for a year or more; and /favicon.ico answers."""
    html = client.get(page).text
    scripts = re.findall(r'<script src="(/static/[^"]+)"', html)
    assert scripts and all(re.search(r"\.[0-9a-f]{12}\.js$", s) for s in scripts)
    (plotly,) = [script for script in scripts if "/plotly-basic-" in script]
    answer = client.request(plotly, headers={"Accept-Encoding": "gzip"})
    assert answer.status == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    seconds = int(re.search(r"max-age=(\d+)", answer.headers["Cache-Control"])[1])
    assert seconds >= 365 * 24 * 3600, answer.headers["Cache-Control"]
    assert len(answer.body) < 400_000 < len(gzip.decompress(answer.body))
    print(f"\nTEAM Plotly on the wire: {len(answer.body)} bytes gzipped")
    icon = client.get("/favicon.ico")
    assert icon.status == 200 and icon.body[:4] == b"\x00\x00\x01\x00"


def test_a_killed_worker_is_restarted_and_the_rest_keep_serving(team_server):
    """A kill -9 of one worker once stopped the whole team server."""
    server = team_server("--workers", "2", "--web-workers", "1")
    client = WebClient(server.base_url)
    tree = server.tree()
    worker2 = next(pid for pid in tree if is_worker_main(pid, "worker2"))
    others = [pid for pid in tree if pid != worker2 and parent_pid(pid) != worker2]

    os.kill(worker2, signal.SIGKILL)
    killed_at = time.monotonic()

    assert client.get("/healthz").status == 200
    new_worker2 = wait_until(
        lambda: next(
            (
                pid
                for pid in server.tree()
                if is_worker_main(pid, "worker2") and pid != worker2
            ),
            None,
        ),
        60,
        "a new worker2",
    )
    wait_until(
        lambda: server.log("worker2.log").count("ready.") >= 2, 120, "it is ready"
    )
    print(
        f"\nTEAM worker2 back and ready {time.monotonic() - killed_at:.1f} s after kill -9"
    )
    assert server.process.poll() is None
    assert wait_gone(others, 0) == others  # the web server, worker1 and beat
    assert client.get("/healthz").status == 200
    assert "worker2 (pid" in server.output() and "restarted worker2" in server.output()

    tree = server.tree()
    assert new_worker2 in tree
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=30) == 0, server.output()
    assert wait_gone(tree, 5) == [], "processes left behind by bin/run --team"


# --- docker-compose.yml: no Docker daemon here, so its structure is checked ---


@pytest.fixture(scope="module")
def compose():
    yaml = pytest.importorskip("yaml", reason="PyYAML reads docker-compose.yml")
    return yaml.safe_load((services.PROJECT_ROOT / "docker-compose.yml").read_text())


def test_compose_runs_every_app_service_from_one_image_and_env_file(compose):
    apps = {name: compose["services"][name] for name in ("web", "worker", "beat")}
    assert {service["build"] for service in apps.values()} == {"."}
    assert {service["image"] for service in apps.values()} == {"mtdash:latest"}
    for service in apps.values():
        assert service["env_file"] == ".env"
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert (
            service["depends_on"]["migrate"]["condition"]
            == "service_completed_successfully"
        )
    assert apps["worker"]["deploy"]["replicas"] >= 2
    assert (
        "--scale worker=" in (services.PROJECT_ROOT / "docker-compose.yml").read_text()
    )


def test_compose_checks_the_health_of_every_service(compose):
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert compose["services"][name]["healthcheck"]["test"], name
    assert compose["services"]["redis"]["healthcheck"]["test"] == [
        "CMD",
        "redis-cli",
        "ping",
    ]
    worker = compose["services"]["worker"]
    assert "inspect ping -d worker@$$HOSTNAME" in worker["healthcheck"]["test"][1]
    assert "worker@%h" in worker["command"]
    assert '"/healthz"' in compose["services"]["web"]["healthcheck"]["test"][3]


def test_compose_keeps_redis_and_shares_the_artifacts(compose):
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    artifact_dir = compose["services"]["web"]["environment"]["MTDASH_ARTIFACT_DIR"]
    for name in ("web", "worker"):
        assert f"artifacts:{artifact_dir}" in compose["services"][name]["volumes"]
    assert {"postgres-data", "redis-data", "artifacts"} <= set(compose["volumes"])


def test_compose_restarts_every_long_running_service(compose):
    """Docker restarts a service that stops (with its own growing delay);
    the one-shot migration is never run again."""
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert compose["services"][name]["restart"] == "unless-stopped", name
    assert compose["services"]["migrate"]["restart"] == "no"
