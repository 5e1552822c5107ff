"""Scoring, comparison and diagnostics jobs end to end on real Celery workers
(issue 23 items 5 and 6), on WMT21 zh-en (``MTDASH_TEST_DATA`` or
``../shared/data``: 1,948 segments, one human reference, 23 systems).

Flows (each in a team of its own, deleted afterwards):

- ``meteor``: two METEOR scoring jobs (the server's paraphrase table, if
  set) of ``segments`` segments, one after the other;
- ``diagnostics``: the per-reference diagnostics of 12 systems against two
  references, computed in this process (the comparison job's part);
- ``submission``: 12 systems scored with BLEU, chrF, TER and METEOR against
  two references, the MQM judgments imported, until every comparison
  (intervals, p-values, clusters, system pages, references, correlations)
  is stored;
- ``web``: one output of 1,000 segments uploaded through the web form with
  6 metrics, until its leaderboard row shows the scores;
- ``large``: 20 systems x 10 metrics scored and compared.

zh-en has one human reference; where two are needed, the output of a system
no flow scores (``yyds``) is the second. Times are wall seconds from the
submission, and the workers' CPU seconds (user + system, the worker processes
and their children) spent meanwhile. With a paraphrase table, the flows
start once every worker loaded METEOR's resources, which is its own line.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
from django.conf import settings
from django.test import Client
from django.urls import reverse

from mtdash.bench.orange_job import start_workers, stop_workers, wait_finished
from mtdash.evaluation.models import ComparisonJob, ScoringJob, TestSetAnalysis
from mtdash.evaluation.references import diagnostics as reference_diagnostics
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_outputs,
    create_test_set,
)
from mtdash.teams.models import Membership, Team

PROJECT_ROOT = Path(__file__).resolve().parents[2]
READY = "METEOR's resources ready"  # mtdash.common.worker_resources logs it
PAIR = "wmt21/zh-en"
SECOND_REFERENCE = "yyds"  # a system's output standing in for a 2nd reference
SUBMISSION_METRICS = ("bleu", "chrf", "ter", "meteor")
WEB_METRICS = ("bleu", "chrf", "ter", "meteor", "rouge-l", "nist")
LARGE_METRICS = ("bleu", "chrf", "chrf++", "ter", "meteor", "rouge-l", "rouge-n",
                 "nist", "wer", "per")  # fmt: skip


@dataclass(frozen=True)
class Timing:
    flow: str
    step: str
    wall: float
    worker_cpu: float | None  # None: measured in this process (its CPU)

    def line(self) -> str:
        cpu = (
            ""
            if self.worker_cpu is None
            else f"  workers' CPU {self.worker_cpu:7.1f} s"
        )
        return f"  {self.flow:12s} {self.step:48s} {self.wall:8.1f} s{cpu}"


def data_dir() -> Path:
    chosen = os.environ.get("MTDASH_TEST_DATA")
    root = Path(chosen) if chosen else PROJECT_ROOT.parent / "shared" / "data"
    return root / PAIR


def _lines(path: Path, n: int) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines[:n]


def systems(n_systems: int, n: int) -> dict[str, list[str]]:
    """The first ``n_systems`` outputs by name (not the stand-in reference)."""
    files = sorted((data_dir() / "sys").glob("*.en"))
    files = [f for f in files if f.stem != SECOND_REFERENCE][:n_systems]
    return {f.stem: _lines(f, n) for f in files}


def test_set(team, user, n: int, two_references: bool):
    directory = data_dir()
    references = {"A": _lines(directory / "ref.A.en", n)}
    if two_references:
        references["B"] = _lines(directory / "sys" / f"{SECOND_REFERENCE}.en", n)
    data = TestSetData(
        name=f"zh-en {n}", source_language="zh", target_language="en",
        text_type="news", description="bench_jobs",
        sources=_lines(directory / "src.zh", n), references=references,
    )  # fmt: skip
    return create_test_set(team, user, data)


class Workers:
    """``n`` worker processes (one slot each) and their CPU seconds."""

    def __init__(self, n: int, log_dir: Path) -> None:
        self.processes = start_workers(n, log_dir)
        self.logs = [log_dir / f"worker{i + 1}.log" for i in range(n)]

    def wait_for_meteor(self, timeout: float) -> Timing | None:
        """With a paraphrase table, wait until every worker process loaded
        METEOR's resources (mtdash.common.worker_resources), so the flows
        time ready workers; the wait is reported as its own line."""
        table = settings.MTDASH_METEOR_PARAPHRASE_TABLE
        if not table or not Path(table).is_file():
            return None
        cpu, started = self.cpu(), time.perf_counter()
        deadline = time.monotonic() + timeout
        while not all(READY in log.read_text() for log in self.logs):
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not load METEOR's resources")
            time.sleep(0.2)
        step = "workers' preload of METEOR's resources (after start)"
        return Timing("workers", step, time.perf_counter() - started, self.cpu() - cpu)

    def cpu(self) -> float:
        total = 0.0
        for process in self.processes:
            try:
                parent = psutil.Process(process.pid)
                for each in [parent, *parent.children(recursive=True)]:
                    times = each.cpu_times()
                    total += times.user + times.system
            except psutil.NoSuchProcess:
                continue
        return total

    def stop(self) -> None:
        stop_workers(self.processes)


def _team_and_user(flow: str):
    from django.contrib.auth import get_user_model

    team = Team.objects.create(name=f"bench-jobs-{flow}-{uuid.uuid4().hex[:8]}")
    user = get_user_model().objects.create_user(team.name)
    Membership.objects.create(team=team, user=user, role=Membership.Role.OWNER)
    return team, user


def _wait_all(jobs, timeout: float) -> list[ScoringJob]:
    done = [wait_finished(ScoringJob, job.pk, timeout) for job in jobs]
    failed = [job for job in done if job.status != ScoringJob.Status.SUCCEEDED]
    if failed:
        raise RuntimeError(f"a scoring job failed: {failed[0].error_message}")
    return done


def _wait_compared(test_set, timeout: float) -> None:
    """Until a comparison ran and none waits or runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = list(ComparisonJob.objects.filter(test_set=test_set))
        if jobs and all(job.is_finished for job in jobs):
            return
        time.sleep(0.2)
    raise RuntimeError(f"the comparison of {test_set} did not end in {timeout:.0f} s")


