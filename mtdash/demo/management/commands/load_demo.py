"""Create the demo user, team, test set and systems (idempotent).

The demo corpus and systems come from ``mtdash.demo``; their scoring jobs are
queued to Celery like any upload (or run here with ``--score-now``). The
demo's error spans (MQM, ESA and a metric's, written by
``mtdash.demo.make_span_demo``) are imported through the error-span import,
and the span-level meta-evaluation is queued (or run here); a demo test set
loaded before they existed gets them too.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from mtdash.common.upload_checks import UploadProblem
from mtdash.demo.corpus import demo_test_set
from mtdash.demo.make_span_demo import (
    DATA_DIR,
    ESA_FILE,
    METRIC,
    METRIC_FILE,
    MQM_FILE,
)
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.error_spans.agreement_jobs import (
    request_span_evaluation,
    run_span_evaluation,
)
from mtdash.judgments.error_spans.agreement_options import AgreementSettings
from mtdash.judgments.error_spans.imports import (
    import_error_spans,
    span_import_batches,
)
from mtdash.judgments.error_spans.options import SpanImportOptions
from mtdash.teams.models import Membership, Team

DEMO_TEAM = "Demo team"


class Command(BaseCommand):
    help = "Create a demo user and a demo test set with graded systems."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="mtdash-demo")
        parser.add_argument(
            "--score-now",
            action="store_true",
            help="score in this process instead of queueing jobs to Celery",
        )

    def handle(self, *args, username: str, password: str, score_now: bool, **options):
        user, team = self._user_and_team(username, password)
        corpus = demo_test_set()
        existing = TestSet.objects.filter(team=team, name=corpus.name).first()
        if existing is not None:
            self.stdout.write(f"Demo test set “{corpus.name}” already exists.")
            if not span_import_batches(existing).exists():
                self._error_spans(existing, user, score_now)
            call_command("load_orange_demo", score_now=score_now)
            return
        with transaction.atomic():
            test_set = create_test_set(team, user, _as_test_set_data(corpus))
            jobs = [
                create_system_output(
                    test_set,
                    user,
                    system.name,
                    system.hypotheses,
                    system_description=system.description,
                    queue=not score_now,
                )
                for system in demo_systems(corpus)
            ]
        if score_now:
            for job in jobs:
                run_scoring_job(job.pk)
        self.stdout.write(
            f"Created demo test set “{test_set.name}” with {len(jobs)} systems "
            f"({'scored' if score_now else 'scoring jobs queued'})."
        )
        self._error_spans(test_set, user, score_now)
        # An n-best list of the demo systems and an ORANGE job over it.
        call_command("load_orange_demo", score_now=score_now)

    def _error_spans(self, test_set: TestSet, user, score_now: bool) -> None:
        """MQM, ESA and the metric's spans through the import every user
        has, then the span-level meta-evaluation of the page's section."""
        files = [
            (MQM_FILE, SpanImportOptions()),
            (ESA_FILE, SpanImportOptions()),
            (METRIC_FILE, SpanImportOptions(source=METRIC)),
        ]
        try:
            for name, options in files:
                data = (DATA_DIR / name).read_bytes()
                result = import_error_spans(test_set, user, data, name, options)
                self.stdout.write(
                    f"Imported {name}: {result.n_annotations} annotations, "
                    f"{result.n_spans} spans."
                )
        except UploadProblem as problem:  # a demo whose outputs were changed
            self.stderr.write(f"Demo error spans not imported: {problem}")
            return
        job, _ = request_span_evaluation(test_set, AgreementSettings(), user)
        if score_now:
            run_span_evaluation(job.pk)

    def _user_and_team(self, username: str, password: str):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        team, _ = Team.objects.get_or_create(name=DEMO_TEAM)
        Membership.objects.get_or_create(
            team=team, user=user, defaults={"role": Membership.Role.OWNER}
        )
        return user, team


def _as_test_set_data(corpus) -> TestSetData:
    return TestSetData(
        name=corpus.name,
        source_language=corpus.source_language,
        target_language=corpus.target_language,
        text_type=corpus.text_type,
        description=corpus.description,
        sources=corpus.sources,
        references=dict(corpus.references),
        document_ids=corpus.document_ids,
    )
