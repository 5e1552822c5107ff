"""The benchmark's ``firstrun`` part: a newcomer's first ``python -m scoring orange``.

Writes the synthetic corpus of issue 23's target (100 sentences x 10-best x
4 references, :mod:`scoring.bench.synthetic`) as a Moses n-best file and
reference files, then runs ``python -m scoring orange --metric bleu
--metric rouge-l`` on them in child processes:

1. *cold*: with an empty ``NUMBA_CACHE_DIR``, so it compiles every kernel it
   calls (target: start to table ≤ 20 s), under
   :func:`scoring.batch.compile_log.recording_compiles`: which kernels it
   compiled and each one's own seconds. The child runs the command line's
   own ``main`` with the user's arguments; the recorder only listens to
   Numba's compile events (microseconds each), so a second cold run apart
   from it would cost another whole compile and measure the same;
2. *warm*: the same command again, now loading them from that cache.

Each child's wall time and CPU time (user + sys, from ``wait4``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scoring.bench.moses_files import write_moses_files
from scoring.bench.synthetic import CorpusShape, make_corpus

FIRST_RUN_SHAPE = CorpusShape(n_sentences=100, n_candidates=10)
FIRST_RUN_METRICS = ("bleu", "rouge-l")

# Runs the command line under the compile recorder; writes the kernels it
# compiled as JSON to the path given first.
_RECORDING_CHILD = """
import json, sys
from scoring.batch.compile_log import recording_compiles
from scoring.cli.main import main
report, *arguments = sys.argv[1:]
with recording_compiles() as log:
    status = main(arguments)
with open(report, "w") as out:
    json.dump([[k.name, k.seconds, k.specialisations] for k in log.kernels], out)
sys.exit(status)
"""


@dataclass(frozen=True)
class ChildRun:
    wall_seconds: float
    cpu_seconds: float  # user + sys of the child


@dataclass(frozen=True)
class FirstRunTimes:
    shape: CorpusShape
    cold: ChildRun
    warm: ChildRun
    kernels: tuple[tuple[str, float, int], ...]  # the cold run's: name, own s, types
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]


def _run(arguments: Sequence[str], cache: str) -> ChildRun:
    environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
    started = time.perf_counter()
    child = subprocess.Popen(
        arguments, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    errors = child.stderr.read() if child.stderr else b""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if child.stderr:
        child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        message = errors.decode("utf-8", "replace").strip()[-2000:]
        raise RuntimeError(f"the command line failed: {message}")
    return ChildRun(wall, usage.ru_utime + usage.ru_stime)


def time_first_run(shape: CorpusShape | None = None) -> FirstRunTimes:
    """Cold (recording its compiles) and warm runs of the command line on a
    written corpus (default :data:`FIRST_RUN_SHAPE`)."""
    shape = shape or FIRST_RUN_SHAPE
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="mtdash-firstrun-") as work:
        files = write_moses_files(make_corpus(shape), Path(work) / "corpus")
        metric_args = [a for spec in FIRST_RUN_METRICS for a in ("--metric", spec)]
        orange = [
            "orange", "--nbest", str(files.nbest),
            "--refs", *map(str, files.references), *metric_args,
        ]  # fmt: skip
        cache = Path(work) / "cache"
        cache.mkdir()
        report = Path(work) / "kernels.json"
        recording = [sys.executable, "-c", _RECORDING_CHILD, str(report), *orange]
        cold = _run(recording, str(cache))
        warm = _run([sys.executable, "-m", "scoring", *orange], str(cache))
        kernels = tuple(tuple(row) for row in json.loads(report.read_text()))
    return FirstRunTimes(
        shape=shape,
        cold=cold,
        warm=warm,
        kernels=kernels,  # type: ignore[arg-type]
        load_before=load_before,
        load_after=os.getloadavg(),
    )


def format_first_run(times: FirstRunTimes, *, limit: int = 20) -> str:
    def run(label: str, child: ChildRun) -> str:
        return (
            f"  {label:<34} {child.wall_seconds:6.1f} s wall "
            f"{child.cpu_seconds:6.1f} s CPU"
        )

    shape = times.shape
    lines = [
        f"\nfirst run: python -m scoring orange --metric bleu --metric rouge-l on "
        f"{shape.n_sentences} x {shape.n_candidates}-best x "
        f"{shape.n_references} references",
        run("cold (empty Numba cache; <= 20 s)", times.cold),
        run("warm (kernels from the cache)", times.warm),
        "  kernels compiled by the cold run (own seconds, specialisations):",
    ]
    for name, seconds, count in times.kernels[:limit]:
        lines.append(f"    {seconds:6.2f} s  x{count}  {name}")
    rest = times.kernels[limit:]
    if rest:
        lines.append(f"    {sum(row[1] for row in rest):6.2f} s  ... {len(rest)} more")
    total = sum(row[1] for row in times.kernels)
    count = sum(row[2] for row in times.kernels)
    lines.append(
        f"    {total:6.2f} s compiling in all: {len(times.kernels)} functions, "
        f"{count} specialisations"
    )
    lines.append(
        "  load average before "
        + ", ".join(f"{x:.1f}" for x in times.load_before)
        + "; after "
        + ", ".join(f"{x:.1f}" for x in times.load_after)
    )
    return "\n".join(lines)


__all__ = ["FIRST_RUN_SHAPE", "FirstRunTimes", "format_first_run", "time_first_run"]