def bench_meteor(workers: Workers, n: int, timeout: float) -> list[Timing]:
    team, user = _team_and_user("meteor")
    try:
        ts = test_set(team, user, n, two_references=False)
        timings = []
        for number, (name, hyps) in enumerate(systems(2, n).items(), start=1):
            cpu, started = workers.cpu(), time.perf_counter()
            [job] = create_system_outputs(ts, user, {name: hyps}, metrics=["meteor"])
            [job] = _wait_all([job], timeout)
            wall = time.perf_counter() - started
            ran = (job.finished_at - job.started_at).total_seconds()
            step = f"METEOR job {number}, {n} segments (ran {ran:.1f} s)"
            timings.append(Timing("meteor", step, wall, workers.cpu() - cpu))
        return timings
    finally:
        team.delete()


def bench_diagnostics(n: int, n_systems: int = 12) -> list[Timing]:
    """Scores the outputs with no worker (queue=False), then times the
    diagnostics' refresh in this process."""
    team, user = _team_and_user("diagnostics")
    try:
        ts = test_set(team, user, n, two_references=True)
        create_system_outputs(ts, user, systems(n_systems, n), queue=False)
        visible = sorted(ts.outputs.values_list("pk", flat=True))
        TestSetAnalysis.objects.filter(test_set=ts).delete()
        cpu, started = time.process_time(), time.perf_counter()
        reference_diagnostics.refresh(ts, visible)
        wall = time.perf_counter() - started
        step = f"{n_systems} systems x {n} segments x 2 refs"
        return [Timing("diagnostics", f"{step} (CPU {time.process_time() - cpu:.1f} s)",
                       wall, None)]  # fmt: skip
    finally:
        team.delete()


