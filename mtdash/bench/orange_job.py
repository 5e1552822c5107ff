"""ORANGE end to end through the web, timed against the command line.

:func:`bench_orange_job` generates the paper-shaped corpus
(``scoring.bench.synthetic``: 872 sentences x 1024-best x 4 references by
default, ``n_sentences`` to scale down), writes it as Moses files (the
n-best list gzip-compressed), and then

1. uploads the list through the real upload path (the upload page, its
   streaming handler, the worker's complete check) into a test set of its
   own, in a team of its own;
2. runs the ORANGE job of the 34 paper variants on ``n_workers`` real Celery
   worker processes (started here; the metrics' kernels compiled into
   Numba's cache first, as ``bin/run`` does for the demo's, so each worker
   process's first chunk loads them: a second or two, in the job's time);
3. runs ``python -m scoring orange`` on the same files and metrics.

It returns the times; :func:`format_report` prints the job's wall time next
to the CLI's and their ratio (target: the job within 1.5x the CLI).
Everything it created is deleted afterwards. Times on a shared machine
include other processes' load.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from mtdash.celery import app as celery_app
from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import NBestList, OrangeJob
from mtdash.teams.models import Membership, Team
from scoring.orange import OrangeOptions

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The paper's corpus size (scoring.bench.synthetic.PAPER_1024_BEST).
PAPER_SENTENCES, PAPER_CANDIDATES = 872, 1024

# The corpus is written by scoring's benchmark code in a child process, as
# the CLI is run: the Django apps import only scoring's public API.
_WRITE_CORPUS = """
import dataclasses, json, sys
from scoring.bench.moses_files import write_moses_files
from scoring.bench.suites import PAPER_34
from scoring.bench.synthetic import PAPER_1024_BEST, make_corpus
shape = dataclasses.replace(
    PAPER_1024_BEST, n_sentences=int(sys.argv[1]), n_candidates=int(sys.argv[2])
)
files = write_moses_files(make_corpus(shape), sys.argv[3], compress=True)
print(json.dumps({"nbest": str(files.nbest),
                  "references": [str(p) for p in files.references],
                  "metrics": list(PAPER_34.values())}))
