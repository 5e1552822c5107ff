"""``meta``: the WMT meta-evaluation of metrics at the size of a WMT test set.

Target: 20 systems x 2,000 segments x 30 metrics, 1,000 permutations, the
six tasks of :mod:`scoring.stats.wmt_protocol` with their rank clusters in
at most 60 s in one worker. The test set is synthetic
(:mod:`scoring.bench.judged_test_set`), written as a SCORES.json and a
judgments CSV as a user would have them, then:

1. the library, in this process: reading both files, ``run_protocol`` with
   ``ProtocolSettings(n_permutations=...)`` timed task by task, the
   result's JSON written; the peak memory of that stretch
   (:class:`~scoring.bench.memory.PeakMemory`). Then a second test set of
   the same size (another seed and name) and ``pool_protocols`` of both,
   as several language pairs are pooled.
2. the command line, in a child: ``python -m scoring correlate ... --test
   permutation --json`` on the same files for one segment-level task
   (acc_eq, tie-calibrated) and for SPA, wall time and the child's own peak
   memory (:func:`~scoring.bench.end_to_end.run_measured`), and whether its
   cells equal the library's (same test set name, seed and draws).

The verdict compares the library's whole protocol, and the same from files
to JSON, with the target; the machine's load inflates every figure.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from scoring.bench.end_to_end import run_measured
from scoring.bench.judged_test_set import (
    CRITERION,
    WMT_SIZED,
    JudgedTestSetSpec,
    TestSetFiles,
    make_judged_test_set,
    write_test_set,
)
from scoring.bench.memory import PeakMemory
from scoring.stats.judgments import read_judgments
from scoring.stats.scores_file import read_metric_scores
from scoring.stats.wmt_protocol import (
    ProtocolSettings,
    pool_protocols,
    run_protocol,
)
from scoring.stats.wmt_results import ProtocolResult

TARGET_SECONDS = 60.0
TARGET_PERMUTATIONS = 1000
# The command line runs one task: its options, by task.
COMMAND_LINE_TASKS = {
    "segment:acc_eq": (
        "--level", "sentence", "--method", "kendall", "--kendall-variant", "acc23",
        "--tie-calibration",
    ),
    "system:spa": ("--level", "system", "--method", "spa"),
}  # fmt: skip


@dataclass(frozen=True)
class LibraryRun:
    """The library on the first test set, and pooling it with a second."""

    read_seconds: float  # both files
    task_seconds: tuple[tuple[str, float], ...]  # in the order run
    protocol_seconds: float  # every task
    write_seconds: float  # the result's JSON
    peak_mib: float  # reading, the protocol and writing
    start_mib: float  # resident before reading
    second_seconds: float  # reading and the protocol of the second test set
    pool_seconds: float
    pooled_rankings: int

    @property
    def files_to_json_seconds(self) -> float:
        return self.read_seconds + self.protocol_seconds + self.write_seconds


@dataclass(frozen=True)
class CorrelateRun:
    """``python -m scoring correlate`` for one task, end to end in a child."""

    task: str
    options: tuple[str, ...]
    wall_seconds: float
    peak_mib: float
    output_kib: float
    agrees: bool  # its cells equal the library's


@dataclass(frozen=True)
class MetaEvaluationRun:
    spec: JudgedTestSetSpec
    n_permutations: int
    files: TestSetFiles  # the first test set's
    library: LibraryRun
    command_lines: tuple[CorrelateRun, ...]

    @property
    def at_target_size(self) -> bool:
        size = (self.spec.n_systems, self.spec.n_segments, self.spec.n_metrics)
        return size == (
            WMT_SIZED.n_systems,
            WMT_SIZED.n_segments,
            WMT_SIZED.n_metrics,
        ) and (self.n_permutations == TARGET_PERMUTATIONS)


def _read_and_run(
    files: TestSetFiles, settings: ProtocolSettings, name: str, finished: list[float]
) -> tuple[ProtocolResult, float]:
    """The protocol on the files: (result, seconds reading); ``finished``
    receives the time each task ended, from the protocol's start."""
    started = time.perf_counter()
    scores = read_metric_scores(files.scores)
    judgments = read_judgments(files.judgments)
    read_seconds = time.perf_counter() - started
    started = time.perf_counter()
    result = run_protocol(
        scores,
        judgments,
        CRITERION,
        settings,
        name=name,
        progress=lambda done, total: finished.append(time.perf_counter() - started),
    )
    return result, read_seconds


def _library(
    first: TestSetFiles,
    second: TestSetFiles,
    names: tuple[str, str],
    settings: ProtocolSettings,
    directory: Path,
    log: TextIO | None,
) -> tuple[LibraryRun, ProtocolResult]:
    finished: list[float] = []
    with PeakMemory() as peak:
        result, read_seconds = _read_and_run(first, settings, names[0], finished)
        started = time.perf_counter()
        (directory / "protocol.json").write_text(
            json.dumps(result.to_dict(), allow_nan=False), encoding="utf-8"
        )
        write_seconds = time.perf_counter() - started
    steps = [end - start for start, end in zip([0.0, *finished], finished)]
    if log:
        log.write(f"meta: {names[0]}: protocol {finished[-1]:.1f} s\n")
    started = time.perf_counter()
    other, _ = _read_and_run(second, settings, names[1], [])
    second_seconds = time.perf_counter() - started
    started = time.perf_counter()
    pooled = pool_protocols([result, other])
    pool_seconds = time.perf_counter() - started
    if log:
        log.write(f"meta: {names[1]}: {second_seconds:.1f} s; pooled\n")
    run = LibraryRun(
        read_seconds=read_seconds,
        task_seconds=tuple(zip(settings.tasks, steps)),
        protocol_seconds=finished[-1],
        write_seconds=write_seconds,
        peak_mib=peak.mib,
        start_mib=peak.start_mib,
        second_seconds=second_seconds,
        pool_seconds=pool_seconds,
        pooled_rankings=len(pooled.tasks),
    )
    return run, result


