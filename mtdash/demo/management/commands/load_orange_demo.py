"""Add ORANGE to the demo: a 7-best list from the demo systems and one job (idempotent).

Needs the demo test set (``load_demo``). The job's chunks are queued to
Celery like any job, or ranked in this process with ``--score-now``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.nbest import DEMO_NBEST_NAME, DEMO_ORANGE_METRICS, demo_nbest_text
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.models import TestSet
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.uploads import create_nbest_list, parse_nbest_upload
from scoring.orange import OrangeOptions

DEMO_TEAM = "Demo team"


class Command(BaseCommand):
    help = (
        "Add a 7-best list of the demo systems and an ORANGE job to the demo test set."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--score-now",
            action="store_true",
            help="rank in this process instead of queueing the chunks to Celery",
        )

    def handle(self, *args, score_now: bool, **options):
        corpus = demo_test_set()
        test_set = TestSet.objects.filter(
            team__name=DEMO_TEAM, name=corpus.name
        ).first()
        if test_set is None:
            raise CommandError(f"no demo test set “{corpus.name}”: run load_demo first")
        if NBestList.objects.filter(test_set=test_set, name=DEMO_NBEST_NAME).exists():
            self.stdout.write(f"Demo n-best list “{DEMO_NBEST_NAME}” already exists.")
            return
        text = demo_nbest_text(corpus, demo_systems(corpus))
        file_name = "demo-systems.7best"
        parsed = parse_nbest_upload(
            text.encode("utf-8"), file_name, len(corpus.sources)
        )
        user = test_set.created_by
        with transaction.atomic():
            nbest = create_nbest_list(
                test_set, user, DEMO_NBEST_NAME, parsed,
                description="Per sentence, the 7 demo systems' hypotheses, best first.",
            )  # fmt: skip
            options = OrangeOptions(curve_step=1, n_bootstrap=1000, seed=1)
            job = create_orange_job(
                nbest, user, DEMO_ORANGE_METRICS, options, queue=not score_now
            )
        if score_now:
            job = run_orange_job_now(job)
        self.stdout.write(
            f"Created demo n-best list “{nbest.name}” and ORANGE job {job.pk} "
            f"({job.n_chunks} chunks, "
            f"{'status ' + job.status if score_now else 'queued'})."
        )
