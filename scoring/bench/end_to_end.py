"""The command line end to end: ``python -m scoring orange`` on files.

:func:`time_command_line` writes a synthetic corpus as a Moses n-best file
and reference files (:mod:`scoring.bench.moses_files`), then runs the
command line in a child process with the suite's metrics, as a user would:
reading and tokenising the file, the engine, the bootstrap and the printed
table (or JSON). It reports the child's wall time and its peak resident
memory (``wait4``'s ``ru_maxrss`` of that child alone).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from scoring.bench.moses_files import write_moses_files
from scoring.bench.synthetic import SyntheticCorpus


@dataclass(frozen=True)
class CommandLineRun:
    wall_seconds: float
    peak_mib: float
    nbest_mib: float  # size of the n-best file
    output_mib: float  # size of what the command printed
    write_seconds: float  # writing the files (not counted above)
    as_json: bool
    cpu_seconds: float = float("nan")  # the child's user + system time
    load_before: tuple[float, float, float] | None = None


def command(
    nbest: str,
    references: Sequence[str],
    specs: Sequence[str],
    *,
    as_json: bool,
    n_bootstrap: int,
) -> list[str]:
    """The ``python -m scoring orange`` command line of a suite."""
    metric_args = [arg for spec in specs for arg in ("--metric", spec)]
    return [
        sys.executable, "-m", "scoring", "orange", "--nbest", nbest,
        "--refs", *references, *metric_args, "--curve-step", "64",
        "--bootstrap", str(n_bootstrap), *(["--json"] if as_json else []),
    ]  # fmt: skip


def run_measured(arguments: list[str], output: str) -> tuple[float, float]:
    """Wall seconds and peak MiB of one ``python -m scoring ...`` child; its
    stdout goes to ``output`` (:func:`run_measured_cpu` adds its CPU time).

    The child is ``python -m scoring.bench.peak_child`` running the same
    command line, which reports its own peak (see that module); without
    ``/proc`` the child's ``ru_maxrss`` is used (it may include this
    process's size at the fork)."""
    wall, peak, _ = run_measured_cpu(arguments, output)
    return wall, peak


def run_measured_cpu(arguments: list[str], output: str) -> tuple[float, float, float]:
    """Wall seconds, peak MiB and CPU seconds (user + system) of one
    ``python -m scoring ...`` child (see :func:`run_measured`)."""
    assert arguments[1:3] == ["-m", "scoring"]
    report = output + ".peak"
    wrapped = [arguments[0], "-m", "scoring.bench.peak_child", report, *arguments[3:]]
    with open(output, "wb") as out:
        started = time.perf_counter()
        child = subprocess.Popen(wrapped, stdout=out, stderr=subprocess.PIPE)
        errors = child.stderr.read() if child.stderr else b""
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0:
        message = errors.decode("utf-8", "replace").strip()[-2000:]
        raise RuntimeError(f"the command line failed: {message}")
    try:
        peak_kib = float(Path(report).read_text())
    except (OSError, ValueError):
        peak_kib = usage.ru_maxrss / (1024 if sys.platform == "darwin" else 1)
    return wall, peak_kib / 1024, usage.ru_utime + usage.ru_stime


def time_command_line(
    corpus: SyntheticCorpus,
    metrics: Mapping[str, str],
    *,
    n_bootstrap: int = 1000,
    modes: Sequence[bool] = (False, True),
    compress: bool = False,
) -> list[CommandLineRun]:
    """Run the command line on the corpus written as files, once per mode
    (``False``: the table, ``True``: ``--json``)."""
    with tempfile.TemporaryDirectory(prefix="mtdash-bench-") as directory:
        started = time.perf_counter()
        files = write_moses_files(corpus, directory, compress=compress)
        write_seconds = time.perf_counter() - started
        return time_command_line_files(
            files.nbest,
            files.references,
            metrics,
            n_bootstrap=n_bootstrap,
            modes=modes,
            write_seconds=write_seconds,
            output_directory=directory,
        )


def time_command_line_files(
    nbest: str | os.PathLike[str],
    references: Sequence[str | os.PathLike[str]],
    metrics: Mapping[str, str],
    *,
    n_bootstrap: int = 1000,
    modes: Sequence[bool] = (False, True),
    write_seconds: float = 0.0,
    output_directory: str | None = None,
) -> list[CommandLineRun]:
    """Run the command line on n-best and reference files that exist (e.g.
    ``--corpus DIR``), once per mode; its output goes to a temporary
    directory (or ``output_directory``)."""
    with tempfile.TemporaryDirectory(prefix="mtdash-bench-out-") as scratch:
        directory = output_directory or scratch
        runs = []
        for as_json in modes:
            arguments = command(
                str(nbest),
                [str(path) for path in references],
                list(metrics.values()),
                as_json=as_json,
                n_bootstrap=n_bootstrap,
            )
            output = os.path.join(directory, "out.json" if as_json else "out.txt")
            load = os.getloadavg()
            wall, peak, cpu = run_measured_cpu(arguments, output)
            runs.append(
                CommandLineRun(
                    wall_seconds=wall,
                    peak_mib=peak,
                    nbest_mib=os.path.getsize(nbest) / 2**20,
                    output_mib=os.path.getsize(output) / 2**20,
                    write_seconds=write_seconds,
                    as_json=as_json,
                    cpu_seconds=cpu,
                    load_before=load,
                )
            )
    return runs


def format_command_line(runs: Sequence[CommandLineRun]) -> str:
    """One line per run."""
    lines = []
    for run in runs:
        what = "--json" if run.as_json else "table"
        load = (
            ""
            if run.load_before is None
            else "; load average before "
            + ", ".join(f"{value:.1f}" for value in run.load_before)
        )
        lines.append(
            f"command line end to end ({what}): wall {run.wall_seconds:.1f} s, "
            f"peak memory {run.peak_mib:,.0f} MiB; n-best file "
            f"{run.nbest_mib:,.0f} MB (written in {run.write_seconds:.1f} s, not "
            f"counted), output {run.output_mib:,.1f} MB; CPU "
            f"{run.cpu_seconds:.1f} s{load}"
        )
    return "\n".join(lines)