def _correlate(
    files: TestSetFiles,
    task: str,
    n_permutations: int,
    library: ProtocolResult,
    directory: Path,
) -> CorrelateRun:
    options = COMMAND_LINE_TASKS[task]
    arguments = [
        sys.executable, "-m", "scoring", "correlate", "--scores", str(files.scores),
        "--judgments", str(files.judgments), "--test", "permutation",
        "--permutations", str(n_permutations), *options, "--json",
    ]  # fmt: skip
    output = directory / f"correlate-{task.replace(':', '-')}.json"
    wall, peak = run_measured(arguments, str(output))
    printed = json.loads(output.read_text(encoding="utf-8"))
    (criterion,) = printed["test_sets"][0]["criteria"]
    expected = json.loads(json.dumps(library.task(task).cells()))
    return CorrelateRun(
        task=task,
        options=options,
        wall_seconds=wall,
        peak_mib=peak,
        output_kib=output.stat().st_size / 1024,
        agrees=criterion["cells"] == expected,
    )


def run_meta_benchmark(
    spec: JudgedTestSetSpec = WMT_SIZED,
    *,
    n_permutations: int = TARGET_PERMUTATIONS,
    log: TextIO | None = None,
) -> MetaEvaluationRun:
    """Time the library and the command line on two test sets of ``spec``'s
    size (module docstring)."""
    settings = ProtocolSettings(n_permutations=n_permutations)
    second_spec = spec.another(spec.name + "-2")
    with tempfile.TemporaryDirectory(prefix="mtdash-bench-meta-") as name:
        directory = Path(name)
        # Written, then dropped: the library reads the files, as a user's run
        # would, and the generator's objects do not count in its memory.
        files = write_test_set(make_judged_test_set(spec), directory)
        second = write_test_set(make_judged_test_set(second_spec), directory)
        library, result = _library(
            files, second, (spec.name, second_spec.name), settings, directory, log
        )
        command_lines = []
        for task in COMMAND_LINE_TASKS:
            command_lines.append(
                _correlate(files, task, n_permutations, result, directory)
            )
            if log:
                log.write(f"meta: correlate {task}: done\n")
    return MetaEvaluationRun(spec, n_permutations, files, library, tuple(command_lines))


def _verdict(seconds: float) -> str:
    return "PASS" if seconds <= TARGET_SECONDS else "MISS"


def format_meta_evaluation(run: MetaEvaluationRun) -> str:
    """The table of tasks, the end-to-end lines and the verdict."""
    spec, library = run.spec, run.library
    files = run.files
    lines = [
        f"meta-evaluation: {spec.n_systems} systems x {spec.n_segments} segments "
        f"x {spec.n_metrics} metrics, {run.n_permutations} permutations, criterion "
        f"{CRITERION}; SCORES.json {files.scores_mib:,.1f} MB, judgments "
        f"{files.judgments_mib:,.1f} MB (written in {files.write_seconds:.1f} s, "
        "not counted)",
        f"{'task':<20} {'seconds':>8}",
    ]
    lines += [f"{task:<20} {seconds:>8.2f}" for task, seconds in library.task_seconds]
    lines += [
        f"{'whole protocol':<20} {library.protocol_seconds:>8.2f}",
        f"library from files to JSON: reading {library.read_seconds:.1f} s, "
        f"protocol {library.protocol_seconds:.1f} s, writing "
        f"{library.write_seconds:.1f} s, total {library.files_to_json_seconds:.1f} "
        f"s; peak memory {library.peak_mib:,.0f} MiB, {library.start_mib:,.0f} "
        "MiB of it resident before reading",
        f"second test set read and run: {library.second_seconds:.1f} s; "
        f"pool_protocols of both ({library.pooled_rankings} rankings): "
        f"{library.pool_seconds:.2f} s",
    ]
    for command in run.command_lines:
        agreement = "equal" if command.agrees else "DIFFER from"
        lines.append(
            f"correlate end to end ({command.task}: {' '.join(command.options)}): "
            f"wall {command.wall_seconds:.1f} s, peak memory "
            f"{command.peak_mib:,.0f} MiB, JSON {command.output_kib:,.0f} KiB; "
            f"cells {agreement} the library's"
        )
    scaled = "" if run.at_target_size else " (at a smaller size than the target's)"
    lines.append(
        f"target: the whole protocol (all tasks, clusters) <= {TARGET_SECONDS:.0f} s "
        f"at 20 x 2000 x 30, {TARGET_PERMUTATIONS} permutations: library "
        f"{library.protocol_seconds:.1f} s {_verdict(library.protocol_seconds)}; "
        f"from files to JSON {library.files_to_json_seconds:.1f} s "
        f"{_verdict(library.files_to_json_seconds)}{scaled}"
    )
    return "\n".join(lines)
