"""``python manage.py bench_jobs``: scoring jobs, the per-reference
diagnostics and whole submissions timed on real Celery workers
(:mod:`mtdash.bench.jobs`; issue 23 items 5 and 6).

Needs the broker (REDIS_URL; ``bin/run`` starts one), the database of the
settings and the WMT21 data (``MTDASH_TEST_DATA`` or ``../shared/data``).
``--flow`` (repeat) picks flows; default: all of them.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from mtdash.bench.jobs import FLOWS, bench_jobs, header


class Command(BaseCommand):
    help = "Time scoring jobs, diagnostics and submissions on real workers."

    def add_arguments(self, parser):
        parser.add_argument("--flow", action="append", choices=FLOWS)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--timeout", type=float, default=3600.0)

    def handle(self, *args, **options):
        flows = tuple(options["flow"] or FLOWS)
        self.stdout.write(header(options["workers"]))
        for timing in bench_jobs(flows, options["workers"], options["timeout"]):
            self.stdout.write(timing.line())
            self.stdout.flush()
        self.stdout.write(header(options["workers"]) + " at the end")
