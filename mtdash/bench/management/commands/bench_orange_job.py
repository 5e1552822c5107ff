"""``python manage.py bench_orange_job``: ORANGE at paper scale through the web
(gzip upload, the worker's check, the job on real Celery workers) next to
``python -m scoring orange`` on the same files (:mod:`mtdash.bench.orange_job`).

Needs the broker (REDIS_URL; ``bin/run`` starts one) and the database of the
settings. ``--sentences N`` scales the corpus down (872 by default).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from mtdash.bench.orange_job import (
    PAPER_CANDIDATES,
    PAPER_SENTENCES,
    bench_orange_job,
    format_report,
)


class Command(BaseCommand):
    help = "Time ORANGE of the 34 paper variants through the web against the CLI."

    def add_arguments(self, parser):
        parser.add_argument("--sentences", type=int, default=PAPER_SENTENCES)
        parser.add_argument("--candidates", type=int, default=PAPER_CANDIDATES)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--bootstrap", type=int, default=1000)
        parser.add_argument(
            "--metric",
            action="append",
            help="a metric spec (repeat); default: the 34 variants of the paper",
        )

    def handle(self, *args, **options):
        run = bench_orange_job(
            options["sentences"],
            n_candidates=options["candidates"],
            n_workers=options["workers"],
            n_bootstrap=options["bootstrap"],
            metrics=tuple(options["metric"] or ()),
        )
        self.stdout.write(format_report(run))