"""


@dataclass(frozen=True)
class CorpusFiles:
    nbest_path: Path
    reference_paths: tuple[Path, ...]
    paper_metrics: tuple[str, ...]  # the 34 variants, as specs


def write_corpus(n_sentences: int, n_candidates: int, directory: Path) -> CorpusFiles:
    """The synthetic corpus as Moses files (n-best gzip-compressed)."""
    command = [sys.executable, "-c", _WRITE_CORPUS, str(n_sentences)]
    command += [str(n_candidates), str(directory)]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, check=True, capture_output=True, text=True
    )
    written = json.loads(done.stdout.strip().splitlines()[-1])
    return CorpusFiles(
        Path(written["nbest"]),
        tuple(Path(p) for p in written["references"]),
        tuple(written["metrics"]),
    )


@dataclass(frozen=True)
class OrangeJobBench:
    """Seconds of each step; sizes of what was uploaded."""

    n_sentences: int
    n_candidates: int
    n_metrics: int
    n_workers: int
    upload_bytes: int
    upload_seconds: float
    check_seconds: float  # from the upload's answer until the list is ready
    check_run_seconds: float  # the worker's part of it (claim to done)
    job_seconds: float
    cli_seconds: float
    result_page_seconds: float  # the job's page once it succeeded

    @property
    def ratio(self) -> float:
        """The web job's wall time over the CLI's (target ≤ 1.5)."""
        return self.job_seconds / self.cli_seconds

    @property
    def web_total_seconds(self) -> float:
        return self.upload_seconds + self.check_seconds + self.job_seconds


def database_url() -> str:
    """A DATABASE_URL for the database this process uses (the workers' too)."""
    data = connection.settings_dict
    if data["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(data['NAME']).resolve()}"
    user, password = data.get("USER") or "", data.get("PASSWORD") or ""
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host, port = data.get("HOST") or "localhost", data.get("PORT") or 5432
    return f"postgres://{credentials}{host}:{port}/{data['NAME']}"


def start_workers(
    n_workers: int, log_dir: Path, metrics: tuple[str, ...] = ()
) -> list[subprocess.Popen]:
    """``n_workers`` Celery workers (one task at a time each) on this
    process's broker and database, the kernels of ``metrics`` compiled into
    Numba's cache first; returns once every one is ready."""
    if metrics:
        subprocess.run(
            [sys.executable, "-m", "scoring.orange.precompile", *metrics],
            cwd=PROJECT_ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    env = dict(
        os.environ,
        REDIS_URL=str(celery_app.conf.broker_url),
        DATABASE_URL=database_url(),
        MTDASH_ARTIFACT_DIR=str(settings.MTDASH_ARTIFACT_DIR),
    )
    processes, logs = [], []
    for i in range(n_workers):
        log = log_dir / f"worker{i + 1}.log"
        command = [sys.executable, "-m", "celery", "-A", "mtdash", "worker"]
        command += ["-n", f"bench{i + 1}-{uuid.uuid4().hex[:6]}@%h"]
        command += ["--concurrency=1", "--loglevel=INFO", "--without-gossip"]
        command += ["--without-mingle", "--without-heartbeat"]
        with log.open("w") as handle:
            processes.append(
                subprocess.Popen(
                    command, cwd=PROJECT_ROOT, env=env, stdout=handle, stderr=handle
                )
            )
        logs.append(log)
    deadline = time.monotonic() + 900
    while not all("ready." in log.read_text() for log in logs):
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            stop_workers(processes)
            raise RuntimeError("a benchmark worker did not start; see " + str(log_dir))
        time.sleep(0.2)
    return processes


def stop_workers(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def wait_finished(model, pk: int, timeout: float) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = model.objects.get(pk=pk)
        if row.is_finished:
            return row
        time.sleep(0.1)
    raise RuntimeError(f"{model.__name__} {pk} did not finish in {timeout:.0f} s")


def bench_orange_job(
    n_sentences: int = PAPER_SENTENCES,
    *,
    n_candidates: int = PAPER_CANDIDATES,
    n_workers: int = 2,
    n_bootstrap: int = 1000,
    metrics: tuple[str, ...] = (),
    timeout: float = 3600.0,
) -> OrangeJobBench:
    """Time the web path and the CLI; ``metrics`` empty: the paper's 34."""
    with tempfile.TemporaryDirectory(prefix="bench-orange-") as work:
        files = write_corpus(n_sentences, n_candidates, Path(work) / "corpus")
        metrics = metrics or files.paper_metrics
        team = Team.objects.create(name=f"bench-orange-{uuid.uuid4().hex[:8]}")
        try:
            user = _bench_user(team)
            test_set = _test_set(team, user, files.reference_paths)
            workers = start_workers(n_workers, Path(work), metrics)
            try:
                timed = _through_the_web(
                    user, test_set, files.nbest_path, metrics, n_bootstrap, timeout
                )
            finally:
                stop_workers(workers)
            cli_seconds = _cli_seconds(files, metrics, n_bootstrap)
        finally:
            for nbest in NBestList.objects.filter(test_set__team=team):
                nbest.delete()  # its artifacts go with it
            team.delete()
    upload_bytes, upload_s, check_s, check_run_s, job_s, page_s = timed
    return OrangeJobBench(
        n_sentences, n_candidates, len(metrics), n_workers, upload_bytes,
        upload_s, check_s, check_run_s, job_s, cli_seconds, page_s,
    )  # fmt: skip


def _bench_user(team: Team):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(team.name)
    Membership.objects.create(team=team, user=user, role=Membership.Role.OWNER)
    return user


def _test_set(team, user, reference_paths):
    references = {
        chr(ord("A") + k): path.read_text(encoding="utf-8").split("\n")[:-1]
        for k, path in enumerate(reference_paths)
    }
    n_segments = len(references["A"])
    data = TestSetData(
        name="synthetic paper corpus", source_language="fr", target_language="en",
        text_type="", description="", sources=[f"s{i}" for i in range(n_segments)],
        references=references,
    )  # fmt: skip
    return create_test_set(team, user, data)


def _through_the_web(user, test_set, nbest_path, metrics, n_bootstrap, timeout):
    # As a browser on an allowed host would ask (the test client's own
    # "testserver" is no allowed host outside the tests).
    host = next(
        (h for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")),
        "localhost",
    )
    client = Client(HTTP_HOST=host)
    client.force_login(user)
    started = time.perf_counter()
    with open(nbest_path, "rb") as handle:
        response = client.post(
            reverse("nbest_new", args=[test_set.pk]),
            {"name": "bench", "description": "", "nbest_file": handle},
        )
    upload_seconds = time.perf_counter() - started
    if response.status_code != 302:
        raise RuntimeError(f"the upload was refused: {response.content[-2000:]!r}")
    nbest = NBestList.objects.get(test_set=test_set, name="bench")
    nbest = wait_finished(NBestList, nbest.pk, timeout)
    check_seconds = time.perf_counter() - started - upload_seconds
    check_run_seconds = nbest.elapsed.total_seconds()  # claimed to done
    if not nbest.is_ready:
        raise RuntimeError(f"the check refused the list: {nbest.error_message}")
    started = time.perf_counter()
    job = create_orange_job(
        nbest, user, list(metrics), OrangeOptions(n_bootstrap=n_bootstrap, seed=1)
    )
    job = wait_finished(OrangeJob, job.pk, timeout)
    job_seconds = time.perf_counter() - started
    if job.status != OrangeJob.Status.SUCCEEDED:
        raise RuntimeError(f"the ORANGE job failed: {job.error_message}")
    started = time.perf_counter()
    page = client.get(job.get_absolute_url())
    page_seconds = time.perf_counter() - started
    if page.status_code != 200:
        raise RuntimeError(f"the result page answered {page.status_code}")
    size = nbest_path.stat().st_size
    return (
        size,
        upload_seconds,
        check_seconds,
        check_run_seconds,
        job_seconds,
        (page_seconds),
    )


def _cli_seconds(files, metrics, n_bootstrap) -> float:
    command = [
        sys.executable,
        "-m",
        "scoring",
        "orange",
        "--nbest",
        str(files.nbest_path),
    ]
    command += ["--refs", *map(str, files.reference_paths)]
    for spec in metrics:
        command += ["--metric", spec]
    command += ["--bootstrap", str(n_bootstrap), "--seed", "1", "--json"]
    started = time.perf_counter()
    subprocess.run(command, cwd=PROJECT_ROOT, check=True, capture_output=True)
    return time.perf_counter() - started


def format_report(run: OrangeJobBench) -> str:
    return "\n".join(
        [
            f"ORANGE job through the web: {run.n_sentences} sentences x "
            f"{run.n_candidates}-best x 4 references, {run.n_metrics} metrics, "
            f"{run.n_workers} Celery workers",
            f"  upload (gzip, {run.upload_bytes / 1e6:.1f} MB)  {run.upload_seconds:8.2f} s",
            f"  check by a worker            {run.check_seconds:8.2f} s "
            f"({run.check_run_seconds:.2f} s of it running)",
            f"  ORANGE job (all chunks, merge) {run.job_seconds:6.2f} s",
            f"  web total                    {run.web_total_seconds:8.2f} s",
            f"  python -m scoring orange     {run.cli_seconds:8.2f} s",
            f"  job / CLI                    {run.ratio:8.2f}x (target <= 1.5x)",
            f"  result page                  {run.result_page_seconds:8.2f} s",
        ]
    )
