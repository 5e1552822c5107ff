"""Keep a server's processes running: restart the one that stops, give up on
one that keeps stopping, stop them all on request.

A team server must outlive one dead process. bin/run used to stop everything
when any child stopped, so a ``kill -9`` of one Celery worker took the web
server, the other worker and beat with it and nothing came back. Now a child
that stops is restarted after a back-off (``RestartPolicy``: 1 s, doubled
after each restart, at most 16 s) while the others keep serving; a child
restarted ``limit`` times within ``window`` seconds (5 in 60 s) that stops
again is given up, loudly, and the rest keep running. A crash loop (a bad
setting, a port taken) thus costs at most a handful of restarts, not a busy
loop, and one broken process never takes down the rest.

Each child runs in a process group of its own: stopping or cleaning up after
it reaches its own children too (Celery's pool, gunicorn's workers), even
after its main process was killed, so a restarted worker or web server never
finds the old one's pool or port still held.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

POLL_SECONDS = 0.1


@dataclass(frozen=True)
class Child:
    """A long-running process of the server."""

    name: str  # "worker1", "beat", "web", "redis"
    command: tuple[str, ...]
    log: Path | None = None  # None: this process's stdout and stderr
    ready_text: str = ""  # it is up once its log holds this ("" : at once)
    # Stopped once the others have stopped: the embedded Redis, which a
    # worker's warm shutdown still needs to acknowledge its last task.
    stop_last: bool = False


@dataclass(frozen=True)
class RestartPolicy:
    """How a child that stops is restarted: after ``first_delay`` seconds,
    doubled for each restart in the last ``window`` seconds (at most
    ``max_delay``); after ``limit`` restarts in the window it is given up."""

    limit: int = 5
    window: float = 60.0
    first_delay: float = 1.0
    max_delay: float = 16.0

    def delay(self, recent_restarts: int) -> float:
        return min(self.first_delay * 2**recent_restarts, self.max_delay)


@dataclass
class _State:
    child: Child
    process: subprocess.Popen | None = None
    restarts: deque[float] = field(default_factory=deque)  # monotonic times
    restart_at: float | None = None  # a restart is due then
    given_up: bool = False


def describe_exit(returncode: int) -> str:
    """ "was killed by SIGKILL", "exited with status 1"."""
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Supervisor:
    """The children of one server and what to do when one stops."""

    def __init__(
        self,
        policy: RestartPolicy | None = None,
        *,
        stop_grace: float = 3.0,
        say: Callable[[str], None] = _say,
    ):
        self.policy = policy or RestartPolicy()
        self.stop_grace = stop_grace
        self.say = say
        self.states: list[_State] = []
        self.stop_requests = 0  # SIGTERM/SIGINT received

    # --- signals -------------------------------------------------------

    def handle_stop_signals(self) -> None:
        """SIGTERM, SIGINT and SIGHUP ask to stop; a second one skips the
        grace given to running tasks."""

        def request_stop(signum, frame) -> None:
            self.stop_requests += 1

        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, request_stop)

    @property
    def stopping(self) -> bool:
        return self.stop_requests > 0

    # --- starting ------------------------------------------------------

    def start(self, child: Child) -> None:
        """Start ``child`` (its log begins afresh) and watch it from now on."""
        state = _State(child)
        self.states.append(state)
        self._spawn(state, fresh_log=True)

    def _spawn(self, state: _State, *, fresh_log: bool) -> None:
        child = state.child
        log = None
        if child.log is not None:
            log = child.log.open("w" if fresh_log else "a")
            if not fresh_log:
                log.write(f"\n--- {child.name} restarted by the supervisor ---\n")
                log.flush()
        try:
            state.process = subprocess.Popen(
                child.command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT if log else None,
                process_group=0,
            )
        finally:
            if log is not None:
                log.close()  # the child has its own copy

    def run_step(self, name: str, command: list[str]) -> int:
        """Run a one-off command (loading the demo data, waiting for Redis)
        to its end, in a group of its own; a stop request ends it. Returns
        its exit status."""
        self.say(f"==> {name}")
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, process_group=0)
        while process.poll() is None:
            if self.stopping:
                _kill_group(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=self.stop_grace)
                except subprocess.TimeoutExpired:
                    _kill_group(process.pid, signal.SIGKILL)
                    process.wait()
                break
            time.sleep(POLL_SECONDS)
        _kill_group(process.pid, signal.SIGKILL)  # anything it left behind
        return process.returncode

    # --- watching ------------------------------------------------------

    def first_stopped(self) -> tuple[Child, int] | None:
        """A child that stopped, with its exit status (while starting, when
        any stop is a failure)."""
        for state in self.states:
            if state.process is not None and state.process.poll() is not None:
                return state.child, state.process.returncode
        return None

    def check(self, now: float | None = None) -> None:
        """Restart children that stopped (after their back-off) or give them
        up; start the restarts that are due."""
        now = time.monotonic() if now is None else now
        for state in self.states:
            process = state.process
            if process is not None and process.poll() is not None:
                state.process = None
                _kill_group(process.pid, signal.SIGKILL)  # its pool or workers
                self._schedule_restart(state, process, now)
            if state.restart_at is not None and state.restart_at <= now:
                state.restart_at = None
                state.restarts.append(now)
                self._spawn(state, fresh_log=False)
                self.say(
                    f"==> restarted {state.child.name} (pid {state.process.pid}; "
                    f"restart {len(state.restarts)} of at most {self.policy.limit} "
                    f"in {self.policy.window:g} s)"
                )

    def _schedule_restart(
        self, state: _State, process: subprocess.Popen, now: float
    ) -> None:
        child, policy = state.child, self.policy
        while state.restarts and now - state.restarts[0] > policy.window:
            state.restarts.popleft()
        how = describe_exit(process.returncode)
        if len(state.restarts) >= policy.limit:
            state.given_up = True
            where = f"; see {child.log}" if child.log else ""
            self.say(
                f"!!\n!! GIVING UP on {child.name}: it {how} (pid {process.pid}) "
                f"after {len(state.restarts)} restarts in {policy.window:g} s"
                f"{where}.\n!! It stays stopped; the other processes keep "
                f"running. Fix it and restart the server.\n!!"
            )
            return
        delay = policy.delay(len(state.restarts))
        state.restart_at = now + delay
        self.say(
            f"==> {child.name} (pid {process.pid}) {how}; restarting it in "
            f"{delay:g} s (at most {policy.limit} restarts in {policy.window:g} s)"
        )

    @property
    def all_given_up(self) -> bool:
        return bool(self.states) and all(state.given_up for state in self.states)

    def supervise(self) -> int:
        """Keep the children running until a stop is requested (0) or every
        child was given up (1)."""
        while not self.stopping:
            self.check()
            if self.all_given_up:
                self.say("!! every process of the server was given up; stopping")
                return 1
            time.sleep(POLL_SECONDS)
        return 0

    # --- stopping ------------------------------------------------------

    def stop(self) -> None:
        """Ask every child to stop (SIGTERM: Celery's warm shutdown lets a
        running task finish), wait up to ``stop_grace`` seconds (no longer
        once asked a second time), then kill what is left, groups and all;
        then the same for the children that stop last."""
        started = time.monotonic()
        for state in self.states:
            state.restart_at = None
        live = sum(1 for s in self.states if s.process and s.process.poll() is None)
        if live:
            self.say(
                f"==> stopping {live} process{'es' if live > 1 else ''} (running "
                f"tasks get {self.stop_grace:g} s; interrupt again to skip that)"
            )
        for last in (False, True):
            wave = [state for state in self.states if state.child.stop_last == last]
            self._stop_wave(wave, started)

    def _stop_wave(self, wave: list[_State], started: float) -> None:
        waiting = [s for s in wave if s.process and s.process.poll() is None]
        for state in waiting:
            _signal(state.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + self.stop_grace
        while waiting and time.monotonic() < deadline and self.stop_requests < 2:
            for state in list(waiting):
                if state.process.poll() is not None:
                    waiting.remove(state)
                    seconds = time.monotonic() - started
                    self.say(f"==> {state.child.name} stopped in {seconds:.1f} s")
            time.sleep(POLL_SECONDS / 2)
        for state in waiting:
            self.say(
                f"==> killing {state.child.name}, still running after "
                f"{time.monotonic() - started:.1f} s (a job it was running is "
                "taken over once its lease expires)"
            )
        for state in wave:
            if state.process is not None:
                _kill_group(state.process.pid, signal.SIGKILL)
                state.process.wait()
                state.process = None


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _kill_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        pass
