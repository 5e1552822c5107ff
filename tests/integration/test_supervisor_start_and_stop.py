"""bin/run's supervisor (``python -m mtdash.supervision``) with small real
processes: a server that cannot start says why and stops at once, a child
that keeps exiting on its own is given up after the limit, SIGTERM gives
running work its grace and no more, and the embedded Redis stops last.
The supervisor of a real server is tested in test_team_server_restarts.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.support.services import PROJECT_ROOT, wait_until
from tests.support.team import descendants, wait_gone

pytestmark = pytest.mark.integration

UP = "THE PLAN IS UP"


def python(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


def entry(kind: str, name: str, command: list[str], **extra) -> dict:
    return {"kind": kind, "name": name, "command": command, **extra}


SLEEPER = python("import time; time.sleep(600)")


class Run:
    """The supervisor on a plan, its output in a file."""

    def __init__(self, tmp_path: Path, plan: list[dict], *options: str):
        self.out_path = tmp_path / "out.txt"
        plan_path = tmp_path / "plan.jsonl"
        plan_path.write_text("".join(json.dumps(item) + "\n" for item in plan))
        with self.out_path.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "mtdash.supervision", str(plan_path)]
                + ["--ready-message", UP, *options],
                cwd=PROJECT_ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def output(self) -> str:
        return self.out_path.read_text()

    def wait_up(self) -> None:
        wait_until(lambda: UP in self.output(), 30, what="the plan to start")


@pytest.fixture
def runs():
    started: list[Run] = []
    yield started
    for run in started:
        if run.process.poll() is None:
            # Its children too: killed outright, the supervisor cannot stop
            # them, and a sleeper would outlive the run by ten minutes.
            for pid in descendants(run.process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            run.process.kill()
            run.process.wait()


def test_a_child_that_stops_while_starting_stops_everything(tmp_path, runs):
    plan = [
        entry("child", "steady", SLEEPER),
        entry("child", "broken", python("raise SystemExit(3)")),
        entry("child", "never-ready", SLEEPER, log=str(tmp_path / "n.log"), ready="x"),
    ]
    runs.append(run := Run(tmp_path, plan))
    assert run.process.wait(timeout=30) == 1
    assert "!! broken exited with status 3 while starting; stopping everything" in (
        run.output()
    )
    assert UP not in run.output()


def test_a_failed_step_stops_everything_and_starts_nothing_after_it(tmp_path, runs):
    plan = [
        entry("child", "steady", SLEEPER),
        entry("step", "Loading demo data", python("raise SystemExit(2)")),
        entry("child", "later", python(f"open({str(tmp_path / 'ran')!r}, 'w')")),
    ]
    runs.append(run := Run(tmp_path, plan))
    assert run.process.wait(timeout=30) == 1
    assert "!! Loading demo data exited with status 2; stopping everything" in (
        run.output()
    )
    assert not (tmp_path / "ran").exists()


def test_a_child_that_keeps_exiting_is_given_up_and_the_rest_keep_running(
    tmp_path, runs
):
    crashing = python("import time; time.sleep(0.3); raise SystemExit(3)")
    plan = [entry("child", "steady", SLEEPER), entry("child", "crashing", crashing)]
    options = ("--restart-limit", "2", "--restart-delay", "0.1")
    runs.append(run := Run(tmp_path, plan, *options))
    run.wait_up()
    wait_until(lambda: "GIVING UP on crashing" in run.output(), 30, what="give-up")
    output = run.output()
    assert output.count("==> crashing (pid") == 2  # restarted twice...
    assert "restarting it in 0.1 s" in output and "restarting it in 0.2 s" in output
    assert "it exited with status 3" in output  # ...given up the third time
    assert "after 2 restarts in 60 s" in output
    steady = descendants(run.process.pid)
    assert len(steady) == 1 and run.process.poll() is None


def test_every_child_given_up_ends_the_supervisor(tmp_path, runs):
    plan = [entry("child", "crashing", python("import time; time.sleep(0.3)"))]
    runs.append(run := Run(tmp_path, plan, "--restart-limit", "1"))
    assert run.process.wait(timeout=30) == 1
    assert "every process of the server was given up" in run.output()


@pytest.mark.wall_clock
def test_sigterm_gives_running_work_its_grace_then_kills(tmp_path, runs):
    stubborn = python(
        """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(600)
        """
    )
    plan = [entry("child", "polite", SLEEPER), entry("child", "stubborn", stubborn)]
    runs.append(run := Run(tmp_path, plan, "--stop-grace", "1.5"))
    run.wait_up()
    children = descendants(run.process.pid)
    started = time.monotonic()
    run.process.send_signal(signal.SIGTERM)
    assert run.process.wait(timeout=30) == 0
    seconds = time.monotonic() - started
    assert 1.5 <= seconds < 3.0
    assert "==> polite stopped in" in run.output()
    assert "==> killing stubborn, still running after 1.5 s" in run.output()
    assert wait_gone(children, 2) == []


def test_a_second_sigterm_skips_the_grace(tmp_path, runs):
    stubborn = python(
        """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(600)
        """
    )
    plan = [entry("child", "stubborn", stubborn)]
    runs.append(run := Run(tmp_path, plan, "--stop-grace", "60"))
    run.wait_up()
    run.process.send_signal(signal.SIGTERM)
    wait_until(lambda: "==> stopping 1 process" in run.output(), 10, what="stop")
    started = time.monotonic()
    run.process.send_signal(signal.SIGTERM)
    assert run.process.wait(timeout=10) == 0
    assert time.monotonic() - started < 2.0


def test_the_child_marked_stop_last_stops_after_the_others(tmp_path, runs):
    record = tmp_path / "order.txt"
    writes_on_term = """
        import signal, sys, time
        def stop(*_):
            time.sleep({pause})
            with open({record!r}, "a") as out:
                out.write("{name}\\n")
            sys.exit(0)
        signal.signal(signal.SIGTERM, stop)
        open({record!r} + ".{name}.ready", "w").close()
        time.sleep(600)
        """
    plan = [
        entry(
            "child",
            "redis",
            python(writes_on_term.format(pause=0, record=str(record), name="redis")),
            stop_last=True,
        ),
        entry(
            "child",
            "worker",
            python(writes_on_term.format(pause=0.5, record=str(record), name="worker")),
        ),
    ]
    runs.append(run := Run(tmp_path, plan))
    run.wait_up()
    # Up means started: on a busy machine a child may not have set its
    # SIGTERM handler yet, and would die without writing its name.
    wait_until(
        lambda: all(
            Path(f"{record}.{name}.ready").exists() for name in ("redis", "worker")
        ),
        30,
        what="handlers set",
    )
    run.process.send_signal(signal.SIGTERM)
    assert run.process.wait(timeout=30) == 0
    assert record.read_text().split() == ["worker", "redis"]
