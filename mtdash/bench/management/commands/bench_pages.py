"""``python manage.py bench_pages``: build a leaderboard of 50 systems x 20
metrics x 3,000 segments and time every page of the dashboard on it; and a
judged test set of 20 systems x 2,000 segments x 30 metrics x 3 criteria
for the metric-evaluation page, whose correlations the worker's step
computes first (timed: ``correlation job``), and whose WMT meta-evaluation
the worker's runner stores next (timed: ``meta-evaluation job``).

By default everything happens in a throwaway SQLite database,
``$MTDASH_DATA_DIR/bench.sqlite3`` (the command runs itself again with
``DATABASE_URL`` pointing there), so the real database is never touched.
``--configured-db`` uses the configured database instead (e.g. PostgreSQL
through ``DATABASE_URL``) and refuses one holding other data unless
``--force``. See README "Page times".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from mtdash.bench.build import (
    BenchSize,
    build_bench,
    database_has_other_data,
    existing_bench,
)
from mtdash.bench.judged import (
    JudgedSize,
    build_judged,
    existing_judged,
    store_meta_evaluation,
)
from mtdash.bench.pages import PAGES, format_table, profile_page, time_pages
from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import TestSetAnalysis
from mtdash.judgments.correlations import tables as correlations

SIZE_OPTIONS = ("segments", "references", "systems", "metrics", "base_systems")
# --judged-systems 0 leaves the judged test set out.
JUDGED_OPTIONS = ("segments", "systems", "metrics", "criteria")


class Command(BaseCommand):
    help = "Time the dashboard's pages on a synthetic leaderboard (see README)."
    # The benchmark measures; the server and the test suite run the checks.
    requires_system_checks: list = []

    def add_arguments(self, parser):
        defaults = BenchSize()
        for name in SIZE_OPTIONS:
            parser.add_argument(
                f"--{name.replace('_', '-')}", type=int, default=getattr(defaults, name)
            )
        judged = JudgedSize()
        for name in JUDGED_OPTIONS:
            parser.add_argument(
                f"--judged-{name}", type=int, default=getattr(judged, name)
            )
        parser.add_argument("--seed", type=int, default=11)
        parser.add_argument(
            "--requests", type=int, default=20, help="timed requests per page and mode"
        )
        parser.add_argument("--warmups", type=int, default=2)
        parser.add_argument(
            "--json", metavar="FILE", help="also write the figures here"
        )
        parser.add_argument(
            "--configured-db",
            action="store_true",
            help="use the configured database, not $MTDASH_DATA_DIR/bench.sqlite3",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="with --configured-db: run even if the database holds other data",
        )
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="keep the leaderboard an earlier run of the same size built",
        )
        parser.add_argument(
            "--profile",
            action="append",
            default=[],
            metavar="PAGE",
            help="print a cProfile of one request of this page (a label of the "
            "table, e.g. 'system page', or 'system page:cold'); 'failing' "
            "profiles every page and mode that misses its target",
        )
        # Set by the parent process for the fresh bench file.
        parser.add_argument("--migrate", action="store_true", help=argparse.SUPPRESS)

    def handle(self, *args, **options):
        # A page name misspelt in --profile is refused now, not after the
        # build and the timings (minutes at the default size).
        self._pages_to_profile(options["profile"], [])
        if not options["configured_db"]:
            return self._run_in_bench_database(options)
        if options["migrate"]:
            call_command("migrate", interactive=False, verbosity=0)
            # Pages link collectstatic's hashed names, as on a server: a fresh
            # clone has no collected folder yet (bin/run makes one).
            call_command("collectstatic", interactive=False, verbosity=0)
        if database_has_other_data() and not options["force"]:
            raise CommandError(
                "the configured database holds other data; the benchmark adds a "
                "large test set to it. Run without --configured-db (a throwaway "
                "SQLite file) or add --force."
            )
        size = BenchSize(**{name: options[name] for name in SIZE_OPTIONS})
        report = {"database": connection.vendor, "size": size.__dict__}
        data = existing_bench(size) if options["reuse"] else None
        if data is None:
            data = build_bench(size, options["seed"], say=self.stdout.write)
        # The worker's job; on a reused leaderboard it redoes only what the
        # code or data changed since (its digests), so it is cheap.
        started = time.perf_counter()
        columns = compare_test_set(data.test_set)
        data.timings["comparison job"] = time.perf_counter() - started
        report["compared_columns"] = len(columns)
        if options["judged_systems"] > 0:
            report["judged"] = self._judged(data, options)
        report["build_seconds"] = data.timings
        report["segment_scores"] = data.segment_scores
        results = time_pages(
            data, options["requests"], options["warmups"], say=self.stdout.write
        )
        report["pages"] = [result.to_dict() for result in results]
        self.stdout.write(self._summary(report))
        self.stdout.write(format_table(results))
        for label, mode in self._pages_to_profile(options["profile"], results):
            self.stdout.write(profile_page(data, label, mode))
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report, indent=2) + "\n")

    def _judged(self, data, options) -> dict:
        """Build (or reuse) the judged test set and time the worker's
        correlation step on it (every table, from scratch)."""
        size = JudgedSize(
            **{name: options[f"judged_{name}"] for name in JUDGED_OPTIONS}
        )
        test_set = existing_judged(size) if options["reuse"] else None
        timings = {}
        if test_set is None:
            test_set, timings = build_judged(size, options["seed"], self.stdout.write)
        data.judged_test_set = test_set
        visible = sorted(test_set.outputs.values_list("pk", flat=True))
        TestSetAnalysis.objects.filter(
            test_set=test_set, kind__startswith=correlations.KIND
        ).delete()
        started = time.perf_counter()
        correlations.refresh(test_set, visible)
        seconds = time.perf_counter() - started
        stored = TestSetAnalysis.objects.get(test_set=test_set, kind=correlations.KIND)
        self.stdout.write(f"correlation job: {seconds:.1f} s")
        for step, spent in stored.data["seconds"].items():
            self.stdout.write(f"  {step}: {spent:.1f} s")
        started = time.perf_counter()
        meta = store_meta_evaluation(test_set, data.user)
        meta_seconds = time.perf_counter() - started
        data.meta_evaluation_id = meta.pk
        self.stdout.write(
            f"meta-evaluation job ({meta.criterion}): {meta_seconds:.1f} s"
        )
        return {
            "size": size.__dict__,
            "build_seconds": timings,
            "correlation_job_seconds": seconds,
            "correlation_steps_seconds": stored.data["seconds"],
            "meta_evaluation_job_seconds": meta_seconds,
        }

    def _summary(self, report: dict) -> str:
        size = BenchSize(**report["size"])
        lines = [
            "",
            f"{size.test_set_name} on {report['database']}",
        ]
        parts = ", ".join(f"{k} {v:.1f} s" for k, v in report["build_seconds"].items())
        if report["segment_scores"]:
            lines.append(
                f"build: {parts} ({report['segment_scores']:,} segment scores)"
            )
        else:
            lines.append(f"build: reused an earlier run's leaderboard; {parts}")
        lines.append(f"comparison job recomputed {report['compared_columns']} columns")
        return "\n".join(lines) + "\n"

    def _pages_to_profile(self, wanted: list[str], results) -> list[tuple[str, str]]:
        """(label, mode) to profile: ``label`` or ``label:cold`` as asked, or
        with ``failing`` every page and mode that missed its target."""
        labels = [page.label for page in PAGES]
        chosen = []
        for name in wanted:
            if name == "failing":
                chosen += [
                    (r.page, r.mode) for r in results if r.available and not r.passed
                ]
                continue
            label, _, mode = name.partition(":")
            if label not in labels or mode not in ("", "warm", "cold"):
                raise CommandError(
                    f"--profile: no page {name!r}; pages: {', '.join(labels)} "
                    "(add :cold for a request with the cache cleared)"
                )
            chosen.append((label, mode or "warm"))
        return list(dict.fromkeys(chosen))

    def _run_in_bench_database(self, options) -> None:
        """Run again as a child process whose DATABASE_URL is the bench file."""
        path = Path(settings.DATA_DIR) / "bench.sqlite3"
        if not options["reuse"]:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        argv = [
            sys.executable,
            str(Path(settings.BASE_DIR) / "manage.py"),
            "bench_pages",
        ]
        argv += ["--configured-db", "--migrate"]
        judged = [f"judged_{name}" for name in JUDGED_OPTIONS]
        for name in (*SIZE_OPTIONS, *judged, "seed", "requests", "warmups"):
            argv += [f"--{name.replace('_', '-')}", str(options[name])]
        argv += ["--reuse"] if options["reuse"] else []
        argv += (
            ["--json", str(Path(options["json"]).resolve())] if options["json"] else []
        )
        for label in options["profile"]:
            argv += ["--profile", label]
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{path}",
            "PYTHONUNBUFFERED": "1",
        }
        self.stdout.write(f"benchmark database: {path}")
        self.stdout.flush()
        # Line by line, so that progress shows while the leaderboard is built.
        with subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, text=True
        ) as child:
            for line in child.stdout:
                self.stdout.write(line, ending="")
                self.stdout.flush()
        if child.returncode:
            raise CommandError(
                f"the benchmark stopped (exit status {child.returncode})"
            )