def bench_scored_and_compared(
    workers: Workers, flow: str, n: int, n_systems: int, metrics, judgments: bool,
    timeout: float,
) -> list[Timing]:  # fmt: skip
    from mtdash.judgments.imports.judgments import import_judgments

    team, user = _team_and_user(flow)
    try:
        ts = test_set(team, user, n, two_references=flow == "submission")
        outputs = systems(n_systems, n)
        cpu, started = workers.cpu(), time.perf_counter()
        jobs = create_system_outputs(ts, user, outputs, metrics=list(metrics))
        if judgments:
            import_judgments(ts, user, _mqm_of(outputs), "mqm_seg.tsv")
        _wait_all(jobs, timeout)
        scored = time.perf_counter() - started
        scored_cpu = workers.cpu() - cpu
        _wait_compared(ts, timeout)
        compared = time.perf_counter() - started
        what = f"{n_systems} systems x {len(metrics)} metrics x {n} segments"
        return [
            Timing(flow, f"{what}: scored", scored, scored_cpu),
            Timing(flow, "... and compared (every analysis)", compared,
                   workers.cpu() - cpu),
        ]  # fmt: skip
    finally:
        team.delete()


def _mqm_of(outputs) -> bytes:
    """WMT's MQM file, the header and the rows of these systems only (it
    rates others too, and references, which the test set has no output of)."""
    lines = (data_dir() / "human" / "mqm_seg.tsv").read_text("utf-8").splitlines()
    kept = [lines[0]] + [line for line in lines[1:] if line.split("\t")[0] in outputs]
    return ("\n".join(kept) + "\n").encode("utf-8")


def bench_web(workers: Workers, n: int, timeout: float) -> list[Timing]:
    team, user = _team_and_user("web")
    try:
        ts = test_set(team, user, n, two_references=False)
        [(name, hyps)] = systems(1, n).items()
        host = next(
            (h for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")),
            "localhost",
        )
        client = Client(HTTP_HOST=host)
        client.force_login(user)
        from django.core.files.uploadedfile import SimpleUploadedFile

        upload = SimpleUploadedFile(f"{name}.en", ("\n".join(hyps) + "\n").encode())
        cpu, started = workers.cpu(), time.perf_counter()
        response = client.post(
            reverse("output_new", args=[ts.pk]),
            {"system_name": name, "hypothesis_file": upload,
             "more_metrics": " ".join(WEB_METRICS)},
        )  # fmt: skip
        if response.status_code != 302:
            raise RuntimeError(f"the upload was refused: {response.content[-1500:]!r}")
        _wait_all(list(ScoringJob.objects.filter(output__test_set=ts)), timeout)
        page = client.get(reverse("test_set_detail", args=[ts.pk]))
        wall = time.perf_counter() - started
        if page.status_code != 200 or name.encode() not in page.content:
            raise RuntimeError("the leaderboard does not show the output")
        step = f"{n} segments x {len(WEB_METRICS)} metrics, upload to leaderboard"
        return [Timing("web", step, wall, workers.cpu() - cpu)]
    finally:
        team.delete()


FLOWS = ("meteor", "diagnostics", "web", "submission", "large")


def bench_jobs(flows=FLOWS, n_workers: int = 2, timeout: float = 3600.0,
               log_dir: Path | None = None) -> Iterator[Timing]:  # fmt: skip
    """Run the flows in order, yielding each timing as soon as it is known."""
    import tempfile

    if "diagnostics" in flows:
        yield from bench_diagnostics(1875)
    worker_flows = [flow for flow in flows if flow != "diagnostics"]
    if not worker_flows:
        return
    with tempfile.TemporaryDirectory(prefix="bench-jobs-") as work:
        workers = Workers(n_workers, Path(log_dir or work))
        try:
            preload = workers.wait_for_meteor(timeout)
            if preload is not None:
                yield preload
            for flow in worker_flows:
                if flow == "meteor":
                    yield from bench_meteor(workers, 1875, timeout)
                elif flow == "web":
                    yield from bench_web(workers, 1000, timeout)
                elif flow == "submission":
                    yield from bench_scored_and_compared(
                        workers, flow, 1948, 12, SUBMISSION_METRICS, True, timeout
                    )
                elif flow == "large":
                    yield from bench_scored_and_compared(
                        workers, flow, 1948, 20, LARGE_METRICS, False, timeout
                    )
        finally:
            workers.stop()


def header(n_workers: int) -> str:
    with open("/proc/loadavg") as handle:
        load = " ".join(handle.read().split()[:3])
    return f"bench_jobs on WMT21 zh-en, {n_workers} Celery workers (load {load})"
