"""``python -m mtdash.supervision PLAN [options]``: run bin/run's plan.

The plan is a file of JSON lines, in order, each either a long-running
``child`` (``{"kind": "child", "name": "worker1", "log": "var/log/worker1.log",
"ready": "ready.", "command": [...]}``; ``log`` "-" for this process's
output; ``"stop_last": true`` for one the others need while they stop) or a one-off ``step`` run to its end before the next line (waiting
for Redis, loading the demo data). bin/run writes it, so the commands stay
in bin/run; a test writes a smaller one.

While starting, any child that stops or step that fails stops everything
(exit status 1): a server that cannot start should say so at once, not
restart in a loop. Once every child with a ``ready`` text has logged it and
``--ready-url`` answers 200, the ready message is printed and the
supervisor keeps the children running (:class:`Supervisor`) until SIGTERM or
Ctrl-C stops them all (exit status 0).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path

from mtdash.supervision.supervisor import (
    Child,
    RestartPolicy,
    Supervisor,
    describe_exit,
)


def read_plan(path: Path) -> list[tuple[str, Child]]:
    """The plan's lines as ``(kind, Child)``; a step is a Child never kept."""
    entries = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            kind, name, command = item["kind"], item["name"], item["command"]
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"{path}, line {number}: not a plan entry") from None
        if kind not in ("child", "step") or not command:
            raise SystemExit(f"{path}, line {number}: not a plan entry")
        log = item.get("log") or "-"
        entries.append(
            (
                kind,
                Child(
                    name=name,
                    command=tuple(command),
                    log=None if log == "-" else Path(log),
                    ready_text=item.get("ready") or "",
                    stop_last=bool(item.get("stop_last")),
                ),
            )
        )
    return entries


def is_ready(supervisor: Supervisor, url: str | None) -> bool:
    for state in supervisor.states:
        child = state.child
        if child.ready_text and child.log is not None:
            text = child.log.read_text(errors="replace") if child.log.exists() else ""
            if child.ready_text not in text:
                return False
    if not url:
        return True
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def start_all(
    supervisor: Supervisor, plan: list[tuple[str, Child]], args
) -> str | None:
    """Start the plan and wait until the server is up; the reason it did
    not come up, or None (also when asked to stop meanwhile)."""
    for kind, child in plan:
        if supervisor.stopping:
            return None
        if kind == "step":
            status = supervisor.run_step(child.name, list(child.command))
            if status != 0 and not supervisor.stopping:
                return f"{child.name} {describe_exit(status)}"
        else:
            supervisor.start(child)
    deadline = time.monotonic() + args.ready_timeout
    while not is_ready(supervisor, args.ready_url):
        if supervisor.stopping:
            return None
        if stopped := supervisor.first_stopped():
            child, status = stopped
            where = f"; see {child.log}" if child.log else ""
            return f"{child.name} {describe_exit(status)} while starting{where}"
        if time.monotonic() > deadline:
            return (
                f"the server did not come up in {args.ready_timeout:g} s; see the logs"
            )
        time.sleep(0.2)
    return None


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m mtdash.supervision")
    parser.add_argument("plan", type=Path, help="the JSON lines bin/run writes")
    parser.add_argument("--ready-url", help="up once this answers 200")
    parser.add_argument("--ready-timeout", type=float, default=120.0)
    parser.add_argument("--ready-message", default="", help="printed once up")
    policy = RestartPolicy()
    parser.add_argument("--restart-limit", type=int, default=policy.limit)
    parser.add_argument("--restart-window", type=float, default=policy.window)
    parser.add_argument("--restart-delay", type=float, default=policy.first_delay)
    parser.add_argument("--restart-max-delay", type=float, default=policy.max_delay)
    parser.add_argument(
        "--stop-grace",
        type=float,
        default=3.0,
        help="seconds running tasks get on SIGTERM before everything is killed",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    plan = read_plan(args.plan)
    policy = RestartPolicy(
        limit=args.restart_limit,
        window=args.restart_window,
        first_delay=args.restart_delay,
        max_delay=args.restart_max_delay,
    )
    supervisor = Supervisor(policy, stop_grace=args.stop_grace)
    supervisor.handle_stop_signals()
    try:
        problem = start_all(supervisor, plan, args)
        if problem:
            supervisor.say(f"!! {problem}; stopping everything")
            return 1
        if supervisor.stopping:
            return 0
        if args.ready_message:
            print(args.ready_message, flush=True)
        return supervisor.supervise()
    finally:
        supervisor.stop()


if __name__ == "__main__":
    sys.exit(main())
