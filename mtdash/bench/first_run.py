"""``python -m mtdash.bench.first_run``: a newcomer's first ``bin/run``, timed.

Checks out a commit (default ``HEAD``) as a fresh copy (``git worktree``,
in a temporary directory) with an empty data directory, so an empty Numba
cache, a new SQLite database and no static files, then runs ``bash bin/run``
there as a newcomer would and measures:

- *URL*: seconds from the start until ``bin/run`` prints
  ``mtdash is running at``;
- *ORANGE*: seconds from that line until the demo's ORANGE job (the 7-best
  list of the demo systems, Table 7's six metrics) is done, polled in the
  copy's database every 0.5 s: issue 23's first-run target is ≤ 60 s;
- the chunks' recorded times, and what the worker's log and
  ``var/log/precompile.log`` say was compiled.

Not timed (a newcomer does them once, before): creating the virtual
environment and installing the dependencies (the copy links this checkout's
``.venv``; ``PYTHONPATH`` makes it import the copy's code) and fetching
METEOR's paraphrase table (linked from this checkout's data directory when
it is there). Afterwards ``bin/run`` is stopped (SIGTERM) and the copy
removed (``--keep`` keeps it). Prints the load average before and after:
the machine's other work slows every figure.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
URL_LINE = "mtdash is running at"
COMPILING = re.compile(r"ORANGE chunk \d+: [0-9.]+ s of it compiling \d+ kernels")


@dataclass
class FirstRun:
    url_seconds: float | None = None  # start -> the URL line
    orange_seconds: float | None = None  # the URL line -> the ORANGE job done
    orange_status: str = ""
    chunk_seconds: list[float] = field(default_factory=list)
    compiling_lines: list[str] = field(default_factory=list)
    precompile: str = ""
    load_before: str = ""
    load_after: str = ""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def make_copy(ref: str, directory: Path) -> Path:
    """A fresh checkout of ``ref`` with this checkout's virtual environment
    and METEOR's paraphrase table linked in; nothing else."""
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(directory), ref],
        cwd=PROJECT_ROOT,
        check=True,
        capture_output=True,
    )
    (directory / ".venv").symlink_to(PROJECT_ROOT / ".venv")
    table = PROJECT_ROOT / "var" / "meteor" / "paraphrase-en.gz"
    if table.exists():
        (directory / "var" / "meteor").mkdir(parents=True)
        (directory / "var" / "meteor" / table.name).symlink_to(table)
    return directory


def _environment(copy: Path) -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("MTDASH_", "NUMBA_", "DJANGO_"))
        and name not in ("DATABASE_URL", "REDIS_URL", "METEOR_PARAPHRASE_TABLE")
    }
    environment.update(PYTHONPATH=str(copy), MTDASH_PORT=str(_free_port()))
    return environment


def _demo_orange_job(copy: Path):
    """The demo's ORANGE job in the copy's database (None until created)."""
    os.environ.update(
        MTDASH_DATA_DIR=str(copy / "var"), DJANGO_SETTINGS_MODULE="mtdash.settings"
    )
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from mtdash.orange.models import OrangeJob

    # A fresh copy's database holds one ORANGE job: the demo's.
    def job():
        return OrangeJob.objects.order_by("pk").first()

    return job


def time_first_run(copy: Path, *, timeout: float = 900.0, say=print) -> FirstRun:
    """Run ``bin/run`` in ``copy`` until the demo's ORANGE job is done (or
    ``timeout``), then stop it."""
    result = FirstRun(load_before=_load())
    started = time.monotonic()
    server = subprocess.Popen(
        ["bash", "bin/run"],
        cwd=copy,
        env=_environment(copy),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    url_seen = threading.Event()

    def read_output() -> None:
        for line in server.stdout:  # type: ignore[union-attr]
            if URL_LINE in line and not url_seen.is_set():
                result.url_seconds = time.monotonic() - started
                url_seen.set()
            say(f"  {time.monotonic() - started:6.1f} s bin/run | {line.rstrip()}")

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        if not url_seen.wait(timeout) or result.url_seconds is None:
            raise RuntimeError("bin/run printed no URL")
        find_job = _demo_orange_job(copy)
        while time.monotonic() - started < timeout:
            job = find_job()
            if job is not None and job.is_finished:
                result.orange_seconds = time.monotonic() - started - result.url_seconds
                result.orange_status = job.status
                result.chunk_seconds = [
                    chunk.elapsed.total_seconds()
                    for chunk in job.chunks.order_by("first")
                ]
                break
            time.sleep(0.5)
    finally:
        result.load_after = _load()
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    logs = copy / "var" / "log"
    for log in sorted(logs.glob("worker*.log")):
        result.compiling_lines += COMPILING.findall(log.read_text())
    precompile = logs / "precompile.log"
    if precompile.exists():
        result.precompile = precompile.read_text().strip()
    return result


def format_first_run(result: FirstRun, ref: str) -> str:
    def seconds(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f} s"

    chunks = ", ".join(f"{value:.1f}" for value in result.chunk_seconds)
    lines = [
        f"first run of {ref} (fresh copy, empty var/ and Numba cache)",
        f"  bin/run start -> URL printed:          {seconds(result.url_seconds)}",
        f"  URL -> demo ORANGE job done (<= 60 s): {seconds(result.orange_seconds)}"
        f" ({result.orange_status or 'not done'})",
        f"  chunk times (s): {chunks or '-'}",
        f"  chunks that compiled: {len(result.compiling_lines)}",
        *(f"    {line}" for line in result.compiling_lines),
        f"  precompile: {result.precompile or '-'}",
        f"  load average before {result.load_before}, after {result.load_after}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mtdash.bench.first_run", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--ref", default="HEAD", help="commit to check out")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--keep", action="store_true", help="keep the copy")
    parser.add_argument("--quiet", action="store_true", help="hide bin/run's output")
    arguments = parser.parse_args(argv)
    directory = Path(tempfile.mkdtemp(prefix="mtdash-first-run-")) / "mtdash"
    copy = make_copy(arguments.ref, directory)
    try:
        result = time_first_run(
            copy,
            timeout=arguments.timeout,
            say=(lambda line: None) if arguments.quiet else print,
        )
    finally:
        if not arguments.keep:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(copy)],
                cwd=PROJECT_ROOT,
                check=False,
            )
            shutil.rmtree(directory.parent, ignore_errors=True)
    print(format_first_run(result, arguments.ref))
    return 0 if result.orange_status == "succeeded" else 1


if __name__ == "__main__":
    sys.exit(main())
